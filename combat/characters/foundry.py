"""A character sheet from a Foundry VTT dnd5e actor, as "Export Data" writes it.

Foundry stores what the player chose (scores, proficiency flags, items: class levels, armour,
weapons, spells, features) and computes AC, save and attack bonuses, spell DC and slots at
run time (`module/data/actor/templates/attributes.mjs` `prepareArmorClass`,
`module/documents/actor/actor.mjs` spell progression). This module derives the same numbers
the same way, so the sheet agrees with what the player saw on Foundry's character sheet.

What the sheet cannot hold (a background, a rope, a Bless effect, a feature the engine does not
model) is never dropped silently: `import_actor` returns it as one human-readable line each,
and the CLI prints them under "Not mapped:".

Three generations of the item shapes are read, each where it is used:
- dnd5e 4.x/5.x: `damage.base {number, denomination, types}`, `properties` a list, `type.value`,
  `hd {denomination}`, `uses.recovery [{period}]`, spells' `method`/`prepared` (5.x);
- dnd5e 3.x: `properties` a list, `type.value`, `damage.parts`, `hitDice`;
- dnd5e 2.x: `damage.parts [["1d8 + @mod", "slashing"]]`, `properties {fin: true}`,
  `weaponType`, `armor.type`, `hitDice`, `uses.per`, `preparation {mode, prepared}`.
Foundry before v10 wrote `data` where later versions write `system`; both are read.
"""

from __future__ import annotations

import ast
import copy
import math
import operator
import re
from collections.abc import Callable
from typing import Any, cast

import msgspec

from combat.characters.build import srd_data
from combat.characters.sheet import (
    Abilities,
    CharacterSheet,
    Features,
    InvalidSheet,
    Resource,
    SheetAttack,
    Size,
    Spellcasting,
    attack_profiles,
    checked_sheet,
    modifier,
)
from combat.common.abilities import ABILITIES, Ability
from combat.kernel.errors import RuleError

__all__ = ["import_actor"]

_ABBREVIATION: dict[str, Ability] = {a[:3]: a for a in ABILITIES}

# CONFIG.DND5E.skills: Foundry's three-letter keys.
_SKILLS = {
    "acr": "acrobatics", "ani": "animal handling", "arc": "arcana", "ath": "athletics", "dec": "deception",
    "his": "history", "ins": "insight", "itm": "intimidation", "inv": "investigation", "med": "medicine",
    "nat": "nature", "prc": "perception", "prf": "performance", "per": "persuasion", "rel": "religion",
    "slt": "sleight of hand", "ste": "stealth", "sur": "survival",
}  # fmt: skip
_SKILL_DEFAULT_ABILITY = {
    "acr": "dex", "ani": "wis", "arc": "int", "ath": "str", "dec": "cha", "his": "int", "ins": "wis", "itm": "cha",
    "inv": "int", "med": "wis", "nat": "int", "prc": "wis", "prf": "cha", "per": "cha", "rel": "int", "slt": "dex",
    "ste": "dex", "sur": "wis",
}  # fmt: skip

# CONFIG.DND5E.actorSizes
_SIZES = {"tiny": "tiny", "sm": "small", "med": "medium", "lg": "large", "huge": "huge", "grg": "gargantuan"}

# CONFIG.DND5E.itemProperties, the weapon ones, as the sheet names them.
_WEAPON_PROPERTIES = {
    "fin": "finesse", "ver": "versatile", "thr": "thrown", "lgt": "light", "hvy": "heavy", "rch": "reach",
    "amm": "ammunition", "two": "two-handed", "lod": "loading", "spc": "special", "rel": "reload",
    "ret": "returning", "sil": "silvered", "ada": "adamantine", "fir": "firearm", "foc": "focus", "mgc": "magical",
}  # fmt: skip

# CONFIG.DND5E.weaponProficienciesMap: a weapon type's proficiency in `traits.weaponProf`.
_WEAPON_PROFICIENCY = {"simpleM": "sim", "simpleR": "sim", "martialM": "mar", "martialR": "mar"}

# CONFIG.DND5E.armorClasses: the formula each calculation evaluates ("flat" and "natural" read `ac.flat`).
_AC_FORMULAS = {
    "default": "@attributes.ac.armor + @attributes.ac.dex",
    "mage": "13 + @abilities.dex.mod",
    "draconic": "13 + @abilities.dex.mod",
    "unarmoredMonk": "10 + @abilities.dex.mod + @abilities.wis.mod",
    "unarmoredBarb": "10 + @abilities.dex.mod + @abilities.con.mod",
}
_ARMOUR_TYPES = ("light", "medium", "heavy", "natural")

# CONFIG.DND5E.spellcastingTypes.leveled.progression: caster levels per class level.
_PROGRESSION_DIVISOR = {"full": (1, False), "half": (2, False), "third": (3, False), "artificer": (2, True)}

_RECOVERY = {"sr": "short", "lr": "long"}
_DAILY = {"day", "dawn", "dusk"}

# Features whose numbers the sheet holds: name -> what they set.
_FEATURES: dict[str, Callable[[dict[str, Any]], None]] = {
    "extra attack": lambda out: out.__setitem__("attacks_per_action", max(out.get("attacks_per_action", 1), 2)),
    "improved critical": lambda out: out.__setitem__("critical_range", min(out.get("critical_range", 20), 19)),
    "superior critical": lambda out: out.__setitem__("critical_range", min(out.get("critical_range", 20), 18)),
    "evasion": lambda out: out.__setitem__("evasion", True),
    "uncanny dodge": lambda out: out.__setitem__("uncanny_dodge", True),
    "magic resistance": lambda out: out.__setitem__("magic_resistance", True),
}
# Features whose numbers come from the class's scale values (`_scaled_features`): the item adds nothing.
_SCALED_ITEMS = {"sneak attack": "sneak_attack", "martial arts": "martial_arts"}
# The 2014 and 2024 casters who know their spells rather than prepare them from a list (dnd5e
# marks their spells "prepared" all the same, and leaves them unprepared).
_KNOWN_SPELLS = {"bard", "sorcerer", "ranger", "warlock"}

# Active effects: the keys this importer reads after applying them, as Foundry applies effects
# before it derives AC and bonuses. Any other key is reported.
_EFFECT_KEYS = re.compile(
    r"system\.(abilities\.(str|dex|con|int|wis|cha)\.(value|proficient)"
    r"|attributes\.ac\.(bonus|calc|flat|formula)"
    r"|attributes\.movement\.walk|attributes\.init\.bonus"
    r"|traits\.(dr|di|dv)\.value|skills\.[a-z]{3}\.value|attributes\.hp\.bonuses\.(level|overall)"
    r"|bonuses\.spell\.dc|bonuses\.(mwak|rwak|msak|rsak)\.attack)$"
)
_ADD, _MULTIPLY, _OVERRIDE, _UPGRADE, _DOWNGRADE = 2, 1, 5, 4, 3
_MODES: dict[int, Callable[[float, float], float]] = {
    _ADD: operator.add,
    _MULTIPLY: operator.mul,
    _OVERRIDE: lambda _a, b: b,
    _UPGRADE: max,
    _DOWNGRADE: min,
}


# Where a Foundry actor keeps what each field of the sheet is read from, said with a refusal.
_READ_FROM = {
    "name": "the actor's name",
    "abilities": "system.abilities and the effects that change them",
    "level": "the class items' system.levels",
    "classes": "the class items' system.levels",
    "ac": "system.attributes.ac, the equipped armour and shield, and the effects that change them",
    "max_hp": "system.attributes.hp.max, or the class items' Hit Points advancement and hp.bonuses",
    "hit_dice": "the class items' hd.denomination (hitDice before dnd5e 4.x)",
    "speed": "system.attributes.movement.walk, or the species item's",
    "initiative_bonus": "system.attributes.init",
    "attacks": "the weapon items",
    "spellcasting": "system.spells (spellN.max or override, pact) and system.bonuses.spell",
    "resources": "the items' uses.max and system.resources",
    "features": "the class's feature items",
}
_ITEM_SHAPES = (TypeError, ValueError, AttributeError, KeyError, IndexError, OverflowError)


