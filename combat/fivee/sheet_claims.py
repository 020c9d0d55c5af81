"""What a player may claim in an attack: only what the character's sheet gives.

A player's attack once carried its own critical range and extra damage, with nothing to
check them against. Now the sheet is the source (docs/trust.md):

- Critical range: the sheet's (`features.critical_range`: 19 for the Champion's Improved
  Critical, "Your attack rolls with weapons and Unarmed Strikes can score a Critical Hit on
  a roll of 19 or 20"), or 20. A player may not send a wider one; the GM may.
- Extra damage: a player's `extra_damage` must each be one the sheet lists
  (`features.extra_damage`); Sneak Attack is asked for with `sneak_attack: true` and its
  dice come from the sheet: "Once per turn, you can deal extra damage to one creature you
  hit with an attack roll if you have Advantage on the roll and the attack uses a Finesse
  or a Ranged weapon ... You don't need Advantage on the attack roll if at least one of your
  allies is within 5 feet of the target ... and you don't have Disadvantage on the attack
  roll." The engine does not know where allies stand: without Advantage, the claim is the
  player's and the GM's to judge; with Disadvantage it is refused.
- Rage Damage: "When you make an attack using Strength ... and deal damage, you gain a bonus
  to the damage", added to a raging character's Strength attacks by itself.
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from combat.characters.sheet import CharacterSheet, SheetAttack, weapon_ability
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.fivee.attack_events import AttackMade, AttackRolled, ExtraDamage
from combat.fivee.characters import CharacterState, character, with_character
from combat.kernel.decider import GM, Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile, Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState

__all__ = [
    "critical_range",
    "refuse_claims_beyond_the_sheet",
    "with_sneak_attack",
    "with_rage_damage",
    "sneak_attack_landed",
    "SneakAttackUsed",
    "sheet_attack",
    "RULES",
]


class SneakAttackUsed(Event, frozen=True, kw_only=True):
    """The character's Sneak Attack for this turn is spent (its dice rode on the attack just before)."""

    combatant: str
    hidden: ClassVar[Hidden] = PUBLIC


def critical_range(tx: Tx, attacker: Combatant, given: int | None) -> int:
    """The lowest natural roll that is a Critical Hit for this attack: as given (checked by
    `refuse_claims_beyond_the_sheet`), else the sheet's, else 20."""
    if given is not None:
        return given
    held = character(tx.state, attacker.id)
    return held.sheet.features.critical_range if held is not None else 20


def refuse_claims_beyond_the_sheet(tx: Tx, cmd: Any) -> None:
    """A guard on a player's attack, before a stat block adds its own extra damage: a critical
    range wider than the sheet's, or extra damage the sheet does not list, is refused."""
    if tx.actor == GM:
        return
    attacker = tx.combatant(cmd.attacker)
    held = character(tx.state, attacker.id)
    claimed = getattr(cmd, "critical_range", None)
    own = held.sheet.features.critical_range if held is not None else 20
    if claimed is not None and claimed < own:
        gives = "a Critical Hit on a 20 only" if own == 20 else f"a Critical Hit on {own}-20"
        raise RuleError(
            "attack/critical-range-claim",
            f"{attacker.name}'s sheet gives {gives}, not from {claimed}",
            allowed=f"leave critical_range out (the sheet's {own} is used); only the GM may set another",
        )
    offered = {(x.dice, x.damage_type) for x in held.sheet.features.extra_damage} if held is not None else set()
    unsupported = [x for x in cmd.extra_damage if (x.dice, x.damage_type) not in offered]
    if unsupported:
        listed = ", ".join(f"{d} {t}" for d, t in sorted(offered)) or "none"
        raise RuleError(
            "attack/extra-damage-claim",
            f"{attacker.name}'s sheet gives no extra damage of {', '.join(f'{x.dice} {x.damage_type}' for x in unsupported)}",
            allowed=f"extra damage the sheet lists ({listed}); sneak_attack: true for Sneak Attack; the GM may add any",
        )


