"""The command reference, read from the code: a command's fields (type, required or default,
meaning), who may send it, the phases that allow it, and an example.

Everything here is derived from the msgspec types, their docstrings and field comments, the
`actor_fields`/`gm_only` declarations on each class and each ruleset's phase table, so a
command added to a ruleset appears in `combat commands`, `GET /rulesets/{id}/commands` and
the docs site without being written down anywhere else.
"""

from __future__ import annotations

import inspect
import re
import textwrap
from functools import cache
from typing import Any

import msgspec
from msgspec import inspect as mi

from combat.kernel.commands import Command, trigger_of
from combat.kernel.decider import Ruleset
from combat.kernel.errors import RuleError

__all__ = [
    "FieldDoc",
    "CommandDoc",
    "commands_of",
    "command_doc",
    "describe_fields",
    "example_of",
    "fields_hint",
    "nested_structs",
    "struct_doc",
    "type_name",
]


class FieldDoc(msgspec.Struct, frozen=True, kw_only=True):
    name: str
    type: str
    required: bool
    default: Any = None  # the value used when the field is left out (only when not required)
    meaning: str = ""


class CommandDoc(msgspec.Struct, frozen=True, kw_only=True):
    type: str  # the command's `type` tag
    summary: str  # from the class docstring
    fields: tuple[FieldDoc, ...]
    sent_by: str  # "GM only" or the GM and which players
    phases: tuple[str, ...]  # the phases (of this ruleset) in which it may be sent
    example: dict[str, Any]
    nested: dict[str, tuple[FieldDoc, ...]] = {}  # the fields of the objects its fields hold, by type name
    service_fields: tuple[str, ...] = ()  # filled in by the service, never sent (refused: command/service-field)


# Field names whose meaning is the same in every command that has them; a comment on the
# field itself wins over these.
GLOSSARY: dict[str, str] = {
    "combatant": "the combatant's id",
    "attacker": "the attacking combatant's id",
    "target": "the target combatant's id",
    "targets": "the target combatants' ids",
    "combatants": "combatant ids",
    "faces": "dice faces rolled at the table, one per die; left out, the service rolls from the encounter's seed",
    "damage_faces": "damage dice faces rolled at the table; left out, the service rolls",
    "reason": "why, in words, for the log",
    "source": "what caused it (a spell, a trap, an attack), for the log",
    "notation": "dice notation to roll instead of a fixed amount, e.g. 2d6+3",
    "dc": "the Difficulty Class to meet or beat",
    "description": "what the combatant does, in words, for the log",
    "advantage": "reasons for Advantage the GM accepts",
    "disadvantage": "reasons for Disadvantage the GM accepts",
    "attack": "which of the attacker's attacks, by name (left out: the first that fits)",
    "feet": "distance in feet",
    "amount": "a fixed number instead of rolling",
    "leaves_reach_of": "foes whose reach the move leaves (each may take an opportunity attack)",
    "readied": "the attack a readied action set up, taken with the reaction",
}

# Example values for a required field, by field name; other fields get one by their type.
_EXAMPLE_VALUES: dict[str, Any] = {
    "combatant": "aria",
    "attacker": "aria",
    "rider": "aria",
    "caster": "aria",
    "grappler": "aria",
    "a": "aria",
    "target": "goblin-1",
    "other": "lyra",
    "foe": "goblin-1",
    "b": "goblin-1",
    "mount": "warhorse",
    "through": "goblin-1",
    "id": "goblin-1",
    "name": "Goblin",
    "side": "goblins",
    "group": "goblins",
    "attackers": "goblins",
    "defenders": "party",
    "combatants": ["goblin-1"],
    "targets": ["goblin-1"],
    "listeners": ["lyra"],
    "instigators": ["goblin-1"],
    "order": ["aria", "lyra"],
    "ability": "dex",
    "damage_type": "slashing",
    "condition": "prone",
    "effect": "Bless",
    "spell": "Sleep",
    "item": "potion of healing",
    "creature": "goblin warrior",
    "check": "Wisdom (Perception)",
    "what": "the bridge collapses",
    "text": "the goblins flee if their boss falls",
    "ruling": "allowed: she saw the trap",
    "cause": "moved out of reach",
    "description": "draws a dagger",
    "action": "dodge",
    "max_hp": 7,
    "ac": 15,
    "feet": 30,
    "dc": 13,
    "amount": 5,
    "bonus": 2,
    "x": 3,
    "y": 4,
    "needed": 12,
    "accept": True,
    "allowed": True,
    "hp": 12,
    "opponent": "goblin-1",
    "opponent_ability": "str",
    "speeds": {"fly": 60},
}

