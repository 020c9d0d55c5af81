"""A stat block as the engine reads it: the compact form of the SRD 5.2 records.

The same shape is the packaged bestiary's, the local store's and a GM's homebrew, and it is
copied whole into the log when a creature joins a fight (replay never reads the bestiary).
"""

from __future__ import annotations

from typing import Literal

import msgspec

__all__ = [
    "BlockAttack",
    "BlockAction",
    "BlockLegendaryAction",
    "MultiattackPart",
    "BlockMultiattack",
    "BlockTrait",
    "BlockSpellcasting",
    "StatBlock",
    "SIZES",
]

SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")


class BlockAttack(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """`Rend. Melee BlockAttack Roll: +14, reach 10 ft. 13 (1d10 + 8) Slashing damage plus 5 (2d4) Fire damage.`"""

    name: str
    kind: Literal["melee", "ranged", "melee or ranged"] = "melee"
    bonus: int
    reach: int = 5
    range: int | None = None
    long_range: int | None = None
    damage: str
    damage_type: str
    extra_damage: str | None = None
    extra_damage_type: str | None = None
    # When the extra damage applies: "advantage", "... plus 2 (1d4) Slashing damage if the
    # attack roll had Advantage" (the Goblin Warrior); unset, on every hit (as before it existed).
    extra_damage_if: Literal["advantage"] | None = None
    recharge: int | None = None  # the lowest d6 face that brings it back ("Recharge 5-6": 5)
    per_day: int | None = None
    text: str = ""


class BlockAction(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """An action, bonus action or reaction that is not an attack roll (a breath, a parry)."""

    name: str
    text: str = ""
    recharge: int | None = None
    per_day: int | None = None


class BlockLegendaryAction(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    name: str
    text: str = ""
    cost: int = 1
    attack: str | None = None  # the stat block attack it makes ("makes one Rend attack")
    once_per_turn: bool = False  # "can't take this action again until the start of its next turn"


class MultiattackPart(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """`count` attacks, each one of `attacks` (one name: that attack every time)."""

    count: int
    attacks: tuple[str, ...]


class BlockMultiattack(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The attacks one BlockMultiattack action makes; each routine is one way to make them
    ("one Claws attack and one Tail attack, or it makes two Hurl Flame attacks": two routines)."""

    text: str = ""
    routines: tuple[tuple[MultiattackPart, ...], ...] = ()


class BlockTrait(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    name: str
    text: str = ""


class BlockSpellcasting(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The Spellcasting action's list: "The mage casts one of the following spells, using
    Intelligence as the spellcasting ability (spell save DC 14): At Will: Detect Magic, Light,
    ... 2/Day Each: Fireball, Invisibility ...". Spells by their SRD names (combat/spells);
    `save_dc` and `attack_bonus` only where the block gives them (the Priest's gives neither)."""

    ability: str  # lower case
    save_dc: int | None = None
    attack_bonus: int | None = None
    at_will: tuple[str, ...] = ()
    per_day: dict[str, int] = {}  # uses a day, by spell


class StatBlock(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    name: str
    size: Literal["tiny", "small", "medium", "large", "huge", "gargantuan"] = "medium"
    type: str = ""
    cr: str = ""
    ac: int
    hp: int
    hit_dice: str | None = None
    speed: dict[str, int] = {}  # walk, fly, climb, swim, burrow
    initiative_bonus: int = 0
    abilities: dict[str, int] = {}  # scores, by ability in lower case
    saves: dict[str, int] = {}  # saving throw bonuses, by ability in lower case
    skills: dict[str, int] = {}  # skill bonuses, by skill in lower case ("perception": 5)
    resistances: tuple[str, ...] = ()
    vulnerabilities: tuple[str, ...] = ()
    immunities: tuple[str, ...] = ()  # damage types
    condition_immunities: tuple[str, ...] = ()
    attacks: tuple[BlockAttack, ...] = ()
    multiattack: BlockMultiattack | None = None
    actions: tuple[BlockAction, ...] = ()
    bonus_actions: tuple[BlockAction, ...] = ()
    reactions: tuple[BlockAction, ...] = ()
    legendary_actions: tuple[BlockLegendaryAction, ...] = ()
    legendary_action_uses: int = 0
    legendary_resistance: int = 0  # uses per day
    legendary_resistance_in_lair: int | None = None
    traits: tuple[BlockTrait, ...] = ()
    # Read from the Spellcasting action (which stays in `actions` with its text); absent in
    # blocks logged before it existed.
    spellcasting: BlockSpellcasting | None = None
    source: str = ""  # "SRD 5.2", or where a GM's own block came from

    def has_trait(self, name: str) -> bool:
        """Whether the block has a trait called `name` (any case): "Evasion", "Magic Resistance"."""
        return any(t.name.lower() == name.lower() for t in self.traits)

    @property
    def magic_resistance(self) -> bool:
        """Magic Resistance: "The [creature] has Advantage on saving throws against spells and
        other magical effects." Read from the trait of that name, so a block logged before this
        property existed has it too (Legendary Resistance's uses are `legendary_resistance`)."""
        return self.has_trait("Magic Resistance")

    def attack(self, name: str) -> BlockAttack | None:
        return next((a for a in self.attacks if a.name.lower() == name.lower()), None)

    def limited(self, name: str) -> BlockAttack | BlockAction | None:
        """The attack or action called `name` if it has a recharge or uses per day."""
        entries: tuple[BlockAttack | BlockAction, ...] = (*self.attacks, *self.actions, *self.bonus_actions, *self.reactions)
        for entry in entries:
            if entry.name.lower() == name.lower() and (entry.recharge is not None or entry.per_day is not None):
                return entry
        return None
