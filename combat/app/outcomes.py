"""What a write to an encounter returns (`Outcome`) and the refusals every write path shares:
a stale `expected_version`, an encounter the store does not hold, a store too busy to take
the write; and `run_sync`, which runs a write's coroutine in a thread (combat.app.application
and combat.app.history_moves both write through it)."""

from __future__ import annotations

from collections.abc import Coroutine
from dataclasses import dataclass
from typing import Any, TypeVar

from combat.kernel.errors import RuleError
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState

__all__ = ["Outcome", "VersionConflict", "UnknownEncounter", "StoreBusy", "run_sync"]


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
    repeated: bool = False  # a repeat of a command id already in the log: nothing was appended


class StoreBusy(RuleError):
    def __init__(self, attempts: int):
        super().__init__(
            "store/busy", f"other writers kept appending to this encounter ({attempts} tries)", allowed="send again shortly"
        )


T = TypeVar("T")


def run_sync(write: Coroutine[Any, Any, T]) -> T:
    """A write's coroutine run to its end in this thread. Made with blocking `Commits`, it
    never waits on an event loop (its appends and pauses block instead), so it finishes at
    its first step: no event loop is needed to run it."""
    try:
        write.send(None)
    except StopIteration as done:
        return done.value
    write.close()
    raise RuntimeError("a write made in a thread waited on an event loop: its Commits must block")
