"""The 5e family's commands of a combatant's turn other than attacks: move, take an action
(Dash, Dodge, Help, Hide...), a bonus action, an object interaction, a reaction. Their rules are
combat/fivee/actions.py; they stand apart from it because modules it imports send them too (a
class feature's bonus action: combat/fivee/resources.py)."""

from __future__ import annotations

from typing import ClassVar, Literal

from combat.kernel.commands import Command, Faces

__all__ = ["Using", "Move", "TakeAction", "BonusAction", "InteractWithObject", "UseReaction"]

# The part of a turn's economy an attack or a granted action uses.
Using = Literal["action", "bonus_action", "reaction"]


class Move(Command, frozen=True, kw_only=True):
    combatant: str
    feet: int
    mode: str = "walk"
    leaves_reach_of: tuple[str, ...] = ()
    difficult_terrain: int = 0  # how many of the feet are Difficult Terrain (each costs 1 extra)


class TakeAction(Command, frozen=True, kw_only=True):
    """Dash, Disengage, Dodge, Help, Hide, Influence, Magic, Ready, Search, Study, Utilize."""

    gm_fields: ClassVar[tuple[str, ...]] = ("bonus", "dc")

    combatant: str
    action: str
    target: str | None = None
    detail: str = ""
    bonus: int = 0
    dc: int | None = None
    faces: Faces = None
    concentration: bool = False
    bonus_action: bool = False  # a feature such as Cunning Action allows it


class BonusAction(Command, frozen=True, kw_only=True):
    combatant: str
    description: str


class InteractWithObject(Command, frozen=True, kw_only=True):
    combatant: str
    description: str


class UseReaction(Command, frozen=True, kw_only=True):
    combatant: str
    description: str
