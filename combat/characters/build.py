"""A character sheet built from the SRD 5.2's numbers: a class and a level, six scores,
a species, armour and weapons by their SRD names.

Every number is read from `srd_5_2.json` beside this module (derived from the SRD 5.2 class
tables, weapons, armour and species by scripts/build_characters_data.py); what the sheet
derives itself (save and attack bonuses, the spell save DC, the Proficiency Bonus) is left
for sheet.py to compute. One class only: multiclassing is out of scope, as are feats,
Fighting Styles, magic items and the choices a class offers that change no number here.
"""

from __future__ import annotations

import json
import re
from collections.abc import Iterable
from functools import cache
from typing import Any, Literal, cast

from combat.characters.sheet import (
    SKILL_ABILITY,
    Abilities,
    CharacterSheet,
    Features,
    Resource,
    SheetAttack,
    Size,
    Spellcasting,
    checked_sheet,
    modifier,
)
from combat.common.abilities import ABILITIES, Ability, ability_name
from combat.kernel.errors import RuleError

__all__ = ["build_sheet", "parse_scores", "srd_data"]


@cache
def srd_data() -> dict[str, Any]:
    """The SRD 5.2 character data shipped with the package (classes, weapons, armour, species)."""
    from importlib import resources  # with tempfile and shutil: loaded when the data is read, not at import

    return json.loads(resources.files("combat.characters").joinpath("srd_5_2.json").read_text(encoding="utf-8"))


def _named(kind: str, table: dict[str, Any], name: str, *, also: Iterable[str] = (), code: str | None = None) -> str:
    """The table's own spelling of `name` (any case; `also` gives other accepted endings), or a
    clear refusal coded `character/unknown-CODE` (the kind unless given)."""
    wanted = " ".join(name.split()).lower()
    for key in table:
        if wanted in (key.lower(), *(key.lower().removesuffix(s) for s in also)):
            return key
    raise RuleError(f"character/unknown-{code or kind}", f"no SRD 5.2 {kind} is called {name!r}", allowed=", ".join(table))


def parse_scores(text: str) -> Abilities:
    """The six scores from "STR 8 DEX 14 CON 12 INT 16 WIS 12 CHA 10" (any order, any case,
    full names too). Each ability once, each score 1 to 30 (the range `Abilities` holds; the
    SRD texts beside this project do not state it)."""
    pairs = re.findall(r"([A-Za-z]+)\s*[:=]?\s*(-?\d+)", text)
    leftover = re.sub(r"([A-Za-z]+)\s*[:=]?\s*(-?\d+)|[\s,;]+", "", text)
    if leftover:
        raise RuleError(
            "character/bad-scores",
            f"cannot read {leftover!r} in the scores {text!r}",
            allowed="six pairs such as 'STR 8 DEX 14 CON 12 INT 16 WIS 12 CHA 10'",
        )
    scores: dict[Ability, int] = {}
    for word, number in pairs:
        ability = ability_name(word)
        if ability is None:
            raise RuleError(
                "character/bad-scores", f"{word!r} is not an ability", allowed="STR, DEX, CON, INT, WIS, CHA or their full names"
            )
        if ability in scores:
            raise RuleError("character/bad-scores", f"{ability} is given twice", allowed="each ability once")
        if not 1 <= int(number) <= 30:
            raise RuleError("character/bad-scores", f"{ability} {number} is out of range", allowed="scores from 1 to 30")
        scores[ability] = int(number)
    missing = [a for a in ABILITIES if a not in scores]
    if missing:
        raise RuleError("character/bad-scores", "missing " + ", ".join(missing), allowed="all six: STR, DEX, CON, INT, WIS, CHA")
    return Abilities(**scores)


def _at(level: int, features: Iterable[dict[str, Any]], number: str) -> Any:
    """The value of `number` the latest of `features` gained by `level` gives, or None."""
    found = None
    for feature in sorted(features, key=lambda f: f["level"]):
        if feature["level"] <= level and number in feature.get("numbers", {}):
            found = feature["numbers"][number]
    return found


def _hit_points(cls: dict[str, Any], level: int, con: int, per_level_bonus: int) -> int:
    """ "Hit Points at level 1: [the Level 1 Hit Points by Class table, e.g. Sorcerer or Wizard]
    6 + Con. modifier"; then each level "Instead of rolling, you can use the fixed value shown
    in the Fixed Hit Points by Class table" (Sorcerer or Wizard: 4 + Con. modifier), the roll's
    "total (minimum of 1)" held to the fixed value as well."""
    first = cls["hp_level_1"] + con
    after = (level - 1) * max(1, cls["hp_per_level"] + con)
    return first + after + per_level_bonus * level


