"""a5e's own bookkeeping: the scene, the world's spent actions, surprise checks, presses, sprints.

It lives in `EncounterState.a5e` as plain JSON values, so a snapshot or a replay gives back
exactly the same state; `table(state)` reads it as typed data and `updated(state, ...)`
writes a changed copy. Only appliers write it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from combat.rulesets.a5e.environments import Environment
from combat.kernel.state import EncounterState

__all__ = ["Press", "CalledCheck", "MadeCheck", "A5eTable", "table", "updated", "minute_in_rounds"]


class Press(msgspec.Struct, frozen=True, kw_only=True):
    """Press the Attack: `attacker` has an expertise die on melee attacks against `target`."""

    attacker: str
    target: str
    fell_back: bool = False  # the target yielded ground: no expertise die


class CalledCheck(msgspec.Struct, frozen=True, kw_only=True):
    """The Narrator's choice of initiative check for one participant."""

    check: str
    bonus: int


class MadeCheck(msgspec.Struct, frozen=True, kw_only=True):
    """An ability check made in the surprise step, reused as initiative."""

    check: str
    total: int


class A5eTable(msgspec.Struct, frozen=True, kw_only=True):
    round_seconds: int = 6
    scene: str = ""
    positions: dict[str, str] = {}
    environment: Environment | None = None
    # World action name -> the round of its last use or recharge roll, while it is spent.
    spent: dict[str, int] = {}
    world_round: int = 0  # the round world actions were last used in
    world_used: int = 0  # how many in that round
    struck: dict[str, tuple[str, ...]] = {}  # world action -> participants it may not target again
    surprise_checks: dict[str, MadeCheck] = {}
    called_checks: dict[str, CalledCheck] = {}
    sudden: tuple[str, ...] = ()  # instigators of a sudden action: initiative with advantage
    presses: tuple[Press, ...] = ()
    sprinting: tuple[str, ...] = ()  # attacks against them have advantage until their next turn
    sprints: dict[str, tuple[int, ...]] = {}  # rounds each participant sprinted in
    sprint_checks: dict[str, tuple[int, ...]] = {}  # rounds of their Constitution (Athletics) checks
    speeds: dict[str, dict[str, int]] = {}  # special speeds: fly, swim, climb, burrow...
    # A roll-off that tied again, by the tie's count: units from the highest d20, those still
    # tied sharing a tuple (only they roll again). Kept out of the JSON while empty.
    roll_offs: dict[str, tuple[tuple[str, ...], ...]] = {}


def table(state: EncounterState) -> A5eTable:
    return msgspec.convert(state.a5e, A5eTable) if state.a5e else A5eTable()


def updated(state: EncounterState, **changes: Any) -> EncounterState:
    current = table(state)
    new = msgspec.structs.replace(current, **changes)
    # Through JSON, so the live state holds exactly what a snapshot or a replay decodes (lists, not tuples).
    data = msgspec.json.decode(msgspec.json.encode(new))
    if not new.roll_offs:  # added later: states from before it look as they did
        del data["roll_offs"]
    return msgspec.structs.replace(state, a5e=data)


def minute_in_rounds(state: EncounterState) -> int:
    """How many rounds make up the last minute, at the scene's round length."""
    return max(1, 60 // table(state).round_seconds)
