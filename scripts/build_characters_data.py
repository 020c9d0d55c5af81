"""Regenerate combat/characters/srd_5_2.json from the SRD 5.2 records as Open5e compiles them.

Run from the repository root when the source records change; the output is committed and
shipped as package data, so building a sheet never needs this script or the records:

    python scripts/build_characters_data.py [SOURCE_DIR]   # default ../shared/data/srd-5.2

What it keeps, and where each number comes from:

- classes: the hit die, saving throws and weapon proficiencies from each class's "Core ...
  Traits" table (Open5e's `saving_throws` field says Dexterity and Strength for the Fighter
  and Dexterity and Wisdom for the Monk, where the SRD's own table says Strength and
  Constitution, and Strength and Dexterity: the table wins); the caster type; the
  spellcasting ability from the Spellcasting feature's words ("Intelligence is your
  spellcasting ability"); per level 1-20 the class table's columns (Proficiency Bonus, spell
  slots, Cantrips, Prepared Spells, Rages, Rage Damage, Sneak Attack, Second Wind, Channel
  Divinity, Martial Arts, Focus Points...); the features that change numbers, read from
  their words (Extra Attack's "attack twice instead of once", Unarmored Defense's "10 plus
  your Dexterity and Constitution modifiers", Rage's resistances, Evasion's "no damage if you
  succeed", Uncanny Dodge's "halve the attack's damage"); and the limited-use
  features with how a rest brings them back ("You regain one expended use when you finish a
  Short Rest").
- Hit Points: the Level 1 Hit Points by Class and Fixed Hit Points by Class tables of the
  rules' "Character Creation" and "Gaining a Level" sections.
- subclasses: each feature with the level it comes at, and the numbers some of them change
  (Improved Critical: "a Critical Hit on a roll of 19 or 20").
- weapons, armour (the Shield apart) and species (size, speed, resistances their traits give).

Every number is read from the records; a record this script cannot read stops it, so a
changed source is noticed rather than half-read.
"""

from __future__ import annotations

import json
import re
from collections import defaultdict
from pathlib import Path
from typing import Any

from open5e_records import read_records, source_from_argv

OUTPUT = Path(__file__).resolve().parent.parent / "combat" / "characters" / "srd_5_2.json"
PREFIX = "srd-2024_"
ABILITIES = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")
ORDINAL = {"1st": 1, "2nd": 2, "3rd": 3, **{f"{n}th": n for n in range(4, 10)}}
COUNT = {"one": 1, "two": 2, "three": 3, "four": 4, "twice": 2, "three times": 3, "four times": 4}

# A class table column's key: the feature's id less the class and a trailing word; Pact Magic's two renamed.
_COLUMN_SUFFIXES = ("-uses", "-count", "-column-data", "-dice")
_COLUMN_NAMES = {"spell-slots": "pact_slots", "slot-level": "pact_level"}

# The limited-use features a sheet tracks: (resource name, the feature whose words say how it
# comes back, and the class table column giving the uses, or `detail:` and the feature whose
# per-level detail gives them ("one use", "two uses"), or nothing for uses the builder computes).
RESOURCES: dict[str, tuple[tuple[str, str, str], ...]] = {
    "barbarian": (("Rage", "rage", "rages"),),
    "bard": (("Bardic Inspiration", "bardic-inspiration", ""),),
    "cleric": (("Channel Divinity", "channel-divinity", "channel_divinity"),),
    "druid": (("Wild Shape", "wild-shape", "wild_shape"),),
    "fighter": (
        ("Second Wind", "second-wind", "second_wind"),
        ("Action Surge", "action-surge", "detail:action-surge"),
        ("Indomitable", "indomitable", "detail:indomitable"),
    ),
    "monk": (("Focus Points", "monks-focus", "focus_points"),),
    "paladin": (("Channel Divinity", "channel-divinity", "channel_divinity"), ("Lay On Hands", "lay-on-hands", "")),
    "ranger": (("Favored Enemy", "favored-enemy", "favored_enemy"),),
    "sorcerer": (("Sorcery Points", "font-of-magic", "sorcery_points"),),
}


