"""Does a recorded hit-point event still fit the rules, now that the past has changed?

The checks every ruleset with hit points shares (run by combat.app.history on each event after
a retraction or amendment): damage or healing of a creature that is gone or already dead, a
creature dropped to 0 HP that no longer would. The 5e family's checks (combat/fivee/consistency.py)
and declared-d10's and segments-1e's build on these entries and helpers.
"""

from __future__ import annotations

from typing import Any

from combat.common.events import CombatantDowned, DamageTaken, Healed
from combat.common.turns import blocked_by
from combat.kernel.decider import Check
from combat.kernel.state import Combatant, EncounterState

__all__ = ["CHECKS", "who", "able", "first_of", "targeted"]


def who(state: EncounterState, cid: str) -> Combatant | None:
    return state.combatants.get(cid)


def able(state: EncounterState, cid: str, doing: str) -> str | None:
    """Why `cid` could not have done `doing` (gone, down, incapacitated), or None."""
    c = who(state, cid)
    if c is None:
        return f"{cid} is not in the fight any more"
    blocking = blocked_by(c)
    return f"{c.name} is {blocking} now and could not {doing}" if blocking else None


def first_of(*checks: Check) -> Check:
    """A check that reports the first problem any of `checks` finds."""

    def check(state: EncounterState, e: Any, ctx: dict[str, Any]) -> str | None:
        for one in checks:
            problem = one(state, e, ctx)
            if problem:
                return problem
        return None

    return check


def targeted(doing: str) -> Check:
    def check(state: EncounterState, e: Any, ctx: dict[str, Any]) -> str | None:
        target = who(state, e.target)
        if target is None:
            return f"{e.target} is not in the fight any more"
        return f"{target.name} was already dead and could not {doing}" if target.status == "dead" else None

    return check


def _downed(state: EncounterState, e: CombatantDowned, ctx: dict[str, Any]) -> str | None:
    c = who(state, e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    return f"{c.name} has {c.hp} HP now and would not drop" if c.hp > 0 else None


CHECKS: dict[type, Check] = {
    DamageTaken: targeted("take damage"),
    Healed: targeted("be healed"),
    CombatantDowned: _downed,
}