def sheet_attack(sheet: CharacterSheet, profile_name: str) -> SheetAttack | None:
    """The sheet's attack a profile came from ("Longsword (two-handed)" is the Longsword)."""
    base = profile_name.removesuffix(" (two-handed)").removesuffix(" (thrown)")
    return next((a for a in sheet.attacks if a.name == base), None)


def with_sneak_attack(
    tx: Tx,
    attacker: Combatant,
    profile: AttackProfile,
    extra: tuple[ExtraDamage, ...],
    sneak_attack: bool,
    faces: tuple[int, ...] | None,
) -> tuple[ExtraDamage, ...]:
    """The attack's extra damage, with Sneak Attack's dice from the sheet when asked for
    (`faces`: those dice as rolled at the table)."""
    if not sneak_attack:
        return extra
    return extra + (msgspec.structs.replace(_sneak_attack(attacker, character(tx.state, attacker.id), profile), faces=faces),)


def _sneak_attack(attacker: Combatant, held: CharacterState | None, profile: AttackProfile) -> ExtraDamage:
    dice = held.sheet.features.sneak_attack if held is not None else None
    if held is None or dice is None:
        raise RuleError("attack/no-sneak-attack", f"{attacker.name}'s sheet has no Sneak Attack", allowed="sneak_attack: false")
    if held.sneak_attack_used:
        raise RuleError(
            "attack/sneak-attack-used",
            f'{attacker.name} has used Sneak Attack this turn: "Once per turn"',
            allowed="sneak_attack: false until the next turn (anyone's) begins",
        )
    weapon = sheet_attack(held.sheet, profile.name)
    suited = profile.kind == "ranged" or (weapon is not None and ("finesse" in weapon.properties or weapon.ranged))
    if not suited:
        raise RuleError(
            "attack/sneak-attack-weapon",
            f"{profile.name} is neither a Finesse nor a Ranged weapon",
            allowed="an attack with a Finesse or Ranged weapon (a rapier, a dagger, a shortbow...)",
        )
    return ExtraDamage(dice=dice, damage_type=profile.damage_type)


def sneak_attack_landed(tx: Tx, attacker: Combatant, result: AttackMade | AttackRolled) -> None:
    """After an attack with Sneak Attack asked for: spend it if the attack hit ("creature you
    hit"); refuse the whole attack if the roll had Disadvantage."""
    if result.roll_mode == "disadvantage":
        raise RuleError(
            "attack/sneak-attack-disadvantage",
            f"{attacker.name}'s roll has Disadvantage, so no Sneak Attack: \"you don't have Disadvantage on the attack roll\"",
            allowed="the attack without sneak_attack",
        )
    if isinstance(result, AttackRolled) or result.hit:
        tx.emit(SneakAttackUsed(combatant=attacker.id))


def with_rage_damage(state: EncounterState, attacker: Combatant, profile: AttackProfile) -> AttackProfile:
    """`profile` with the Rage Damage bonus when a raging character attacks using Strength."""
    held = character(state, attacker.id)
    if held is None or not held.raging or not held.sheet.features.rage_damage:
        return profile
    weapon = sheet_attack(held.sheet, profile.name)
    if weapon is None or weapon.damage_dice is None or weapon_ability(held.sheet, weapon) != "strength":
        return profile
    return msgspec.structs.replace(profile, damage=f"{profile.damage}+{held.sheet.features.rage_damage}")


RULES = Rules(
    guards={Attack: (refuse_claims_beyond_the_sheet,), OpportunityAttack: (refuse_claims_beyond_the_sheet,)},
    appliers={SneakAttackUsed: lambda state, e: with_character(state, e.combatant, sneak_attack_used=True)},
    narration={SneakAttackUsed: lambda n, e: f"{n.name(e.combatant)}'s Sneak Attack is spent for this turn"},
)
