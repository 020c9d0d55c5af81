"""What a lasting spell effect does while it lasts, beyond a bonus to AC or to rolls: the
numbers a condition carries (`ConditionSpec.riders`), set by the rules as a spell is cast
(combat/fivee/spellcasting.py, combat/fivee/spell_effects_ongoing.py read them).

Each field is optional and, left out, absent from the JSON, so a condition recorded before
riders existed reads, folds and replays as it did. Their meaning, from the SRD 5.2 sentence
that asks for each:
- `ac_base`: "the target's base AC becomes 13 plus its Dexterity modifier" (Mage Armor): the
  AC that calculation gives the target; it uses the better of that and its own.
- `max_hp_bonus`: "Each target's Hit Point maximum and current Hit Points increase by 5 for
  the duration" (Aid): both rise as the effect lands and the maximum falls back as it ends.
- `temp_hp_each_turn`: "gains Temporary Hit Points equal to your spellcasting ability
  modifier at the start of each of its turns" (Heroism).
- `immune_to`: conditions it cannot have while the effect lasts ("immune to the Frightened
  condition").
- `speed_times`: its Speed multiplied ("the target's Speed is doubled": 2; Haste's lethargy,
  "a Speed of 0": 0).
- `save_advantage`: abilities whose saves it makes with Advantage ("Advantage on Dexterity
  saving throws").
- `extra_action`: "it gains an additional action on each of its turns" (Haste), with what
  that action may do, in words.
- `lethargy`: "When the spell ends, the target is Incapacitated and has a Speed of 0 until the
  end of its next turn" (Haste).
- `advantage_against`: "the next attack roll made against it ... has Advantage" (Guiding
  Bolt): spent by that roll.
- `no_healing`: "it can't regain Hit Points" (Chill Touch).
- `fails_into`: the condition a failed repeated save turns this one into ("If the target fails
  the second save, the target has the Unconscious condition for the duration" - Sleep).
- `ends_on_damage`: "The spell ends on a target if it takes damage" (Sleep).
- `beast_form`: Polymorph's Temporary Hit Points: "These Temporary Hit Points vanish if any
  remain when the spell ends. The spell ends early on the target if it has no Temporary Hit
  Points left."
- `attacked_with`: "Advantage" or "Disadvantage" on attack rolls against it ("any creature has
  Disadvantage on attack rolls against you" - Blur; "Attack rolls against an affected creature
  ... have Advantage" - Faerie Fire); `from_types`: only from creatures of these types ("Creatures
  of those types have Disadvantage on attack rolls against the target" - Protection from Evil
  and Good), and its `immune_to` only from them too ("can't ... gain the Charmed or Frightened
  conditions from them").
- `no_invisible`: "can't benefit from the Invisible condition" (Faerie Fire).
- `resistances`: damage types it has Resistance to ("Resistance to Bludgeoning, Piercing, and
  Slashing damage" - Stoneskin); "all": "Resistance to all damage" (Warding Bond).
- `ac_floor`: "has an Armor Class of 17 if its AC is lower than that" (Barkskin).
- `save_bonus`: added to its saving throws ("a +1 bonus to AC and saving throws" - Warding Bond).
- `speed_bonus`: feet added to its Speed ("Speed increases by 10 feet" - Longstrider).
- `ends_when_acts`: "The spell ends early immediately after the target makes an attack roll,
  deals damage, or casts a spell" (Invisibility).
- `shares_damage`: "each time it takes damage, you take the same amount of damage" (Warding
  Bond): the effect's source takes it.
- `save_disadvantage`, `check_advantage`, `check_disadvantage`: abilities whose saves or checks
  it makes with Disadvantage or Advantage ("Advantage on Strength checks and Strength saving
  throws" - Enlarge; Reduce's Disadvantage).
- `weapon_damage`: dice its weapon attacks add on a hit ("an extra 1d4 damage": "+1d4";
  Reduce's "1d4 less damage": "-1d4").
- `cannot`: what of its turn's economy it can't take ("can't take Bonus Actions or
  Reactions" - Confusion: "bonus_action", "reaction").
- `also`, `part_of`: conditions given together by one failed save ("the Prone and
  Incapacitated conditions" - Hideous Laughter): the first carries the save and `also` names
  the others, which carry `part_of` (its name) and end when it ends
  (combat/fivee/spell_conditions.py).
- `cast_at`, `damage_type`: the level a spell was cast at and the damage type chosen, kept on
  the caster's own marker of a spell it uses again later (Spiritual Weapon's attack, Spirit
  Guardians' save).
- `hit_dice` (of `damage_type`) with `hit_on`: extra damage on a hit (combat/fivee/hit_damage.py):
  "target", the effect's source hitting its bearer with an attack roll ("you deal an extra 1d6
  Force damage to the target whenever you hit it with an attack roll" - Hunter's Mark);
  "weapons", the bearer's own weapon attacks ("your attacks with weapons deal an extra 1d4
  Radiant damage on a hit" - Divine Favor).
- `weapon`, `weapon_bonus`: "that weapon becomes a magic weapon with a +1 bonus to attack rolls
  and damage rolls" (Magic Weapon): the bearer's attack of that name.
- `turn_start_dice` (of `damage_type`), `turn_start_save`, `turn_start_dc`: "At the start of
  each of its turns until the spell ends, the target takes 1d6 Fire damage and then makes a
  Constitution saving throw ... On a successful save, the spell ends" (Searing Smite; Ensnaring
  Strike's Piercing damage has no save, and comes only `turn_start_while` it is Restrained).
- `check_disadvantage`: "The target has Disadvantage on ability checks made with the chosen
  ability" (Hex); Reduce's "Disadvantage on Strength checks".
- `seen_only`, with `attacked_with` "advantage": only an attacker that can see the bearer has it
  ("Attack rolls against an affected creature or object have Advantage if the attacker can
  see it" - Faerie Fire; a Blinded attacker cannot). Shining Smite's has no such clause.
- `duplicates`: Mirror Image's duplicates left ("Three illusory duplicates of yourself appear
  in your space"), one fewer each time one "is hit instead of you" (combat/fivee/mirror_image.py).
- `ward_dc`: Sanctuary's "any creature who targets the warded creature with an attack roll or
  a damaging spell must succeed on a Wisdom saving throw" against this DC
  (combat/fivee/sanctuary.py).
- `reduce_dice` (of `damage_type`), `reduced_on`: Resistance's "the target reduces the total
  damage taken by 1d4", and the turn (round:creature) it last did: "A creature can benefit from
  this spell only once per turn" (combat/fivee/damage_reduction.py).
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = ["Riders"]

UNSET = msgspec.UNSET


class Riders(msgspec.Struct, frozen=True, kw_only=True, gc=False, omit_defaults=True):
    ac_base: int | msgspec.UnsetType = UNSET
    max_hp_bonus: int | msgspec.UnsetType = UNSET
    temp_hp_each_turn: int | msgspec.UnsetType = UNSET
    immune_to: tuple[str, ...] = ()
    speed_times: int | msgspec.UnsetType = UNSET
    save_advantage: tuple[str, ...] = ()
    extra_action: str | msgspec.UnsetType = UNSET
    lethargy: bool = False
    advantage_against: bool = False
    no_healing: bool = False
    fails_into: str | msgspec.UnsetType = UNSET
    ends_on_damage: bool = False
    beast_form: bool = False
    cast_at: int | msgspec.UnsetType = UNSET
    damage_type: str | msgspec.UnsetType = UNSET
    hit_dice: str | msgspec.UnsetType = UNSET
    hit_on: str | msgspec.UnsetType = UNSET  # "target" or "weapons"
    weapon: str | msgspec.UnsetType = UNSET
    weapon_bonus: int | msgspec.UnsetType = UNSET
    turn_start_dice: str | msgspec.UnsetType = UNSET
    turn_start_save: str | msgspec.UnsetType = UNSET
    turn_start_dc: int | msgspec.UnsetType = UNSET
    turn_start_while: str | msgspec.UnsetType = UNSET  # only while it has this condition ("While Restrained")
    attacked_with: Literal["advantage", "disadvantage"] | msgspec.UnsetType = UNSET
    from_types: tuple[str, ...] = ()
    no_invisible: bool = False
    seen_only: bool = False
    resistances: tuple[str, ...] = ()
    ac_floor: int | msgspec.UnsetType = UNSET
    save_bonus: int | msgspec.UnsetType = UNSET
    speed_bonus: int | msgspec.UnsetType = UNSET
    ends_when_acts: bool = False
    shares_damage: bool = False
    save_disadvantage: tuple[str, ...] = ()
    check_advantage: tuple[str, ...] = ()
    check_disadvantage: tuple[str, ...] = ()
    weapon_damage: str | msgspec.UnsetType = UNSET
    also: tuple[str, ...] = ()
    part_of: str | msgspec.UnsetType = UNSET
    cannot: tuple[str, ...] = ()
    duplicates: int | msgspec.UnsetType = UNSET
    ward_dc: int | msgspec.UnsetType = UNSET
    reduce_dice: str | msgspec.UnsetType = UNSET
    reduced_on: str | msgspec.UnsetType = UNSET
