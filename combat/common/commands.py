"""The commands of the rules every ruleset with hit points and conditions shares: damage,
healing and temporary hit points, conditions given and taken away, concentration, and the
saving throw the GM calls for. Tagged in snake case like every command
(combat/kernel/commands.py); they reach each encounter through its `Ruleset`.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from combat.kernel.commands import Command, Cover, Faces
from combat.kernel.events import ConditionSpec

__all__ = [
    "Damage",
    "Heal",
    "GrantTempHp",
    "ApplyCondition",
    "RemoveCondition",
    "StartConcentration",
    "EndConcentration",
    "ConcentrationSave",
    "SavingThrow",
]


class Damage(Command, frozen=True, kw_only=True):
    target: str
    damage_type: str
    amount: int | None = None
    notation: str | None = None
    source: str | None = None
    faces: Faces = None
    custom_type: bool = False  # a damage type the ruleset does not know: no resistance applies to it
    resistance_faces: dict[str, tuple[int, ...]] = {}  # a Resistance spell's d4, by the damaged creature's id


class Heal(Command, frozen=True, kw_only=True):
    target: str
    amount: int | None = None
    notation: str | None = None
    source: str | None = None
    faces: Faces = None


class GrantTempHp(Command, frozen=True, kw_only=True):
    target: str
    amount: int
    source: str | None = None


class ApplyCondition(Command, frozen=True, kw_only=True):
    target: str
    condition: ConditionSpec
    custom: bool = False  # a condition the ruleset does not know: recorded, with no mechanical effect


class RemoveCondition(Command, frozen=True, kw_only=True):
    target: str
    condition: str
    reason: str = ""


class StartConcentration(Command, frozen=True, kw_only=True):
    combatant: str
    effect: str


class EndConcentration(Command, frozen=True, kw_only=True):
    combatant: str
    reason: str = "ended by choice"


class ConcentrationSave(Command, frozen=True, kw_only=True):
    combatant: str
    faces: Faces = None


class SavingThrow(Command, frozen=True, kw_only=True):
    """Without a DC the roll is recorded (`SaveRolled`) and the GM or the effect rules on it later."""

    # Cover adds to the save: the GM's call, as a situational Advantage is.
    gm_fields: ClassVar[tuple[str, ...]] = ("dc", "bonus", "roll_mode", "cover")

    combatant: str
    ability: str  # strength... or dex, DEX, Dexterity (5e family); segments-1e's own save names
    dc: int | None = None
    bonus: int | None = None  # None: from the stat block (combat/fivee/bonuses.py); a number overrides it
    roll_mode: Literal["normal", "advantage", "disadvantage"] = "normal"
    faces: Faces = None
    reason: str = ""
    cover: Cover = "none"  # half (+2) or three-quarters (+5) cover adds to a Dexterity save
