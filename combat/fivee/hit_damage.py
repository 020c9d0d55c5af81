"""What a lasting spell adds to a hit (issue 31): extra dice rolled with the attack's damage,
and a magic weapon's bonus. Read by the attack rule (combat/fivee/attacks.py `resolve_attack`)
from the riders of the effects on the attacker and on its target (combat/kernel/riders.py):

- Hunter's Mark, Hex: "you deal an extra 1d6 Force damage to the target whenever you hit it with
  an attack roll" (Hex: Necrotic): the mark on the target, the caster its source; any attack
  roll of the caster's, a spell attack's too.
- Divine Favor: "your attacks with weapons deal an extra 1d4 Radiant damage on a hit": the effect
  on the caster; its own attacks (a weapon's), not a spell attack's.
- Magic Weapon: "that weapon becomes a magic weapon with a +1 bonus to attack rolls and damage
  rolls" (+2 with a level 3-5 slot, +3 with a level 6+ one): the wielder's attack of that name.
  "The spell ends early if you cast it again": casting it ends the caster's earlier one.

The extra dice are the attack's extra damage, as Sneak Attack's are: typed, rolled once the
attack hits, doubled on a Critical Hit ("If the attack involves other damage dice, such as from
the Rogue's Sneak Attack feature, you also roll those dice twice"), each target's Resistance
applied to its own type, recorded as their own `DamageTaken` after the attack's. Their faces,
when the damage is entered with the attack, follow the attack's own in `damage_faces` (a
Longsword's 1d8, then Hunter's Mark's 1d6: [5, 4]); rolled in two steps, `roll_damage` takes
them in `extra_faces`, one list per extra damage, in the order the pending hit lists them.
"""

from __future__ import annotations

import re
import string
from typing import Any

import msgspec

from combat.common.abilities import ABILITIES
from combat.common.commands import ApplyCondition
from combat.common.durations import ending
from combat.common.rider_reads import riders_of
from combat.fivee.action_events import ActionTaken
from combat.fivee.attack_events import ExtraDamage
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile
from combat.kernel.state import Combatant, EncounterState
from combat.spells.model import Spell

__all__ = [
    "effect_extras",
    "with_weapon_bonus",
    "split_entered",
    "check_option",
    "riders_at_cast",
    "end_earlier_casting",
    "move_mark",
]

UNSET = msgspec.UNSET


def _own_attack(attacker: Combatant, profile: AttackProfile) -> bool:
    """One of the attacker's own attacks (a weapon, a natural weapon), not a spell attack's,
    whose profile the spell builds and the attacker's list never holds."""
    return any(a.name == profile.name for a in attacker.attacks)


def _base(name: str) -> str:
    """ "Longsword (two-handed)" is the Longsword, "Javelin (thrown)" the Javelin."""
    return re.sub(r"\s*\([^)]*\)$", "", name).strip().lower()


def effect_extras(
    state: EncounterState, attacker: Combatant, target: Combatant, profile: AttackProfile
) -> tuple[ExtraDamage, ...]:
    """The extra damage the lasting effects add to this attack if it hits, each named for its
    effect: the marks `attacker` holds on `target`, and the attacker's own weapon riders."""
    extras = []
    for cond, r in riders_of(target):
        if r.hit_on == "target" and cond.source == attacker.id and r.hit_dice is not UNSET:
            extras.append(_extra(cond.name, r.hit_dice, r.damage_type))
    if _own_attack(attacker, profile):
        for cond, r in riders_of(attacker):
            if r.hit_on == "weapons" and r.hit_dice is not UNSET:
                extras.append(_extra(cond.name, r.hit_dice, r.damage_type))
    return tuple(extras)


def _extra(name: str, dice: str, damage_type: str | msgspec.UnsetType) -> ExtraDamage:
    kind = damage_type if damage_type is not UNSET else "force"
    return ExtraDamage(dice=dice, damage_type=kind, source=string.capwords(name))


def with_weapon_bonus(attacker: Combatant, profile: AttackProfile) -> AttackProfile:
    """Magic Weapon's bonus on the attack made with that weapon: to the attack roll and the damage."""
    bonus = max(
        (
            r.weapon_bonus
            for _, r in riders_of(attacker)
            if r.weapon_bonus is not UNSET and r.weapon is not UNSET and _base(r.weapon) == _base(profile.name)
        ),
        default=0,
    )  # a weapon already magic is no target for a second casting: the bonuses never add up
    if not bonus or not _own_attack(attacker, profile):
        return profile
    return msgspec.structs.replace(profile, bonus=profile.bonus + bonus, damage=f"{profile.damage}+{bonus}")


_DICE_TERM = re.compile(r"(\d*)d(\d+)")


def _dice_count(notation: str) -> int:
    return sum(int(m.group(1) or 1) for m in _DICE_TERM.finditer(notation))


def split_entered(
    notation: str, faces: tuple[int, ...] | None, extras: tuple[ExtraDamage, ...]
) -> tuple[tuple[int, ...] | None, list[tuple[int, ...] | None]]:
    """The entered damage faces shared out: the attack's own dice first, then each lasting
    effect's extra dice in order (already doubled on a Critical Hit); the other extra damage
    keeps the faces it came with. Too few faces for an effect's dice is refused."""
    own = [x.faces for x in extras]
    from_effects = [i for i, x in enumerate(extras) if x.source is not UNSET and x.faces is None]
    if faces is None or not from_effects:
        return faces, own
    at = _dice_count(notation)
    rest = list(faces[at:])
    for i in from_effects:
        wanted = _dice_count(extras[i].dice)
        if len(rest) < wanted:
            listed = ", ".join(f"{extras[j].source}'s {extras[j].dice} {extras[j].damage_type}" for j in from_effects)
            raise RuleError(
                "dice/extra-faces",
                f"the hit adds {listed}, and {len(faces)} damage faces were entered for {notation} and them",
                allowed=f"damage_faces: the {notation} faces, then {listed} faces, in that order",
            )
        own[i], rest = tuple(rest[:wanted]), rest[wanted:]
    return tuple(faces[:at]) + tuple(rest), own


