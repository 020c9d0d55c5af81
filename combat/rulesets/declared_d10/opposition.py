"""Opposition rolls: "used for things like shutting the door before the enemy gets through
and the higher roll wins."

Each side rolls d20 + the bonus the GM names; a combatant's roll takes the surprise round's
Advantage or Disadvantage. A tie is won by neither: what was being attempted does not happen
(the same reading as surprise and grapples, where the attacker must roll higher).
"""

from __future__ import annotations

from typing import Any, ClassVar

from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import Hidden
from combat.kernel.state import EncounterState
from combat.rulesets.declared_d10.rolls import roll_d20

__all__ = ["D10OpposedRoll", "D10OppositionRolled", "dead_roller", "opposed", "RULES"]


class D10OpposedRoll(Command, frozen=True, kw_only=True):
    """`a` and `b` are combatant ids or names for whoever else is rolling."""

    what: str
    a: str
    b: str
    a_bonus: int = 0
    b_bonus: int = 0
    a_faces: tuple[int, ...] | None = None
    b_faces: tuple[int, ...] | None = None


class D10OppositionRolled(Event, frozen=True, kw_only=True):
    what: str
    a: str
    a_total: int
    b: str
    b_total: int
    winner: str | None
    hidden: ClassVar[Hidden] = Hidden.said("a_total", "b_total")


def dead_roller(state: EncounterState, who: str, purpose: str) -> str | None:
    """The dead roll for nothing; `who` may also name someone outside the fight, who can roll."""
    c = state.combatants.get(who)
    return f"{c.name} is dead and cannot roll for {purpose}" if c is not None and c.status == "dead" else None


def opposed(tx: Tx, a: str, a_bonus: int, a_faces, b: str, b_bonus: int, b_faces, *, purpose: str) -> tuple[int, int]:
    totals = []
    for who, bonus, faces in ((a, a_bonus, a_faces), (b, b_bonus, b_faces)):
        problem = dead_roller(tx.state, who, purpose)
        if problem:
            raise RuleError("target/dead", problem, allowed="a living combatant")
        c = tx.state.combatants.get(who)
        roll, *_ = roll_d20(tx, c, bonus, purpose=purpose, faces=faces, name=who)
        totals.append(roll.total)
    return totals[0], totals[1]


def _opposed_roll(tx: Tx, cmd: D10OpposedRoll) -> None:
    if cmd.a == cmd.b or not cmd.a.strip() or not cmd.b.strip() or not cmd.what.strip():
        raise RuleError("opposed/sides", "an opposed roll needs what is at stake and two different sides", allowed="what, a, b")
    a_total, b_total = opposed(tx, cmd.a, cmd.a_bonus, cmd.a_faces, cmd.b, cmd.b_bonus, cmd.b_faces, purpose=cmd.what)
    winner = cmd.a if a_total > b_total else cmd.b if b_total > a_total else None
    tx.emit(D10OppositionRolled(what=cmd.what, a=cmd.a, a_total=a_total, b=cmd.b, b_total=b_total, winner=winner))


def _check_rolled(state: EncounterState, e: D10OppositionRolled, ctx: dict[str, Any]) -> str | None:
    return dead_roller(state, e.a, e.what) or dead_roller(state, e.b, e.what)


RULES = Rules(
    handlers={D10OpposedRoll: _opposed_roll},
    appliers={D10OppositionRolled: lambda state, e: state},
    checks={D10OppositionRolled: _check_rolled},
    narration={
        D10OppositionRolled: lambda n, e: (
            f"Opposed roll, {e.what}: {n.name(e.a)} {e.a_total} vs {n.name(e.b)} {e.b_total} - "
            + (f"{n.name(e.winner)} wins" if e.winner else "a tie, neither wins")
        ),
    },
)