def _load(source: Path, name: str) -> list[dict[str, Any]]:
    return read_records(source, (name,))


def _short(pk: str) -> str:
    return pk.removeprefix(PREFIX)


def _ability(word: str) -> str:
    name = word.strip().lower()
    if name not in ABILITIES:
        raise ValueError(f"not an ability: {word!r}")
    return name


def _abilities_in(text: str) -> list[str]:
    found = [a for a in ABILITIES if re.search(rf"\b{a}\b", text, re.IGNORECASE)]
    if not found:
        raise ValueError(f"no ability named in {text!r}")
    return found


def _column_value(key: str, raw: str) -> int | str:
    value = raw.strip()
    if key == "pact_level":
        return ORDINAL[value]
    if re.fullmatch(r"[+-]?\d+", value):
        return int(value)
    if m := re.fullmatch(r"\+(\d+) ft\.", value):
        return int(m.group(1))
    if m := re.fullmatch(r"(\d*)[dD](\d+)", value):
        return f"{m.group(1) or 1}d{m.group(2)}"
    raise ValueError(f"cannot read the {key} column's value {raw!r}")


def _column_key(feature_id: str) -> str:
    short = feature_id.split("_", 1)[1]
    if short in _COLUMN_NAMES:
        return _COLUMN_NAMES[short]
    for suffix in _COLUMN_SUFFIXES:
        short = short.removesuffix(suffix)
    return short.replace("-", "_")


def _hp_table(rules: list[dict[str, Any]], pk: str, heading: str) -> dict[str, int]:
    """`|Fighter, Paladin, or Ranger|10 + Con. modifier|` -> {"fighter": 10, "paladin": 10, "ranger": 10}."""
    text = next(r["fields"]["desc"] for r in rules if r["pk"] == pk)
    table = text[text.index(heading) :]
    found: dict[str, int] = {}
    for names, number in re.findall(r"^\|\s*([A-Za-z ,]+?)\s*\|\s*(\d+) \+ Con\. modifier\|", table, re.MULTILINE):
        for name in re.split(r",\s*(?:or\s+)?|\s+or\s+", names):
            found[name.strip().lower()] = int(number)
    return found


def _recovery(text: str) -> dict[str, Any]:
    """How a rest brings a feature's uses back, from its words."""
    if re.search(r"regain one (?:of its )?expended uses? when you finish a Short Rest", text):
        return {"recovers": "long", "short_rest_regains": 1}
    if re.search(r"(?:until|when) you finish a Short or Long Rest", text):
        return {"recovers": "short"}
    if re.search(r"(?:until|when) you finish a Long Rest", text) or "replenishes when you finish a Long Rest" in text:
        return {"recovers": "long"}
    raise ValueError(f"cannot tell how this feature recovers: {text[:120]!r}")


def _numbers(text: str) -> dict[str, Any]:
    """The numbers a feature's words change, for the features the sheet models."""
    found: dict[str, Any] = {}
    if m := re.search(r"can attack (twice|three times|four times) instead of once", text):
        found["attacks_per_action"] = COUNT[m.group(1)]
    if m := re.search(r"Critical Hit on a roll of (\d+)", text):
        found["critical_range"] = int(m.group(1))
    if m := re.search(r"base Armor Class equals 10 plus your Dexterity and (\w+) modifiers", text):
        found["unarmored_defense"] = _ability(m.group(1))
        found["unarmored_defense_with_shield"] = "or wielding a Shield" not in text
    if re.search(
        r"Hit Point maximum increases by \d+, and it increases by 1 (?:again )?whenever you gain (?:a|another \w+) level", text
    ):
        found["hp_per_level"] = 1
    if m := re.search(r"Your speed increases by (\d+) feet while you aren't wearing Heavy armor", text):
        found["speed_unless_heavy_armor"] = int(m.group(1))
    if m := re.search(r"regain all your expended uses of ([\w ]+?) when you finish a Short or Long Rest", text):
        found["short_rest"] = m.group(1)
    # Evasion: "you instead take no damage if you succeed on the saving throw and only half damage if you fail".
    if "you instead take no damage if you succeed on the saving throw" in text:
        found["evasion"] = True
    # Uncanny Dodge: "you can take a Reaction to halve the attack's damage against you".
    if "take a Reaction to halve the attack's damage against you" in text:
        found["uncanny_dodge"] = True
    return found