# Whole examples where a command's fields need values that go together.
_EXAMPLE_OVERRIDES: dict[str, dict[str, Any]] = {
    "damage": {"amount": 6},
    "heal": {"amount": 4},
    "d10_damage": {"amount": 6},
    # The bestiary's commands are a monster's: a dragon with a stat block's names. (Keyed by
    # module and tag where two rulesets have their own command under one tag.)
    "combat.fivee.monsters.add_creature": {"creature": "goblin warrior", "count": 3, "side": "goblins"},
    "multiattack": {"attacker": "dragon"},
    "monster_action": {"combatant": "dragon", "action": "Frightful Presence"},
    "recharge": {"combatant": "dragon", "action": "Fire Breath"},
    "legendary_action": {"combatant": "dragon", "action": "Tail Attack", "target": "aria"},
    "use_legendary_resistance": {"combatant": "dragon"},
    "change_stat_block": {"changes": {"ac": 17}},
    "react": {"combatant": "elara", "reaction": "Shield"},  # a hit's window (combat/fivee/reactions.py)
    "pass_reaction": {"combatant": "elara"},
    "contest": {"ability": "str", "skill": "athletics", "opponent_skill": "athletics"},
    "declare_round_action": {"action": "melee", "targets": ["goblin-1"]},
    "d10_declare": {"action": "attack", "target": "goblin-1"},
    "apply_condition": {"condition": {"name": "prone", "source": "shove"}},
    # A character of the party by name (combat characters build --save); a whole sheet also does.
    "add_character": {"character": "Elara", "side": "party", "player": "Sam"},
    "use_resource": {"combatant": "brann", "resource": "Second Wind", "faces": [6]},
    "cast_spell": {"caster": "elara", "spell": "Fireball", "targets": ["goblin-warrior-1", "goblin-warrior-2"]},
    # A dragon's breath on two targets, its save dice entered by target, the damage rolled once.
    "save_effect": {
        "source": "dragon",
        "targets": ["aria", "goblin-1"],
        "ability": "dex",
        "dc": 21,
        "damage": "17d6",
        "damage_type": "fire",
        "half_on_success": True,
        "faces": {"aria": [12]},
    },
    "add_combatant": {
        "combatant": {
            "id": "goblin-1",
            "name": "Goblin",
            "kind": "monster",
            "side": "goblins",
            "max_hp": 7,
            "ac": 15,
            "initiative_bonus": 2,
            "attacks": [{"name": "Scimitar", "bonus": 4, "damage": "1d6+2", "damage_type": "slashing"}],
        }
    },
}


_JSON_NAMES: dict[type, str] = {
    mi.StrType: "string",
    mi.BoolType: "boolean",
    mi.IntType: "integer",
    mi.FloatType: "number",
    mi.NoneType: "null",
    mi.AnyType: "any",
}


def type_name(t: mi.Type) -> str:
    """A msgspec type as a reader of JSON sees it."""
    scalar = _JSON_NAMES.get(type(t))
    if scalar is not None:
        return scalar
    match t:
        case mi.LiteralType():
            return "one of " + ", ".join(repr(v) for v in t.values)
        case mi.VarTupleType() | mi.ListType() | mi.SetType() | mi.FrozenSetType():
            return f"list of {type_name(t.item_type)}"
        case mi.DictType():
            return f"object of {type_name(t.key_type)} -> {type_name(t.value_type)}"
        case mi.UnionType():
            return " or ".join(type_name(x) for x in t.types)
        case mi.StructType():
            return t.cls.__name__
        case _:
            return type(t).__name__.removesuffix("Type").lower()


