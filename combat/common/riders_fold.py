"""What a spell effect's riders change in the state as the effect lands and as it ends, in the
fold of its `ConditionApplied` and `ConditionEnded` (the numbers are on the condition, so an
old log, whose conditions carry none, folds as it did):

- Aid: "Each target's Hit Point maximum and current Hit Points increase by 5 for the
  duration": both rise as it lands; as it ends the maximum falls back, and Hit Points above
  the new maximum with it (what Hit Points were lost meanwhile stay lost).
- Polymorph: "These Temporary Hit Points vanish if any remain when the spell ends."
"""

from __future__ import annotations

import msgspec

from combat.kernel.events import ConditionSpec
from combat.kernel.state import EncounterState, with_combatant

__all__ = ["riders_applied", "riders_ended"]


def riders_applied(state: EncounterState, cid: str, cond: ConditionSpec) -> EncounterState:
    riders = cond.riders
    assert riders is not msgspec.UNSET
    c = state.combatants[cid]
    if riders.max_hp_bonus is not msgspec.UNSET:
        state = with_combatant(state, cid, max_hp=c.max_hp + riders.max_hp_bonus, hp=c.hp + riders.max_hp_bonus)
    return state


def riders_ended(state: EncounterState, cid: str, cond: ConditionSpec) -> EncounterState:
    riders = cond.riders
    assert riders is not msgspec.UNSET
    c = state.combatants[cid]
    if riders.max_hp_bonus is not msgspec.UNSET:
        most = max(1, c.max_hp - riders.max_hp_bonus)
        state = with_combatant(state, cid, max_hp=most, hp=min(c.hp, most))
    if riders.beast_form:
        state = with_combatant(state, cid, temp_hp=0)
    return state
