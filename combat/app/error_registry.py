"""Every error code of every room, merged: the kernel's, the application's, each registered
ruleset's (`Ruleset.error_codes`, with the shared ones it raises) and any more a caller adds
(the service its own).

Built, like the catalog's unions, from the rulesets loaded when the registry stood at a
version: a ruleset's code is raised only once its rules run, so `kind_of` asks the loaded
ones first and loads the rest only for a code none of them declares. A code declared twice
with two kinds or two meanings is refused by name (combat.kernel.error_kinds.merged).
"""

from __future__ import annotations

from collections.abc import Iterable

from combat.app.error_codes import APP_ERROR_CODES
from combat.kernel.error_codes import KERNEL_ERROR_CODES
from combat.kernel.error_kinds import ErrorCode, Kind, merged
from combat.rulesets import RULESETS

__all__ = ["error_codes", "kind_of"]

_built: dict[tuple[int, tuple[ErrorCode, ...]], dict[str, ErrorCode]] = {}


def _loaded(more: tuple[ErrorCode, ...]) -> dict[str, ErrorCode]:
    key = (RULESETS.version, more)
    table = _built.get(key)
    if table is None:
        _built.clear()  # only the registry as it stands now is asked
        table = _built[key] = merged(KERNEL_ERROR_CODES, APP_ERROR_CODES, *(r.error_codes for r in RULESETS.loaded()), more)
    return table


def error_codes(*more: Iterable[ErrorCode]) -> dict[str, ErrorCode]:
    """Every code of every room and of every ruleset registered now (each loaded), by code."""
    RULESETS.load_all()
    return _loaded(tuple(e for room in more for e in room))


def kind_of(code: str, *more: Iterable[ErrorCode]) -> Kind | None:
    """The kind of a code, or None if no room declares it (a plug-in's own undeclared code)."""
    extra = tuple(e for room in more for e in room)
    known = _loaded(extra).get(code)
    if known is None:
        known = error_codes(extra).get(code)
    return known.kind if known is not None else None
