"""Who may act now: its own turn, and not down or incapacitated - unless it fell to a blow
simultaneous with its own ("Simultaneous (tied) actions both take effect, even if one
combatant dies in that segment").

Each test is a predicate that returns the problem in words, or None: the guards refuse with
it, and the checks after a change to the past (in each rule module's `RULES`) report the
same words. `safe` wraps every check of the ruleset: a check reads a state the past has
changed under it and must never stop a replay.
"""

from __future__ import annotations

from functools import wraps
from typing import Any

from combat.common.condition_effects import INCAPACITATING, is_incapacitated
from combat.kernel.decider import Check
from combat.kernel.state import Combatant, EncounterState
from combat.rulesets.segments_1e.ledger import Creature, Ledger

__all__ = ["down_as", "whose", "not_their_turn", "unable", "able", "record", "safe"]


def down_as(c: Combatant) -> str:
    """What keeps `c` from acting: its status, or the condition that incapacitates it."""
    if c.status != "active":
        return c.status
    return next((cond.name for cond in c.conditions if cond.name in INCAPACITATING), "incapacitated")


def whose(state: EncounterState) -> str:
    c = state.combatants.get(state.turn or "")
    return c.name if c is not None else "nobody"


def not_their_turn(state: EncounterState, c: Combatant) -> str | None:
    return None if state.turn == c.id else f"it is {whose(state)}'s turn, not {c.name}'s"


def unable(state: EncounterState, c: Combatant, doing: str, *, own_turn: bool = True) -> str | None:
    """Down or incapacitated; in its own turn a creature felled by a simultaneous blow still acts."""
    if not is_incapacitated(c):
        return None
    ledger = state.rules
    rec = ledger.creatures.get(c.id)
    if own_turn and rec is not None and rec.downed_in is not None and rec.downed_in == ledger.slot:
        return None
    return f"{c.name} is {down_as(c)} and cannot {doing}"


def able(state: EncounterState, cid: str, doing: str, own_turn: bool = True) -> str | None:
    """The re-check of a deed: `not_their_turn` (for a deed of its own turn), `unable`, and a
    creature the changed past left at 0 hit points without having fallen."""
    c = state.combatants.get(cid)
    if c is None:
        return f"{cid} is not in the fight any more"
    problem = (not_their_turn(state, c) if own_turn else None) or unable(state, c, doing, own_turn=own_turn)
    if problem:
        return problem
    if c.hp <= 0:
        return f"{c.name} has no hit points left now and would have fallen; it could not {doing}"
    return None


def record(state: EncounterState, cid: str) -> tuple[Combatant, Creature, Ledger]:
    ledger = state.rules
    return state.combatants[cid], ledger.creatures[cid], ledger


def safe(check: Check) -> Check:
    """A check reads a state the past has changed under it; it never raises. A creature it
    cannot find was taken out of the fight (its arrival retracted); anything else it cannot
    read it leaves to history, which reports an event that cannot take effect by itself."""

    @wraps(check)
    def guarded(state: EncounterState, e: Any, ctx: dict[str, Any]) -> str | None:
        try:
            return check(state, e, ctx)
        except KeyError as missing:
            who = missing.args[0] if missing.args else None
            return f"{who} is not in the fight any more" if isinstance(who, str) and who not in state.combatants else None
        except Exception:  # a check must never stop a replay
            return None

    return guarded
