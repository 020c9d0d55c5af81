"""What changes one target's save against an effect (a spell, a breath, a trap): its traits,
the GM's word, its cover and its Legendary Resistance (SRD 5.2).

Traits, read by name from the target's stat block (`traits`) and sheet (its species' traits,
and `features.magic_resistance`), each declared once in `TRAITS` with its sentence:

- Magic Resistance (CreatureTrait.json): "The archmage has Advantage on saving throws against
  spells and other magical effects." A spell is magical; a `save_effect` is when the GM says
  so (`magical`).
- Gnomish Cunning (SpeciesTrait.json, Gnome): "You have Advantage on Intelligence, Wisdom, and
  Charisma saving throws."
- Dwarven Resilience (Dwarf): "You also have Advantage on saving throws you make to avoid or
  end the Poisoned condition." Fey Ancestry (Elf): "... the Charmed condition." Brave
  (Halfling): "... the Frightened condition." The condition is the one the effect gives on a
  failure.

The GM's word, per target (`SaveModifiers`): Advantage and Disadvantage with their reasons
("Advantage/Disadvantage": "If circumstances cause a roll to have both Advantage and
Disadvantage, you are considered to have neither"); cover, "+2 bonus to AC and Dexterity
saving throws" (Half) or "+5" (Three-Quarters); and Legendary Resistance: "If the dragon fails
a saving throw, it can choose to succeed instead." The GM makes that choice in the command,
before the effect lands: a failed save becomes a success (one of its uses a day spent, a
`LegendaryResistanceUsed`), and the effect is the success's (half damage or none, no
condition). A save that succeeds anyway spends nothing. `use_legendary_resistance` after the
effect has landed records the use only; to take the effect back the GM amends the casting.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Literal

import msgspec

from combat.common.attacks import roll_mode
from combat.common.events import SaveMade
from combat.fivee.characters import character
from combat.fivee.legendary_resistance import LegendaryResistanceUsed
from combat.fivee.monsters import sheet as block_sheet
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import EncounterState

__all__ = [
    "SaveModifiers",
    "SaveContext",
    "TRAITS",
    "trait_names",
    "checked_modifiers",
    "require_targets_only",
    "save_terms",
    "resisted",
]


class SaveModifiers(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The GM's word on one target's save: reasons for Advantage and Disadvantage, its cover,
    and whether it uses Legendary Resistance if it fails."""

    advantage: tuple[str, ...] = ()  # reasons: "Magic Resistance" is read from the block, these are the GM's
    disadvantage: tuple[str, ...] = ()
    cover: Literal["none", "half", "three-quarters"] = "none"  # +2 / +5 to a Dexterity save
    legendary_resistance: bool = False  # on a failure, it chooses to succeed (one use a day)


@dataclass(frozen=True)
class SaveContext:
    """What a trait asks of the save: its ability (in full, lower case), whether the effect is
    magical, and the condition a failure gives (lower case), if any."""

    ability: str
    magical: bool
    condition: str | None = None


def _against(condition: str) -> Callable[[SaveContext], bool]:
    return lambda s: s.condition == condition


# Each trait: the saves it gives Advantage on. Its name is how a stat block or sheet names it.
TRAITS: dict[str, Callable[[SaveContext], bool]] = {
    "magic resistance": lambda s: s.magical,
    "gnomish cunning": lambda s: s.ability in ("intelligence", "wisdom", "charisma"),
    "dwarven resilience": _against("poisoned"),
    "fey ancestry": _against("charmed"),
    "brave": _against("frightened"),
}

# The species' traits among them ("Dwarf: ... Dwarven Resilience").
_SPECIES_TRAITS = {"dwarf": "dwarven resilience", "gnome": "gnomish cunning", "elf": "fey ancestry", "halfling": "brave"}


def _plain(name: str) -> str:
    """A trait's name without what follows it in parentheses: "Legendary Resistance (3/Day)"."""
    return name.split("(")[0].strip().lower()


def trait_names(state: EncounterState, cid: str) -> tuple[str, ...]:
    """The traits `cid` has by name, lower case: its stat block's, or its species' and its
    sheet's features'."""
    block = block_sheet(state, cid)
    if block is not None:
        return tuple(_plain(t.name) for t in block.block.traits)
    held = character(state, cid)
    if held is None:
        return ()
    s = held.sheet
    names = [_SPECIES_TRAITS.get((s.species or "").strip().lower(), "")]
    # The sheet's own flag (features as data, issue 31 item 10: `features.magic_resistance`),
    # read by name so a sheet from before it reads as it did.
    if getattr(s.features, "magic_resistance", False):
        names.append("magic resistance")
    return tuple(n for n in names if n)


def require_targets_only(given: Iterable[str], targets: Sequence[str], code: str, what: str, field: str) -> None:
    """Refused as `code`: `what` (the command's `field`, by target id) for a creature that is
    not one of `targets`."""
    stray = [t for t in given if t not in targets]
    if stray:
        raise RuleError(
            code,
            f"{what} for {', '.join(stray)}, who is not a target",
            allowed=f"{field} by target id: " + ", ".join(targets),
        )


def checked_modifiers(tx: Tx, targets: Sequence[str], given: Mapping[str, SaveModifiers]) -> None:
    """Refused before any die is rolled: modifiers for a creature that is not a target, and
    Legendary Resistance for one without it or with none left today."""
    require_targets_only(given, targets, "save/modifiers-target", "save modifiers", "save_modifiers")
    for tid, m in given.items():
        if not m.legendary_resistance:
            continue
        c = tx.combatant(tid)
        block = block_sheet(tx.state, tid)
        if block is None or block.block.legendary_resistance == 0:
            raise RuleError(
                "legendary/no-resistance", f"{c.name} has no Legendary Resistance", allowed="a creature whose stat block has it"
            )
        if block.resistance_left == 0:
            raise RuleError(
                "legendary/no-resistance-left",
                f"{c.name} has used all its Legendary Resistance today",
                allowed="legendary_resistance: false (let the save fail)",
            )


def save_terms(state: EncounterState, cid: str, context: SaveContext, given: SaveModifiers | None) -> tuple[str, str, str]:
    """The save's roll mode, its cover and the words for its reason ("Advantage: Magic
    Resistance"), from the target's traits and the GM's word."""
    m = given or SaveModifiers()
    traits = [n for n in trait_names(state, cid) if n in TRAITS and TRAITS[n](context)]
    advantage = [*(n.title() for n in traits), *m.advantage]
    disadvantage = list(m.disadvantage)
    words = [f"Advantage: {', '.join(advantage)}"] if advantage else []
    words += [f"Disadvantage: {', '.join(disadvantage)}"] if disadvantage else []
    return roll_mode(advantage, disadvantage), m.cover, "; ".join(words)


def resisted(tx: Tx, save: SaveMade, given: SaveModifiers | None) -> SaveMade:
    """The save as the effect reads it: a failure the GM turns with Legendary Resistance is a
    success, its use recorded before the effect lands."""
    if save.success or given is None or not given.legendary_resistance:
        return save
    block = block_sheet(tx.state, save.combatant)
    assert block is not None  # checked_modifiers
    tx.emit(LegendaryResistanceUsed(combatant=save.combatant, ability=save.ability, dc=save.dc, left=block.resistance_left - 1))
    return msgspec.structs.replace(save, success=True)