def _weapon_proficiency(text: str) -> dict[str, Any]:
    """'Simple and Martial weapons' / 'Simple weapons and Martial weapons that have the Finesse or Light property'."""
    if text == "Simple and Martial weapons":
        return {"simple": True, "martial": True}
    if text == "Simple weapons":
        return {"simple": True, "martial": False}
    if m := re.fullmatch(r"Simple weapons and Martial weapons that have the (.+) property", text):
        return {"simple": True, "martial": [p.strip().lower() for p in m.group(1).split(" or ")]}
    raise ValueError(f"cannot read the weapon proficiencies {text!r}")


def _classes(source: Path) -> dict[str, Any]:
    records = _load(source, "CharacterClass.json")
    features = _load(source, "ClassFeature.json")
    items: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in _load(source, "ClassFeatureItem.json"):
        items[record["fields"]["parent"]].append(record["fields"])
    rules = _load(source, "Rule.json")
    hp_first = _hp_table(rules, PREFIX + "create-your-character_character-creation-details", "Level 1 Hit Points by Class")
    hp_after = _hp_table(rules, PREFIX + "create-your-character_gaining-a-level", "Fixed Hit Points by Class")
    by_parent: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in features:
        by_parent[record["fields"]["parent"]].append(record)

    def levels_of(feature_pk: str) -> list[tuple[int, str | None]]:
        return sorted({(i["level"], i["detail"]) for i in items[feature_pk] if i["column_value"] is None})

    def feature_list(parent: str) -> list[dict[str, Any]]:
        made = []
        for record in sorted(by_parent[parent], key=lambda r: r["pk"]):
            if record["fields"].get("feature_type"):  # the table columns and the core traits
                continue
            levels = [level for level, _ in levels_of(record["pk"])]
            if not levels:
                continue
            entry: dict[str, Any] = {"name": record["fields"]["name"], "level": levels[0]}
            if numbers := _numbers(record["fields"]["desc"]):
                entry["numbers"] = numbers
            made.append(entry)
        return sorted(made, key=lambda e: (e["level"], e["name"]))

    classes: dict[str, Any] = {}
    subclasses_of: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in records:
        if record["fields"]["subclass_of"]:
            subclasses_of[record["fields"]["subclass_of"]].append(record)
    for record in sorted((r for r in records if not r["fields"]["subclass_of"]), key=lambda r: r["fields"]["name"]):
        pk, fields = record["pk"], record["fields"]
        key = _short(pk)
        own = {_short(f["pk"]).split("_", 1)[1]: f for f in by_parent[pk]}
        core = dict(re.findall(r"^\|([^|]+)\|([^|]*)\|$", own["core-traits"]["fields"]["desc"], re.MULTILINE))
        die = int(re.fullmatch(r"D(\d+) per \w+ level", core["Hit Point Die"]).group(1))  # type: ignore[union-attr]
        if f"D{die}" != fields["hit_dice"]:
            raise ValueError(f"{fields['name']}: the core traits say d{die}, the record {fields['hit_dice']}")
        entry: dict[str, Any] = {
            "hit_die": die,
            "hp_level_1": hp_first[key],
            "hp_per_level": hp_after[key],
            "saves": _abilities_in(core["Saving Throw Proficiencies"]),
            "weapons": _weapon_proficiency(core["Weapon Proficiencies"]),
            "armor_training": core["Armor Training"],
            "caster": fields["caster_type"].lower(),
        }
        casting = own.get("spellcasting") or own.get("pact-magic")
        if casting is not None:
            m = re.search(r"(\w+) is (?:your|the) spellcasting ability", casting["fields"]["desc"])
            entry["spellcasting_ability"] = _ability(m.group(1))  # type: ignore[union-attr]
        # The class table, level by level.
        table: list[dict[str, Any]] = [{} for _ in range(20)]
        slots: list[list[int]] = [[0] * 9 for _ in range(20)]
        for feature in by_parent[pk]:
            values = [i for i in items[feature["pk"]] if i["column_value"] is not None]
            if not values:
                continue
            short = _short(feature["pk"]).split("_", 1)[1]
            if m := re.fullmatch(r"slots-(\d)\w\w", short):
                for i in values:
                    slots[i["level"] - 1][int(m.group(1)) - 1] = int(i["column_value"])
                continue
            column = _column_key(_short(feature["pk"]))
            for i in values:
                table[i["level"] - 1][column] = _column_value(column, i["column_value"])
        for level, row in enumerate(table):
            if any(slots[level]):
                row["slots"] = slots[level][: max(n + 1 for n, s in enumerate(slots[level]) if s)]
            if row.get("proficiency_bonus") != 2 + level // 4:
                raise ValueError(f"{fields['name']} {level + 1}: Proficiency Bonus {row.get('proficiency_bonus')}")
        entry["levels"] = [dict(sorted(row.items())) for row in table]
        entry["features"] = feature_list(pk)
        if "rage" in own:
            resisted = re.search(r"You have Resistance to ([A-Za-z, ]+?) damage", own["rage"]["fields"]["desc"])
            entry["rage_resistances"] = [w.lower() for w in re.split(r",\s*(?:and\s+)?|\s+and\s+", resisted.group(1))]  # type: ignore[union-attr]
        resources = []
        for name, feature_id, uses in RESOURCES.get(key, ()):
            text = own[feature_id]["fields"]["desc"]
            resource: dict[str, Any] = {"name": name, **_recovery(text)}
            if uses.startswith("detail:"):  # uses from the feature's own per-level detail ("one use", "two uses")
                details = levels_of(own[uses.removeprefix("detail:")]["pk"])
                resource["uses_by_level"] = [[level, COUNT[detail.split()[0]]] for level, detail in details if detail]
            elif uses:
                resource["column"] = uses
            resources.append(resource)
        entry["resources"] = resources
        subclass_feature = next((f for f in by_parent[pk] if re.search(r"subclass", f["pk"].split("_", 2)[2])), None)
        subclass_levels = levels_of(subclass_feature["pk"]) if subclass_feature else []
        entry["subclass_level"] = subclass_levels[0][0] if subclass_levels else 3
        entry["subclasses"] = {
            sub["fields"]["name"]: {"features": feature_list(sub["pk"])}
            for sub in sorted(subclasses_of[pk], key=lambda r: r["fields"]["name"])
        }
        classes[fields["name"]] = entry
    return classes


