"""Who may act now: still in the fight, standing, not caught by full surprise, not
incapacitated, and, for an action of a turn, on its own turn.

"Full Surprise: ... defenders cannot take any actions that round." Each test is a predicate
that returns the problem in words, or None: the guards refuse with it, and the checks after a
change to the past (in each rule module's bundle) report the same words.
"""

from __future__ import annotations

from combat.common.turns import blocked_by
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant, EncounterState
from combat.rulesets.declared_d10.state import is_fully_surprised

__all__ = ["GONE", "name_of", "gone", "cannot_act", "unable", "not_their_turn", "acting_problem", "require_acting"]

GONE = ("dead", "fled")


def name_of(state: EncounterState, cid: str | None) -> str:
    c = state.combatants.get(cid or "")
    return c.name if c is not None else str(cid)


def gone(state: EncounterState, cid: str) -> str | None:
    """A target no longer in the fight: dead or fled (the unconscious can still be hit)."""
    c = state.combatants.get(cid)
    if c is None:
        return f"{cid} is not in the fight any more"
    if c.status not in GONE:
        return None
    return f"{c.name} was already dead" if c.status == "dead" else f"{c.name} had already fled the battlefield"


def cannot_act(state: EncounterState, c: Combatant, doing: str) -> str | None:
    """Down, gone or caught by full surprise: what stops declaring as well as acting."""
    if c.status != "active":
        return f"{c.name} is {c.status} and cannot {doing}"
    if is_fully_surprised(state.rules, c):
        return f"{c.name} is caught by full surprise and cannot {doing}"
    return None


def unable(state: EncounterState, c: Combatant, doing: str) -> str | None:
    """`cannot_act`, or a condition that stops it acting (stunned, paralysed...)."""
    problem = cannot_act(state, c, doing)
    if problem:
        return problem
    blocking = blocked_by(c)
    return f"{c.name} is {blocking} and cannot {doing}" if blocking else None


def not_their_turn(state: EncounterState, cid: str) -> str | None:
    if state.turn == cid:
        return None
    return f"it is {name_of(state, state.turn) if state.turn else 'nobody'}'s turn, not {name_of(state, cid)}'s"


def acting_problem(state: EncounterState, cid: str, doing: str) -> str | None:
    """Why `cid` could not have done `doing` on its turn: gone, unable, or not its turn."""
    c = state.combatants.get(cid)
    if c is None:
        return f"{cid} is not in the fight any more"
    return unable(state, c, doing) or not_their_turn(state, cid)


def require_acting(tx: Tx, cid: str, doing: str) -> Combatant:
    """The guard of every action of a turn: its own turn, and able to act."""
    c = tx.combatant(cid)
    problem = not_their_turn(tx.state, cid)
    if problem:
        whose = name_of(tx.state, tx.state.turn) if tx.state.turn else "nobody"
        raise RuleError("turn/not-yours", problem, allowed=f"commands for {whose}, reactions, or GM rulings")
    problem = unable(tx.state, c, doing)
    if problem:
        raise RuleError("combatant/incapacitated", problem)
    return c