def _armor_class(
    data: dict[str, Any], scores: Abilities, armor: str | None, shield: bool, unarmored: str | None, unarmored_shield: bool
) -> int:
    """Armour: its base AC, plus the Dexterity modifier if it adds it ("max 2" for medium);
    no armour: 10 + Dexterity, or a class's Unarmored Defense ("10 plus your Dexterity and
    Constitution modifiers"; the Monk's only without a Shield). A Shield adds 2."""
    dex = modifier(scores.dexterity)
    if armor is not None:
        worn = data["armor"][armor]
        ac = worn["base_ac"] + (min(dex, worn["dex_cap"]) if worn["dex_cap"] is not None else dex) * worn["adds_dex"]
    elif unarmored is not None and (unarmored_shield or not shield):
        ac = 10 + dex + modifier(getattr(scores, unarmored))
    else:
        ac = 10 + dex
    return ac + (data["shield_ac"] if shield else 0)


def _proficient(cls: dict[str, Any], weapon: dict[str, Any]) -> bool:
    """The class's Weapon Proficiencies: "Simple and Martial weapons", "Simple weapons", or
    "Simple weapons and Martial weapons that have the Finesse or Light property"."""
    allowed = cls["weapons"][weapon["category"]]
    return allowed is True or (isinstance(allowed, list) and any(p in weapon["properties"] for p in allowed))


def _attack(data: dict[str, Any], cls: dict[str, Any], name: str) -> SheetAttack:
    key = _named("weapon", data["weapons"], name)
    w = data["weapons"][key]
    return SheetAttack(
        name=key,
        weapon=key,
        damage_dice=w["damage_dice"],
        damage_type=w["damage_type"],
        properties=tuple(w["properties"]),
        versatile_dice=w.get("versatile_dice"),
        ranged=w["ranged"],
        normal_range=w.get("normal_range"),
        long_range=w.get("long_range"),
        proficient=_proficient(cls, w),
        kind="ranged" if w["ranged"] else "melee",
        reach=10 if "reach" in w["properties"] else 5,
    )


def _unarmed_strike(die: str | None, scores: Abilities) -> tuple[SheetAttack, ...]:
    """A Monk's Unarmed Strike, from Martial Arts: "You can roll 1d6 in place of the normal
    damage of your Unarmed Strike" and "You can use your Dexterity modifier instead of your
    Strength modifier for the attack and damage rolls of your Unarmed Strikes" (the better
    is taken). Bludgeoning, as the Unarmed Strike's own damage is."""
    if die is None:
        return ()
    better: Ability = "dexterity" if modifier(scores.dexterity) > modifier(scores.strength) else "strength"
    return (SheetAttack(name="Unarmed Strike", damage_dice=die, damage_type="bludgeoning", ability=better),)


def _resources(
    cls: dict[str, Any], row: dict[str, Any], level: int, scores: Abilities, features: list[dict[str, Any]]
) -> tuple[Resource, ...]:
    """The class's limited-use features at this level, with how a rest brings them back.
    Bardic Inspiration: "a number of times equal to your Charisma modifier (minimum of once)";
    Lay On Hands: "a total number of Hit Points equal to five times your Paladin level"."""
    made = []
    for r in cls["resources"]:
        if "column" in r:
            uses = row.get(r["column"], 0)
        elif "uses_by_level" in r:
            uses = max((n for at, n in r["uses_by_level"] if at <= level), default=0)
        elif r["name"] == "Bardic Inspiration":
            uses = max(1, modifier(scores.charisma))
        elif r["name"] == "Lay On Hands":
            uses = 5 * level
        else:
            raise RuleError("character/no-uses", f"no number of uses for {r['name']}")
        if not uses:
            continue
        recovers: Literal["short", "long"] = "short" if _at(level, features, "short_rest") == r["name"] else r["recovers"]
        made.append(
            Resource(
                name=r["name"],
                uses=uses,
                recovers=recovers,
                short_rest_regains=r.get("short_rest_regains", 0) if recovers == "long" else 0,
            )
        )
    return tuple(made)


def _species(data: dict[str, Any], species: str | None) -> tuple[str | None, dict[str, Any], tuple[str, ...]]:
    """A species by name, with an option in brackets for a choice that resists damage:
    "Tiefling (Infernal)", "Dragonborn (Red)"."""
    if species is None:
        return None, {"sizes": ["medium"], "speed": 30}, ()
    m = re.fullmatch(r"\s*([^()]+?)\s*(?:\(\s*([^()]+?)\s*\))?\s*", species)
    if m is None:
        raise RuleError("character/unknown-species", f"cannot read the species {species!r}", allowed=", ".join(data["species"]))
    key = _named("species", data["species"], m.group(1))
    entry = data["species"][key]
    resisted = list(entry.get("resistances", ()))
    if m.group(2):
        options = entry.get("options", {})
        if not options:
            raise RuleError("character/unknown-species", f"{key} has no choice of lineage that changes its numbers", allowed=key)
        option = _named(f"{key} option", options, m.group(2), code="species")
        resisted += options[option]
        key = f"{key} ({option})"
    return key, entry, tuple(resisted)