def _weapons(source: Path) -> dict[str, Any]:
    properties = {r["pk"]: r["fields"] for r in _load(source, "WeaponProperty.json")}
    assigned: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in _load(source, "WeaponPropertyAssignment.json"):
        assigned[record["fields"]["weapon"]].append(record["fields"])
    weapons: dict[str, Any] = {}
    for record in sorted(_load(source, "Weapon.json"), key=lambda r: r["fields"]["name"]):
        fields = record["fields"]
        if fields["is_improvised"]:
            continue
        own = sorted(assigned[record["pk"]], key=lambda a: properties[a["property"]]["name"])
        names = [properties[a["property"]]["name"].lower() for a in own if properties[a["property"]]["type"] != "Mastery"]
        mastery = [properties[a["property"]]["name"] for a in own if properties[a["property"]]["type"] == "Mastery"]
        entry: dict[str, Any] = {
            "damage_dice": fields["damage_dice"],
            "damage_type": fields["damage_type"],
            "category": "simple" if fields["is_simple"] else "martial",
            "ranged": "ammunition" in names,
            "properties": names,
        }
        if mastery:
            entry["mastery"] = mastery[0]
        versatile = next((a["detail"] for a in own if a["property"] == PREFIX + "versatile-wp"), None)
        if versatile:
            entry["versatile_dice"] = versatile
        if fields["range"]:
            entry["normal_range"], entry["long_range"] = fields["range"], fields["long_range"]
        weapons[fields["name"]] = entry
    return weapons