def import_actor(data: dict[str, Any]) -> tuple[CharacterSheet, list[str]]:
    """The sheet for a Foundry dnd5e `character` actor, and a line for everything not mapped.

    The sheet is built through `checked_sheet`, so a number beyond the sheet's bounds is
    refused (`character/invalid`) naming the field and where the actor keeps it; a field in
    a shape no dnd5e version writes is refused (`foundry/unreadable`) naming its item."""
    try:
        sheet, notes = _read_actor(data)
    except _ITEM_SHAPES as exc:
        # A field of the actor itself (not one of its items) in a shape no dnd5e version writes.
        raise RuleError(
            "foundry/unreadable",
            f"the actor cannot be read: {type(exc).__name__}: {exc}",
            allowed="an actor as dnd5e 2.x to 5.x exports it",
        ) from None
    try:
        return checked_sheet(sheet), notes
    except InvalidSheet as refused:
        where = _READ_FROM.get(refused.field)
        raise InvalidSheet(
            refused.field,
            refused.message + (f" (read from {where})" if where else ""),
            allowed=refused.allowed or "",
        ) from None


def _read_actor(data: dict[str, Any]) -> tuple[CharacterSheet, list[str]]:
    system = _system_of(data)
    notes: list[str] = []
    items = [i for i in data.get("items") or [] if isinstance(i, dict)]
    system = _with_effects(data, system, items, notes)
    scores = _abilities(system)
    mods = {a: modifier(getattr(scores, _ABBREVIATION[a])) for a in _ABBREVIATION}

    classes = [i for i in items if i.get("type") == "class"]
    for c in classes:
        _check_class_levels(c)
    level = sum(_int(_sys(c).get("levels"), 1) for c in classes)
    if not classes:
        notes.append("no class items: level 1 assumed")
    level = max(level, 1)
    prof = (level + 7) // 4  # Foundry: Math.floor((level + 7) / 4), +2 at 1-4 ... +6 at 17-20
    roll = _RollData(
        mods,
        prof,
        level,
        {(_sys(c).get("identifier") or _slug(c.get("name", ""))): _int(_sys(c).get("levels"), 1) for c in classes},
    )
    scales = _scale_values(classes, items)
    roll.values.update({k: v for k, v in scales.items() if isinstance(v, float)})
    roll.dice.update({k: v for k, v in scales.items() if isinstance(v, str)})

    features: dict[str, Any] = _scaled_features(scales)
    attacks: list[SheetAttack] = []
    resources: list[Resource] = list(_actor_resources(system))
    spells: list[str] = []
    for item in items:
        kind = item.get("type", "?")
        handler = _ITEM_HANDLERS.get(kind, _not_used)
        try:
            handler(
                item,
                _Context(system, roll, notes, attacks, resources, spells, features, _knows_spells(classes), _casting(classes)),
            )
        except _ITEM_SHAPES as exc:
            raise RuleError(
                "foundry/unreadable",
                f"item '{item.get('name')}' ({kind}) cannot be read: {type(exc).__name__}: {exc}",
                allowed=f"a {kind} item as dnd5e 2.x to 5.x exports it",
            ) from None

    sheet = CharacterSheet(
        name=str(data.get("name") or "Unnamed"),
        level=level,
        classes={str(c.get("name")): _int(_sys(c).get("levels"), 1) for c in classes},
        subclass=next((str(i.get("name")) for i in items if i.get("type") == "subclass"), None),
        species=_species(system, items),
        abilities=scores,
        save_proficiencies=tuple(
            _ABBREVIATION[a] for a in _ABBREVIATION if _int(_get(system, f"abilities.{a}.proficient"), 0) >= 1
        ),
        skills=_skills(system, 1, notes),
        expertise=_skills(system, 2, notes),
        ac=_armour_class(system, items, roll, notes),
        max_hp=_max_hp(system, classes, roll, level, notes),
        hit_dice="+".join(f"{_int(_sys(c).get('levels'), 1)}{_hit_die(c)}" for c in classes if _hit_die(c)),
        speed=_speed(system, items, notes),
        size=cast(Size, _SIZES.get(str(_get(system, "traits.size") or "med"), "medium")),
        initiative_bonus=_initiative(system, roll, notes),
        resistances=_damage_traits(system, "dr", notes),
        immunities=_damage_traits(system, "di", notes),
        vulnerabilities=_damage_traits(system, "dv", notes),
        attacks=tuple(attacks),
        attacks_per_action=features.pop("attacks_per_action", 1),
        spellcasting=_spellcasting(system, classes, spells, roll, notes),
        resources=tuple(resources),
        features=Features(**features),
    )
    _report_saves_and_bonuses(system, _get(data, "flags.dnd5e") or {}, notes)
    return sheet, notes


# --- reading the JSON -------------------------------------------------------------------------


def _system_of(data: Any) -> dict[str, Any]:
    if not isinstance(data, dict) or "type" not in data:
        raise RuleError(
            "foundry/not-an-actor",
            "the file is not a Foundry VTT actor (no 'type')",
            allowed='a dnd5e actor exported with Foundry\'s "Export Data"',
        )
    if data["type"] != "character":
        raise RuleError(
            "foundry/not-a-character",
            f"the actor is of type '{data['type']}', not a player character",
            allowed="an actor of type 'character' (NPCs go through `combat monsters --import`)",
        )
    system = data.get("system") or data.get("data")
    if not isinstance(system, dict) or not isinstance(system.get("abilities"), dict):
        raise RuleError(
            "foundry/no-abilities",
            "the actor has no system.abilities",
            allowed="a dnd5e character with system.abilities {str {value} ...}",
        )
    for a in _ABBREVIATION:
        score = _get(system, f"abilities.{a}.value")
        if not isinstance(score, int | float) or isinstance(score, bool) or not math.isfinite(score):
            raise RuleError(
                "foundry/no-abilities",
                f"the actor has no score for system.abilities.{a}.value",
                allowed="six ability scores: str, dex, con, int, wis, cha",
            )
    return system


def _sys(item: dict[str, Any]) -> dict[str, Any]:
    found = item.get("system") or item.get("data") or {}
    return found if isinstance(found, dict) else {}


def _get(tree: Any, path: str, default: Any = None) -> Any:
    for part in path.split("."):
        if not isinstance(tree, dict) or part not in tree:
            return default
        tree = tree[part]
    return tree


def _num(value: Any, default: float | None = None) -> float | None:
    """A number from Foundry's numbers and numeric strings ("+1", "2"); None for a formula."""
    if isinstance(value, bool):
        return float(value)
    if isinstance(value, int | float):
        found = float(value)
    elif isinstance(value, str):
        text = value.strip().replace(" ", "")
        if text == "":
            return default
        try:
            found = float(text)
        except ValueError:
            return None
    else:
        return default
    return found if math.isfinite(found) else None  # "inf", "nan": no number the sheet can hold


def _int(value: Any, default: int = 0) -> int:
    found = _num(value, default)
    return int(found) if found is not None else default


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")


def _properties(system: dict[str, Any]) -> set[str]:
    """`properties`: a list since dnd5e 3.0, an object of booleans before."""
    found = system.get("properties") or []
    if isinstance(found, dict):
        return {k for k, v in found.items() if v}
    return {str(p) for p in found}


