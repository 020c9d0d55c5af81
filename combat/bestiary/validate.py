"""A GM's own stat block, checked field by field: every problem is named at once and a block
with any problem is refused whole (nothing added, nothing stored)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import msgspec

from combat.bestiary.model import BlockAction, BlockAttack, StatBlock
from combat.bestiary.open5e import parse_multiattack
from combat.kernel import dice
from combat.kernel.errors import RuleError

__all__ = ["problems", "read_block", "read_blocks"]

_FIELDS = {f.encode_name: f for f in msgspec.structs.fields(StatBlock)}


def _shape(data: Mapping[str, Any]) -> list[str]:
    found = [f"{key}: not a stat block field" for key in data if key not in _FIELDS]
    found += [f"{name}: missing" for name, f in _FIELDS.items() if f.required and name not in data]
    for key, value in data.items():
        if key in _FIELDS:
            try:
                msgspec.convert(value, _FIELDS[key].type)
            except msgspec.ValidationError as exc:
                found.append(f"{key}: {exc}")
    return found


def _notation(where: str, notation: str | None) -> list[str]:
    if notation is None:
        return []
    try:
        dice.check_notation(notation)
    except RuleError as exc:
        return [f"{where}: {exc.message}"]
    return []


def _sense(b: StatBlock) -> list[str]:
    found = []
    if not b.name.strip():
        found.append("name: empty")
    if b.hp < 1:
        found.append(f"hp: {b.hp}, at least 1")
    if b.ac < 0:
        found.append(f"ac: {b.ac}, 0 or more")
    found += _notation("hit_dice", b.hit_dice)
    names = [a.name.lower() for a in b.attacks]
    for i, a in enumerate(b.attacks):
        found += _notation(f"attacks[{i}].damage", a.damage) + _notation(f"attacks[{i}].extra_damage", a.extra_damage)
        if a.reach < 0 or (a.range is not None and a.range < 0):
            found.append(f"attacks[{i}]: negative reach or range")
    limited: tuple[BlockAttack | BlockAction, ...] = (*b.attacks, *b.actions, *b.bonus_actions, *b.reactions)
    for use in limited:
        if use.recharge is not None and not 2 <= use.recharge <= 6:
            found.append(f"{use.name}: recharge {use.recharge}, the lowest d6 face that recharges it (2 to 6)")
        if use.per_day is not None and use.per_day < 1:
            found.append(f"{use.name}: per_day {use.per_day}, at least 1")
    if len(set(names)) != len(names):
        found.append("attacks: two attacks share a name")
    for r, routine in enumerate(b.multiattack.routines if b.multiattack else ()):
        for part in routine:
            if part.count < 1:
                found.append(f"multiattack.routines[{r}]: count {part.count}, at least 1")
            found += [f"multiattack.routines[{r}]: no attack called '{n}'" for n in part.attacks if n.lower() not in names]
    for la in b.legendary_actions:
        if la.cost < 1:
            found.append(f"legendary action {la.name}: cost {la.cost}, at least 1")
        if la.attack is not None and la.attack.lower() not in names:
            found.append(f"legendary action {la.name}: no attack called '{la.attack}'")
    if b.legendary_action_uses < 0 or b.legendary_resistance < 0:
        found.append("legendary uses: 0 or more")
    return found


def problems(data: Any) -> list[str]:
    if not isinstance(data, Mapping):
        return [f"a stat block is a JSON object, not {type(data).__name__}"]
    found = _shape(data)
    return found or _sense(msgspec.convert(data, StatBlock))


def read_block(data: Any) -> StatBlock:
    """`data` as a stat block, or a RuleError naming every bad field."""
    found = problems(data)
    if found:
        name = data.get("name") if isinstance(data, Mapping) else None
        raise RuleError(
            "stat-block/invalid",
            f"stat block {name or ''} refused: " + "; ".join(found),
            allowed="the fields of GET /bestiary/{name}, e.g. name, ac, hp, attacks [{name, bonus, damage, damage_type}]",
        )
    block = msgspec.convert(data, StatBlock)
    if block.multiattack and block.multiattack.text and not block.multiattack.routines:
        routines = parse_multiattack(block.multiattack.text, [a.name for a in block.attacks])
        block = msgspec.structs.replace(block, multiattack=msgspec.structs.replace(block.multiattack, routines=routines))
    if block.legendary_actions and not block.legendary_action_uses:
        block = msgspec.structs.replace(block, legendary_action_uses=3)  # the SRD's usual number
    return block


def read_blocks(items: list[Any]) -> list[StatBlock]:
    """Every block or none: the problems of all of them, each under its place in the file."""
    found = [
        f"#{i + 1} {item.get('name', '') if isinstance(item, Mapping) else ''}: {p}"
        for i, item in enumerate(items)
        for p in problems(item)
    ]
    if found:
        raise RuleError(
            "stat-block/invalid",
            "nothing imported: " + "; ".join(found),
            allowed="stat blocks in Open5e's format or GET /bestiary/{name}'s",
        )
    return [read_block(item) for item in items]
