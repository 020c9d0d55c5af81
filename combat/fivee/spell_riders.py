"""What a reviewed spell does beyond its roll: the riders `cast_spell` applies after the attack
or the save (combat/fivee/spellcasting.py calls each in its place).

- `kill_at_or_below`: Power Word Kill: "If the target has 100 Hit Points or fewer, it dies.
  Otherwise, it takes 12d12 Psychic damage." The creature dies outright: no damage is dealt,
  so no save, Death Saving Throw or Resistance is involved.
- A condition on a hit (an attack spell's): Ray of Sickness: "On a hit, the target takes 2d8
  Poison damage and has the Poisoned condition until the end of your next turn."
- `lapses_when_all_save`: a spell on named creatures whose whole lasting effect is the failed
  save's (Hold Person): when every target succeeds, nothing is left to concentrate on and the
  caster's concentration ends, so a later spell or a hit is not judged against it.
"""

from __future__ import annotations

from combat.fivee.concentration import end_concentration
from combat.fivee.dying import CombatantDied
from combat.kernel.decider import Tx
from combat.kernel.events import AttackMade, Event
from combat.kernel.state import Combatant
from combat.spells.model import Spell

__all__ = ["words_of_death", "hit_targets", "lapse_if_none_affected"]


def words_of_death(tx: Tx, spell: Spell, targets: tuple[str, ...]) -> tuple[str, ...]:
    """Those of `targets` the spell kills outright die; the others are returned to take its damage."""
    if spell.kill_at_or_below is None:
        return targets
    rest = []
    for tid in targets:
        target = tx.state.combatants[tid]
        if target.status != "dead" and target.hp <= spell.kill_at_or_below:
            tx.emit(
                CombatantDied(combatant=tid, cause=f"{spell.name}: {target.hp} Hit Points, {spell.kill_at_or_below} or fewer")
            )
            end_concentration(tx, tid, "died")
        else:
            rest.append(tid)
    return tuple(rest)


def hit_targets(events: list[Event], since: int, caster: Combatant) -> tuple[str, ...]:
    """The targets the caster's spell attacks hit, among the events emitted from `since` on."""
    return tuple(e.target for e in events[since:] if isinstance(e, AttackMade) and e.attacker == caster.id and e.hit)


def lapse_if_none_affected(tx: Tx, caster: str, spell: Spell, affected: tuple[str, ...]) -> None:
    if spell.lapses_when_all_save and not affected and tx.state.combatants[caster].concentration == spell.name:
        end_concentration(tx, caster, f"every target of {spell.name} succeeded on its save")