def _type_value(system: dict[str, Any], old_key: str) -> str:
    """`type.value` since dnd5e 3.0 (`weaponType`, `armor.type` before)."""
    found = _get(system, "type.value")
    return str(found if found else _get(system, old_key) or "")


def _scale_values(classes: list[dict[str, Any]], items: list[dict[str, Any]]) -> dict[str, float | str]:
    """`@scale.CLASS.NAME`: each class's and subclass's ScaleValue advancement read at the class
    level: a number (Action Surge's uses, Rage Damage) or, for the "dice" type, the dice
    (`{number, faces}`, the number left out for one: a Rogue's Sneak Attack "4d6", a Monk's
    Martial Arts die "1d6")."""
    levels = {(_sys(c).get("identifier") or _slug(str(c.get("name", "")))): _int(_sys(c).get("levels"), 1) for c in classes}
    found: dict[str, float | str] = {}
    for item in items:
        if item.get("type") not in ("class", "subclass"):
            continue
        system = _sys(item)
        identifier = system.get("identifier") or _slug(str(item.get("name", "")))
        level = levels.get(system.get("classIdentifier") or identifier, 0)
        for advancement in system.get("advancement") or []:
            if not isinstance(advancement, dict) or advancement.get("type") != "ScaleValue":
                continue
            scale = _get(advancement, "configuration.scale") or {}
            reached = [int(k) for k in scale if str(k).isdigit() and int(k) <= level]
            step = scale.get(str(max(reached))) if reached else None
            key = f"scale.{identifier}.{_get(advancement, 'configuration.identifier')}"
            faces = _int(_get(step, "faces"), 0)
            if _get(advancement, "configuration.type") == "dice" or faces:
                if faces:  # a dice scale not yet reached (Sneak Attack before level 1) gives nothing
                    found[key] = f"{_int(_get(step, 'number'), 1) or 1}d{faces}"
                continue
            value = _num(_get(step, "value")) if reached else 0.0
            if value is not None:
                found[key] = value
    return found


# The ScaleValue advancements a sheet's features are (dnd5e's SRD classes name them so: the
# 2014 Monk's die is `die`, the 2024 Monk's `martial-arts`).
_SCALED_FEATURES = {
    "sneak-attack": "sneak_attack",
    "rage-damage": "rage_damage",
    "martial-arts": "martial_arts",
    "die": "martial_arts",
}


def _scaled_features(scales: dict[str, float | str]) -> dict[str, Any]:
    """Sneak Attack, Rage Damage and the Martial Arts die from the classes' scale values, and
    with Rage Damage the resistances Rage gives ("Resistance to Bludgeoning, Piercing, and
    Slashing damage", as the builder reads it from the SRD)."""
    found: dict[str, Any] = {}
    for key, value in sorted(scales.items(), key=lambda kv: kv[0].endswith(".die")):
        _, owner, name = key.split(".", 2)
        field = _SCALED_FEATURES.get(name)
        if field is None or field in found or (name == "die" and owner != "monk"):
            continue
        if field == "rage_damage" and isinstance(value, float) and value > 0:
            found[field] = int(value)
            found["rage_resistances"] = tuple(srd_data()["classes"]["Barbarian"].get("rage_resistances", ()))
        elif field != "rage_damage" and isinstance(value, str):
            found[field] = value
    return found


# --- formulas -----------------------------------------------------------------------------------


class _RollData:
    """What Foundry's `@` references read in the formulas the importer evaluates."""

    def __init__(self, mods: dict[str, int], prof: int, level: int, class_levels: dict[str, int]):
        self.values: dict[str, float] = {f"abilities.{a}.mod": m for a, m in mods.items()}
        self.values["attributes.prof"] = prof
        self.values["prof"] = prof
        self.values["details.level"] = level
        for identifier, levels in class_levels.items():
            self.values[f"classes.{identifier}.levels"] = levels
        self.mods = mods
        self.prof = prof
        self.dice: dict[str, str] = {}  # the dice scale values ("scale.rogue.sneak-attack": "4d6")

    def die(self, formula: str) -> str | None:
        """The die of a weapon's damage formula, its `@mod` left to the sheet: "1d8 + @mod",
        "@scale.monk.die + @mod" (the scale's dice), "1 + @mod" (an Unarmed Strike's 1)."""

        def scaled(match: re.Match[str]) -> str:
            return self.dice.get(match.group(1), match.group(0))

        text = re.sub(r"@(scale\.[\w-]+\.[\w-]+)(?:\.die)?\b", scaled, formula)
        found = _die_of(text)
        if found is not None:
            return found
        constant = re.fullmatch(r"\s*(\d+)\s*(?:\+\s*@mod\s*)?", text)
        return constant.group(1) if constant else None

    def evaluate(self, formula: str, extra: dict[str, float] | None = None) -> int | None:
        """A simple formula ("13 + @abilities.dex.mod", "@prof", "floor(@classes.fighter.levels / 2)"),
        or None when it names something unknown or rolls dice."""
        values = {**self.values, **(extra or {})}
        missing = False

        def name(match: re.Match[str]) -> str:
            nonlocal missing
            found = values.get(match.group(1))
            if found is None:
                missing = True
                return "0"
            return str(found)

        text = re.sub(r"@([\w.-]+)", name, formula.strip() or "0")
        if missing:
            return None
        try:
            return int(_arithmetic(ast.parse(text, mode="eval").body))
        except (SyntaxError, ValueError, ZeroDivisionError, OverflowError, TypeError, RecursionError):
            return None  # not simple arithmetic, or no finite number (1e308 * 10, max())


_OPERATORS: dict[type, Callable[[float, float], float]] = {
    ast.Add: operator.add,
    ast.Sub: operator.sub,
    ast.Mult: operator.mul,
    ast.Div: operator.truediv,
    ast.FloorDiv: operator.floordiv,
}
_FUNCTIONS: dict[str, Callable[..., float]] = {"floor": math.floor, "ceil": math.ceil, "max": max, "min": min, "round": round}


def _arithmetic(node: ast.expr) -> float:
    if isinstance(node, ast.Constant) and isinstance(node.value, int | float):
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub | ast.UAdd):
        inner = _arithmetic(node.operand)
        return -inner if isinstance(node.op, ast.USub) else inner
    if isinstance(node, ast.BinOp) and type(node.op) in _OPERATORS:
        return _OPERATORS[type(node.op)](_arithmetic(node.left), _arithmetic(node.right))
    if isinstance(node, ast.Call) and isinstance(node.func, ast.Name) and node.func.id in _FUNCTIONS and not node.keywords:
        return _FUNCTIONS[node.func.id](*(_arithmetic(a) for a in node.args))
    raise ValueError("not simple arithmetic")


# --- active effects -----------------------------------------------------------------------------


def _active_effects(data: dict[str, Any], items: list[dict[str, Any]]) -> list[tuple[str, dict[str, Any]]]:
    """The effects that apply: the actor's own, and the items' with `transfer` (Foundry v11+
    applies those from the item). An actor effect whose `origin` names an item is that item's
    effect copied onto the actor (Foundry before v11): the item's is then not counted twice."""
    found: list[tuple[str, dict[str, Any]]] = []
    copied_from = set()
    for effect in data.get("effects") or []:
        if isinstance(effect, dict):
            found.append(("", effect))
            origin = str(effect.get("origin") or "")
            if ".Item." in origin or origin.startswith("Item."):
                copied_from.add(origin.rsplit(".", 1)[-1])
    for item in items:
        if item.get("_id") in copied_from:
            continue
        for effect in item.get("effects") or []:
            if isinstance(effect, dict) and effect.get("transfer", True):
                found.append((f"item '{item.get('name')}'", effect))
    return found


