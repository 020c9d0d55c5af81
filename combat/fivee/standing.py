"""Standing up from Prone, in srd-2024 (the variant's `stand_up_from_prone` and a5e's own
`stand_up` follow their texts with the same command and event shapes).

SRD 5.2, Prone: "Restricted Movement. Your only movement options are to crawl or to spend an
amount of movement equal to half your Speed (round down) to right yourself and thereby end
the condition. If your Speed is 0, you can't right yourself."

`stand_up` {combatant}, on the creature's own turn: half its Speed (as it is now) comes out of
the movement it has left, and Prone ends (`StoodUp`, then `ConditionEnded`). Refused when it is
not Prone, when its Speed is 0, or when it has less movement left than half its Speed.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from combat.common.condition_effects import speed_of
from combat.common.turns import require_able, require_turn
from combat.fivee.actions import movement_left, movement_short
from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionEnded, Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_combatant

__all__ = ["StandUp", "StoodUp", "not_prone", "stand_up", "RULES"]


class StandUp(Command, frozen=True, kw_only=True):
    """Spend half its Speed to stand up from Prone."""

    combatant: str


class StoodUp(Event, frozen=True, kw_only=True):
    """`cost` feet of movement spent standing up (the Prone condition's end follows)."""

    combatant: str
    cost: int
    hidden: ClassVar[Hidden] = PUBLIC


def not_prone(c: Combatant) -> str | None:
    """Nothing to stand up from: the command refuses with it, the re-check of a StoodUp reports it."""
    return None if c.has("prone") else f"{c.name} is not Prone"


def stand_up(tx: Tx, cmd: StandUp) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "stand up")
    problem = not_prone(c)
    if problem:
        raise RuleError("prone/not-prone", problem, allowed="move")
    if speed_of(c) == 0:
        raise RuleError("prone/speed-zero", f"{c.name}'s Speed is 0, so it can't right itself", allowed="stay Prone")
    cost = speed_of(c) // 2
    if movement_short(c, cost):
        raise RuleError(
            "economy/movement",
            f"standing up takes {cost} ft of movement; {c.name} has {movement_left(c)} ft left",
            allowed="crawl (move with mode crawl), or stand up next turn",
        )
    tx.emit(StoodUp(combatant=c.id, cost=cost))
    tx.emit(ConditionEnded(target=c.id, condition="prone", reason="stood up"))


def spend(state: EncounterState, e: StoodUp) -> EncounterState:
    c = state.combatants[e.combatant]
    return with_combatant(state, c.id, economy=msgspec.structs.replace(c.economy, moved=c.economy.moved + e.cost))


def _stood_up_check(state: EncounterState, e: StoodUp, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    return not_prone(c) or movement_short(c, e.cost)


RULES = Rules(
    handlers={StandUp: stand_up},
    appliers={StoodUp: spend},
    checks={StoodUp: _stood_up_check},
    narration={StoodUp: lambda n, e: f"{n.name(e.combatant)} stands up, spending {e.cost} ft of movement"},
)
