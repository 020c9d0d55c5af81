"""The application layer: commands in, events appended, state out.

The CLI and (later) the HTTP service call only this. It loads an encounter's state (from
its cache, a snapshot and the events after it), asks the ruleset to decide, appends the
events with the expected version, and keeps the folded state.
"""

from __future__ import annotations

import os
import secrets
import threading
import uuid
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.persistence import IntegrityError

from combat.commands import Command
from combat.decider import decide, evolve
from combat.errors import RuleError
from combat.events import EncounterCreated, Event
from combat.rulesets import get_ruleset
from combat.state import EncounterState
from combat.store import EventLog, Recorded, Snapshot, store_env

__all__ = ["Encounters", "Outcome", "VersionConflict", "UnknownEncounter", "fold_records"]

SNAPSHOT_INTERVAL = 500


class VersionConflict(RuleError):
    def __init__(self, expected: int, actual: int):
        super().__init__(
            "version/conflict",
            f"the encounter is at version {actual}, not {expected}",
            allowed=f"reload and send again with expected_version {actual}",
        )


class UnknownEncounter(RuleError):
    def __init__(self, encounter_id: object):
        super().__init__("encounter/unknown", f"no encounter {encounter_id}", allowed="an id from `combat demo` or create")


@dataclass(frozen=True)
class Outcome:
    records: list[Recorded]
    state: EncounterState


def fold_records(records: Iterable[Recorded], state: EncounterState | None = None) -> EncounterState:
    """The state after `records`, which must start with EncounterCreated unless `state` is given."""
    ruleset = None
    for rec in records:
        if state is None:
            if not isinstance(rec.event, EncounterCreated):
                raise RuleError("log/no-start", "a log must begin with EncounterCreated")
            ruleset = get_ruleset(rec.event.ruleset)
            state = ruleset.initial_state()
        elif ruleset is None:
            ruleset = get_ruleset(state.ruleset)
        state = msgspec.structs.replace(evolve(ruleset, state, rec.event), version=rec.seq)
    if state is None:
        raise RuleError("log/empty", "the log holds no events")
    return state


def _now() -> datetime:
    return datetime.now(timezone.utc)


class Encounters:
    """Every encounter in one store."""

    def __init__(self, db: str | os.PathLike[str] | None = None, *, env: dict[str, str] | None = None):
        self.log = EventLog(env={**store_env(db), **(env or {})})
        self._cache: dict[UUID, EncounterState] = {}
        self._locks: dict[UUID, threading.Lock] = {}
        self._locks_guard = threading.Lock()

    def close(self) -> None:
        self.log.close()

    # -- writing -------------------------------------------------------------------------

    def create(
        self,
        ruleset: str,
        name: str,
        *,
        seed: int | None = None,
        settings: dict[str, Any] | None = None,
        actor: str = "gm",
    ) -> UUID:
        chosen = get_ruleset(ruleset)
        event = EncounterCreated(
            ruleset=chosen.id,
            name=name,
            seed=seed if seed is not None else secrets.randbelow(2**31),
            settings=chosen.settings(settings),
        )
        encounter_id = uuid.uuid4()
        self._append(encounter_id, chosen.initial_state(), [event], actor)
        return encounter_id

    def execute(
        self,
        encounter_id: UUID,
        command: Command,
        *,
        actor: str = "gm",
        expected_version: int | None = None,
    ) -> Outcome:
        with self._lock(encounter_id):
            state = self.state(encounter_id)
            if expected_version is not None and expected_version != state.version:
                raise VersionConflict(expected_version, state.version)
            events = decide(get_ruleset(state.ruleset), state, command, actor)
            return self._append(encounter_id, state, events, actor)

    def _append(self, encounter_id: UUID, state: EncounterState, events: list[Event], actor: str) -> Outcome:
        command_id = uuid.uuid4().hex
        at = _now()
        records = [
            Recorded(
                originator_id=encounter_id,
                originator_version=state.version + i,
                timestamp=at,
                actor=actor,
                command_id=command_id,
                event=event,
            )
            for i, event in enumerate(events, start=1)
        ]
        try:
            self.log.save(*records)
        except IntegrityError:
            # Another writer appended first: our decision was made on a stale state.
            self._cache.pop(encounter_id, None)
            actual = self.state(encounter_id).version
            raise VersionConflict(state.version, actual) from None
        new_state = fold_records(records, state if state.version else None)
        self._cache[encounter_id] = new_state
        if new_state.version // SNAPSHOT_INTERVAL > state.version // SNAPSHOT_INTERVAL:
            self._snapshot(encounter_id, new_state)
        return Outcome(records, new_state)

    def _snapshot(self, encounter_id: UUID, state: EncounterState) -> None:
        assert self.log.snapshots is not None
        self.log.snapshots.put(
            [Snapshot(originator_id=encounter_id, originator_version=state.version, timestamp=_now(), state=state)]
        )

    def _lock(self, encounter_id: UUID) -> threading.Lock:
        with self._locks_guard:
            return self._locks.setdefault(encounter_id, threading.Lock())

    # -- reading -------------------------------------------------------------------------

    def state(self, encounter_id: UUID, *, at: int | None = None) -> EncounterState:
        """The state now (cached, brought up to date from the store), or as it was at seq `at`."""
        if at is not None:
            return self._load(encounter_id, at)
        cached = self._cache.get(encounter_id)
        if cached is None:
            state = self._load(encounter_id, None)
        else:
            newer = list(self.log.events.get(encounter_id, gt=cached.version))
            state = fold_records(newer, cached) if newer else cached
        self._cache[encounter_id] = state
        return state

    def _load(self, encounter_id: UUID, at: int | None) -> EncounterState:
        state = None
        if self.log.snapshots is not None:
            for snap in self.log.snapshots.get(encounter_id, desc=True, limit=1, lte=at):
                state = snap.state
        after = state.version if state is not None else None
        records = self.log.events.get(encounter_id, gt=after, lte=at)
        try:
            return fold_records(records, state)
        except RuleError as exc:
            if exc.code == "log/empty":
                raise UnknownEncounter(encounter_id) from None
            raise

    def records(self, encounter_id: UUID, *, after: int = 0, upto: int | None = None) -> Iterator[Recorded]:
        found = False
        for rec in self.log.events.get(encounter_id, gt=after or None, lte=upto):
            found = True
            yield rec
        if not found and after == 0:
            raise UnknownEncounter(encounter_id)
