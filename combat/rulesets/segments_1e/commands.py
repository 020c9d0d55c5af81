"""segments-1e's own commands; each tag (snake_case class name) is a trigger in its phase table.

Dice a person rolled are entered as `faces`; a routine of several strikes takes one d20
face per strike and one tuple of damage faces per strike.
"""

from __future__ import annotations

from typing import ClassVar

from combat.kernel.commands import Command, Faces
from combat.rulesets.segments_1e.ledger import CreatureStats

__all__ = [
    "AddCreature",
    "DescribeBattlefield",
    "CheckSurprise",
    "DeclareRoundAction",
    "CloseDeclarations",
    "RollGroupD6",
    "RoutineAttack",
    "FreeAttack",
    "ImmediateAttack",
    "OpenFreeAttack",
    "MajorAction",
    "MinorAction",
    "ImmediateAction",
    "MoveTo",
    "AnnounceDelay",
    "BeginCasting",
    "ResolveSpell",
    "ForgoSpell",
    "CheckMorale",
    "COMMANDS",
]

StrikeFaces = tuple[tuple[int, ...], ...]


class AddCreature(Command, frozen=True, kw_only=True):
    creature: CreatureStats
    hp_faces: Faces = None


class DescribeBattlefield(Command, frozen=True, kw_only=True):
    """Restricted quarters and walls (squares nobody can stand in)."""

    restricted: bool = False
    walls: tuple[tuple[int, int], ...] = ()


class CheckSurprise(Command, frozen=True, kw_only=True):
    """Roll a side's surprise d6; with no side, every side that has not rolled."""

    side: str | None = None
    faces: Faces = None


class DeclareRoundAction(Command, frozen=True, kw_only=True):
    """parley, flee, charge, go_first, innate, spell, invocation, missile, melee, move,
    other, delaying, complex or delay; spells give their casting time in segments
    (10 = "1 round") and may name their targets now or in the caster's group turn."""

    combatant: str
    action: str
    routine: str | None = None
    spell: str | None = None
    casting_segments: int = 1
    range_ft: int = 0
    targets: tuple[str, ...] = ()
    minor_segments: int = 0
    description: str = ""


class CloseDeclarations(Command, frozen=True, kw_only=True):
    """Everyone has declared: on to group initiative."""


class RollGroupD6(Command, frozen=True, kw_only=True):
    side: str | None = None
    faces: Faces = None


class Swing(Command, frozen=True, kw_only=True):
    """What every attack command carries (not a command of its own)."""

    gm_fields: ClassVar[tuple[str, ...]] = ("bonus", "target_ac_bonus", "multipliers")

    attacker: str
    target: str
    bonus: int = 0  # situational modifiers to the d20 roll
    target_ac_bonus: int = 0  # bonuses to the target's AC (lower its number); penalties negative
    multipliers: tuple[int, ...] = ()  # backstab, set against a charge...: the highest counts
    faces: Faces = None
    damage_faces: StrikeFaces = ()


class RoutineAttack(Swing, frozen=True, kw_only=True):
    routine: str | None = None


class FreeAttack(Swing, frozen=True, kw_only=True):
    """[immediate] the primary routine at a creature that drew a free attack."""


class ImmediateAttack(Swing, frozen=True, kw_only=True):
    """[immediate] (major) the primary routine as a trigger occurs (`cause`)."""

    cause: str


class OpenFreeAttack(Command, frozen=True, kw_only=True):
    """The GM rules that `target` draws a free attack from `attacker` (`cause`: what drew it)."""

    attacker: str
    target: str
    cause: str


class MajorAction(Command, frozen=True, kw_only=True):
    combatant: str
    description: str


class MinorAction(Command, frozen=True, kw_only=True):
    """A minor action: 1 segment, or 0 for an asterisked ("no time") activity; the GM may
    add delay for several in one phase."""

    gm_fields: ClassVar[tuple[str, ...]] = ("gm_delay",)

    combatant: str
    description: str
    segments: int = 1
    gm_delay: int = 0


class ImmediateAction(Command, frozen=True, kw_only=True):
    """[immediate] no time, at any moment of the round, even in another's turn."""

    combatant: str
    description: str


class MoveTo(Command, frozen=True, kw_only=True):
    """Move to square (x, y); `through` names allies whose squares are crossed (they are
    jostled); `positioning` is the minor 10-ft move after a major action."""

    combatant: str
    x: int
    y: int
    through: tuple[str, ...] = ()
    positioning: bool = False


class AnnounceDelay(Command, frozen=True, kw_only=True):
    combatant: str


class BeginCasting(Command, frozen=True, kw_only=True):
    """Begin the declared spell. In a surprise segment nothing was declared: name a spell of
    one segment's casting (`spell`, `range_ft`, `casting_segments` 1) instead."""

    actor_fields: ClassVar[tuple[str, ...]] = ("caster",)

    caster: str
    targets: tuple[str, ...] = ()
    cover_percent: int = 0
    spell: str | None = None
    range_ft: int = 0
    casting_segments: int = 1


class ResolveSpell(Command, frozen=True, kw_only=True):
    caster: str
    concealment_percent: int = 0
    damage: str | None = None
    damage_type: str = "magic"
    damage_faces: Faces = None
    custom_type: bool = False  # a damage type the ruleset does not know


class ForgoSpell(Command, frozen=True, kw_only=True):
    actor_fields: ClassVar[tuple[str, ...]] = ("caster",)

    caster: str


class CheckMorale(Command, frozen=True, kw_only=True):
    gm_only: ClassVar[bool] = True  # morale is the GM's roll

    combatant: str
    needed: int
    faces: Faces = None


COMMANDS: tuple[type[Command], ...] = (
    AddCreature,
    DescribeBattlefield,
    CheckSurprise,
    DeclareRoundAction,
    CloseDeclarations,
    RollGroupD6,
    RoutineAttack,
    FreeAttack,
    ImmediateAttack,
    OpenFreeAttack,
    MajorAction,
    MinorAction,
    ImmediateAction,
    MoveTo,
    AnnounceDelay,
    BeginCasting,
    ResolveSpell,
    ForgoSpell,
    CheckMorale,
)
