"""Resistance, the cantrip (issue 31): "You touch a willing creature and choose a damage type
... When the target takes damage of the chosen type before the spell ends, the target reduces
the total damage taken by 1d4. A creature can benefit from this spell only once per turn."

The effect's riders hold the die (`reduce_dice`), the type chosen (`damage_type`, the cast's
`CastSpell.damage_type`) and the turn it last served (`reduced_on`, round:creature). Every
damage path calls `reduced` with the damage as the creature's defences leave it (after
Resistance and Vulnerability: "the total damage taken"), before Hit Points fall, so a blow it
survives by the d4 never drops it. The d4 is the bearer's: entered in the command's
`resistance_faces` by its id (combat/common/entered_dice.py), or rolled by the service.
"""

from __future__ import annotations

import re
from typing import Any, ClassVar

import msgspec

from combat.common import entered_dice
from combat.common.hitpoints import DamageReduction
from combat.kernel.decider import Rules, Tx
from combat.kernel.events import ConditionSpec, Event
from combat.kernel.hidden import Hidden
from combat.kernel.names import normalised
from combat.kernel.state import Combatant, EncounterState

__all__ = ["DamageReduced", "reducer", "reduced", "most_reduced", "RULES"]

UNSET = msgspec.UNSET


class DamageReduced(Event, frozen=True, kw_only=True):
    """`target`'s Resistance spell took `amount` off the damage it was taking (the d4's face,
    no more than the damage); spent for this turn."""

    target: str
    amount: int
    damage_type: str
    hidden: ClassVar[Hidden] = Hidden.of(target=("amount",), aloud=("damage_type",))


def _turn(state: EncounterState) -> str:
    return f"{state.round}:{state.turn or ''}"


def reducer(state: EncounterState, c: Combatant, damage_type: str) -> ConditionSpec | None:
    """The effect that would reduce `c`'s damage of this type now, unless spent this turn."""
    for cond in c.conditions:
        r = cond.riders
        if r is UNSET or r.reduce_dice is UNSET or r.damage_type is UNSET:
            continue
        if normalised(r.damage_type) == normalised(damage_type) and r.reduced_on != _turn(state):
            return cond
    return None


def reduced(tx: Tx, target: str, amount: int, damage_type: str) -> int:
    """`amount` of damage, as `target`'s Resistance spell leaves it."""
    c = tx.state.combatants.get(target)
    if amount <= 0 or c is None:
        return amount
    cond = reducer(tx.state, c, damage_type)
    if cond is None:
        return amount
    assert cond.riders is not UNSET and cond.riders.reduce_dice is not UNSET
    roll = tx.roll(
        cond.riders.reduce_dice,
        purpose=f"Resistance: {normalised(damage_type)} damage reduced",
        roller=target,
        faces=entered_dice.take(tx, f"resistance_faces[{target}]"),
    )
    less = min(amount, max(0, roll.total))
    tx.emit(DamageReduced(target=target, amount=less, damage_type=normalised(damage_type)))
    return amount - less


def most_reduced(c: Combatant, damage_type: str) -> int:
    """The most a Resistance effect on `c` could take off damage of this type (its die's
    largest face): what the re-check of a recorded attack's damage allows for."""
    most = 0
    for cond in c.conditions:
        r = cond.riders
        if r is not UNSET and r.reduce_dice is not UNSET and r.damage_type is not UNSET:
            if normalised(r.damage_type) == normalised(damage_type):
                most = max(most, sum(int(n) * int(m) for n, m in re.findall(r"(\d+)d(\d+)", r.reduce_dice)))
    return most


def _on_reduced(state: EncounterState, e: DamageReduced) -> EncounterState:
    c = state.combatants[e.target]
    cond = reducer(state, c, e.damage_type)
    if cond is None:
        return state
    assert cond.riders is not UNSET
    spent = msgspec.structs.replace(cond, riders=msgspec.structs.replace(cond.riders, reduced_on=_turn(state)))
    conditions = tuple(spent if x is cond else x for x in c.conditions)
    return msgspec.structs.replace(
        state, combatants={**state.combatants, e.target: msgspec.structs.replace(c, conditions=conditions)}
    )


def _narrate(n: Any, e: DamageReduced) -> str:
    return f"{n.name(e.target)}'s Resistance takes {e.amount} off the {e.damage_type} damage"


class ResistanceDie(DamageReduction):
    """The shared damage rule's reduction: the Resistance spell's die (`reduced`)."""

    def reduced(self, tx: Tx, target: str, amount: int, damage_type: str) -> int:
        return reduced(tx, target, amount, damage_type)


RULES = Rules(
    ports={DamageReduction: ResistanceDie()}, appliers={DamageReduced: _on_reduced}, narration={DamageReduced: _narrate}
)