@cache
def _field_comments(cls: type) -> dict[str, str]:
    """The `# ...` comment beside or just above each field in the class body (one class, not its bases)."""
    try:
        source = textwrap.dedent(inspect.getsource(cls))
    except (OSError, TypeError):
        return {}
    comments: dict[str, str] = {}
    above: list[str] = []
    for line in source.splitlines()[1:]:
        stripped = line.strip()
        if stripped.startswith("#"):
            above.append(stripped.lstrip("# ").strip())
            continue
        field = re.match(r"(\w+)\s*:\s*(?!ClassVar)[^#]*?(?:#\s*(.*))?$", stripped)
        if field:
            said = " ".join([*above, field.group(2) or ""]).strip()
            if said:
                comments[field.group(1)] = said
        above = []
    return comments


def _comment(cls: type, name: str) -> str:
    for klass in cls.__mro__:
        said = _field_comments(klass).get(name) if isinstance(klass, type) and issubclass(klass, msgspec.Struct) else None
        if said:
            return said
    return ""


def _json_default(value: Any) -> Any:
    if value is msgspec.NODEFAULT or value is mi.NODEFAULT:
        return None
    return msgspec.to_builtins(value)


def _glossary(name: str, t: mi.Type) -> str:
    # The glossary speaks of ids and dice: a nested object of the same name is something else.
    return "" if isinstance(t, mi.StructType) else GLOSSARY.get(name, "")


def describe_fields(cls: type[msgspec.Struct]) -> tuple[FieldDoc, ...]:
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    docs = []
    for f in info.fields:
        default = (
            f.default
            if f.default is not mi.NODEFAULT
            else (f.default_factory() if f.default_factory is not mi.NODEFAULT else None)
        )
        docs.append(
            FieldDoc(
                name=f.encode_name,
                type=type_name(f.type),
                required=f.required,
                default=None if f.required else _json_default(default),
                meaning=_comment(cls, f.name) or _glossary(f.name, f.type),
            )
        )
    return tuple(docs)


def _example_value(name: str, t: mi.Type) -> Any:
    if isinstance(t, mi.LiteralType):
        return t.values[0]
    if isinstance(t, mi.UnionType):
        return _example_value(name, next(x for x in t.types if not isinstance(x, mi.NoneType)))
    if isinstance(t, mi.StructType):
        return _struct_example(t)
    picked = _EXAMPLE_VALUES.get(name)
    if picked is not None:
        return picked
    match t:
        case mi.StrType():
            return name.replace("_", " ")
        case mi.BoolType():
            return True
        case mi.IntType() | mi.FloatType():
            return 1
        case mi.VarTupleType() | mi.ListType() | mi.SetType() | mi.FrozenSetType():
            return [_example_value(name, t.item_type)]
        case mi.DictType():
            return {}
    return None


def _struct_example(t: mi.StructType) -> dict[str, Any]:
    return {f.encode_name: _example_value(f.name, f.type) for f in t.fields if f.required}


@cache
def _example(cls: type[Command]) -> dict[str, Any]:
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    return {"type": trigger_of(cls), **_struct_example(info), **_overrides(cls)}


def _overrides(cls: type[Command]) -> dict[str, Any]:
    return _EXAMPLE_OVERRIDES.get(f"{cls.__module__}.{trigger_of(cls)}") or _EXAMPLE_OVERRIDES.get(trigger_of(cls), {})


def example_of(cls: type[Command]) -> dict[str, Any]:
    """A command of this type as JSON, with every required field filled in (a fresh copy)."""
    return msgspec.json.decode(msgspec.json.encode(_example(cls)))


