"""What every `combat` command prints through: rich consoles loaded on first print, and
errors as one line. Its own module so that the command groups in other modules
(cli_characters, cli_monsters, cli_spells) decorate with it as combat.cli does."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

if TYPE_CHECKING:
    from rich.console import Console

__all__ = ["_consoles", "_one_line_errors", "db_file_option"]

F = TypeVar("F", bound=Callable[..., Any])


class _Consoles:
    """rich, loaded on first print. Piped output gets a fixed, wide width so tables do not
    wrap and the same fight prints the same."""

    @functools.cached_property
    def out(self) -> Console:
        from rich.console import Console

        return Console(highlight=False, soft_wrap=True, width=None if sys.stdout.isatty() else 140)

    @functools.cached_property
    def err(self) -> Console:
        from rich.console import Console

        return Console(stderr=True, highlight=False, soft_wrap=True)


_consoles = _Consoles()


def _one_line_errors(fn: F) -> F:
    """Errors print one clear line, not a traceback, and exit non-zero."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from combat.kernel.errors import RuleError
        from projections.visible import visible

        try:
            return fn(*args, **kwargs)
        except RuleError as exc:
            _consoles.err.print(visible(f"error: {exc}"), markup=False)
            sys.exit(2)
        except (OSError, ValueError) as exc:
            _consoles.err.print(visible(f"error: {exc}"), markup=False)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def db_file_option(what: str) -> Callable[[F], F]:
    """`--db`: the SQLite file of the store `what` lives in (or the environment's setting)."""
    import click

    from combat.store.settings import DB_ENV, DEFAULT_DB

    return click.option(
        "--db",
        type=click.Path(dir_okay=False),
        envvar=DB_ENV,
        default=DEFAULT_DB,
        show_default=True,
        help=f"SQLite file of the store {what} (or set {DB_ENV}).",
    )
