"""Sanctuary (issue 31): "You ward a creature within range. Until the spell ends, any creature
who targets the warded creature with an attack roll or a damaging spell must succeed on a
Wisdom saving throw or either choose a new target or lose the attack or spell. This spell
doesn't protect the warded creature from areas of effect. The spell ends if the warded creature
makes an attack roll, casts a spell, or deals damage."

The ward is the `ward_dc` rider (the caster's spell save DC) of the "sanctuary" effect on the
warded creature; its end when the creature acts is Invisibility's `ends_when_acts`
(combat/fivee/spell_defences.py). Here, before the attack roll or the spell's effect:

- an attack (`attack`, `opportunity_attack`, a5e's `make_attack`) aimed at a warded creature
  first rolls the attacker's Wisdom save (its faces in the command's `sanctuary_faces`);
- a spell (`cast_spell`, and `spell_effect`'s later spell attacks) that targets a warded
  creature with an attack roll or damage (not an area's) first rolls the caster's save against
  each warded target (`sanctuary_faces` by that target's id).

On a failure, the command's choice is read at once, in the same command: `new_target` (an
attack) or `new_targets` (a spell, by warded id) names the creature it goes at instead, and the
attack or spell is spent once, as it was going to be; left out, the attack or spell is lost
(`TurnedAway`): what it would have spent is spent (the attack of the action, the reaction; the
spell's slot and action went as it was cast), with no roll and no effect.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, ClassVar

import msgspec

from combat.fivee.actions import attack_spent
from combat.fivee.group_saves import resolve_save_effect
from combat.fivee.held_open import opportunity_taken
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionSpec, Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState
from combat.spells.model import Spell

__all__ = ["TurnedAway", "ward_of", "aimed_attack", "aimed_spell", "RULES"]

UNSET = msgspec.UNSET
Faces = tuple[int, ...]


class TurnedAway(Event, frozen=True, kw_only=True):
    """`attacker` failed its save against the Sanctuary on `target` and chose no new target: its
    attack (what it spends: `uses`) or its spell (`spell`; already spent as cast) is lost."""

    attacker: str
    target: str
    uses: str = "none"
    opportunity: bool = False
    spell: str | None = None
    hidden: ClassVar[Hidden] = PUBLIC


def ward_of(c: Combatant) -> ConditionSpec | None:
    """The Sanctuary warding `c`, if any."""
    for cond in c.conditions:
        if cond.riders is not UNSET and cond.riders.ward_dc is not UNSET:
            return cond
    return None


def _fails(tx: Tx, saver: Combatant, warded: Combatant, faces: Faces | None) -> bool:
    ward = ward_of(warded)
    assert ward is not None and ward.riders is not UNSET and ward.riders.ward_dc is not UNSET
    source = ward.source if ward.source in tx.state.combatants else warded.id
    saves = resolve_save_effect(
        tx,
        source or warded.id,
        (saver.id,),
        "wisdom",
        ward.riders.ward_dc,
        faces_by_target={saver.id: faces} if faces is not None else None,
        what="Sanctuary",
        magical=True,
    )
    return not saves[saver.id].success


def _instead(tx: Tx, chooser: Combatant, warded: Combatant, new: str) -> Combatant:
    other = tx.combatant(new)
    if other.id in (warded.id, chooser.id) or other.status == "dead" or ward_of(other) is not None:
        why = (
            "the warded creature itself"
            if other.id == warded.id
            else "itself"
            if other.id == chooser.id
            else "dead"
            if other.status == "dead"
            else "warded by a Sanctuary too"
        )
        raise RuleError(
            "sanctuary/new-target",
            f"{other.name} can't be the new target after the save against {warded.name}'s Sanctuary: {why}",
            allowed="another living creature that is not warded, or leave the new target out to lose it",
        )
    return other


def _not_warded(target: Combatant, faces: Any, new: Any, field: str) -> None:
    if faces:
        raise RuleError(
            "dice/unused-faces",
            f"sanctuary_faces were entered, but {target.name} is not warded by Sanctuary",
            allowed="no sanctuary_faces",
        )
    if new:
        raise RuleError(
            "sanctuary/new-target",
            f"{field} names where it goes after a failed save against Sanctuary, and {target.name} is not warded",
            allowed=f"no {field}",
        )


def aimed_attack(
    tx: Tx,
    attacker: Combatant,
    target: Combatant,
    uses: str,
    *,
    faces: Faces | None,
    new_target: str | None,
    opportunity: bool = False,
) -> Combatant | None:
    """The creature the attack goes at: `target`, or after a failed save `new_target`; None
    when the attack is lost (recorded as `TurnedAway`)."""
    if ward_of(target) is None:
        _not_warded(target, faces, new_target, "new_target")
        return target
    other = _instead(tx, attacker, target, new_target) if new_target else None
    if not _fails(tx, attacker, target, faces):
        return target
    if other is not None:
        return other
    tx.emit(TurnedAway(attacker=attacker.id, target=target.id, uses=uses, opportunity=opportunity))
    return None


def _aims_at(spell: Spell) -> bool:
    """Does the spell target its creatures "with an attack roll or a damaging spell"? An area
    spell's save does not ("This spell doesn't protect the warded creature from areas of effect")."""
    area = spell.targets.area is not None or spell.targets.who == "area"
    return spell.attack is not None or (bool(spell.damage) and not area)


def aimed_spell(
    tx: Tx, caster: Combatant, spell: Spell, targets: tuple[str, ...], faces: Mapping[str, Faces], new: Mapping[str, str]
) -> tuple[str, ...] | None:
    """The spell's targets once each warded one's save is made: a failed save's warded target
    replaced by its `new` one; None when the spell is lost (recorded as `TurnedAway`)."""
    warded = [tid for tid in dict.fromkeys(targets) if tid in tx.state.combatants and ward_of(tx.state.combatants[tid])]
    if not _aims_at(spell):
        warded = []
    for tid in set(faces) | set(new):
        if tid not in warded:
            target = tx.combatant(tid)
            why = f"{spell.name} targets no warded {target.name} with an attack roll or damage"
            code = "dice/unused-faces" if tid in faces else "sanctuary/new-target"
            raise RuleError(code, why, allowed="sanctuary_faces and new_targets by the id of a warded target")
    chosen = {tid: _instead(tx, caster, tx.state.combatants[tid], new[tid]).id for tid in warded if tid in new}
    swapped: dict[str, str] = {}
    for tid in warded:
        if not _fails(tx, caster, tx.state.combatants[tid], faces.get(tid)):
            continue
        if tid not in chosen:
            tx.emit(TurnedAway(attacker=caster.id, target=tid, spell=spell.name))
            return None
        swapped[tid] = chosen[tid]
    return tuple(swapped.get(t, t) for t in targets)


def _on_turned_away(state: EncounterState, e: TurnedAway) -> EncounterState:
    if e.spell is not None:
        return state  # the spell was spent as it was cast

    state = attack_spent(state, e.attacker, e.uses)
    return opportunity_taken(state, e.attacker, e.target) if e.opportunity else state


def _narrate(n: Any, e: TurnedAway) -> str:
    what = e.spell or "attack"
    return f"{n.name(e.attacker)} fails to target {n.name(e.target)} through Sanctuary: its {what} is lost"


RULES = Rules(appliers={TurnedAway: _on_turned_away}, narration={TurnedAway: _narrate})