def sent_by(cls: type[Command]) -> str:
    """Who may send it, from `gm_only`, the `actor_fields` the class has (see service/auth.py)
    and the `gm_fields` a player may not set (see docs/trust.md)."""
    fields = {f.name for f in msgspec.structs.fields(cls)}
    acting = [name for name in cls.actor_fields if name in fields]
    if cls.gm_only or not acting:
        return "GM only"
    who = "GM, or the player of the combatant named in " + " / ".join(f"`{name}`" for name in acting)
    if cls.gm_fields:  # numbers and reasons that are the GM's (docs/trust.md)
        who += " (only the GM sets " + ", ".join(f"`{name}`" for name in cls.gm_fields) + ")"
    return who


def _summary(cls: type) -> str:
    own = cls.__dict__.get("__doc__")
    return inspect.cleandoc(own) if own else ""


def struct_doc(cls: type[msgspec.Struct]) -> tuple[str, tuple[FieldDoc, ...]]:
    """A struct's own docstring and its fields (for events and the nested types of commands)."""
    return _summary(cls), describe_fields(cls)


def _phases(ruleset: Ruleset, trigger: str) -> tuple[str, ...]:
    sources: list[str] = []
    for step in ruleset.phases.steps:
        if step.trigger == trigger and not step.automatic:
            sources.extend(s for s in step.sources if s not in sources)
    return tuple(p for p in ruleset.phases.phases if p in sources)


def _structs_within(t: mi.Type, found: dict[str, type]) -> None:
    match t:
        case mi.StructType():
            if t.cls.__name__ not in found:
                found[t.cls.__name__] = t.cls
                for f in t.fields:
                    _structs_within(f.type, found)
        case mi.UnionType():
            for x in t.types:
                _structs_within(x, found)
        case mi.VarTupleType() | mi.ListType() | mi.SetType() | mi.FrozenSetType():
            _structs_within(t.item_type, found)
        case mi.DictType():
            _structs_within(t.value_type, found)


def nested_structs(cls: type[msgspec.Struct]) -> dict[str, type]:
    """The object types a struct's fields hold, at any depth (CombatantSpec, its AttackProfile...)."""
    found: dict[str, type] = {}
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    for f in info.fields:
        _structs_within(f.type, found)
    return found


def _doc(ruleset: Ruleset, cls: type[Command]) -> CommandDoc:
    return CommandDoc(
        type=trigger_of(cls),
        summary=_summary(cls),
        fields=describe_fields(cls),
        sent_by=sent_by(cls),
        phases=_phases(ruleset, trigger_of(cls)),
        example=example_of(cls),
        nested={name: describe_fields(t) for name, t in nested_structs(cls).items()},
        service_fields=cls.service_fields,
    )


def commands_of(ruleset: Ruleset) -> list[CommandDoc]:
    """Every command the ruleset handles, in the order of its phase table."""
    order = {step.trigger: i for i, step in reversed(list(enumerate(ruleset.phases.steps)))}
    handled = sorted(ruleset.handlers, key=lambda c: (order.get(trigger_of(c), len(order)), trigger_of(c)))
    return [_doc(ruleset, cls) for cls in handled]


def command_doc(ruleset: Ruleset, name: str) -> CommandDoc:
    for cls in ruleset.handlers:
        if trigger_of(cls) == name:
            return _doc(ruleset, cls)
    raise RuleError(
        "command/unknown", f"{ruleset.id} has no command '{name}'", allowed=", ".join(trigger_of(c) for c in ruleset.handlers)
    )


def fields_hint(cls: type[Command]) -> str:
    """One line for an error: the command's fields and an example."""
    fields = ", ".join(f"{f.name} ({f.type}{', required' if f.required else ''})" for f in describe_fields(cls))
    return f"fields of {trigger_of(cls)}: {fields or 'none'}; example: {msgspec.json.encode(example_of(cls)).decode()}"
