"""A character sheet: the player character as the 5e rules read it.

The sheet holds what a player writes on paper (scores, proficiencies, equipment, features);
every number derived from those (save and skill bonuses, to-hit and damage, spell DC and
attack bonus) is computed here, never typed in twice, as Foundry's dnd5e data models derive
them at run time. A field left out (`None`) is derived; a number given overrides the
derivation (a magic item, a feature the sheet does not model).

The whole sheet is copied into an encounter's log when the character joins it
(`SheetAttached`), so a replay never reads the party store or the SRD tables.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta

from combat.common.abilities import Ability
from combat.kernel.dice import check_notation
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile
from combat.spells.model import ConditionImposed, DamageRoll, Healing, Save

__all__ = [
    "SKILL_ABILITY",
    "Abilities",
    "SheetAttack",
    "CustomSpell",
    "Spellcasting",
    "Resource",
    "Features",
    "SheetDamage",
    "CharacterSheet",
    "modifier",
    "save_bonus",
    "skill_bonus",
    "initiative_bonus",
    "spell_save_dc",
    "spell_attack_bonus",
    "attack_profiles",
    "weapon_ability",
    "sheet_schema",
    "checked_sheet",
    "InvalidSheet",
    "proficiency",
]


# SRD 5.2, Table: Skills.
SKILL_ABILITY: dict[str, Ability] = {
    "acrobatics": "dexterity", "animal handling": "wisdom", "arcana": "intelligence", "athletics": "strength",
    "deception": "charisma", "history": "intelligence", "insight": "wisdom", "intimidation": "charisma",
    "investigation": "intelligence", "medicine": "wisdom", "nature": "intelligence", "perception": "wisdom",
    "performance": "charisma", "persuasion": "charisma", "religion": "intelligence",
    "sleight of hand": "dexterity", "stealth": "dexterity", "survival": "wisdom",
    # a5e's two skills beyond the SRD's
    "culture": "intelligence", "engineering": "intelligence",
}  # fmt: skip

Size = Literal["tiny", "small", "medium", "large", "huge", "gargantuan"]

# The ranges a sheet's numbers may take: declared here once, so decoding JSON, msgspec.convert
# and the published JSON Schema all hold them, and `checked_sheet` holds a sheet built in Python
# to them (every int field of the sheet's types has both ends: tests/characters/test_sheet_bounds.py).
Score = Annotated[int, Meta(ge=1, le=30)]
Level = Annotated[int, Meta(ge=1, le=20)]
Bonus = Annotated[int, Meta(ge=-50, le=50)]
Count = Annotated[int, Meta(ge=0, le=1000)]
Points = Annotated[int, Meta(ge=1, le=100_000)]
Feet = Annotated[int, Meta(ge=0, le=10_000)]
ArmorClass = Annotated[int, Meta(ge=0, le=100)]
Natural = Annotated[int, Meta(ge=2, le=20)]


class _Part(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    pass


class Abilities(_Part, frozen=True, kw_only=True):
    """The six ability scores (1 to 30)."""

    strength: Score = 10
    dexterity: Score = 10
    constitution: Score = 10
    intelligence: Score = 10
    wisdom: Score = 10
    charisma: Score = 10


class SheetAttack(_Part, frozen=True, kw_only=True):
    """An attack on the sheet: a weapon (its SRD numbers copied in when the sheet is
    completed) whose to-hit and damage follow from the scores, or a custom attack whose
    `bonus` and `damage` are given whole.

    Weapon: to-hit is the ability modifier + the Proficiency Bonus if proficient + `magic`;
    damage is the weapon's die + the same modifier + `magic`. "Finesse: ... use your choice
    of your Strength or Dexterity modifier for the attack and damage rolls" (the better is
    taken); a ranged weapon without Thrown uses Dexterity; "Versatile: ... A Versatile
    weapon can be used with one or two hands. A damage value in parentheses appears with
    the property. The weapon deals that damage when used with two hands": a second profile
    named `NAME (two-handed)`. A Thrown melee weapon also gives `NAME (thrown)`, ranged.
    """

    name: str
    weapon: str | None = None  # an SRD weapon's name
    damage_dice: str | None = None  # the weapon's die (1d8), from the SRD
    damage_type: str | None = None
    properties: tuple[str, ...] = ()  # finesse, versatile, thrown, light, heavy, reach, ammunition...
    versatile_dice: str | None = None  # Versatile (1d10)
    normal_range: Feet | None = None
    long_range: Feet | None = None
    ranged: bool = False  # a ranged weapon (bows, crossbows, slings...)
    ability: Ability | None = None  # instead of the rules' choice
    proficient: bool = True
    magic: Bonus = 0  # a +1, +2 or +3 weapon
    # A custom attack: its whole to-hit bonus and damage notation (`1d6+3`).
    bonus: Bonus | None = None
    damage: str | None = None
    kind: Literal["melee", "ranged"] = "melee"
    reach: Feet = 5


class CustomSpell(_Part, frozen=True, kw_only=True):
    """A spell not in the SRD (homebrew, another book's), with what the rules need of it.

    Its effect, where given, in the SRD spells' own terms (combat/spells/model.py), and cast
    like them (combat/fivee/custom_spells.py): `attack` (a spell attack per target) or `save`
    (each target saves against the caster's DC), `damage`, `healing`, the `condition` a
    failed save (or a hit) gives, a bonus to AC, how long it lasts, at most how many targets.
    None of them given: the GM applies its effect (`text`), as before."""

    name: str
    level: Annotated[int, Meta(ge=0, le=9)] = 0
    casting_time: Literal["action", "bonus_action", "reaction", "other"] = "action"
    concentration: bool = False
    text: str = ""
    range: Annotated[int, Meta(ge=0, le=100_000)] | None = None  # feet (a touch: 5); None: the GM's (self, sight...)
    attack: Literal["melee", "ranged"] | None = None
    save: Save | None = None
    damage: tuple[DamageRoll, ...] = ()
    healing: Healing | None = None
    condition: ConditionImposed | None = None
    ac_bonus: Annotated[int, Meta(ge=-10, le=10)] | None = None
    rounds: Annotated[int, Meta(ge=0, le=14_400)] | None = None  # how long its effects last (10: a minute); None: until it ends
    targets: Annotated[int, Meta(ge=1, le=100)] | None = None  # at most this many; None: as many as the GM names
    manual: str = ""  # what of it the GM applies by hand


class Spellcasting(_Part, frozen=True, kw_only=True):
    """A caster's spellcasting: "Spell save DC = 8 + your spellcasting ability modifier + your
    Proficiency Bonus" and "Spell attack modifier = your spellcasting ability modifier + your
    Proficiency Bonus" unless `save_dc` or `attack_bonus` are given."""

    ability: Ability
    save_dc: Annotated[int, Meta(ge=1, le=50)] | None = None
    attack_bonus: Bonus | None = None
    slots: Annotated[tuple[Count, ...], Meta(max_length=9)] = ()  # spell slots per level, from level 1: a Wizard 5 has (4, 3, 2)
    pact_slots: Count = 0  # a Warlock's Pact Magic slots, all of `pact_level`, back on a Short Rest
    pact_level: Annotated[int, Meta(ge=0, le=9)] = 0
    spells: tuple[str, ...] = ()  # known or prepared, by SRD name
    custom_spells: tuple[CustomSpell, ...] = ()


class Resource(_Part, frozen=True, kw_only=True):
    """A limited-use feature: Action Surge, Rage, Channel Divinity, Second Wind...

    `recovers`: which rest brings every use back. `short_rest_regains` is for features the
    SRD gives back in part on a Short Rest (Rage: "You regain one expended use when you
    finish a Short Rest"; Channel Divinity and Second Wind likewise)."""

    name: str
    uses: Count
    recovers: Literal["short", "long"] = "long"
    short_rest_regains: Count = 0


class SheetDamage(_Part, frozen=True, kw_only=True):
    """Extra damage a feature or item lets the character add to a hit: `{"dice": "1d6", "damage_type": "necrotic"}`."""

    dice: str
    damage_type: str


class Features(_Part, frozen=True, kw_only=True):
    """The features that change numbers, as data the server checks a player's command against."""

    critical_range: Natural = 20  # the lowest natural roll that is a Critical Hit (Champion's Improved Critical: 19)
    sneak_attack: str | None = None  # "3d6": once per turn, a Finesse or ranged weapon's hit
    rage_damage: Count = 0  # "Rage Damage" while raging, on a Strength-based attack
    rage_resistances: tuple[str, ...] = ()  # damage types resisted while raging
    extra_damage: tuple[SheetDamage, ...] = ()  # what a weapon hit may add (a Hex, a flame tongue)
    martial_arts: str | None = None  # the Monk's Martial Arts die ("1d8" at level 5), for Unarmed Strikes and Monk weapons
    # Evasion (Rogue 7, Monk 7): "you instead take no damage if you succeed on the saving throw
    # and only half damage if you fail" (combat/fivee/group_saves.py `share_after_save`).
    evasion: bool = False
    # Uncanny Dodge (Rogue 5): "you can take a Reaction to halve the attack's damage against you".
    uncanny_dodge: bool = False
    # "Advantage on saving throws against spells and other magical effects" (a stat block's trait,
    # a sheet's boon or item); the saves read it, the sheet only holds it.
    magic_resistance: bool = False
    # Legendary Resistance's uses a day: "If [it] fails a saving throw, it can choose to succeed instead".
    legendary_resistance: Annotated[int, Meta(ge=0, le=10)] = 0


class CharacterSheet(_Part, frozen=True, kw_only=True):
    """A player character. Derived numbers are left out (`None`) and computed from the rest."""

    name: str
    level: Level = 1
    classes: dict[str, Level] = {}  # class name -> level ({"Wizard": 5}); for the record and the rests
    subclass: str | None = None
    species: str | None = None
    abilities: Abilities = Abilities()
    proficiency_bonus: Annotated[int, Meta(ge=0, le=10)] | None = None  # by level: +2 at 1-4, +3 at 5-8 ...
    save_proficiencies: tuple[Ability, ...] = ()
    skills: tuple[str, ...] = ()  # proficient
    expertise: tuple[str, ...] = ()  # twice the Proficiency Bonus
    ac: ArmorClass
    max_hp: Points
    hit_dice: str = ""  # the Hit Point Dice spent on a Short Rest: "5d6", "2d10+3d8"
    speed: Feet = 30
    size: Size = "medium"
    initiative_bonus: Bonus | None = None  # the Dexterity modifier unless given (Alert, a feat)
    resistances: tuple[str, ...] = ()
    vulnerabilities: tuple[str, ...] = ()
    immunities: tuple[str, ...] = ()
    attacks: tuple[SheetAttack, ...] = ()
    attacks_per_action: Annotated[int, Meta(ge=1, le=10)] = 1  # Extra Attack: 2
    spellcasting: Spellcasting | None = None
    resources: tuple[Resource, ...] = ()
    features: Features = Features()


def modifier(score: int) -> int:
    """ "To determine an ability modifier ... subtract 10 from the score and then divide the
    result by 2 (round down)"."""
    return (score - 10) // 2


def proficiency(sheet: CharacterSheet) -> int:
    """ "Proficiency Bonus ... +2 at levels 1-4, +3 at 5-8, +4 at 9-12, +5 at 13-16, +6 at 17-20"."""
    return sheet.proficiency_bonus if sheet.proficiency_bonus is not None else 2 + (max(1, sheet.level) - 1) // 4


def _mod(sheet: CharacterSheet, ability: Ability) -> int:
    return modifier(getattr(sheet.abilities, ability))


def save_bonus(sheet: CharacterSheet, ability: Ability) -> int:
    """ "Saving Throw: d20 + ability modifier + Proficiency Bonus if proficient"."""
    return _mod(sheet, ability) + (proficiency(sheet) if ability in sheet.save_proficiencies else 0)


def skill_bonus(sheet: CharacterSheet, skill: str, ability: Ability | None = None) -> int:
    """An ability check with a skill: the modifier, plus the Proficiency Bonus if proficient,
    twice it with Expertise. `ability` for a check that pairs the skill with another one."""
    used = ability or SKILL_ABILITY[skill]
    times = 2 if skill in sheet.expertise else 1 if skill in sheet.skills else 0
    return _mod(sheet, used) + times * proficiency(sheet)


def initiative_bonus(sheet: CharacterSheet) -> int:
    return sheet.initiative_bonus if sheet.initiative_bonus is not None else _mod(sheet, "dexterity")


def spell_save_dc(sheet: CharacterSheet) -> int | None:
    casting = sheet.spellcasting
    if casting is None:
        return None
    return casting.save_dc if casting.save_dc is not None else 8 + _mod(sheet, casting.ability) + proficiency(sheet)


def spell_attack_bonus(sheet: CharacterSheet) -> int | None:
    casting = sheet.spellcasting
    if casting is None:
        return None
    return casting.attack_bonus if casting.attack_bonus is not None else _mod(sheet, casting.ability) + proficiency(sheet)


def weapon_ability(sheet: CharacterSheet, attack: SheetAttack) -> Ability:
    if attack.ability is not None:
        return attack.ability
    if "finesse" in attack.properties:
        return max(("strength", "dexterity"), key=lambda a: _mod(sheet, a))
    return "dexterity" if attack.ranged else "strength"


def _with_bonus(dice: str, bonus: int) -> str:
    return f"{dice}{bonus:+d}" if bonus else dice


def attack_profiles(sheet: CharacterSheet) -> tuple[AttackProfile, ...]:
    """The sheet's attacks as the shared attack rules read them (a weapon may give two or three)."""
    made: list[AttackProfile] = []
    for a in sheet.attacks:
        if a.damage_dice is None:  # a custom attack, given whole
            made.append(
                AttackProfile(
                    name=a.name,
                    bonus=a.bonus or 0,
                    damage=a.damage or "0",
                    damage_type=a.damage_type or "bludgeoning",
                    kind=a.kind,
                    reach=a.reach,
                    normal_range=a.normal_range,
                    long_range=a.long_range,
                )
            )
            continue
        ability = weapon_ability(sheet, a)
        mod = _mod(sheet, ability) + a.magic
        bonus = a.bonus if a.bonus is not None else mod + (proficiency(sheet) if a.proficient else 0)
        kind_type = a.damage_type or "bludgeoning"
        reach = 10 if "reach" in a.properties else 5
        # As a ranged attack: the weapon itself if it is ranged, else its throw if it has one.
        ranged = AttackProfile(
            name=a.name,
            bonus=bonus,
            damage=_with_bonus(a.damage_dice, mod),
            damage_type=kind_type,
            kind="ranged",
            normal_range=a.normal_range,
            long_range=a.long_range,
        )
        if a.ranged:
            made.append(ranged)
            continue
        melee = AttackProfile(
            name=a.name, bonus=bonus, damage=_with_bonus(a.damage_dice, mod), damage_type=kind_type, reach=reach
        )
        made.append(melee)
        if a.versatile_dice:
            made.append(msgspec.structs.replace(melee, name=f"{a.name} (two-handed)", damage=_with_bonus(a.versatile_dice, mod)))
        if "thrown" in a.properties:
            made.append(msgspec.structs.replace(ranged, name=f"{a.name} (thrown)"))
    return tuple(made)


def sheet_schema() -> dict[str, object]:
    """The sheet's JSON Schema (`GET /schemas/character`, `combat characters schema`)."""
    return msgspec.json.schema(CharacterSheet)


class InvalidSheet(RuleError):
    """A sheet `checked_sheet` refuses; `field` is the top-level field at fault (`max_hp`,
    `resources`), for a reader that knows where its source keeps it (the Foundry importer)."""

    def __init__(self, field: str, message: str, *, allowed: str):
        super().__init__("character/invalid", message, allowed=allowed)
        self.field = field


def checked_sheet(value: object) -> CharacterSheet:
    """The sheet `value` holds, refused unless every number is within its bound and the
    fields agree with each other: the one way in for a sheet from anywhere (JSON, the builder,
    a Foundry import, `add_character`, the party's store).

    `value` is a `CharacterSheet` built in Python (whose constructor checks nothing), the
    plain data of one, or its JSON. The sheet returned is the one its JSON decodes to, so it
    always encodes and decodes again to itself; the bounds are the `Meta` ones declared on the
    fields above, the same the JSON Schema and the OpenAPI document publish. A refusal is
    `character/invalid`, naming the field (`resources[0] (Rage).uses`) and its range."""
    try:
        raw = value if isinstance(value, bytes) else msgspec.json.encode(value)
        sheet = msgspec.json.decode(raw, type=CharacterSheet)
    except msgspec.ValidationError as exc:
        raise _out_of_bounds(value, str(exc)) from None
    except (msgspec.DecodeError, msgspec.EncodeError, TypeError, UnicodeError) as exc:
        raise InvalidSheet(
            "", f"the sheet cannot be written as JSON: {exc}", allowed="a sheet as `combat characters schema` describes it"
        ) from None
    _agrees(sheet)
    return sheet


_AT = re.compile(r"^(?P<what>.*?)(?: - at `\$(?P<path>[^`]*)`)?$", re.DOTALL)
_STEP = re.compile(r"\.(\w+)|\[(\d+|\.\.\.)\]")


def _out_of_bounds(value: object, problem: str) -> InvalidSheet:
    """msgspec's `Expected `int` <= 1000 - at `$.resources[0].uses``, said with the field's
    value, the name of the list entry it is in, and the whole range the field allows."""
    found = _AT.match(problem)
    what, path = (found.group("what"), found.group("path") or "") if found else (problem, "")
    data: Any = _plain(value)
    info: Any = msgspec.inspect.type_info(CharacterSheet)
    said, shown = "", data
    for step in _STEP.finditer(path):
        key, index = step.group(1), step.group(2)
        info = _unwrapped(info)
        if key is not None:
            said += f".{key}" if said else key
            field = next((f for f in getattr(info, "fields", ()) if f.encode_name == key), None)
            info = field.type if field is not None else None
            shown = shown.get(key) if isinstance(shown, dict) else None
        elif index == "...":  # a dict's value: msgspec does not say which key
            said += "[...]"
            info = getattr(info, "value_type", None)
            shown = None
        else:
            item = shown[int(index)] if isinstance(shown, list) and int(index) < len(shown) else None
            entry = f" ({item['name']})" if isinstance(item, dict) and isinstance(item.get("name"), str) else ""
            said += f"[{index}]{entry}"
            info = getattr(info, "item_type", None)
            shown = item
    who = data.get("name") if isinstance(data, dict) and isinstance(data.get("name"), str) else "the sheet"
    where = said or "the sheet"
    value_said = f" {shown!r}" if shown is not None and not isinstance(shown, dict | list) else ""
    top = path.lstrip(".").split(".")[0].split("[")[0]
    return InvalidSheet(
        top,
        f"{who}: {where}{value_said} is refused: {what}",
        allowed=f"{where}: {_range_of(info)}" if _range_of(info) else "a sheet as `combat characters schema` describes it",
    )


def _plain(value: object) -> Any:
    """`value` as its JSON reads (lists for tuples), to show what a refused field held."""
    return msgspec.json.decode(value if isinstance(value, bytes) else msgspec.json.encode(value))


def _unwrapped(info: Any) -> Any:
    """The type inside an optional field (`Bonus | None`)."""
    if isinstance(info, msgspec.inspect.UnionType):
        kept = [t for t in info.types if not isinstance(t, msgspec.inspect.NoneType)]
        return kept[0] if len(kept) == 1 else info
    return info


def _range_of(info: Any) -> str:
    """What a field allows, from its `Meta` (and its kind) as msgspec reads it."""
    optional = " (or left out)" if _unwrapped(info) is not info else ""
    info = _unwrapped(info)
    if isinstance(info, msgspec.inspect.IntType):
        low = info.ge if info.ge is not None else None if info.gt is None else info.gt + 1
        high = info.le if info.le is not None else None if info.lt is None else info.lt - 1
        return f"a whole number from {low} to {high}{optional}"
    if isinstance(info, msgspec.inspect.VarTupleType | msgspec.inspect.ListType) and info.max_length is not None:
        return f"at most {info.max_length} entries, each {_range_of(info.item_type) or 'as the schema says'}"
    if isinstance(info, msgspec.inspect.LiteralType):
        return "one of " + ", ".join(map(str, info.values))
    if isinstance(info, msgspec.inspect.StructType):
        return "an object with the fields " + ", ".join(f.encode_name for f in info.fields)
    return ""


def _dice_fields(sheet: CharacterSheet) -> Iterator[tuple[str, str]]:
    """Every dice notation on the sheet, with where it is."""
    if sheet.hit_dice:
        yield "hit_dice", sheet.hit_dice
    for i, a in enumerate(sheet.attacks):
        for field in ("damage_dice", "versatile_dice", "damage"):
            if getattr(a, field):
                yield f"attacks[{i}] ({a.name}).{field}", getattr(a, field)
    for field in ("sneak_attack", "martial_arts"):
        if getattr(sheet.features, field):
            yield f"features.{field}", getattr(sheet.features, field)
    for i, d in enumerate(sheet.features.extra_damage):
        yield f"features.extra_damage[{i}].dice", d.dice
    for i, spell in enumerate(sheet.spellcasting.custom_spells if sheet.spellcasting else ()):
        for j, roll in enumerate(spell.damage):
            yield f"spellcasting.custom_spells[{i}] ({spell.name}).damage[{j}].dice", roll.dice
        if spell.healing is not None:
            yield f"spellcasting.custom_spells[{i}] ({spell.name}).healing.dice", spell.healing.dice


def _agrees(sheet: CharacterSheet) -> None:
    """The checks across fields (and of the texts the rules read), once for every way in;
    each number's own range is its `Meta` above."""

    def bad(field: str, what: str, allowed: str) -> InvalidSheet:
        return InvalidSheet(field, f"{sheet.name or 'the sheet'}: {what}", allowed=allowed)

    if not sheet.name.strip() or len(sheet.name) > 80 or any(ord(ch) < 32 or ord(ch) == 127 for ch in sheet.name):
        raise bad("name", f"the name {sheet.name!r}", "1 to 80 printable characters")
    if sheet.classes and sum(sheet.classes.values()) != sheet.level:
        raise bad(
            "classes",
            f"level {sheet.level} with classes {sheet.classes} (levels {sum(sheet.classes.values())})",
            "a level equal to the sum of the class levels (or no classes)",
        )
    unknown = [k for k in (*sheet.skills, *sheet.expertise) if k not in SKILL_ABILITY]
    if unknown:
        raise bad("skills", f"no skill called {', '.join(map(repr, unknown))}", ", ".join(SKILL_ABILITY))
    for i, a in enumerate(sheet.attacks):
        if a.normal_range is not None and a.long_range is not None and a.long_range < a.normal_range:
            raise bad(
                "attacks",
                f"attacks[{i}] ({a.name}): long_range {a.long_range} is shorter than normal_range {a.normal_range}",
                "a long range at least the normal range",
            )
    casting = sheet.spellcasting
    if casting is not None and casting.pact_slots and not casting.pact_level:
        raise bad(
            "spellcasting",
            f"spellcasting: {casting.pact_slots} pact slots of level 0",
            "pact_level 1 to 9 when there are pact slots",
        )
    for where, notation in _dice_fields(sheet):
        try:
            check_notation(notation)
        except RuleError as exc:
            raise bad(
                where.split(".")[0].split("[")[0],
                f"{where} {notation!r}: {exc.message}",
                exc.allowed or "dice notation such as 1d8 or 2d6+2",
            ) from None
