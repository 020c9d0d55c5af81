"""Open5e's records (Django fixtures: `model`, `pk`, `fields`) read into stat blocks.

Used by scripts/build_bestiary.py on the SRD 5.2 files and by `combat monsters --import` on
a GM's own file in the same format. The records hold each creature's own text; what the
engine plays (multiattack routines, recharge, uses per day, legendary resistance) is read
from the fields where Open5e has them and from the words where it does not.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any, TypedDict

import msgspec

from combat.bestiary.model import (
    BlockAction,
    BlockAttack,
    BlockLegendaryAction,
    BlockMultiattack,
    BlockSpellcasting,
    BlockTrait,
    MultiattackPart,
    StatBlock,
)

__all__ = ["stat_blocks", "record_problems", "parse_multiattack", "parse_spellcasting", "ABILITIES"]

ABILITIES = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")
_NUMBERS = {"one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6}
_COUNT = r"(one|two|three|four|five|six)"
_ANY = re.compile(_COUNT + r" (?:other )?attacks?, using (.+?) in any combination", re.I)
_FIXED = re.compile(_COUNT + r" ((?:[A-Z][\w'-]*)(?: (?:or )?[A-Z][\w'-]*)*) attacks?\b")
_LEGENDARY_RESISTANCE = re.compile(r"Legendary Resistance \((\d+)/Day(?:, or (\d+)/Day in Lair)?\)", re.I)
_ONCE = "can't take this action again until the start of its next turn"
# "Melee Attack Roll: +9, reach 5 feet. 12 (2d6 + 5) Slashing damage plus 7 (2d6) Lightning damage."
_DAMAGE = r"(?:\d+ \((\d+d\d+(?: [+-] \d+)?)\)|(\d+)) (\w+) damage"
# "5 (1d6 + 2) Slashing damage, plus 2 (1d4) Slashing damage if the attack roll had Advantage."
_IF_ADVANTAGE = re.compile(r"plus " + _DAMAGE + r" if the attack roll had Advantage\b")
_ATTACK_TEXT = re.compile(
    r"^(Melee or Ranged|Melee|Ranged) Attack Roll: \+?(-?\d+)(?: to hit)?(?: \([^)]*\))?,"
    r"(?: reach (\d+) (?:ft\.|feet))?(?: or)?(?: range (\d+)(?:/(\d+))? (?:ft\.|feet))?\.? "
    + _DAMAGE
    + r"(?: plus "
    + _DAMAGE
    + ")?"
)


def _names(text: str) -> list[str]:
    return [n.strip() for n in re.split(r",\s*(?:or\s+|and\s+)?|\s+(?:or|and)\s+", text) if n.strip()]


def parse_multiattack(text: str, attacks: Iterable[str]) -> tuple[tuple[MultiattackPart, ...], ...]:
    """The routines in a Multiattack's first sentence, keeping only the stat block's attacks
    ("uses Dreadful Glare" and spells stay in the text for the GM)."""
    known = {a.lower(): a for a in attacks}
    first = text.split(". ")[0]
    routines = []
    for alternative in re.split(r",? or (?:it )?(?=makes |uses )", first):
        parts = []
        rest = alternative
        for m in _ANY.finditer(alternative):
            options = tuple(known[n.lower()] for n in _names(m.group(2)) if n.lower() in known)
            if options:
                parts.append(MultiattackPart(count=_NUMBERS[m.group(1).lower()], attacks=options))
            rest = rest.replace(m.group(0), "")
        for m in _FIXED.finditer(rest):
            options = tuple(known[n.lower()] for n in re.split(r" or ", m.group(2)) if n.lower() in known)
            if options:
                parts.append(MultiattackPart(count=_NUMBERS[m.group(1).lower()], attacks=options))
        if parts:
            routines.append(tuple(parts))
    return tuple(routines)


def parse_spellcasting(text: str) -> BlockSpellcasting | None:
    """A Spellcasting action's ability, DC, attack bonus and lists: "using Intelligence as the
    spellcasting ability (spell save DC 14): - **At Will:** Detect Magic, Light - **2/Day
    Each:** Fireball, Invisibility". Notes in parentheses after a name ("(level 4 version)")
    are dropped from the name; the action's text keeps them."""
    ability = re.search(r"using (\w+) as (?:the )?spellcasting ability", text, re.I)
    if ability is None or ability.group(1).lower() not in ABILITIES:
        return None
    dc = re.search(r"spell save DC (\d+)", text)
    bonus = re.search(r"([+-]\d+) to hit with spell attacks", text)
    at_will: list[str] = []
    per_day: dict[str, int] = {}
    for kind, uses, names in re.findall(r"\*\*(At Will|(\d+)/Day(?: Each)?):\*\*[ \t]*([^\n]*)", text):
        spells = [re.sub(r"\s*\([^)]*\)", "", n).strip() for n in names.split(",")]
        spells = [n for n in spells if n]
        if kind == "At Will":
            at_will += spells
        else:
            per_day.update(dict.fromkeys(spells, int(uses)))
    return BlockSpellcasting(
        ability=ability.group(1).lower(),
        save_dc=int(dc.group(1)) if dc else None,
        attack_bonus=int(bonus.group(1)) if bonus else None,
        at_will=tuple(at_will),
        per_day=per_day,
    )