def _with_effects(data: dict[str, Any], system: dict[str, Any], items: list[dict[str, Any]], notes: list[str]) -> dict[str, Any]:
    """A copy of `system` with the effects' changes applied to the keys this importer reads."""
    changed = copy.deepcopy(system)
    changed.setdefault("attributes", {}).setdefault("ac", {})["bonus"] = 0  # Foundry's prepareBaseArmorClass
    for source, effect in _active_effects(data, items):
        name = effect.get("name") or effect.get("label") or "unnamed"
        said = f"effect '{name}'" + (f" (from {source})" if source else "")
        changes = [c for c in effect.get("changes") or [] if isinstance(c, dict)]
        why = _not_applied_because(effect, source, items)
        for change in changes:
            key, mode, value = str(change.get("key", "")), _int(change.get("mode"), _ADD), change.get("value")
            if why:
                notes.append(f"{said}: changes {key}, not applied ({why})")
            elif not _EFFECT_KEYS.match(key) or not _apply_change(changed, key[len("system.") :], mode, value):
                notes.append(f"{said}: changes {key}, not applied")
        for status in effect.get("statuses") or []:
            notes.append(f"{said}: status '{status}', not applied")
    return changed


def _not_applied_because(effect: dict[str, Any], source: str, items: list[dict[str, Any]]) -> str:
    """Why Foundry would not apply the effect now, or why a sheet should not hold it: disabled,
    suppressed (its item unequipped, or not attuned when it must be), or temporary (a spell's)."""
    if effect.get("disabled"):
        return "disabled"
    if any(_get(effect, f"duration.{d}") for d in ("rounds", "seconds", "turns")):
        return "temporary"
    item = next((i for i in items if source == f"item '{i.get('name')}'"), None)
    if item is not None:
        system = _sys(item)
        if system.get("equipped") is False:
            return "its item is not equipped"
        if not _attuned_if_required(system):
            return "its item is not attuned"
    return ""


def _attuned_if_required(system: dict[str, Any]) -> bool:
    """`attunement` "required" and `attuned` since dnd5e 3.0; 0 none, 1 required, 2 attuned before."""
    return bool(system.get("attuned")) or system.get("attunement") not in ("required", 1)


def _apply_change(system: dict[str, Any], path: str, mode: int, value: Any) -> bool:
    """One change, as Foundry's ActiveEffect modes do (2 add, 1 multiply, 5 override, 4 upgrade,
    3 downgrade); False for what is not applied (custom mode 0, a formula)."""
    *parents, last = path.split(".")
    node = system
    for part in parents:
        node = node.setdefault(part, {})
        if not isinstance(node, dict):
            return False
    current = node.get(last)
    if isinstance(current, list) or (last == "value" and parents[0] == "traits"):
        listed = list(current or [])
        if mode in (_ADD, _OVERRIDE):
            node[last] = ([] if mode == _OVERRIDE else listed) + [v.strip() for v in str(value).split(",") if v.strip()]
            return True
        return False
    number = _num(value)
    if mode == _ADD and parents[:2] == ["attributes", "hp"] and (number is None or _num(current, 0) is None):
        # A formula field (Draconic Resilience's "@classes.sorcerer.levels"): Foundry adds a term.
        node[last] = f"{current} + {value}" if str(current or "").strip() else str(value)
        return True
    if mode == _OVERRIDE and number is None:
        node[last] = value  # a calculation's name, a formula
        return True
    if number is None:
        return False
    base = _num(current, 0)
    if base is None:
        return False
    combine = _MODES.get(mode)
    if combine is None:
        return False
    result = combine(base, number)
    if not math.isfinite(result):
        return False
    node[last] = int(result) if float(result).is_integer() else result
    return True


# --- abilities, skills, traits ------------------------------------------------------------------


def _abilities(system: dict[str, Any]) -> Abilities:
    return Abilities(**{full: int(_get(system, f"abilities.{short}.value")) for short, full in _ABBREVIATION.items()})


def _skills(system: dict[str, Any], level: int, notes: list[str]) -> tuple[str, ...]:
    """`skills.KEY.value`: 1 proficient, 2 expertise (0.5 is Jack of All Trades' half, reported once)."""
    found = []
    for key, skill in (system.get("skills") or {}).items():
        if not isinstance(skill, dict) or key not in _SKILLS:
            continue
        value = _num(skill.get("value"), 0) or 0
        if value == level:
            found.append(_SKILLS[key])
        if level == 1:
            if value == 0.5:
                notes.append(f"skill {_SKILLS[key]}: half proficiency (Jack of All Trades), not mapped")
            ability = skill.get("ability")
            if ability and ability != _SKILL_DEFAULT_ABILITY[key]:
                notes.append(
                    f"skill {_SKILLS[key]}: rolled with {ability}, not mapped (the sheet uses {_SKILL_DEFAULT_ABILITY[key]})"
                )
            if any(_get(skill, f"bonuses.{b}") for b in ("check", "passive")):
                notes.append(f"skill {_SKILLS[key]}: bonuses {skill['bonuses']}, not mapped")
    return tuple(sorted(found))


def _damage_traits(system: dict[str, Any], key: str, notes: list[str]) -> tuple[str, ...]:
    trait = _get(system, f"traits.{key}") or {}
    found = [str(v) for v in trait.get("value") or []]
    label = {"dr": "resistances", "di": "immunities", "dv": "vulnerabilities"}[key]
    if trait.get("custom"):
        notes.append(f"damage {label}: custom '{trait['custom']}', not mapped")
    if trait.get("bypasses"):
        notes.append(f"damage {label}: only against nonmagical attacks ({', '.join(trait['bypasses'])}), mapped as against all")
    return tuple(found)


def _species(system: dict[str, Any], items: list[dict[str, Any]]) -> str | None:
    race = next((i for i in items if i.get("type") == "race"), None)
    if race is not None:
        return str(race.get("name"))
    named = _get(system, "details.race")  # dnd5e 2.x: the species' name as text
    return str(named) if isinstance(named, str) and named else None


def _speed(system: dict[str, Any], items: list[dict[str, Any]], notes: list[str]) -> int:
    """`attributes.movement.walk`, else the species item's (Foundry's `prepareRace`)."""
    movement = _get(system, "attributes.movement") or {}
    race = next((i for i in items if i.get("type") == "race"), None)
    race_movement = _get(_sys(race), "movement") if race else {}
    for other in ("fly", "swim", "climb", "burrow"):
        speed = movement.get(other) or (race_movement or {}).get(other)
        if speed:
            notes.append(f"speed: {other} {speed} ft., not mapped")
    walk = _num(movement.get("walk"))
    if walk is None:
        walk = _num((race_movement or {}).get("walk"))
    if walk is None:
        notes.append("speed: no walking speed given, 30 ft. assumed")
        return 30
    return int(walk)


def _initiative(system: dict[str, Any], roll: _RollData, notes: list[str]) -> int | None:
    """Dexterity (or `init.ability`) + `init.bonus`; None (the sheet's Dexterity) when that is all."""
    init = _get(system, "attributes.init") or {}
    ability = str(init.get("ability") or "dex")
    bonus = roll.evaluate(str(init.get("bonus") or "0"))
    if bonus is None:
        notes.append(f"initiative bonus '{init.get('bonus')}': not a simple number, not mapped")
        bonus = 0
    bonus += _int(init.get("value"), 0)  # dnd5e 2.x kept a flat bonus in init.value
    if ability == "dex" and bonus == 0:
        return None
    return roll.mods.get(ability, roll.mods["dex"]) + bonus


