"""What every `combat` command prints through: lines, blocks and tables with what people typed
shown as it is (control characters as escapes), JSON, rich consoles loaded on first print,
errors as one line, and the options every command shares."""

from __future__ import annotations

import functools
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, TypeVar

import click

from combat.store.settings import DB_ENV, DEFAULT_DB

if TYPE_CHECKING:  # the rest loads when a command needs it: `combat --help` stays quick
    from rich.console import Console
    from rich.table import Column, Table


F = TypeVar("F", bound=Callable[..., Any])


def say(text: str) -> None:
    """One line that may hold players' and GMs' words: control characters are shown as
    escapes, so no newline forges a line and no escape sequence reaches the terminal."""
    from projections.visible import visible

    click.echo(visible(text))


def print_block(text: str) -> None:
    """Text of several lines the CLI wrote itself (indented JSON, a diagram): each line
    escaped as `say` escapes one, the line breaks kept."""
    from projections.visible import visible

    click.echo("\n".join(visible(line) for line in text.split("\n")))


def rich_table(*columns: str | Column, **options: Any) -> Table:
    """A rich table whose cells show their text as it is: control characters as escapes
    (`visible`), square brackets as brackets, not rich markup."""
    from rich.table import Table
    from rich.text import Text

    from projections.visible import visible

    class _Escaped(Table):
        def add_row(self, *cells: Any, **kwargs: Any) -> None:
            super().add_row(*(Text(visible(c)) if isinstance(c, str) else c for c in cells), **kwargs)

    return _Escaped(*columns, **options)


def print_json(value: Any) -> None:
    import json

    print_block(json.dumps(value, indent=2, sort_keys=True, default=str))


# The store of a serving process: an SQLite file, or PostgreSQL from the environment.
served_db_option = click.option(
    "--db",
    type=click.Path(dir_okay=False),
    envvar=DB_ENV,
    default=None,
    help=f"SQLite file of the store, or a postgresql:// URL [default: {DEFAULT_DB}, or PostgreSQL when "
    "PERSISTENCE_MODULE=eventsourcing.postgres and POSTGRES_* are set].",
)


json_option = click.option("--json", "as_json", is_flag=True, help="Print JSON instead of text.")


def visible_line(text: str) -> str:
    from projections.visible import visible

    return visible(text)


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


consoles = _Consoles()


def one_line_errors(fn: F) -> F:
    """Errors print one clear line, not a traceback, and exit non-zero."""

    @functools.wraps(fn)
    def wrapper(*args: Any, **kwargs: Any) -> Any:
        from combat.kernel.errors import RuleError
        from projections.visible import visible

        try:
            return fn(*args, **kwargs)
        except RuleError as exc:
            consoles.err.print(visible(f"error: {exc}"), markup=False)
            sys.exit(2)
        except (OSError, ValueError) as exc:
            consoles.err.print(visible(f"error: {exc}"), markup=False)
            sys.exit(1)

    return wrapper  # type: ignore[return-value]


def db_file_option(what: str) -> Callable[[F], F]:
    """`--db`: the SQLite file of `what` (or the environment's setting)."""
    return click.option(
        "--db",
        type=click.Path(dir_okay=False),
        envvar=DB_ENV,
        default=DEFAULT_DB,
        show_default=True,
        help=f"SQLite file of {what} (or set {DB_ENV}).",
    )


db_option = db_file_option("the event log")
