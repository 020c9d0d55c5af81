"""Who a spell affects, and which of its choices the caster made: the checks `cast_spell`
makes on its `targets`, `damage_type` and `option` before anything is spent.

From a reviewed entry (`Targets.who`, combat/spells/model.py), as the SRD words it:
- "self" ("Range: Self", Shield): the caster, and only the caster;
- "creatures" ("Up to three creatures of your choice", Bless): those named, up to the count,
  one more per slot level above the spell's where the text says so ("You can target one
  additional creature for each spell slot level above 1");
- "area" ("Each creature in a 20-foot-radius Sphere", Fireball): the creatures the GM names as
  standing in it, as many as they are; an area that starts at the caster (Burning Hands's
  Cone, Spirit Guardians's Emanation: "Any other creature") never holds the caster unless the
  text says it does, nor does one whose text leaves the caster out ("Each creature (other than
  you) in the area" - Entangle); a reviewed area says so in `caster_included`. An area may
  hold nobody.
A target of another creature type than the text names ("a Humanoid", Hold Person) is refused;
its type is its stat block's, a character's is Humanoid (every SRD 5.2 species is), and a
creature the GM made by hand has none the rules know and is the GM's to judge.

A draft (no `who`) is read the same way from its fields: an area is an area, a Self spell with
no area is the caster.
"""

from __future__ import annotations

from typing import Literal

from combat.common.creature_types import CreatureTypes, creature_type
from combat.fivee.characters import character
from combat.fivee.monsters import sheet as block_sheet
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant
from combat.spells.model import DamageRoll, Option, Spell

__all__ = ["who", "target_cap", "checked_targets", "SheetTypes", "RULES", "chosen_type", "chosen_option"]

Who = Literal["self", "creatures", "area"]


def who(spell: Spell) -> Who:
    """Whom the spell's effect reaches (see the module's docstring)."""
    if spell.targets.who is not None:
        return spell.targets.who
    if spell.targets.area is not None:
        return "area"
    return "self" if spell.range == "self" and spell.targets.count is None else "creatures"


def _may_hold_caster(spell: Spell) -> bool:
    """A reviewed area says whether its caster can be in it; a draft's can unless it is Self."""
    return spell.targets.caster_included or (spell.targets.who is None and spell.range != "self")


def target_cap(spell: Spell, slot: int | None) -> int | None:
    """How many creatures it may name at this slot; None: as many as stand in its area."""
    above = slot - spell.level if slot is not None and slot > spell.level else 0
    if spell.targets.who is not None:  # reviewed: the count and its per-slot step
        return None if spell.targets.count is None else spell.targets.count + spell.targets.per_slot * above
    if spell.targets.area is not None:
        return None
    up = spell.at_slot(slot) if slot is not None and above else None
    return up.targets if up is not None and up.targets else spell.targets.count


class SheetTypes(CreatureTypes):
    """The 5e family's creature types: the stat block's, or Humanoid for a character."""

    def of(self, tx: Tx, c: Combatant) -> str | None:
        block = block_sheet(tx.state, c.id)
        if block is not None and block.block.type:
            return block.block.type.lower()
        if character(tx.state, c.id) is not None:
            return "humanoid"
        return None


RULES = Rules(ports={CreatureTypes: SheetTypes()})


def checked_targets(tx: Tx, c: Combatant, spell: Spell, named: tuple[str, ...], slot: int | None) -> tuple[str, ...]:
    """The targets as cast (darts, rays and beams are counted by the caller)."""
    kind = who(spell)
    if kind == "self":
        if any(t != c.id for t in named):
            raise RuleError(
                "spell/targets",
                f"{spell.name} affects its caster only (Range: {spell.range_text})",
                allowed=f"no targets, or only {c.id}",
            )
        return (c.id,)
    if len(set(named)) != len(named):
        raise RuleError("spell/targets", "a creature named twice", allowed="each target once")
    if kind == "area" and c.id in named and not _may_hold_caster(spell):
        raise RuleError(
            "spell/targets",
            f"{spell.name}'s area does not include its caster, {c.name}"
            + (" (it starts at the caster)" if spell.range == "self" else ' ("other than you")'),
            allowed="the other creatures in its area",
        )
    most = target_cap(spell, slot)
    if most is not None and len(named) > most:
        raise RuleError(
            "spell/targets",
            f"{spell.name} affects up to {most} creature(s) at this level, not {len(named)}",
            allowed=f"at most {most} targets"
            + (" (a higher slot affects more)" if spell.targets.per_slot or spell.upcast else ""),
        )
    if spell.targets.creature_types:
        for tid in named:
            target = tx.combatant(tid)
            kind_of = creature_type(tx, target)
            if kind_of is not None and kind_of not in spell.targets.creature_types:
                raise RuleError(
                    "spell/creature-type",
                    f"{spell.name} affects a {' or '.join(t.title() for t in spell.targets.creature_types)}; "
                    f"{target.name} is a {kind_of.title()}",
                    allowed="targets of type " + ", ".join(spell.targets.creature_types),
                )
    return named


def chosen_type(roll: DamageRoll, chosen: str | None, spell: Spell) -> str:
    """The roll's damage type: its one type, or the one of its choices the command names."""
    if len(roll.types) == 1 and chosen in (None, roll.types[0]):
        return roll.types[0]
    if chosen is not None and chosen.lower() in roll.types:
        return chosen.lower()
    raise RuleError(
        "spell/damage-type",
        f"{spell.name} deals {' or '.join(roll.types)} damage" + (f", not {chosen}" if chosen else ": choose one"),
        allowed="damage_type: " + ", ".join(roll.types),
    )


def chosen_option(spell: Spell, option: str | None) -> Option | None:
    """The effect the caster picked among the spell's `options` (Command's "Grovel")."""
    if not spell.options:
        if option is not None:
            raise RuleError("spell/option", f"{spell.name} offers no choice of effect", allowed="no option")
        return None
    names = {o.name: o for o in spell.options}
    picked = names.get((option or "").strip().lower())
    if picked is None:
        raise RuleError(
            "spell/option",
            f"{spell.name} needs its effect chosen" + (f", not '{option}'" if option else ""),
            allowed="option: " + ", ".join(names),
        )
    return picked