def _report_saves_and_bonuses(system: dict[str, Any], flags: dict[str, Any], notes: list[str]) -> None:
    for short in _ABBREVIATION:
        for roll in ("check", "save"):
            if _get(system, f"abilities.{short}.bonuses.{roll}"):
                notes.append(f"ability {short}: {roll} bonus '{_get(system, f'abilities.{short}.bonuses.{roll}')}', not mapped")
    for roll in ("check", "save", "skill"):
        if _get(system, f"bonuses.abilities.{roll}"):
            notes.append(f"bonuses.abilities.{roll} '{_get(system, f'bonuses.abilities.{roll}')}': not mapped")
    for kind in ("mwak", "rwak", "msak", "rsak"):
        if _get(system, f"bonuses.{kind}.damage"):
            notes.append(f"bonuses.{kind}.damage '{_get(system, f'bonuses.{kind}.damage')}': not mapped")
    for sense, distance in (_get(system, "attributes.senses") or {}).items():
        if sense not in ("units", "special") and _num(distance, 0):
            notes.append(f"sense {sense} {int(_num(distance, 0) or 0)} ft.: not mapped")
    if _get(system, "attributes.senses.special"):
        notes.append(f"senses '{_get(system, 'attributes.senses.special')}': not mapped")
    conditions = list(_get(system, "traits.ci.value") or []) + (
        [_get(system, "traits.ci.custom")] if _get(system, "traits.ci.custom") else []
    )
    if conditions:
        notes.append(f"condition immunities {', '.join(map(str, conditions))}: not mapped")
    for flag in ("jackOfAllTrades", "initiativeAlert", "remarkableAthlete", "powerfulBuild", "reliableTalent"):
        if flags.get(flag):
            notes.append(f"flag {flag}: not mapped")


# --- armour class -------------------------------------------------------------------------------


def _magic_available(system: dict[str, Any]) -> bool:
    """Foundry's `magicAvailable`: the item is magical (`mgc`) and attuned if it must be."""
    return _attuned_if_required(system) and "mgc" in _properties(system)


def _magic_bonus(item: dict[str, Any], field: str, notes: list[str]) -> int:
    system = _sys(item)
    bonus = _int(_get(system, field), 0)
    if bonus and not _magic_available(system):
        notes.append(
            f"item '{item.get('name')}': magical bonus +{bonus} not applied (not marked magical, or not attuned), as in Foundry"
        )
        return 0
    return bonus


def _armour_class(system: dict[str, Any], items: list[dict[str, Any]], roll: _RollData, notes: list[str]) -> int:
    """Foundry's `prepareArmorClass`: by `attributes.ac.calc`. "flat" is `ac.flat` and nothing
    else; "natural" is `ac.flat` + shield + bonuses; every other calculation evaluates its
    formula with `@attributes.ac.armor` (the equipped armour's value + magical bonus, else 10)
    and `@attributes.ac.dex` (Dex capped by the armour's `dex`, 0 in heavy armour), then adds
    the equipped shield and `ac.bonus` (effects such as the Defense fighting style)."""
    ac = _get(system, "attributes.ac") or {}
    calc = str(ac.get("calc") or "default")
    equipped = [i for i in items if i.get("type") == "equipment" and _sys(i).get("equipped")]
    armours = [i for i in equipped if _type_value(_sys(i), "armor.type") in _ARMOUR_TYPES]
    shields = [i for i in equipped if _type_value(_sys(i), "armor.type") == "shield"]
    if len(armours) > 1:
        notes.append(f"armour: {len(armours)} pieces equipped, only '{armours[0].get('name')}' counted (as Foundry warns)")
    if len(shields) > 1:
        notes.append(f"shields: {len(shields)} equipped, only '{shields[0].get('name')}' counted (as Foundry warns)")
    if calc not in _AC_FORMULAS and calc not in ("flat", "natural", "custom"):
        notes.append(f"AC calculation '{calc}': unknown, read as flat {ac.get('value')} (as Foundry migrates it)")
        calc, ac = "flat", {**ac, "flat": ac.get("value")}
    if calc == "flat":
        return _int(ac.get("flat"), 10)
    if calc == "natural":
        base = _int(ac.get("flat"), 10)
    else:
        armour_value, dex = 10, roll.mods["dex"]
        if armours:
            worn = _sys(armours[0])
            armour_value = _int(_get(worn, "armor.value"), 10) + _magic_bonus(armours[0], "armor.magicalBonus", notes)
            cap = _num(_get(worn, "armor.dex"))
            dex = 0 if _type_value(worn, "armor.type") == "heavy" else min(roll.mods["dex"], int(cap) if cap is not None else 99)
            if calc in ("unarmoredMonk", "unarmoredBarb", "mage", "draconic"):
                notes.append(
                    f"AC calculation '{calc}' with '{armours[0].get('name')}' worn: the armour is ignored, as Foundry's formula does"
                )
        formula = str(ac.get("formula") or "") if calc == "custom" else _AC_FORMULAS[calc]
        found = roll.evaluate(
            formula,
            {"attributes.ac.armor": armour_value, "attributes.ac.dex": dex, "attributes.ac.flat": _int(ac.get("flat"), 10)},
        )
        if found is None:
            notes.append(
                f"AC formula '{formula}': not simple arithmetic, the default (armour + Dex) used instead, as Foundry does"
            )
            found = armour_value + dex
        base = found
    shield = 0
    if shields:
        shield = _int(_get(_sys(shields[0]), "armor.value"), 2) + _magic_bonus(shields[0], "armor.magicalBonus", notes)
    bonus = _num(ac.get("bonus"), 0)
    if bonus is None:
        notes.append(f"AC bonus '{ac.get('bonus')}': not a number, not applied")
        bonus = 0
    return int(base + shield + bonus)


# --- hit points ---------------------------------------------------------------------------------


def _check_class_levels(cls: dict[str, Any]) -> None:
    """A class item's `levels`: 1 to 20, as Foundry's class data model allows (the hit point
    advancement is read level by level, so a count past that is refused before it is read)."""
    given = _sys(cls).get("levels")
    levels = _num(given, 1)
    if levels is None or not levels.is_integer() or not 1 <= levels <= 20:
        raise RuleError(
            "foundry/unreadable",
            f"class '{cls.get('name')}': system.levels {given!r} is not a class level",
            allowed="a whole number from 1 to 20",
        )


def _hit_die(cls: dict[str, Any]) -> str:
    """`hd.denomination` (dnd5e 4.x) or `hitDice` (before)."""
    system = _sys(cls)
    return str(_get(system, "hd.denomination") or system.get("hitDice") or "")


def _max_hp(system: dict[str, Any], classes: list[dict[str, Any]], roll: _RollData, level: int, notes: list[str]) -> int:
    """`attributes.hp.max` when set. Null (dnd5e 3.x+): as Foundry, each class level's entry of
    its Hit Points advancement ("max": the die's faces, "avg": half + 1, or the roll) + the
    Constitution modifier, at least 1 a level, + `hp.bonuses`: `level` times the character
    level, + `overall`, each a number or a formula Foundry's `simplifyBonus` evaluates with the
    roll data ("@classes.sorcerer.levels", "@abilities.con.mod"). A level with no entry is filled
    in as the rules' fixed value (the first character level the die's maximum, others the
    average) and reported: Foundry itself would count it as 0."""
    hp = _get(system, "attributes.hp") or {}
    given = _num(hp.get("max"))
    if given is not None:
        return int(given)
    con = roll.mods["con"]
    total = 0
    first = True
    for cls in sorted(classes, key=lambda c: c.get("_id") != _get(system, "details.originalClass")):
        faces = _int(_hit_die(cls).lstrip("d"), 8)
        advancement = next(
            (a for a in _sys(cls).get("advancement") or [] if isinstance(a, dict) and a.get("type") == "HitPoints"), {}
        )
        recorded = advancement.get("value") or {}
        for lvl in range(1, _int(_sys(cls).get("levels"), 1) + 1):
            entry = recorded.get(str(lvl))
            if entry == "max":
                rolled = faces
            elif entry == "avg":
                rolled = faces // 2 + 1
            elif _num(entry) is not None:
                rolled = int(_num(entry) or 0)
            else:
                rolled = faces if first and lvl == 1 else faces // 2 + 1
                notes.append(f"class '{cls.get('name')}' level {lvl}: no hit points recorded, {rolled} used")
            total += max(rolled + con, 1)
        first = False
    bonuses = hp.get("bonuses") or {}
    per_level, overall = (roll.evaluate(str(bonuses.get(k) or "0")) for k in ("level", "overall"))
    if per_level is None or overall is None:
        notes.append(f"hit point bonuses {bonuses}: not simple formulas, not applied")
    else:
        total += per_level * level + overall
    if not classes:
        notes.append("hit points: no maximum and no class, 1 assumed")
        return 1
    return total


