"""A log walked event by event: the narrative line, what changed, and a hash of the state.

The hash is of the canonical state JSON, so two runs over the same log give the same hashes
and the first differing hash shows where two replays diverge.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec

from combat.app import history
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState
from projections.narrative import Narrator
from projections.state import render_state_json, state_view

__all__ = ["Step", "steps", "state_hash", "flatten", "differences"]

# Change with nearly every event, or are derived from what is shown: not worth a line.
_QUIET = ("version", "rolls", "commands", "initiative_order")


class Step(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    line: str
    state_hash: str
    changes: tuple[tuple[str, Any, Any], ...]


def state_hash(state: EncounterState) -> str:
    return hashlib.sha256(render_state_json(state).encode()).hexdigest()


def flatten(value: Any, prefix: str = "") -> dict[str, Any]:
    if isinstance(value, dict):
        out: dict[str, Any] = {}
        for key, inner in value.items():
            out.update(flatten(inner, f"{prefix}.{key}" if prefix else str(key)))
        return out
    return {prefix: value}


def differences(before: dict[str, Any], after: dict[str, Any]) -> list[tuple[str, Any, Any]]:
    keys = sorted(set(before) | set(after))
    return [(k, before.get(k), after.get(k)) for k in keys if before.get(k) != after.get(k)]


def steps(records: Iterable[Recorded]) -> Iterator[Step]:
    records = list(records)
    narrator = Narrator()
    state: EncounterState | None = None
    previous: dict[str, Any] = {}
    for i, rec in enumerate(records):
        if state is None:
            state = history.replay(records[:1])
        else:
            state = history.extend(state, [rec]) or history.replay(records[: i + 1])
        view = {k: v for k, v in flatten(state_view(state)).items() if k.split(".")[0] not in _QUIET}
        yield Step(
            seq=rec.seq,
            line=narrator.line(rec),
            state_hash=state_hash(state),
            changes=tuple(_collapse_arrivals(differences(previous, view))) if i else (),
        )
        previous = view


def _collapse_arrivals(changes: list[tuple[str, Any, Any]]) -> list[tuple[str, Any, Any]]:
    """A combatant that joins is one line, not one line per field of its stat block."""
    arrived = {
        k.split(".")[1] for k, before, _ in changes if k.startswith("combatants.") and k.endswith(".id") and before is None
    }
    kept = [c for c in changes if not (c[0].startswith("combatants.") and c[0].split(".")[1] in arrived)]
    return kept + [(f"combatants.{cid}", None, "joined") for cid in sorted(arrived)]
