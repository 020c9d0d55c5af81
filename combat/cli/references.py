"""How a command names an encounter: an id, a name, or the current one (`combat use`, or
COMBAT_ENCOUNTER), and the store it is in; seqs as the history commands take them."""

from __future__ import annotations

import os
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the rest loads when a command needs it: `combat --help` stays quick
    from uuid import UUID

    from combat.app.application import Encounters


@contextmanager
def open_store(db: str) -> Iterator[Encounters]:
    from combat.app.application import Encounters

    encounters = Encounters(db)
    try:
        yield encounters
    finally:
        encounters.close()


def current_file(db: str) -> Path:
    return Path(f"{db}.current")


ENCOUNTER_ENV = "COMBAT_ENCOUNTER"


def remembered(db: str) -> str | None:
    """The encounter `combat use` remembered for this store (COMBAT_ENCOUNTER wins)."""
    if os.environ.get(ENCOUNTER_ENV):
        return os.environ[ENCOUNTER_ENV]
    path = current_file(db)
    return path.read_text().strip() or None if path.exists() else None


def find_encounter(encounters: Encounters, reference: str | None, db: str) -> UUID:
    """The encounter meant: a name, an id or its unique start, or the one `combat use` chose."""
    from combat.app.directory import resolve
    from combat.kernel.errors import RuleError

    reference = reference or remembered(db)
    if not reference:
        raise RuleError(
            "encounter/none",
            "which encounter? none given and none chosen with `combat use`",
            allowed="an encounter's name or id start (see `combat list`), or `combat use ENCOUNTER` first",
        )
    return resolve(encounters, reference)


def encounter_and_seqs(args: tuple[str, ...], db: str) -> tuple[str | None, tuple[str, ...]]:
    """[ENCOUNTER] SEQS...: the encounter may be left out once `combat use` has chosen one;
    with one remembered, arguments that are all whole numbers (seqs) name no encounter."""
    from combat.kernel.errors import RuleError

    if remembered(db) and args and all(a.isdigit() for a in args):
        return None, args
    if len(args) < 2:
        raise RuleError(
            "cli/arguments", "missing SEQS...", allowed="[ENCOUNTER] SEQS... (the encounter may be left out after `combat use`)"
        )
    return args[0], args[1:]


def parse_seqs(values: Iterable[str]) -> list[int]:
    from combat.kernel.errors import RuleError

    try:
        return [int(v) for v in values]
    except ValueError:
        raise RuleError("cli/seq", f"seqs are whole numbers, not {' '.join(values)}", allowed="e.g. 12 13") from None


def seq_words(seqs: Iterable[int]) -> str:
    return ", ".join(map(str, seqs))