# --- items --------------------------------------------------------------------------------------


class _Context:
    def __init__(
        self,
        system: dict[str, Any],
        roll: _RollData,
        notes: list[str],
        attacks: list[SheetAttack],
        resources: list[Resource],
        spells: list[str],
        features: dict[str, Any],
        knows_spells: frozenset[str] = frozenset(),
        casting: frozenset[str] = frozenset(),
    ):
        self.system, self.roll, self.notes = system, roll, notes
        self.attacks, self.resources, self.spells, self.features = attacks, resources, spells, features
        self.knows_spells = knows_spells  # the identifiers of the classes that know their spells
        self.casting = casting  # the identifiers of the classes that cast spells


def _not_used(item: dict[str, Any], ctx: _Context) -> None:
    ctx.notes.append(f"item '{item.get('name')}' ({item.get('type')}): not used in combat")


def _mapped_elsewhere(item: dict[str, Any], ctx: _Context) -> None:
    """Class, subclass and species items are read for the sheet's level, classes and species."""


def _equipment(item: dict[str, Any], ctx: _Context) -> None:
    system = _sys(item)
    kind = _type_value(system, "armor.type")
    if kind in _ARMOUR_TYPES or kind == "shield":
        if not system.get("equipped"):
            ctx.notes.append(
                f"item '{item.get('name')}' ({kind} {'shield' if kind == 'shield' else 'armour'}): not equipped, not counted in AC"
            )
        return
    _uses(item, ctx, also_report=not _has_changes(item))


def _has_changes(item: dict[str, Any]) -> bool:
    """An item whose effects change numbers: each change is applied or reported on its own."""
    return any(isinstance(e, dict) and e.get("changes") for e in item.get("effects") or [])


def _weapon(item: dict[str, Any], ctx: _Context) -> None:
    """A weapon item as a SheetAttack: its die and type, properties, ranges, magical bonus and
    proficiency; a numeric attack bonus (the item's, the actor's `bonuses.mwak/rwak.attack`)
    makes the whole to-hit an override."""
    name, system, notes = str(item.get("name")), _sys(item), ctx.notes
    kind = _type_value(system, "weaponType")
    props = _properties(system)
    ranged = kind.endswith("R")
    dice, damage_type, versatile = _weapon_damage(name, system, props, notes, ctx.roll)
    if dice is None:
        notes.append(f"item '{name}' (weapon): no damage die, not mapped")
        return
    magic = _magic_bonus(item, "magicalBonus", notes)
    attack = SheetAttack(
        name=name,
        damage_dice=dice,
        damage_type=damage_type,
        properties=tuple(_WEAPON_PROPERTIES[p] for p in sorted(props) if p in _WEAPON_PROPERTIES),
        versatile_dice=versatile,
        normal_range=_int(_get(system, "range.value")) or None if ranged or "thr" in props else None,
        long_range=_int(_get(system, "range.long")) or None if ranged or "thr" in props else None,
        ranged=ranged,
        ability=_ABBREVIATION.get(str(_weapon_ability(system) or "")),
        proficient=_weapon_proficient(system, kind, ctx.system),
        magic=magic,
    )
    extra = _weapon_attack_bonus(name, system, ranged, ctx)
    if extra:
        attack = _with_to_hit(attack, extra, ctx)
    if kind in ("natural", "improv", "siege") or (kind and kind not in _WEAPON_PROFICIENCY):
        notes.append(f"item '{name}' (weapon): type '{kind}', mapped as a melee weapon")
    ctx.attacks.append(attack)
    _uses(item, ctx, also_report=False)


def _weapon_damage(
    name: str, system: dict[str, Any], props: set[str], notes: list[str], roll: _RollData
) -> tuple[str | None, str | None, str | None]:
    damage = system.get("damage") or {}
    if not isinstance(damage, dict):
        raise _bad_damage(name, "damage", damage)
    base = damage.get("base")
    if isinstance(base, dict):  # dnd5e 4.x
        base = {**base, **_die_part(name, "damage.base", base)}
        custom = roll.die(str(_get(base, "custom.formula") or "")) if _get(base, "custom.enabled") else None
        if custom is not None:  # an Unarmed Strike's "@scale.monk.die" or "1"
            base = {**base, "custom": None}
        elif _get(base, "custom.enabled"):
            notes.append(f"item '{name}' (weapon): custom damage formula '{_get(base, 'custom.formula')}', not mapped")
        if base.get("bonus"):
            notes.append(f"item '{name}' (weapon): damage bonus '{base['bonus']}', not mapped")
        types = base.get("types") or []
        types = [types] if isinstance(types, str) else types
        if not isinstance(types, list) or not all(isinstance(k, str) for k in types):
            raise _bad_damage(name, "damage.base.types", types)
        if len(types) > 1:
            notes.append(f"item '{name}' (weapon): damage types {types}, the first taken")
        dice = f"{base['number']}d{base['denomination']}" if base.get("number") and base.get("denomination") else custom
        versatile_part = damage.get("versatile") or {}
        versatile_part = _die_part(name, "damage.versatile", versatile_part if isinstance(versatile_part, dict) else {})
        versatile = None
        if "ver" in props:
            if versatile_part.get("number") and versatile_part.get("denomination"):
                versatile = f"{versatile_part['number']}d{versatile_part['denomination']}"
            elif dice:
                step = {4: 6, 6: 8, 8: 10, 10: 12}.get(int(base["denomination"]), int(base["denomination"]))
                versatile = f"{base['number']}d{step}"
                notes.append(f"item '{name}' (weapon): versatile damage not given, one die size up ({versatile})")
        return dice, (types[0] if types else None), versatile
    parts = damage.get("parts") or []  # dnd5e 2.x and 3.x: [["1d8 + @mod", "slashing"], ...]
    if not parts:
        return None, None, None
    if not isinstance(parts, list):
        raise _bad_damage(name, "damage.parts", parts)
    for i, part in enumerate(parts):
        if not (
            isinstance(part, list)
            and 1 <= len(part) <= 2
            and isinstance(part[0], str)
            and (len(part) == 1 or part[1] is None or isinstance(part[1], str))
        ):
            raise _bad_damage(name, f"damage.parts[{i}]", part)
    formula, damage_type = parts[0][0], parts[0][1] if len(parts[0]) > 1 else None
    dice = roll.die(formula)
    if dice is None or _rest_of(formula):
        notes.append(f"item '{name}' (weapon): damage '{formula}' read as {dice}")
    for extra in parts[1:]:
        notes.append(
            f"item '{name}' (weapon): extra damage {extra[0]} {extra[1] if len(extra) > 1 else ''}".rstrip() + ", not mapped"
        )
    versatile = _die_of(str(damage.get("versatile") or "")) if "ver" in props else None
    return dice, damage_type or None, versatile