# -- as the spell is cast -----------------------------------------------------------------------


def check_option(tx: Tx, spell: Spell, targets: tuple[str, ...], option: str | None) -> None:
    """Hex's chosen ability and Magic Weapon's weapon (one of the target's attacks), named in
    the command's `option`, checked before anything is spent."""
    r = spell.riders
    if r is None:
        return
    if r.chosen_check_disadvantage and (option or "").strip().lower() not in ABILITIES:
        raise RuleError(
            "spell/option",
            f'{spell.name}: "choose one ability when you cast the spell"' + (f", not '{option}'" if option else ""),
            allowed="option: " + ", ".join(ABILITIES),
        )
    if r.weapon_bonus:
        for tid in targets:
            target = tx.combatant(tid)
            weapons = sorted({_base(a.name) for a in target.attacks})
            if (option or "").strip().lower() not in weapons:
                raise RuleError(
                    "spell/option",
                    f"{spell.name} needs the weapon it touches, one of {target.name}'s attacks"
                    + (f", not '{option}'" if option else ""),
                    allowed="option: " + (", ".join(weapons) or f"none: {target.name} has no attacks"),
                )


def riders_at_cast(spell: Spell, slot: int | None, option: str | None) -> dict[str, Any]:
    """The riders of this casting's effect: the extra dice on hits, Magic Weapon's bonus at this
    slot and its weapon, Hex's chosen ability."""
    r = spell.riders
    fields: dict[str, Any] = {}
    if r is None:
        return fields
    if r.hit_dice and r.hit_on is not None:
        fields.update(hit_dice=r.hit_dice, hit_on=r.hit_on, damage_type=spell.damage_types[0])
    if r.weapon_bonus:
        level = slot or spell.level
        fields.update(
            weapon=(option or "").strip().lower(), weapon_bonus=max(b for lowest, b in r.weapon_bonus if lowest <= level)
        )
    if r.chosen_check_disadvantage and option:
        fields["check_disadvantage"] = (option.strip().lower(),)
    return fields


def end_earlier_casting(tx: Tx, caster: str, spell: Spell) -> None:
    """Magic Weapon: "The spell ends early if you cast it again": the caster's earlier one ends."""
    if spell.riders is None or not spell.riders.weapon_bonus:
        return
    name = spell.name.lower()
    for c in list(tx.state.combatants.values()):
        for cond in c.conditions:
            if cond.name == name and cond.source == caster:
                tx.emit(ending(tx.state.combatants[c.id], cond, f"{spell.name} was cast again"))


def move_mark(tx: Tx, c: Combatant, spell: Spell, targets: tuple[str, ...]) -> None:
    """Hunter's Mark: "If the target drops to 0 Hit Points before this spell ends, you can take
    a Bonus Action to move the mark to a new creature you can see within range" (Hex: "to curse
    a new creature"). The mark keeps what is left of its duration and its riders."""
    from combat.common.conditions import apply_condition
    from combat.common.turns import require_able, require_turn
    from combat.fivee.actions import spend_check

    name = spell.name.lower()
    marks = [
        (holder, cond)
        for holder in tx.state.combatants.values()
        for cond in holder.conditions
        if cond.name == name and cond.source == c.id
    ]
    if not marks:
        raise RuleError(
            "spell/not-active",
            f"{c.name} has no {spell.name} on any creature",
            allowed=f"cast_spell {spell.name} first"
            + (f"; {c.name} concentrates on {c.concentration}" if c.concentration else ""),
        )
    holder, cond = marks[0]
    if len(targets) != 1:
        raise RuleError("spell/targets", f"{spell.name} moves to one new creature", allowed="one target")
    new = tx.combatant(targets[0])
    if holder.hp > 0:
        raise RuleError(
            "spell/mark-not-dropped",
            f"{holder.name} has {holder.hp} Hit Points: {spell.name} moves only once its target drops to 0 Hit Points",
            allowed=f"attack {holder.name} until it drops, or leave the mark where it is",
        )
    if new.id == holder.id or new.status == "dead":
        raise RuleError(
            "spell/targets", f"{new.name} is no new creature to mark", allowed="a living creature other than the one marked"
        )
    require_turn(tx, c.id)
    require_able(c, "use a Bonus Action")
    spend_check(c, "bonus_action")
    tx.emit(ActionTaken(combatant=c.id, action="magic", detail=f"{spell.name}: moves to {new.name}", uses="bonus_action"))
    spec = msgspec.structs.replace(cond, until_round=UNSET)
    if cond.until_round is not UNSET:  # what is left of the duration
        left = cond.until_round - max(tx.state.round, 1)
        if left < 1:
            raise RuleError("spell/not-active", f"{spell.name} is running out", allowed="cast it again")
        spec = msgspec.structs.replace(spec, rounds=left)
    tx.emit(ending(tx.state.combatants[holder.id], cond, f"{spell.name} moved to {new.name}"))
    apply_condition(tx, ApplyCondition(target=new.id, condition=spec, custom=True))
