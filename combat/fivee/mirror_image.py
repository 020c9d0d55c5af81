"""Mirror Image (issue 31): "Three illusory duplicates of yourself appear in your space. ...
Each time a creature hits you with an attack roll during the spell's duration, roll a d6 for
each of your remaining duplicates. If any of the d6s rolls a 3 or higher, one of the
duplicates is hit instead of you, and the duplicate is destroyed. The duplicates otherwise
ignore all other damage and effects. The spell ends when all three duplicates are destroyed."

The duplicates left are the `duplicates` rider of the caster's "mirror image" effect. The
attack rule (combat/fivee/attacks.py `resolve_attack`) asks `strikes_duplicate` once a roll
hits, before any reaction to the hit: the d6s are the caster's, entered in the command's
`mirror_faces` (combat/common/entered_dice.py) or rolled by the service. A duplicate hit is a
`DuplicateStruck`, and the attack is recorded as missing the caster: no damage, nothing a hit
sets off (a smite, Hunter's Mark's dice, Sneak Attack).

"A creature is unaffected by this spell if it has the Blinded condition, Blindsight, or
Truesight": a Blinded attacker rolls no d6s; Blindsight and Truesight are not on the
creatures' data, so they stay the GM's (who leaves the effect off that attack's target, or
rules the hit).
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from combat.common import entered_dice
from combat.common.durations import ending
from combat.kernel.decider import Rules, Tx
from combat.kernel.events import ConditionSpec, Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState

__all__ = ["DuplicateStruck", "duplicates_of", "strikes_duplicate", "RULES"]

UNSET = msgspec.UNSET


class DuplicateStruck(Event, frozen=True, kw_only=True):
    """An attack roll that hit `target` hit one of its Mirror Image duplicates instead, which is
    destroyed: `left` remain."""

    attacker: str
    target: str
    left: int
    hidden: ClassVar[Hidden] = PUBLIC


def duplicates_of(c: Combatant) -> ConditionSpec | None:
    """The effect holding `c`'s duplicates, while any are left."""
    for cond in c.conditions:
        if cond.riders is not UNSET and cond.riders.duplicates is not UNSET and cond.riders.duplicates > 0:
            return cond
    return None


def strikes_duplicate(tx: Tx, attacker: Combatant, target: Combatant) -> bool:
    """A hit on `target`: roll its d6s; True when a duplicate is hit instead (and destroyed)."""
    cond = duplicates_of(target)
    if cond is None or attacker.has("blinded"):
        return False
    assert cond.riders is not UNSET and cond.riders.duplicates is not UNSET
    count = cond.riders.duplicates
    roll = tx.roll(
        f"{count}d6",
        purpose=f"Mirror Image: a d6 for each of {count} duplicate{'s' if count > 1 else ''}",
        roller=target.id,
        faces=entered_dice.take(tx, "mirror_faces"),
    )
    if not any(d.face >= 3 for d in roll.dice):
        return False
    tx.emit(DuplicateStruck(attacker=attacker.id, target=target.id, left=count - 1))
    if count == 1:
        bearer = tx.state.combatants[target.id]
        spent = next((c for c in bearer.conditions if c.name == cond.name and c.source == cond.source), None)
        if spent is not None:
            tx.emit(ending(bearer, spent, "all three duplicates are destroyed"))
    return True


def _on_struck(state: EncounterState, e: DuplicateStruck) -> EncounterState:
    target = state.combatants[e.target]
    cond = duplicates_of(target)
    if cond is None:
        return state
    assert cond.riders is not UNSET
    fewer = msgspec.structs.replace(cond, riders=msgspec.structs.replace(cond.riders, duplicates=e.left))
    conditions = tuple(fewer if c is cond else c for c in target.conditions)
    return msgspec.structs.replace(
        state, combatants={**state.combatants, e.target: msgspec.structs.replace(target, conditions=conditions)}
    )


def _narrate(n: Any, e: DuplicateStruck) -> str:
    left = f"{e.left} left" if e.left else "none left: the spell ends"
    return f"{n.name(e.attacker)}'s hit strikes one of {n.name(e.target)}'s duplicates instead, destroying it ({left})"


RULES = Rules(appliers={DuplicateStruck: _on_struck}, narration={DuplicateStruck: _narrate})
