"""The attack tables: the d20 score needed to hit each descending Armor Class.

"Each character class has its own Attack Table. Otherwise, for creatures without a character
class, use the Monster Attack Table." The numbers are the reference tables in data/ (see the
rules README). "Attack AC 0 ('AAC0')" is the shorthand: the score needed against AC 0, and
every table follows from it by the repeating-20s rule - "there are always a sequence of six
20s before a 21 is required, and increase with each armor class from there". "20*" means a
20 is needed against AC 1 as well.
"""

from __future__ import annotations

import json
from functools import cache
from importlib import resources
from typing import Any, Literal

import msgspec

from combat.kernel.errors import RuleError
from combat.rulesets.segments_1e.hit_dice import attack_band, attack_dice, parse_hit_dice
from combat.rulesets.segments_1e.ledger import Sheet

__all__ = ["AttackRow", "attack_row", "needed", "from_aac0", "monster_table", "class_tables", "aac0_value"]

WORST_AC, BEST_AC = 10, -10
REPEATS = 6  # six 20s in a row before 21 is needed


class AttackRow(msgspec.Struct, frozen=True, kw_only=True):
    """Which table row an attacker reads: `label` is how a GM would say it."""

    table: Literal["class", "monster", "aac0"]
    label: str
    aac0: int  # the score needed against AC 0 (21 for "20*")
    cells: dict[int, int] = {}  # AC -> score needed, from the reference table


@cache
def _data(name: str) -> dict[str, Any]:
    return json.loads(resources.files("combat.rulesets.segments_1e").joinpath("data", name).read_text())


def monster_table() -> dict[str, dict[int, int]]:
    data = _data("monster-attack-matrix-1e.json")
    return {band: dict(zip(data["ac_order"], row)) for band, row in data["needed"].items()}


def class_tables() -> dict[str, dict[str, dict[int, int]]]:
    data = _data("class-attack-tables-1e.json")
    return {
        cls: {band: {int(ac): n for ac, n in row.items()} for band, row in bands.items()} for cls, bands in data["tables"].items()
    }


def aac0_value(aac0: int | str) -> int:
    if isinstance(aac0, int):
        return aac0
    text = aac0.strip()
    if text == "20*":
        return 21
    if text.isdigit():
        return int(text)
    raise RuleError("creature/aac0", f"cannot read AAC0 {aac0!r}", allowed='a number such as 15, or "20*"')


def from_aac0(aac0: int, ac: int) -> int:
    """The score needed against `ac` for an attacker with this AAC0 (repeating 20s)."""
    raw = aac0 - ac
    if raw <= 20:
        return raw
    if raw < 20 + REPEATS:
        return 20
    return raw - (REPEATS - 1)


def _row_aac0(cells: dict[int, int]) -> int:
    return 21 if cells[0] == 20 and cells[1] == 20 else cells[0]


def _in_band(band: str, level: int) -> bool:
    if band.endswith("+"):
        return level >= int(band[:-1])
    low, _, high = band.partition("-")
    return int(low) <= level <= int(high or low)


def _class_row(cls: str, level: int) -> AttackRow:
    tables = class_tables()
    name = next((c for c in tables if c.lower() == cls.lower()), None)
    if name is None:
        raise RuleError("creature/class", f"no attack table for class {cls!r}", allowed=", ".join(tables) + ", or give aac0")
    band = next((b for b in tables[name] if _in_band(b, level)), None)
    if band is None:
        raise RuleError("creature/level", f"{name} has no attack row for level {level}", allowed=", ".join(tables[name]))
    cells = tables[name][band]
    return AttackRow(table="class", label=f"{name} {band}", aac0=_row_aac0(cells), cells=cells)


def _monster_row(hit_dice: str) -> AttackRow:
    band = attack_band(parse_hit_dice(hit_dice))
    cells = monster_table()[band]
    return AttackRow(table="monster", label=f"monster {band} HD", aac0=_row_aac0(cells), cells=cells)


def attack_row(stats: Sheet, name: str = "this creature") -> AttackRow:
    """The row an attacker reads. 'Creatures that have hit dice granted as part of their race
    always use their hit dice for attacking, even if they have character classes, unless the
    character class level exceeds the monsters hit dice (then use the higher of the two).'"""
    if stats.aac0 is not None:
        return AttackRow(table="aac0", label=f"AAC0 {stats.aac0}", aac0=aac0_value(stats.aac0))
    has_class = stats.character_class is not None and stats.level is not None
    if stats.hit_dice is not None and not (has_class and stats.level > attack_dice(parse_hit_dice(stats.hit_dice))):  # type: ignore[operator]
        return _monster_row(stats.hit_dice)
    if has_class:
        return _class_row(stats.character_class, stats.level)  # type: ignore[arg-type]
    raise RuleError(
        "creature/no-attack-table",
        f"{name} has no attack table",
        allowed="aac0, character_class with level, or hit_dice",
    )


def needed(row: AttackRow, ac: int) -> int:
    """The modified d20 score that hits `ac`; beyond the printed -10..10 the row continues by its AAC0."""
    return row.cells.get(ac, from_aac0(row.aac0, ac))
