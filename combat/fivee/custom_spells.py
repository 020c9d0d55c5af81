"""A GM-defined spell (homebrew, non-SRD) cast like an SRD one.

A sheet's `custom_spells` entry that gives its effect (an attack, a save, damage, healing, a
condition, a bonus to AC) is read as a `Spell` (combat/spells/model.py) and cast by the same
steps as the SRD's (combat/fivee/spellcasting.py): its slot, its action, its concentration,
its attack rolls or saves, its damage, its condition for its rounds or its concentration.
One that gives none of them is cast as before: slot, action and concentration, its text for
the GM to apply.
"""

from __future__ import annotations

from combat.characters.sheet import CustomSpell
from combat.spells.model import Duration, Spell, Targets

__all__ = ["automated", "as_spell"]


def automated(custom: CustomSpell) -> bool:
    """Whether the spell says what it does in the fields the engine reads."""
    return bool(
        custom.attack or custom.save or custom.damage or custom.healing or custom.condition or custom.ac_bonus is not None
    )


def as_spell(custom: CustomSpell) -> Spell:
    """The custom spell as the engine reads an SRD spell; the GM applies `manual`."""
    rounds = custom.rounds
    return Spell(
        name=custom.name,
        level=custom.level,
        school="",
        casting_time=custom.casting_time,
        range="special" if custom.range is None else custom.range,
        range_text="" if custom.range is None else f"{custom.range} feet",
        components="",
        concentration=custom.concentration,
        duration=Duration(text="Instantaneous" if rounds == 0 else f"{rounds} rounds" if rounds else "Special", rounds=rounds),
        targets=Targets(count=custom.targets),
        attack=custom.attack,
        save=custom.save,
        damage=custom.damage,
        damage_types=tuple(t for roll in custom.damage for t in roll.types),
        healing=custom.healing,
        condition=custom.condition,
        ac_bonus=custom.ac_bonus,
        automation="partial" if custom.manual else "full",
        manual=(custom.manual,) if custom.manual else (),
        desc=custom.text,
    )
