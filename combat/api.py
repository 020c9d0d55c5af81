"""A Python API for notebooks and bots: run a fight, read it and replay a log in-process,
without a server or a subprocess.

    from combat.api import Table

    table = Table.new("srd-2024", "Goblin ambush", seed=7)   # an in-memory store
    table.do({"type": "add_combatant", "combatant": {...}})  # a dict, JSON text or a Command
    table.view()["phase"]                                     # the state, as GET /encounters/{id}
    table.log()                                               # the log lines, as the JSONL export
    replay("fight.jsonl").view()                              # a log file rebuilt, nothing stored

Commands are the same JSON objects the CLI (`combat do`) and the service (`POST
/encounters/{id}/commands`) take; `combat commands` lists them. A refused command raises
`RuleError` (its `code`, `message` and `allowed`) and appends nothing.
"""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec

from combat.app.application import Encounters, fold_records
from combat.app.interchange import read_jsonl, to_jsonl, to_line
from combat.kernel.commands import Command
from combat.kernel.errors import RuleError
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState
from projections.narrative import narrate
from projections.state import state_view

__all__ = ["Table", "Replayed", "replay", "RuleError"]

MEMORY = ":memory:"


def _lines(records: Iterable[Recorded]) -> list[dict[str, Any]]:
    return [msgspec.json.decode(to_line(rec)) for rec in records]


class Table:
    """One encounter in a store: send commands, read its state and its log."""

    def __init__(self, encounters: Encounters, encounter_id: UUID):
        self.encounters = encounters
        self.id = encounter_id

    @classmethod
    def new(
        cls,
        ruleset: str = "srd-2024",
        name: str = "Encounter",
        *,
        seed: int | None = None,
        settings: dict[str, Any] | None = None,
        db: str | os.PathLike[str] = MEMORY,
    ) -> Table:
        """A new encounter; by default in a store that lives as long as the Table (`db` a file
        path keeps it, and `combat show ID --db PATH` reads it too)."""
        encounters = Encounters(db)
        return cls(encounters, encounters.create(ruleset, name, seed=seed, settings=settings))

    @classmethod
    def open(cls, encounter_id: str | UUID, *, db: str | os.PathLike[str] | None = None) -> Table:
        """An encounter already in a store (the default store is the CLI's: $COMBAT_DB or ./combat.db)."""
        encounters = Encounters(db)
        table = cls(encounters, encounter_id if isinstance(encounter_id, UUID) else UUID(str(encounter_id)))
        _ = table.state  # raises RuleError encounter/unknown now, not at the first command
        return table

    def do(
        self, command: Command | dict[str, Any] | str, *, actor: str = "gm", expected_version: int | None = None
    ) -> list[dict[str, Any]]:
        """Send one command; returns the log lines it appended (each a dict, as in the export)."""
        if not isinstance(command, Command):
            command = self.encounters.read_command(self.id, command)
        outcome = self.encounters.execute(self.id, command, actor=actor, expected_version=expected_version)
        return _lines(outcome.records)

    def undo(self, reason: str, *, actor: str = "gm") -> list[dict[str, Any]]:
        """Take back the last command (its events stay in the log, marked retracted)."""
        return _lines(self.encounters.undo_last(self.id, reason=reason, actor=actor).records)

    @property
    def state(self) -> EncounterState:
        """The typed state, folded from the log."""
        return self.encounters.state(self.id)

    def view(self, *, at: int | None = None) -> dict[str, Any]:
        """The state as JSON values, as `GET /encounters/{id}` and `combat show --json` give it."""
        return msgspec.json.decode(msgspec.json.encode(state_view(self.encounters.state(self.id, at=at))))

    def log(self, *, after: int = 0) -> list[dict[str, Any]]:
        """Every log line after seq `after`, as `GET /encounters/{id}/events` gives them."""
        return _lines(self.encounters.records(self.id, after=after))

    def narrative(self) -> list[str]:
        """One human line per event, as `combat log` prints them."""
        return list(narrate(self.encounters.records(self.id)))

    def export(self, path: str | os.PathLike[str]) -> Path:
        """Write the log as JSONL (what `replay` and `combat replay` read back)."""
        target = Path(path)
        target.write_bytes(b"".join(to_jsonl(self.encounters.records(self.id))))
        return target

    def close(self) -> None:
        self.encounters.close()

    def __enter__(self) -> Table:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


class Replayed:
    """A log read from JSONL and folded, nothing stored: the state at its end (or at a seq)."""

    def __init__(self, records: list[Recorded]):
        self.records = records

    def state(self, *, at: int | None = None) -> EncounterState:
        return fold_records(r for r in self.records if at is None or r.seq <= at)

    def view(self, *, at: int | None = None) -> dict[str, Any]:
        return msgspec.json.decode(msgspec.json.encode(state_view(self.state(at=at))))

    def log(self) -> list[dict[str, Any]]:
        return _lines(self.records)

    def narrative(self) -> list[str]:
        return list(narrate(self.records))


def replay(source: str | os.PathLike[str] | Iterable[bytes | str]) -> Replayed:
    """Read a JSONL log (a path, or its lines) as `combat replay` does; a bad line raises RuleError."""
    if isinstance(source, (str, os.PathLike)):
        source = Path(source).read_bytes().splitlines()
    return Replayed(read_jsonl(source))