def _notation(count: Any, die: Any, bonus: Any) -> str | None:
    if not count or not die:
        return None if not bonus else str(bonus)
    sides = str(die).lstrip("Dd")
    return f"{count}d{sides}" + (f"{int(bonus):+d}" if bonus else "")


def _extra_if_advantage(block: BlockAttack) -> BlockAttack:
    """Extra damage the words give only 'if the attack roll had Advantage' (Open5e's attack
    record leaves it out): kept with that condition, `extra_damage_if: advantage`."""
    m = _IF_ADVANTAGE.search(block.text)
    if m is None:
        return block
    dice, flat, damage_type = m.groups()
    return msgspec.structs.replace(
        block, extra_damage=(dice or flat).replace(" ", ""), extra_damage_type=damage_type.lower(), extra_damage_if="advantage"
    )


def _attack(action: Mapping[str, Any], record: Mapping[str, Any]) -> BlockAttack:
    text = action["desc"]
    kind = "melee or ranged" if text.startswith("Melee or Ranged") else "ranged" if text.startswith("Ranged") else "melee"
    extra = _notation(record.get("extra_damage_die_count"), record.get("extra_damage_die_type"), record.get("extra_damage_bonus"))
    # Open5e often files the only damage type under extra_damage_type when there is no extra damage.
    damage_type = record.get("damage_type") or (record.get("extra_damage_type") if extra is None else None) or "untyped"
    return _extra_if_advantage(
        BlockAttack(
            name=action["name"],
            kind=kind,  # type: ignore[arg-type]  # one of the three, read from open5e's text above
            bonus=int(record.get("to_hit_mod") or 0),
            reach=int(record.get("reach") or 5),
            range=record.get("range"),
            long_range=record.get("long_range"),
            damage=_notation(record.get("damage_die_count"), record.get("damage_die_type"), record.get("damage_bonus")) or "0",
            damage_type=damage_type.lower(),
            extra_damage=extra,
            extra_damage_type=(record.get("extra_damage_type") or "untyped").lower() if extra else None,
            **_limits(action),
            text=text,
        )
    )


def _attack_from_text(action: Mapping[str, Any]) -> BlockAttack | None:
    """An attack Open5e has no attack record for, read from its words (the SRD's own layout)."""
    m = _ATTACK_TEXT.match(action["desc"])
    if m is None:
        return None
    kind, bonus, reach, near, far, dice, flat, damage_type, extra, extra_flat, extra_type = m.groups()
    return _extra_if_advantage(
        BlockAttack(
            name=action["name"],
            kind=kind.lower(),  # type: ignore[arg-type]  # the pattern matched only melee, ranged or both
            bonus=int(bonus),
            reach=int(reach or 5),
            range=int(near) if near else None,
            long_range=int(far) if far else None,
            damage=(dice or flat).replace(" ", ""),
            damage_type=damage_type.lower(),
            extra_damage=(extra or extra_flat).replace(" ", "") if (extra or extra_flat) else None,
            extra_damage_type=extra_type.lower() if extra_type else None,
            **_limits(action),
            text=action["desc"],
        )
    )


