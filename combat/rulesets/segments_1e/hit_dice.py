"""Hit dice and enhanced hit dice ("4+4 HD"): what the "+" grants.

- Attack rolls: "+1-3 uses the '+' rating ... +4 or higher adds another hit die to a
  maximum of +1 HD (e.g. 5+5 HD = 6 HD or 6-7+ in the monster attack table)."
- Saving throws and overall hit dice: "+1-4=+1; +5-8=+2; +9-12=+3 ... (5+5 HD = 7 HD)".
- Hit points: "a (typical) creature with 4+4 HD will have 4d8+16 hit points."
- Morale: "a bonus to morale checks equal to the enhanced hit dice bonus."
"""

from __future__ import annotations

import re

import msgspec

from combat.kernel.errors import RuleError

__all__ = ["HitDice", "parse_hit_dice", "attack_band", "save_hit_dice", "hit_point_dice", "morale_bonus"]

_FORM = re.compile(r"^\s*(?:(?P<half>1/2)|(?P<dice>\d+)\s*(?:(?P<sign>[+-])\s*(?P<adj>\d+))?)\s*$")


class HitDice(msgspec.Struct, frozen=True):
    dice: int  # 0 for "1/2"
    adjustment: int = 0  # +4 in 4+4, -1 in 1-1


def parse_hit_dice(text: str) -> HitDice:
    m = _FORM.match(text)
    if m is None:
        raise RuleError("creature/hit-dice", f"cannot read hit dice {text!r}", allowed='"4", "4+4", "1-1" or "1/2"')
    if m["half"]:
        return HitDice(0)
    adjustment = int(m["adj"] or 0) * (-1 if m["sign"] == "-" else 1)
    return HitDice(int(m["dice"]), adjustment)


def attack_band(hd: HitDice) -> str:
    """The row of the monster attack matrix for these hit dice."""
    dice, plus = hd.dice, hd.adjustment
    if plus >= 4:
        dice, plus = dice + 1, 0
    if dice == 0 or (dice == 1 and plus < -1):
        return "up to 1-1"
    if dice == 1:
        return "1-1" if plus < 0 else "1+" if plus > 0 else "1"
    if dice >= 16:
        return "16+"
    low = dice if dice % 2 == 0 else dice - 1
    return f"{low}-{low + 1}+"


def attack_dice(hd: HitDice) -> int:
    """Hit dice as a number for comparing with a class level (4+4 attacks as 5)."""
    return hd.dice + (1 if hd.adjustment >= 4 else 0)


def save_hit_dice(hd: HitDice) -> int:
    """Saving-throw (and overall) hit dice: one more die per started +4 of enhancement."""
    if hd.adjustment <= 0:
        return hd.dice
    return hd.dice + (hd.adjustment + 3) // 4


def hit_point_dice(hd: HitDice) -> str:
    """Dice notation for the creature's hit points: d8 per hit die plus the bonus per die."""
    if hd.dice == 0:
        return "1d4"
    total = hd.dice * hd.adjustment
    return f"{hd.dice}d8" + (f"{total:+d}" if total else "")


def morale_bonus(hd: HitDice) -> int:
    return max(0, hd.adjustment)
