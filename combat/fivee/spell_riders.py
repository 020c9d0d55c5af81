"""What a reviewed spell does beyond its roll: the riders `cast_spell` applies after the attack
or the save (combat/fivee/spellcasting.py calls each in its place).

- `hp_bands`: what the spell does by the target's current Hit Points (no damage is dealt, so no
  save, Death Saving Throw or Resistance is involved), the first band that holds it applying:
  - Power Word Kill: "If the target has 100 Hit Points or fewer, it dies. Otherwise, it takes
    12d12 Psychic damage." (above every band: the spell's damage);
  - Power Word Stun: "If the target has 150 Hit Points or fewer, it has the Stunned condition.
    Otherwise, its Speed is 0 until the start of your next turn. The Stunned target makes a
    Constitution saving throw at the end of each of its turns, ending the condition on itself
    on a success." (the Speed of 0 is an effect named for the spell);
  - Divine Word, on a failed save: "a target that has 50 Hit Points or fewer suffers an effect
    based on its current Hit Points": 0-20 dies; 21-30 Blinded, Deafened and Stunned for 1
    hour; 31-40 Blinded and Deafened for 10 minutes; 41-50 Deafened for 1 minute.
  A condition the target is immune to (Heroism's Frightened) is not given.
- A condition on a hit (an attack spell's): Ray of Sickness: "On a hit, the target takes 2d8
  Poison damage and has the Poisoned condition until the end of your next turn."
- `lapses_when_all_save`: a spell on named creatures whose whole lasting effect is the failed
  save's (Hold Person): when every target succeeds, nothing is left to concentrate on and the
  caster's concentration ends, so a later spell or a hit is not judged against it.
"""

from __future__ import annotations

from typing import Any

from combat.common.commands import ApplyCondition
from combat.common.concentration import end_concentration
from combat.common.conditions import apply_condition
from combat.common.rider_reads import immune
from combat.fivee.attack_events import AttackMade
from combat.fivee.dying import CombatantDied
from combat.kernel.decider import Tx
from combat.kernel.events import ConditionSpec, Event, RepeatedSave
from combat.kernel.riders import Riders
from combat.kernel.state import Combatant
from combat.spells.model import HpBand, Spell

__all__ = ["by_hit_points", "band_for", "hit_targets", "lapse_if_none_affected"]

_ENDS = {"start_of_your_next_turn": "start", "end_of_your_next_turn": "end of next turn"}


def band_for(spell: Spell, hp: int) -> HpBand | None:
    """The first of the spell's bands that holds a target of `hp` current Hit Points."""
    return next((b for b in spell.hp_bands if b.at_most is None or hp <= b.at_most), None)


def by_hit_points(tx: Tx, caster: Combatant, spell: Spell, dc: int, targets: tuple[str, ...]) -> tuple[str, ...]:
    """Each of `targets` suffers its band's effect; those above every band (or already dead)
    are returned, to take the spell's damage if it has any."""
    rest = []
    for tid in targets:
        target = tx.state.combatants[tid]
        band = band_for(spell, target.hp)
        if target.status == "dead" or band is None:
            rest.append(tid)
            continue
        if band.dies:
            limit = f"{band.at_most} or fewer" if band.at_most is not None else "any"
            tx.emit(CombatantDied(combatant=tid, cause=f"{spell.name}: {target.hp} Hit Points, {limit}"))
            end_concentration(tx, tid, "died")
            continue
        for name in band.conditions:
            if immune(tx.state.combatants[tid], name) is None:
                apply_condition(tx, ApplyCondition(target=tid, condition=_lasting(caster, band, name, dc)))
        if band.speed_zero:
            spec = _lasting(caster, band, spell.name.lower(), dc, riders=Riders(speed_times=0))
            apply_condition(tx, ApplyCondition(target=tid, condition=spec, custom=True))
    return tuple(rest)


def _lasting(caster: Combatant, band: HpBand, name: str, dc: int, **more: Any) -> ConditionSpec:
    fields: dict[str, Any] = {"name": name, "source": caster.id, **more}
    if band.ends is not None:
        fields.update(ends=_ENDS[band.ends], ends_on=caster.id)
    elif band.rounds is not None:
        fields.update(rounds=band.rounds, ends_on=caster.id)
    if band.save is not None:
        fields["save"] = RepeatedSave(ability=band.save, dc=dc)
    return ConditionSpec(**fields)


def hit_targets(events: list[Event], since: int, caster: Combatant) -> tuple[str, ...]:
    """The targets the caster's spell attacks hit, among the events emitted from `since` on."""
    return tuple(e.target for e in events[since:] if isinstance(e, AttackMade) and e.attacker == caster.id and e.hit)


def lapse_if_none_affected(tx: Tx, caster: str, spell: Spell, affected: tuple[str, ...]) -> None:
    if spell.lapses_when_all_save and not affected and tx.state.combatants[caster].concentration == spell.name:
        end_concentration(tx, caster, f"every target of {spell.name} succeeded on its save")