class _Limits(TypedDict):
    recharge: int | None
    per_day: int | None


def _limits(action: Mapping[str, Any]) -> _Limits:
    kind, param = action.get("uses_type"), action.get("uses_param")
    if kind in ("RECHARGE_ON_ROLL", "RECHARGE") and param:
        return {"recharge": int(param), "per_day": None}
    if kind == "PER_DAY" and param:
        return {"recharge": None, "per_day": int(param)}
    return {"recharge": None, "per_day": None}


def _cr(value: Any) -> str:
    if value in (None, ""):
        return ""
    number = float(value)
    fractions = {0.125: "1/8", 0.25: "1/4", 0.5: "1/2"}
    return fractions.get(number, f"{number:g}")


def _speed(fields: Mapping[str, Any]) -> dict[str, int]:
    return {mode: int(fields[mode]) for mode in ("walk", "fly", "climb", "swim", "burrow") if fields.get(mode)}


def _block(creature: Mapping[str, Any], actions: list[dict], attacks: Mapping[str, list[dict]], traits: list[dict]) -> StatBlock:
    f = creature
    made: list[BlockAttack] = []
    plain: dict[str, list[BlockAction]] = defaultdict(list)
    legendary: list[BlockLegendaryAction] = []
    multiattack_text = None
    for action in sorted(actions, key=lambda a: a.get("order_in_statblock") or 0):
        kind = action.get("action_type") or "ACTION"
        if action["name"] == "Multiattack":
            multiattack_text = action["desc"]
        elif kind == "LEGENDARY_ACTION":
            legendary.append(
                BlockLegendaryAction(
                    name=action["name"],
                    text=action["desc"],
                    cost=int(action.get("legendary_action_cost") or 1),
                    once_per_turn=_ONCE in action["desc"],
                )
            )
        elif action.get("_pk") in attacks:
            made.extend(_attack(action, record) for record in attacks[action["_pk"]][:1])
        elif kind == "ACTION" and (read := _attack_from_text(action)) is not None:
            made.append(read)
        else:
            plain[kind].append(BlockAction(name=action["name"], text=action["desc"], **_limits(action)))
    names = [a.name for a in made]
    legendary = [_with_attack(la, names) for la in legendary]
    spellcasting = next((parse_spellcasting(a.text) for a in plain["ACTION"] if a.name == "Spellcasting"), None)
    resistance = next((m for t in traits if (m := _LEGENDARY_RESISTANCE.search(t["name"]))), None)
    return StatBlock(
        name=f["name"],
        size=(f.get("size") or "medium").lower(),  # type: ignore[arg-type]  # open5e gives the size as free text
        type=f.get("type") or "",
        cr=_cr(f.get("challenge_rating")),
        ac=int(f["armor_class"]),
        hp=int(f["hit_points"]),
        hit_dice=re.sub(r"\s+", "", f["hit_dice"]) if f.get("hit_dice") else None,
        speed=_speed(f),
        initiative_bonus=int(f.get("initiative_bonus") or 0),
        abilities={a: int(f[f"ability_score_{a}"]) for a in ABILITIES if f.get(f"ability_score_{a}") is not None},
        saves={a: int(f[f"saving_throw_{a}"]) for a in ABILITIES if f.get(f"saving_throw_{a}") is not None},
        resistances=tuple(f.get("damage_resistances") or ()),
        vulnerabilities=tuple(f.get("damage_vulnerabilities") or ()),
        immunities=tuple(f.get("damage_immunities") or ()),
        condition_immunities=tuple(f.get("condition_immunities") or ()),
        attacks=tuple(made),
        multiattack=BlockMultiattack(text=multiattack_text, routines=parse_multiattack(multiattack_text, names))
        if multiattack_text
        else None,
        actions=tuple(plain["ACTION"]),
        bonus_actions=tuple(plain["BONUS_ACTION"]),
        reactions=tuple(plain["REACTION"]),
        legendary_actions=tuple(legendary),
        legendary_action_uses=3 if legendary else 0,
        legendary_resistance=int(resistance.group(1)) if resistance else 0,
        legendary_resistance_in_lair=int(resistance.group(2)) if resistance and resistance.group(2) else None,
        traits=tuple(BlockTrait(name=t["name"], text=t.get("desc") or "") for t in traits),
        spellcasting=spellcasting,
        source="SRD 5.2" if f.get("document") == "srd-2024" else f.get("document") or "",
    )