def build_sheet(
    *,
    name: str,
    class_name: str,
    level: int,
    scores: Abilities | str,
    species: str | None = None,
    armor: str | None = None,
    shield: bool = False,
    weapons: Iterable[str] = (),
    spells: Iterable[str] = (),
    skills: Iterable[str] = (),
    subclass: str | None = None,
    size: str | None = None,
) -> CharacterSheet:
    """A level `level` character of one SRD 5.2 class (multiclassing is out of scope).

    Names are the SRD's in any case ("wizard", "chain mail", "Leather" for Leather Armor);
    an unknown one is refused with the names allowed. `scores` is an `Abilities` or the text
    `parse_scores` reads. `spells` are recorded as given (checked against the SRD spell list
    elsewhere); `skills` are the proficient ones. `size` picks between a species' two sizes
    ("Medium ... or Small ..., chosen when you select this species")."""
    data = srd_data()
    if not name.strip():
        raise RuleError("character/no-name", "a character needs a name")
    class_key = _named("class", data["classes"], class_name)
    abilities = parse_scores(scores) if isinstance(scores, str) else scores
    cls = data["classes"][class_key]
    if not 1 <= level <= 20:
        raise RuleError("character/bad-level", f"level {level} is out of range", allowed="levels 1 to 20")
    row = cls["levels"][level - 1]
    features = list(cls["features"])
    sub_key = None
    if subclass is not None:
        sub_key = _named(f"{class_key} subclass", cls["subclasses"], subclass, code="subclass")
        if level < cls["subclass_level"]:
            raise RuleError(
                "character/subclass-too-early",
                f"a {class_key} chooses a subclass at level {cls['subclass_level']}",
                allowed=f"levels {cls['subclass_level']} to 20",
            )
        features += cls["subclasses"][sub_key]["features"]
    species_key, species_entry, species_resists = _species(data, species)
    armor_key = _named("armor", data["armor"], armor, also=(" armor",)) if armor is not None else None
    spell_names = tuple(spells)
    for spell in spell_names:
        if not isinstance(spell, str) or not spell.strip():
            raise RuleError("character/bad-spell", f"{spell!r} is not a spell name", allowed="non-empty spell names")
    casting = None
    if "spellcasting_ability" in cls:
        casting = Spellcasting(
            ability=cls["spellcasting_ability"],
            slots=tuple(row.get("slots", ())),
            pact_slots=row.get("pact_slots", 0),
            pact_level=row.get("pact_level", 0),
            spells=tuple(s.strip() for s in spell_names),
        )
    elif spell_names:
        raise RuleError(
            "character/not-a-caster",
            f"a {class_key} casts no spells",
            allowed=", ".join(c for c, e in data["classes"].items() if "spellcasting_ability" in e),
        )
    skill_names = tuple(" ".join(k.split()).lower() for k in skills)
    for skill in skill_names:
        if skill not in SKILL_ABILITY:
            raise RuleError("character/unknown-skill", f"no skill is called {skill!r}", allowed=", ".join(SKILL_ABILITY))
    sizes = species_entry["sizes"]
    chosen_size = sizes[0]
    if size is not None:
        if size.lower() not in sizes:
            raise RuleError("character/bad-size", f"a {species_key or 'character'} cannot be {size}", allowed=", ".join(sizes))
        chosen_size = size.lower()
    unarmored = _at(level, features, "unarmored_defense")
    speed = species_entry["speed"]
    if armor_key is None and not shield:  # Unarmored Movement: "while you aren't wearing armor or wielding a Shield"
        speed += row.get("unarmored_movement", 0)
    if armor_key is None or not data["armor"][armor_key]["heavy"]:  # Fast Movement: "while you aren't wearing Heavy armor"
        speed += _at(level, features, "speed_unless_heavy_armor") or 0
    critical = _at(level, features, "critical_range")
    sheet = CharacterSheet(
        name=name.strip(),
        level=level,
        classes={class_key: level},
        subclass=sub_key,
        species=species_key,
        abilities=abilities,
        save_proficiencies=tuple(a for a in ABILITIES if a in cls["saves"]),
        skills=skill_names,
        ac=_armor_class(
            data, abilities, armor_key, shield, unarmored, bool(_at(level, features, "unarmored_defense_with_shield"))
        ),
        max_hp=_hit_points(
            cls,
            level,
            modifier(abilities.constitution),
            (_at(level, features, "hp_per_level") or 0) + species_entry.get("hp_per_level", 0),
        ),
        hit_dice=f"{level}d{cls['hit_die']}",
        speed=speed,
        size=cast(Size, chosen_size),
        resistances=tuple(sorted(set(species_resists))),
        attacks=tuple(_attack(data, cls, w) for w in weapons) + _unarmed_strike(row.get("martial_arts"), abilities),
        attacks_per_action=_at(level, features, "attacks_per_action") or 1,
        spellcasting=casting,
        resources=_resources(cls, row, level, abilities, features),
        features=Features(
            critical_range=critical or 20,
            sneak_attack=row.get("sneak_attack"),
            rage_damage=row.get("rage_damage", 0),
            rage_resistances=tuple(cls.get("rage_resistances", ())),
            martial_arts=row.get("martial_arts"),
            evasion=bool(_at(level, features, "evasion")),
            uncanny_dodge=bool(_at(level, features, "uncanny_dodge")),
        ),
    )
    return checked_sheet(sheet)
