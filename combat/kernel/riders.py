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
- `cannot`: what of its turn's economy it can't take ("can't take Bonus Actions or
  Reactions" - Confusion: "bonus_action", "reaction").
- `also`, `part_of`: conditions given together by one failed save ("the Prone and
  Incapacitated conditions" - Hideous Laughter): the first carries the save and `also` names
  the others, which carry `part_of` (its name) and end when it ends
  (combat/fivee/spell_conditions.py).
- `cast_at`, `damage_type`: the level a spell was cast at and the damage type chosen, kept on
  the caster's own marker of a spell it uses again later (Spiritual Weapon's attack, Spirit
  Guardians' save).
"""

from __future__ import annotations

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
    also: tuple[str, ...] = ()
    part_of: str | msgspec.UnsetType = UNSET
    cannot: tuple[str, ...] = ()