def _with_attack(action: BlockLegendaryAction, attacks: list[str]) -> BlockLegendaryAction:
    """'... and it makes one Rend attack': the attack the legendary action makes, if any."""
    for name in attacks:
        if re.search(rf"\bmakes one {re.escape(name)} attack\b", action.text):
            return BlockLegendaryAction(
                name=action.name, text=action.text, cost=action.cost, attack=name, once_per_turn=action.once_per_turn
            )
    return action


_WHOLE = (
    "armor_class",
    "hit_points",
    "initiative_bonus",
    "walk",
    "fly",
    "climb",
    "swim",
    "burrow",
    *(f"ability_score_{a}" for a in ABILITIES),
    *(f"saving_throw_{a}" for a in ABILITIES),
)
_ATTACK_WHOLE = (
    "to_hit_mod",
    "damage_bonus",
    "damage_die_count",
    "extra_damage_bonus",
    "extra_damage_die_count",
    "reach",
    "range",
    "long_range",
)


def _whole(where: str, fields: Mapping[str, Any], names: Iterable[str]) -> list[str]:
    return [
        f"{where}: {n} is {fields[n]!r}, not a whole number"
        for n in names
        if fields.get(n) is not None and (isinstance(fields[n], bool) or not isinstance(fields[n], int))
    ]


def record_problems(records: Iterable[Mapping[str, Any]]) -> list[str]:
    """What would stop `records` from reading as stat blocks, record by record and field by field."""
    found: list[str] = []
    for i, record in enumerate(records):
        if not isinstance(record, Mapping) or not isinstance(record.get("fields"), Mapping):
            found.append(f"record #{i + 1}: not an Open5e record (model, pk, fields)")
            continue
        model, fields, pk = str(record.get("model", "")), record["fields"], record.get("pk", f"#{i + 1}")
        if model.endswith(".creature"):
            found += [f"{pk}: {n} missing" for n in ("name", "armor_class", "hit_points") if fields.get(n) is None]
            found += _whole(str(pk), fields, _WHOLE)
        elif model.endswith((".creatureaction", ".creaturetrait")):
            found += [f"{pk}: {n} missing" for n in ("name", "desc", "parent") if not isinstance(fields.get(n), str)]
        elif model.endswith(".creatureactionattack"):
            found += [f"{pk}: parent missing" for _ in [0] if not isinstance(fields.get("parent"), str)]
            found += _whole(str(pk), fields, _ATTACK_WHOLE)
    return found


def stat_blocks(records: Iterable[Mapping[str, Any]]) -> list[StatBlock]:
    """Every creature in `records` (creatures, actions, attacks and traits in any order, as
    one list or several joined) as a stat block, in the order the creatures came. Check
    `record_problems` first: this reads well-formed records only."""
    creatures: dict[str, Mapping[str, Any]] = {}
    actions: dict[str, list[dict]] = defaultdict(list)
    attacks: dict[str, list[dict]] = defaultdict(list)
    traits: dict[str, list[dict]] = defaultdict(list)
    for record in records:
        model, fields = str(record.get("model", "")), record.get("fields") or {}
        if model.endswith(".creature"):
            creatures[record["pk"]] = fields
        elif model.endswith(".creatureaction"):
            actions[fields["parent"]].append({**fields, "_pk": record["pk"]})
        elif model.endswith(".creatureactionattack"):
            attacks[fields["parent"]].append(fields)
        elif model.endswith(".creaturetrait"):
            traits[fields["parent"]].append(fields)
    return [_block(fields, actions[pk], attacks, traits[pk]) for pk, fields in creatures.items()]
