"""Several conditions from one failed save (issue 31, item 4): a reviewed entry's condition with
`also` (combat/spells/model.py `ConditionImposed`).

- Hideous Laughter: "On a failed save, it has the Prone and Incapacitated conditions for the
  duration. During that time, ... it can't end the Prone condition on itself. At the end of
  each of its turns ..., it makes another Wisdom saving throw. ... On a successful save, the
  spell ends."
- Hypnotic Pattern: "must succeed on a Wisdom saving throw or have the Charmed condition for
  the duration. While Charmed, the creature has the Incapacitated condition and a Speed of 0.
  The spell ends for an affected creature if it takes any damage or if someone else uses an
  action to shake the creature out of its stupor."

The first condition is the one the save lands (with the repeated save, the end on damage, the
Speed of 0 as its riders); each of the others is an entry of its own, lasting as long (the same
rounds and concentration) and marked `part_of` the first, so the conditions' own rules read it
as they read any (Incapacitated ends concentration, Prone gives Advantage in melee). When the
first ends, for whatever reason (a repeated save, damage, the GM's `remove_condition` for a
shake, Greater Restoration), the others end with it (`end_companions`, run by the 5e flow), so
one save is rolled a turn, never one per condition. Hideous Laughter's "it can't end the Prone
condition on itself" needs nothing more: the Incapacitated it has meanwhile already refuses
`stand_up`.
"""

from __future__ import annotations

import msgspec

from combat.common.commands import ApplyCondition
from combat.common.conditions import apply_condition
from combat.common.durations import ending
from combat.common.rider_reads import immune
from combat.kernel.decider import Tx
from combat.kernel.events import ConditionSpec
from combat.kernel.riders import Riders
from combat.spells.model import Spell

__all__ = ["with_companions", "give_companions", "end_companions"]

UNSET = msgspec.UNSET


def with_companions(spell: Spell, condition: ConditionSpec) -> ConditionSpec:
    """The first condition, carrying the names of those that come with it and its Speed of 0."""
    imposed = spell.condition
    if imposed is None or (not imposed.also and not imposed.speed_zero):
        return condition
    riders = condition.riders if condition.riders is not UNSET else Riders()
    extra: dict[str, object] = {"also": imposed.also}
    if imposed.speed_zero:
        extra["speed_times"] = 0
    return msgspec.structs.replace(condition, riders=msgspec.structs.replace(riders, **extra))


def give_companions(tx: Tx, condition: ConditionSpec | None, targets: tuple[str, ...]) -> None:
    """The other conditions, on each of `targets` the first has just landed on."""
    if condition is None or condition.riders is UNSET or not condition.riders.also:
        return
    for tid in targets:
        bearer = tx.state.combatants[tid]
        if bearer.status == "dead" or not any(_is_first(c, condition) for c in bearer.conditions):
            continue
        for name in condition.riders.also:
            if immune(tx.state.combatants[tid], name) is not None:
                continue
            spec = msgspec.structs.replace(condition, name=name, save=UNSET, riders=Riders(part_of=condition.name))
            apply_condition(tx, ApplyCondition(target=tid, condition=spec))


def _is_first(held: ConditionSpec, given: ConditionSpec) -> bool:
    return (
        held.name == given.name
        and held.source == given.source
        and held.riders is not UNSET
        and given.riders is not UNSET
        and held.riders.also == given.riders.also
    )


def end_companions(tx: Tx, cid: str, first: ConditionSpec) -> None:
    """`first` has ended on `cid`: so do the conditions that came with it."""
    assert first.riders is not UNSET
    bearer = tx.state.combatants[cid]
    for cond in bearer.conditions:
        if _companion_of(cond, first):
            tx.emit(ending(tx.state.combatants[cid], cond, f"{first.name} ended"))


def _companion_of(cond: ConditionSpec, first: ConditionSpec) -> bool:
    return (
        cond.riders is not UNSET
        and cond.riders.part_of == first.name
        and cond.source == first.source
        and cond.effect == first.effect
        and first.riders is not UNSET
        and cond.name in first.riders.also
    )
