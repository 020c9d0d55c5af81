"""What a spell's lasting effect does to the rolls of the creature under it: a bonus to its AC
and dice added to (or taken from) its d20 rolls, as the effect's condition carries them
(`ConditionSpec.ac_bonus`, `roll_bonus`, `roll_bonus_on`; combat/fivee/spellcasting.py gives
them as it casts).

- Shield: "Until the start of your next turn, you have a +5 bonus to AC"; Shield of Faith: "a
  +2 bonus to AC for the duration". Several effects of different spells add up; "the effects
  of the same spell cast multiple times don't combine" (SRD 5.2, Combining Spell Effects):
  of two effects of one name, the larger counts.
- Bless: "Whenever a target makes an attack roll or a saving throw before the spell ends, the
  target adds 1d4 to the attack roll or save"; Bane: "must subtract 1d4"; Guidance: "one
  ability check of its choice". The die is rolled with the d20: its face is entered after
  the d20's.
"""

from __future__ import annotations

import msgspec

from combat.kernel.state import Combatant

__all__ = ["effect_ac_bonus", "effect_roll_dice"]


def effect_ac_bonus(c: Combatant) -> int:
    best: dict[str, int] = {}
    for cond in c.conditions:
        if cond.ac_bonus is not msgspec.UNSET:
            best[cond.name] = max(best.get(cond.name, cond.ac_bonus), cond.ac_bonus)
    return sum(best.values())


def effect_roll_dice(c: Combatant, roll: str) -> str:
    """The dice `c`'s effects add to a roll of this kind ("attack_rolls", "saving_throws",
    "ability_checks"), as notation to append ("+1d4", "-1d4"), or ""."""
    dice: dict[str, str] = {}
    for cond in c.conditions:
        if cond.roll_bonus is not msgspec.UNSET and cond.roll_bonus_on is not msgspec.UNSET and roll in cond.roll_bonus_on:
            dice.setdefault(cond.name, cond.roll_bonus)
    return "".join(d if d.startswith(("-", "+")) else f"+{d}" for d in dice.values())
