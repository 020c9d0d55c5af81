"""What a cast is: the `cast_spell` command, the `SpellCast` event it records, and the numbers
its caster casts with (`Caster`, read off its character sheet or its stat block). The rule
that casts is combat/fivee/spellcasting.py; the effects a cast leaves, and what ends them,
read `SpellCast` too (combat/fivee/spell_defences.py)."""

from __future__ import annotations

from typing import ClassVar

import msgspec

from combat.characters.sheet import modifier as ability_modifier
from combat.characters.sheet import spell_attack_bonus, spell_save_dc
from combat.fivee.characters import character
from combat.fivee.monsters import sheet as block_sheet
from combat.fivee.save_modifiers import SaveModifiers
from combat.kernel.commands import Command
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import Hidden
from combat.kernel.state import Combatant, EncounterState

__all__ = ["CastSpell", "SpellCast", "Caster", "caster_of"]

Faces = tuple[int, ...]


class CastSpell(Command, frozen=True, kw_only=True):
    """Cast a spell the caster knows (its sheet) or can cast (its stat block's Spellcasting),
    with its slot, its action and its whole effect on the targets."""

    actor_fields: ClassVar[tuple[str, ...]] = ("caster",)
    gm_fields: ClassVar[tuple[str, ...]] = (
        "save_faces",
        "advantage",
        "disadvantage",
        "save_modifiers",
        "mirror_faces",
        "resistance_faces",
    )

    caster: str
    spell: str  # its SRD name, in any case, or a custom spell on the caster's sheet
    slot_level: int | None = None  # a higher slot upcasts it; left out, the spell's own level (none for a cantrip)
    # Who it affects, by id: a creature per target; for darts, rays and beams one id per
    # projectile, in order (the same id again to aim several at one creature). A Self spell
    # may leave them out.
    targets: tuple[str, ...] = ()
    damage_type: str | None = None  # the one chosen where the spell offers several (Chromatic Orb, Spirit Guardians)
    option: str | None = None  # the effect chosen where the spell offers several (Command: "grovel")
    attack_faces: tuple[Faces, ...] = ()  # one d20 list per spell attack, in target order
    # One list per damage or healing roll, in order: one per attack (a miss leaves its list
    # unused), one per dart, one for a save spell's single roll, one per target healed.
    damage_faces: tuple[Faces, ...] = ()
    save_faces: dict[str, Faces] = {}  # the targets' saves, by id (their own dice)
    # Reasons for Advantage and Disadvantage on the caster's spell attacks, as `attack` takes
    # them (the conditions' own are read as for any attack). Left out: none.
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    # The GM's word on each target's save, by id: Advantage/Disadvantage reasons, cover, and
    # Legendary Resistance used if it fails (combat/fivee/save_modifiers.py). Left out: none;
    # a target's traits (Magic Resistance...) are read all the same.
    save_modifiers: dict[str, SaveModifiers] = {}
    ritual: bool = False  # cast as a ritual: before the fight only (combat/fivee/casting_rules.py)
    # The caster's ability checks the spell calls for, by the name of what each is against
    # (Dispel Magic's check against each spell of a higher level: combat/fivee/spell_dispel.py).
    check_faces: dict[str, Faces] = {}
    # Mirror Image's d6s: one list per spell attack that hits a creature with duplicates left, in order
    mirror_faces: tuple[tuple[int, ...], ...] = ()
    # the caster's Wisdom save against a warded target's Sanctuary, by that target's id
    sanctuary_faces: dict[str, tuple[int, ...]] = {}
    # by warded target's id, the creature the spell goes at if that save fails (left out: the spell is lost)
    new_targets: dict[str, str] = {}
    # a Resistance spell's d4, by the id of the creature whose damage it reduces
    resistance_faces: dict[str, tuple[int, ...]] = {}


class SpellCast(Event, frozen=True, kw_only=True):
    """A spell cast; what it cost (`slot` level, a Pact Magic slot, a use of the day) is spent.
    Its effects follow as their own events."""

    caster: str
    spell: str
    level: int  # the level it is cast at (0: a cantrip)
    slot: int | None = None  # the slot expended, if any
    pact: bool = False
    per_day: bool = False  # one of a stat block's uses a day
    targets: tuple[str, ...] = ()
    manual: tuple[str, ...] = ()  # what the GM applies by hand
    # Cast as a ritual, before the fight: no slot, 10 minutes longer. Unset (absent from the
    # JSON, as in every log recorded before rituals were): not a ritual.
    ritual: bool | msgspec.UnsetType = msgspec.UNSET
    hidden: ClassVar[Hidden] = Hidden.of(
        caster=("slot", "pact", "per_day")
    )  # what it spends is its sheet's; the spell and its level are seen


class Caster(msgspec.Struct, frozen=True, kw_only=True):
    """What a caster casts with: its DC and attack bonus, its level for cantrips, and where the
    spell comes from."""

    save_dc: int
    attack_bonus: int
    ability_modifier: int
    character_level: int = 1
    ability: str = ""  # the spellcasting ability ("intelligence"), for a check made with it (Dispel Magic)


def caster_of(state: EncounterState, c: Combatant) -> Caster:
    held = character(state, c.id)
    if held is not None and held.sheet.spellcasting is not None:
        s = held.sheet
        return Caster(
            save_dc=spell_save_dc(s) or 10,
            attack_bonus=spell_attack_bonus(s) or 0,
            ability_modifier=ability_modifier(getattr(s.abilities, s.spellcasting.ability)),  # type: ignore[union-attr]
            character_level=s.level,
            ability=s.spellcasting.ability,  # type: ignore[union-attr]
        )
    block = block_sheet(state, c.id)
    casting = block.block.spellcasting if block is not None else None
    if casting is None or casting.save_dc is None:
        raise RuleError(
            "spell/no-caster",
            f"{c.name} has no spellcasting on its sheet or stat block",
            allowed="a character whose sheet has spellcasting, or a creature whose stat block lists spells",
        )
    # A block gives its DC; its spell attack bonus, where the block does not give it, is what
    # that DC holds beyond 8 ("8 + ability modifier + Proficiency Bonus" against "ability
    # modifier + Proficiency Bonus").
    attack = casting.attack_bonus if casting.attack_bonus is not None else casting.save_dc - 8
    score = block.block.abilities.get(casting.ability, 10) if block is not None else 10
    return Caster(save_dc=casting.save_dc, attack_bonus=attack, ability_modifier=ability_modifier(score), ability=casting.ability)