# A weapon's dice as a table rolls them: Foundry allows any positive count and size, but its
# die sizes run to d100 and no weapon rolls a hundred dice.
_DIE_RANGE = range(1, 101)


def _die_part(name: str, where: str, part: dict[str, Any]) -> dict[str, int | None]:
    """A 4.x damage part's `number` and `denomination` as whole numbers (or None when empty),
    refused naming the item when either is anything else."""
    found: dict[str, int | None] = {}
    for key in ("number", "denomination"):
        given = part.get(key)
        if given in (None, "", 0):
            found[key] = None
            continue
        value = _num(given) if not isinstance(given, bool) else None
        if value is None or not value.is_integer() or int(value) not in _DIE_RANGE:
            raise RuleError(
                "foundry/unreadable",
                f"item '{name}' (weapon): {where}.{key} is {given!r}, not a count of dice or a die size",
                allowed=f"{where}.number and .denomination whole numbers from 1 to 100 (1 and 8 for 1d8), or empty",
            )
        found[key] = int(value)
    return found


def _bad_damage(name: str, where: str, given: Any) -> RuleError:
    return RuleError(
        "foundry/unreadable",
        f"item '{name}' (weapon): {where} is {given!r}, in no shape dnd5e writes",
        allowed='damage.base {number, denomination, types: [...]} (dnd5e 4.x and later) or damage.parts [["1d8 + @mod", "slashing"], ...] (before)',
    )


def _die_of(formula: str) -> str | None:
    found = re.search(r"\d+d\d+", formula)
    return found.group(0) if found else None


def _rest_of(formula: str) -> str:
    """What a 2.x damage formula adds beyond its die and `@mod`."""
    return re.sub(r"\d+d\d+|@mod|@scale\.[\w.-]+|[\s+]", "", formula)


def _weapon_ability(system: dict[str, Any]) -> str | None:
    """The ability set on the item (dnd5e 2.x/3.x `ability`) or its attack activity (4.x)."""
    if system.get("ability"):
        return str(system["ability"])
    for activity in (system.get("activities") or {}).values():
        if isinstance(activity, dict) and activity.get("type") == "attack" and _get(activity, "attack.ability"):
            return str(_get(activity, "attack.ability"))
    return None


def _weapon_proficient(system: dict[str, Any], kind: str, actor: dict[str, Any]) -> bool:
    """`proficient` (a flag in 2.x, 0/1 since 3.x); null: Foundry's `proficiencyMultiplier`,
    the type's proficiency (sim, mar) or the base item in `traits.weaponProf`."""
    given = system.get("proficient")
    if given is not None:
        return bool(given)
    known = set(_get(actor, "traits.weaponProf.value") or [])
    return kind == "natural" or _WEAPON_PROFICIENCY.get(kind) in known or _get(system, "type.baseItem") in known


def _weapon_attack_bonus(name: str, system: dict[str, Any], ranged: bool, ctx: _Context) -> int:
    found = 0
    sources = [system.get("attackBonus"), _get(ctx.system, f"bonuses.{'rwak' if ranged else 'mwak'}.attack")]
    for activity in (system.get("activities") or {}).values():
        if isinstance(activity, dict) and activity.get("type") == "attack":
            sources.append(_get(activity, "attack.bonus"))
            break
    for source in sources:
        if not source:
            continue
        value = ctx.roll.evaluate(str(source))
        if value is None:
            ctx.notes.append(f"item '{name}' (weapon): attack bonus '{source}', not mapped")
        else:
            found += value
    return found


def _with_to_hit(attack: SheetAttack, extra: int, ctx: _Context) -> SheetAttack:
    """The whole to-hit as the sheet would compute it, + `extra`, given as the override."""
    probe = CharacterSheet(
        name="probe",
        ac=10,
        max_hp=1,
        proficiency_bonus=ctx.roll.prof,
        abilities=Abilities(**{full: int(_get(ctx.system, f"abilities.{short}.value")) for short, full in _ABBREVIATION.items()}),
        attacks=(attack,),
    )
    return msgspec.structs.replace(attack, bonus=attack_profiles(probe)[0].bonus + extra)


def _uses(item: dict[str, Any], ctx: _Context, *, also_report: bool) -> None:
    """Limited uses (`uses.max` and its recovery) as a Resource. `also_report`: say what of the
    item is not mapped besides."""
    name, system = str(item.get("name")), _sys(item)
    maximum = _get(system, "uses.max")
    if maximum in (None, "", 0, "0"):
        if also_report:
            _not_mapped_feature(item, ctx)
        return
    uses = ctx.roll.evaluate(str(maximum))
    if uses is None:
        ctx.notes.append(f"{item.get('type')} '{name}': uses '{maximum}' not a simple formula, not mapped")
        return
    recovery = _get(system, "uses.recovery")
    periods = [str(r.get("period")) for r in recovery if isinstance(r, dict)] if isinstance(recovery, list) else []
    if not periods and _get(system, "uses.per"):  # dnd5e 2.x
        periods = [str(_get(system, "uses.per"))]
    recovers = next((_RECOVERY[p] for p in periods if p in _RECOVERY), None)
    if recovers is None:
        if any(p in _DAILY for p in periods):
            ctx.notes.append(f"{item.get('type')} '{name}': recovers each {'/'.join(periods)}, read as on a long rest")
            recovers = "long"
        else:
            ctx.notes.append(f"{item.get('type')} '{name}': {uses} uses recovered by {periods or 'nothing'}, not mapped")
            return
    ctx.resources.append(Resource(name=name, uses=uses, recovers=recovers))  # type: ignore[arg-type]


def _not_mapped_feature(item: dict[str, Any], ctx: _Context) -> None:
    ctx.notes.append(f"{item.get('type')} '{item.get('name')}': not mapped (the GM applies it)")


def _feat(item: dict[str, Any], ctx: _Context) -> None:
    name = str(item.get("name") or "")
    key = name.lower().split("(")[0].strip()
    setter = _FEATURES.get(key)
    if setter is not None:
        setter(ctx.features)
        return
    if key in _SCALED_ITEMS:
        if _SCALED_ITEMS[key] not in ctx.features:
            ctx.notes.append(f"feat '{name}': no ScaleValue advancement on the class gives its dice, not mapped")
        return
    if key == "legendary resistance":  # "Legendary Resistance (3/Day)": its uses are the feature's
        uses = ctx.roll.evaluate(str(_get(_sys(item), "uses.max") or "")) or _int(re.sub(r"\D", "", name.split("/")[0]), 0)
        if uses:
            ctx.features["legendary_resistance"] = uses
            return
    _uses(item, ctx, also_report=not _has_changes(item))


def _spell(item: dict[str, Any], ctx: _Context) -> None:
    """A spell is on the sheet when it can be cast: a cantrip, always prepared, prepared, a
    pact, innate or at-will spell (`preparation.mode`/`prepared`; `method`/`prepared` 0-2 in 5.x)."""
    name, system = str(item.get("name")), _sys(item)
    level = _int(system.get("level"), 0)
    mode = str(_get(system, "preparation.mode") or system.get("method") or "prepared")
    prepared = _get(system, "preparation.prepared", system.get("prepared"))
    usable = level == 0 or mode in ("always", "pact", "innate", "atwill") or bool(prepared)
    if mode in ("spell", "prepared") and isinstance(prepared, int | float) and not isinstance(prepared, bool):
        usable = level == 0 or prepared >= 1
    if not usable and mode in ("spell", "prepared") and _known_by(system, ctx):
        usable = True  # a Bard's or a Sorcerer's spell is known, never prepared: castable as Foundry casts it
    if not usable:
        ctx.notes.append(f"spell '{name}': in the spellbook but not prepared, left out")
        return
    if mode in ("innate", "atwill"):
        ctx.notes.append(
            f"spell '{name}': cast {'at will' if mode == 'atwill' else 'innately'}, listed with the spells (slots are not checked for it)"
        )
    if mode == "ritual":
        ctx.notes.append(f"spell '{name}': cast only as a ritual, left out")
        return
    ctx.spells.append(name)