def _armor(source: Path) -> tuple[dict[str, Any], int]:
    armor: dict[str, Any] = {}
    shield = 0
    for record in sorted(_load(source, "Armor.json"), key=lambda r: r["fields"]["name"]):
        fields = record["fields"]
        if fields["name"] == "Shield":
            shield = fields["ac_base"]
            continue
        cap = fields["ac_cap_dexmod"]
        armor[fields["name"]] = {
            "base_ac": fields["ac_base"],
            "adds_dex": fields["ac_add_dexmod"],
            # The records name no category; the SRD's Heavy armour is the one that adds no Dexterity.
            "heavy": not fields["ac_add_dexmod"],
            "dex_cap": cap,
            "stealth_disadvantage": fields["grants_stealth_disadvantage"],
            "strength": fields["strength_score_required"],
        }
    return armor, shield


def _species(source: Path) -> dict[str, Any]:
    traits: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for record in _load(source, "SpeciesTrait.json"):
        traits[record["fields"]["parent"]].append(record["fields"])
    species: dict[str, Any] = {}
    for record in sorted(_load(source, "Species.json"), key=lambda r: r["fields"]["name"]):
        own = sorted(traits[record["pk"]], key=lambda t: t["order"] if t.get("order") is not None else 99)
        size = next(t["desc"] for t in own if t["type"] == "SIZE")
        speed = next(t["desc"] for t in own if t["type"] == "SPEED")
        entry: dict[str, Any] = {
            "sizes": [s.lower() for s in re.findall(r"\b(Tiny|Small|Medium|Large)\b", size)],
            "speed": int(re.fullmatch(r"(\d+) feet", speed.strip()).group(1)),  # type: ignore[union-attr]
        }
        resistances: list[str] = []
        options: dict[str, list[str]] = {}
        for trait in own:
            text = trait["desc"]
            resistances += [m.lower() for m in re.findall(r"^You have Resistance to ([A-Z]\w+) damage", text, re.MULTILINE)]
            # A choice of lineage or ancestry: a table row naming the damage type resisted.
            for option, resisted in re.findall(r"^\|\s*(\w+)\s*\|\s*You have Resistance to (\w+) damage", text, re.MULTILINE):
                options[option] = [resisted.lower()]
            if "Resistance to the damage type determined by your Draconic Ancestry" in " ".join(t["desc"] for t in own):
                for option, damage in re.findall(r"^\|\s*(\w+)\s*\|\s*(\w+)\s*\|$", text, re.MULTILINE):
                    if option not in ("Dragon", "Lineage", "Legacy"):
                        options[option] = [damage.lower()]
            if numbers := _numbers(text):
                entry.update(numbers)
        if resistances:
            entry["resistances"] = sorted(set(resistances))
        if options:
            entry["options"] = dict(sorted(options.items()))
        species[record["fields"]["name"]] = entry
    return species


def data(source: Path) -> dict[str, Any]:
    armor, shield = _armor(source)
    return {
        "classes": _classes(source),
        "weapons": _weapons(source),
        "armor": armor,
        "shield_ac": shield,
        "species": _species(source),
    }


def build(source: Path, output: Path = OUTPUT) -> int:
    """Write the file; returns the number of classes in it."""
    built = data(source)
    # One class, weapon, armour or species a line: a change to one is a one-line diff.
    parts = []
    for section, value in built.items():
        if isinstance(value, dict):
            lines = ",\n".join(f"  {json.dumps(name)}: {json.dumps(entry, sort_keys=True)}" for name, entry in value.items())
            parts.append(f'"{section}": {{\n{lines}\n}}')
        else:
            parts.append(f'"{section}": {json.dumps(value)}')
    output.write_text("{\n" + ",\n".join(parts) + "\n}\n", encoding="utf-8")
    return len(built["classes"])


if __name__ == "__main__":
    print(f"{build(source_from_argv())} classes -> {OUTPUT}")
