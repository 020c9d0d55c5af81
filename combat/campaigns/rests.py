"""Rests (SRD 5.2, Rules Glossary):
- "Long Rest ... Regain All HP. You regain all lost Hit Points and all spent Hit Point
  Dice"; spell slots and every limited-use feature come back.
- "Short Rest ... Spend Hit Point Dice. ... For each Hit Point Die you spend in this way, roll
  the die and add your Constitution modifier to it. You regain Hit Points equal to the total
  (minimum of 1 Hit Point)"; features that recover on a Short Rest come back (Action Surge),
  those that regain part of their uses regain that part (Rage, Second Wind: one), and a
  Warlock's Pact Magic slots: "You regain all expended Pact Magic spell slots when you finish
  a Short or Long Rest".
"""

from __future__ import annotations

import random
import re

import msgspec

from combat.campaigns.records import Rested
from combat.characters.sheet import CharacterSheet, modifier
from combat.fivee.characters import CharacterStatus
from combat.kernel import dice
from combat.kernel.dice import DieFace
from combat.kernel.errors import RuleError

__all__ = ["REST_KINDS", "rest_of"]

REST_KINDS = ("short", "long")


def rest_of(
    sheet: CharacterSheet, s: CharacterStatus, kind: str, hit_dice: int = 0, faces: tuple[int, ...] | None = None
) -> Rested:
    """What a rest of `kind` gives back to a character carrying `s`."""
    if kind not in REST_KINDS:
        raise RuleError("rest/kind", f"no '{kind}' rest", allowed="short or long")
    if s.dead:
        raise RuleError("rest/dead", f"{sheet.name} is dead", allowed="a living character")
    if kind == "long":
        if hit_dice or faces:
            raise RuleError("rest/hit-dice", "Hit Point Dice are spent on a Short Rest", allowed="hit_dice: 0 on a Long Rest")
        return Rested(kind="long", status=CharacterStatus(), healed=sheet.max_hp - (s.hp if s.hp is not None else sheet.max_hp))
    return _short_rest(sheet, s, hit_dice, faces)


def _hit_die_pool(sheet: CharacterSheet) -> list[int]:
    """The sizes of the character's Hit Point Dice ("5d6", "2d10+3d8"): one entry a die."""
    pool: list[int] = []
    for count, sides in re.findall(r"(\d*)d(\d+)", sheet.hit_dice):
        pool += [int(sides)] * int(count or 1)
    return sorted(pool, reverse=True)


def _short_rest(sheet: CharacterSheet, s: CharacterStatus, spend: int, faces: tuple[int, ...] | None) -> Rested:
    pool = _hit_die_pool(sheet)
    left = len(pool) - s.hit_dice_spent
    if spend < 0 or spend > left:
        raise RuleError("rest/hit-dice", f"{sheet.name} has {left} Hit Point Dice left, not {spend}", allowed=f"0 to {left}")
    if faces is not None and len(faces) != spend:
        raise RuleError(
            "dice/faces-count", f"{spend} Hit Point Dice need {spend} faces, not {len(faces)}", allowed=f"{spend} faces"
        )
    con = modifier(sheet.abilities.constitution)
    rolled: list[DieFace] = []
    healed = 0
    for i, sides in enumerate(pool[s.hit_dice_spent : s.hit_dice_spent + spend]):
        result = dice.roll(
            f"1d{sides}", faces=None if faces is None else (faces[i],), rng=None if faces is not None else random.Random()
        )
        rolled += result.dice
        healed += max(1, result.total + con)  # "(minimum of 1 Hit Point)"
    hp_now = s.hp if s.hp is not None else sheet.max_hp
    hp = min(sheet.max_hp, hp_now + healed)
    used = dict(s.resources_used)
    for r in sheet.resources:
        if r.name not in used:
            continue
        if r.recovers == "short":
            del used[r.name]
        elif r.short_rest_regains:
            remaining = used[r.name] - r.short_rest_regains
            if remaining > 0:
                used[r.name] = remaining
            else:
                del used[r.name]
    after = msgspec.structs.replace(
        s, hp=None if hp == sheet.max_hp else hp, hit_dice_spent=s.hit_dice_spent + spend, resources_used=used, pact_spent=0
    )
    return Rested(kind="short", status=after, hit_dice=tuple(rolled), healed=hp - hp_now)
