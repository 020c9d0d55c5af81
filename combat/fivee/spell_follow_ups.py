"""What a cast leaves to come back later in the fight: a creature granted an action of the
spell's (Dragon's Breath, `granted`), the caster's healing from its hits (Vampiric Touch,
`after_hits`), and a mark for damage at the end of a struck creature's next turn (Acid Arrow,
Vitriolic Sphere, `delayed`). Using the spell again is `spell_effect`
(combat/fivee/spell_effect_uses.py), whose docstring lists what each spell does again."""

from __future__ import annotations

from typing import TYPE_CHECKING

import msgspec

from combat.common.commands import ApplyCondition, Heal
from combat.common.conditions import apply_condition
from combat.common.hitpoints import heal
from combat.fivee.attack_events import AttackMade
from combat.fivee.spell_riders import hit_targets
from combat.fivee.spell_targets import chosen_type
from combat.kernel.decider import Tx
from combat.kernel.events import ConditionSpec
from combat.kernel.riders import Riders
from combat.kernel.state import Combatant
from combat.spells.model import Spell

if TYPE_CHECKING:
    pass

__all__ = ["after_hits", "delayed", "granted"]

UNSET = msgspec.UNSET
Faces = tuple[int, ...]


def granted(tx: Tx, c: Combatant, spell: Spell, slot: int | None, targets: tuple[str, ...], chosen: str | None) -> None:
    """As a spell whose target acts later is cast (Dragon's Breath: "You touch one willing
    creature, and choose Acid, Cold, Fire, Lightning, or Poison. Until the spell ends, the
    target can take a Magic action to exhale"): its mark on each target, with the level and
    the damage type chosen, tied to the caster's concentration."""
    later = next((f for f in spell.riders.follow_up if f.granted), None) if spell.riders is not None else None
    if later is None or tx.state.combatants[c.id].concentration != spell.name:
        return
    kind = chosen_type(later.damage[0], chosen, spell) if later.damage else None
    riders = Riders(cast_at=slot or spell.level, damage_type=kind if kind else UNSET)
    for tid in targets:
        spec = ConditionSpec(name=spell.name.lower(), source=c.id, concentration=c.id, effect=spell.name, riders=riders)
        apply_condition(tx, ApplyCondition(target=tid, condition=spec, custom=True))


def after_hits(tx: Tx, c: Combatant, spell: Spell, since: int, slot: int | None = None) -> None:
    """After the caster's spell attacks from event `since` on: Vampiric Touch's "you regain Hit
    Points equal to half the amount of Necrotic damage dealt"; Acid Arrow's mark on the creature
    hit, for its "2d4 Acid damage at the end of its next turn"."""
    later = spell.riders.follow_up if spell.riders is not None else ()
    if any(f.heals_half for f in later):
        dealt = sum(
            e.damage
            for e in tx.events[since:]
            if isinstance(e, AttackMade) and e.attacker == c.id and e.hit and e.damage_type == "necrotic"
        )
        if dealt // 2 > 0 and tx.state.combatants[c.id].status != "dead":
            heal(tx, Heal(target=c.id, amount=dealt // 2, source=c.id))
    delayed(tx, c, spell, slot, hit_targets(tx.events, since, c))


def delayed(tx: Tx, c: Combatant, spell: Spell, slot: int | None, struck: tuple[str, ...]) -> None:
    """The mark of a spell's damage to come at the end of each struck creature's next turn (Acid
    Arrow's hit, Vitriolic Sphere's failed save: "another 5d4 Acid damage at the end of its next
    turn")."""
    if spell.riders is None or not any(f.delayed for f in spell.riders.follow_up):
        return
    riders = Riders(cast_at=slot or spell.level)
    for tid in struck:
        if tx.state.combatants[tid].status != "dead":
            mark = ConditionSpec(name=spell.name.lower(), source=c.id, ends="end of next turn", ends_on=tid, riders=riders)
            apply_condition(tx, ApplyCondition(target=tid, condition=mark, custom=True))