def _known_by(system: dict[str, Any], ctx: _Context) -> bool:
    """Whether the spell belongs to a class that knows its spells: the class it names
    (`sourceClass` in dnd5e 3.x-4.x, `sourceItem` "class:sorcerer" in 5.x), else the actor's
    only casting classes."""
    named = str(system.get("sourceClass") or system.get("sourceItem") or "").removeprefix("class:")
    if named:
        return named in ctx.knows_spells
    return bool(ctx.casting) and ctx.casting <= ctx.knows_spells


def _identifier(cls: dict[str, Any]) -> str:
    return str(_sys(cls).get("identifier") or _slug(str(cls.get("name", ""))))


def _casting(classes: list[dict[str, Any]]) -> frozenset[str]:
    return frozenset(_identifier(c) for c in classes if _class_spellcasting(c)[0] not in ("none", ""))


def _knows_spells(classes: list[dict[str, Any]]) -> frozenset[str]:
    """The identifiers of the actor's classes that know their spells: a Bard, Sorcerer, Ranger
    or Warlock without a preparation formula (dnd5e gives the 2024 classes, who prepare, one)."""
    return frozenset(
        ident
        for c in classes
        if (ident := _identifier(c)) in _KNOWN_SPELLS and not _get(_sys(c), "spellcasting.preparation.formula")
    )


_ITEM_HANDLERS: dict[str, Callable[[dict[str, Any], _Context], None]] = {
    "class": _mapped_elsewhere,
    "subclass": _mapped_elsewhere,
    "race": _mapped_elsewhere,
    "weapon": _weapon,
    "equipment": _equipment,
    "feat": _feat,
    "spell": _spell,
    "consumable": lambda item, ctx: (
        _uses(item, ctx, also_report=True)
        if _get(_sys(item), "uses.recovery") or _get(_sys(item), "uses.per")
        else _not_used(item, ctx)
    ),
}


def _actor_resources(system: dict[str, Any]) -> list[Resource]:
    """`system.resources` primary/secondary/tertiary with a maximum (dnd5e before 4.x)."""
    found = []
    for slot in ("primary", "secondary", "tertiary"):
        resource = _get(system, f"resources.{slot}") or {}
        uses = _int(resource.get("max"), 0)
        if uses > 0:
            found.append(
                Resource(name=str(resource.get("label") or slot), uses=uses, recovers="short" if resource.get("sr") else "long")
            )
    return found


# --- spellcasting -------------------------------------------------------------------------------


def _class_spellcasting(cls: dict[str, Any]) -> tuple[str, str]:
    """(progression, ability): `spellcasting {progression, ability}`, a bare string in 1.x."""
    found = _sys(cls).get("spellcasting") or {}
    if isinstance(found, str):
        return found or "none", ""
    return str(found.get("progression") or "none"), str(found.get("ability") or "")


def _computed_slots(classes: list[dict[str, Any]]) -> tuple[tuple[int, ...], int, int]:
    """Foundry's `computeLeveledProgression` and `preparePactSlots`: caster levels add up
    (full 1 a level, half and artificer 1 per 2, third 1 per 3, rounded down, artificer up; a
    single non-full caster rounds up once it has any), read in the Multiclass Spellcaster table."""
    leveled = [(c, _class_spellcasting(c)[0]) for c in classes if _class_spellcasting(c)[0] in _PROGRESSION_DIVISOR]
    caster = 0
    for cls, progression in leveled:
        divisor, round_up = _PROGRESSION_DIVISOR[progression]
        levels = _int(_sys(cls).get("levels"), 1)
        caster += math.ceil(levels / divisor) if round_up else levels // divisor
        if len(leveled) == 1 and divisor > 1 and caster:
            caster = math.ceil(levels / divisor)
    # The Multiclass Spellcaster table is the full caster's, and CONFIG.DND5E's pact
    # progression the Warlock's: both read from the SRD class tables the builder ships.
    tables = srd_data()["classes"]
    slots = tuple(tables["Wizard"]["levels"][min(caster, 20) - 1]["slots"]) if caster else ()
    pact_levels = min(sum(_int(_sys(c).get("levels"), 1) for c in classes if _class_spellcasting(c)[0] == "pact"), 20)
    if not pact_levels:
        return slots, 0, 0
    pact = tables["Warlock"]["levels"][pact_levels - 1]
    return slots, pact["pact_slots"], pact["pact_level"]


def _spellcasting(
    system: dict[str, Any], classes: list[dict[str, Any]], spells: list[str], roll: _RollData, notes: list[str]
) -> Spellcasting | None:
    computed, pact_slots, pact_level = _computed_slots(classes)
    slots = []
    for level in range(1, 10):
        slot = _get(system, f"spells.spell{level}") or {}
        override = _num(slot.get("override"))
        stored = _num(slot.get("max"))
        slots.append(
            int(override)
            if override is not None
            else int(stored)
            if stored is not None
            else (computed[level - 1] if level <= len(computed) else 0)
        )
    while slots and slots[-1] == 0:
        slots.pop()
    pact = _get(system, "spells.pact") or {}
    override = _num(pact.get("override"))
    if override is not None:
        pact_slots, pact_level = int(override), pact_level or 1
    elif _num(pact.get("max")) is not None and _int(pact.get("max")):
        pact_slots, pact_level = _int(pact.get("max")), _int(pact.get("level"), pact_level or 1)
    casting_classes = [c for c in classes if _class_spellcasting(c)[0] not in ("none", "")]
    if not (slots or pact_slots or spells or casting_classes):
        return None
    ability_key = str(_get(system, "attributes.spellcasting") or "")
    if not ability_key and casting_classes:
        ability_key = _class_spellcasting(casting_classes[0])[1]
    for cls in casting_classes:
        own = _class_spellcasting(cls)[1]
        if own and own != ability_key:
            notes.append(f"class '{cls.get('name')}': casts with {own}, the sheet has one spellcasting ability ({ability_key})")
    if ability_key not in roll.mods:
        if ability_key:
            notes.append(f"spellcasting ability '{ability_key}': not an ability, int used")
        ability_key = "int"
    ability = _ABBREVIATION[ability_key]
    dc_bonus = roll.evaluate(str(_get(system, "bonuses.spell.dc") or "0"))
    if dc_bonus is None:
        notes.append(f"bonuses.spell.dc '{_get(system, 'bonuses.spell.dc')}': not a number, not applied")
        dc_bonus = 0
    attack_bonuses = {k: roll.evaluate(str(_get(system, f"bonuses.{k}.attack") or "0")) for k in ("msak", "rsak")}
    attack_bonus = None
    if attack_bonuses["msak"] is not None and attack_bonuses["msak"] == attack_bonuses["rsak"] and attack_bonuses["msak"]:
        attack_bonus = roll.mods[ability_key] + roll.prof + attack_bonuses["msak"]
    elif attack_bonuses["msak"] or attack_bonuses["rsak"] or None in attack_bonuses.values():
        notes.append(
            f"spell attack bonuses (melee {_get(system, 'bonuses.msak.attack')!r}, ranged {_get(system, 'bonuses.rsak.attack')!r}): not mapped"
        )
    return Spellcasting(
        ability=ability,
        save_dc=8 + roll.mods[ability_key] + roll.prof + dc_bonus if dc_bonus else None,
        attack_bonus=attack_bonus,
        slots=tuple(slots),
        pact_slots=pact_slots,
        pact_level=pact_level if pact_slots else 0,
        spells=tuple(spells),
    )
