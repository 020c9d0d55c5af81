"""segments-1e's own events (the shared ones - dice, phases, rounds, damage, conditions - come
from combat.kernel.events). Tagged by class name like every event; the catalog joins them in."""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden, Judge, blank
from combat.rulesets.segments_1e.ledger import CreatureStats, Declared, Slot

__all__ = [
    "CreatureAdded",
    "BattlefieldDescribed",
    "SurpriseChecked",
    "SurpriseSettled",
    "SegmentReached",
    "RoundActionDeclared",
    "GroupD6Rolled",
    "HighLowSet",
    "SegmentTurnStarted",
    "AttackRoutineBegun",
    "TableAttackRolled",
    "FreeAttackOpened",
    "MajorActionTaken",
    "MinorActionTaken",
    "ImmediateActionTaken",
    "CreatureMoved",
    "DelayAnnounced",
    "CastingStarted",
    "CastingDelayed",
    "SpellWentOff",
    "SpellSpoiled",
    "SpellForgone",
    "SimultaneousActionKept",
    "MoraleChecked",
    "EVENTS",
    "HIDDEN_CREATURE_STATS",
]

# A first-edition stat block's numbers (CreatureAdded and the ledger) that a hidden creature does not show.
HIDDEN_CREATURE_STATS = ("ac", "hp", "hit_dice", "character_class", "level", "aac0", "routines", "routines_per_round")


def _creature_added(e: CreatureAdded, judge: Judge) -> CreatureAdded:
    stats = e.creature
    if not judge.hidden(stats.id, stats.kind, stats.side):
        return e
    return msgspec.structs.replace(blank(e, ("hp", "attacks_as", "saves_as")), creature=blank(stats, HIDDEN_CREATURE_STATS))


class CreatureAdded(Event, frozen=True, kw_only=True):
    """`attacks_as` names its attack table row; `saves_as` its saving-throw (and overall) hit dice."""

    creature: CreatureStats
    hp: int
    attacks_as: str | None = None
    saves_as: int | None = None
    hidden: ClassVar[Hidden] = Hidden.custom(_creature_added, covers=("hp",))


class BattlefieldDescribed(Event, frozen=True, kw_only=True):
    restricted: bool
    walls: tuple[tuple[int, int], ...] = ()
    hidden: ClassVar[Hidden] = PUBLIC


class SurpriseChecked(Event, frozen=True, kw_only=True):
    """One side's surprise d6: surprised for `segments` segments (0: not surprised)."""

    side: str
    roll: int
    surprised_on: int
    segments: int
    hidden: ClassVar[Hidden] = PUBLIC


class SurpriseSettled(Event, frozen=True, kw_only=True):
    """Every side has rolled: each individual's surprised segments after its Dexterity
    bonus, and how many surprise segments are played (`window`)."""

    segments: dict[str, int]
    cancelled: dict[str, int] = {}
    window: int
    hidden: ClassVar[Hidden] = PUBLIC


class SegmentReached(Event, frozen=True, kw_only=True):
    segment: int
    hidden: ClassVar[Hidden] = PUBLIC


class GroupD6Rolled(Event, frozen=True, kw_only=True):
    side: str
    roll: int
    hidden: ClassVar[Hidden] = PUBLIC


class RoundActionDeclared(Event, frozen=True, kw_only=True):
    combatant: str
    declared: Declared
    hidden: ClassVar[Hidden] = PUBLIC


class HighLowSet(Event, frozen=True, kw_only=True):
    """Group initiative settled: which sides are HIGH, in which segment each group acts, and
    where each individual stands after Dexterity adjustments and declared delays."""

    rolls: dict[str, int]
    high: tuple[str, ...]
    tied: bool
    high_segment: int
    low_segment: int
    groups: dict[str, Literal["high", "low"]]
    scores: dict[str, int] = {}
    moved: tuple[str, ...] = ()  # individuals not in their side's group (Dexterity, declared delay)
    hidden: ClassVar[Hidden] = PUBLIC


class SegmentTurnStarted(Event, frozen=True, kw_only=True):
    combatant: str
    round: int
    slot: Slot
    hidden: ClassVar[Hidden] = PUBLIC


# What an action spends: the round's major action, one more routine of a multi-attacker,
# the one segment an individual has in a surprise segment, the move of a charge (or of a
# multi-attacker closing in before its first routine), or nothing.
Uses = Literal["major", "extra_routine", "surprise_segment", "charge", "close_in", "none"]


class AttackRoutineBegun(Event, frozen=True, kw_only=True):
    attacker: str
    target: str
    routine: str
    mode: Literal["routine", "free", "immediate"]
    uses: Uses
    segment: int
    charge: bool = False
    trigger: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


class TableAttackRolled(Event, frozen=True, kw_only=True):
    """One strike: the d20 against the attacker's table for the target's descending AC."""

    attacker: str
    target: str
    strike: str
    natural: int
    modifier: int
    total: int
    needed: int
    target_ac: int
    hit: bool
    damage_rolled: int = 0
    multiplier: int = 1
    damage: int = 0
    segment: int
    hidden: ClassVar[Hidden] = Hidden.of(
        target=("target_ac", "needed", "damage"),
        attacker=("modifier", "natural", "strike"),
        aloud=("total", "damage_rolled"),
    )


class FreeAttackOpened(Event, frozen=True, kw_only=True):
    attacker: str
    target: str
    trigger: str
    hidden: ClassVar[Hidden] = PUBLIC


class MajorActionTaken(Event, frozen=True, kw_only=True):
    """`uses`: the round's major action, or (in a surprise segment) that one segment."""

    combatant: str
    description: str
    segment: int
    uses: Uses = "major"
    hidden: ClassVar[Hidden] = PUBLIC


class MinorActionTaken(Event, frozen=True, kw_only=True):
    combatant: str
    description: str
    segments: int
    uses: Uses = "none"
    gm_delay: int = 0
    hidden: ClassVar[Hidden] = PUBLIC


class ImmediateActionTaken(Event, frozen=True, kw_only=True):
    combatant: str
    description: str
    segment: int
    hidden: ClassVar[Hidden] = PUBLIC


class CreatureMoved(Event, frozen=True, kw_only=True):
    combatant: str
    x: int
    y: int
    feet: int
    uses: Uses
    positioning: bool = False
    jostled: tuple[str, ...] = ()
    hidden: ClassVar[Hidden] = PUBLIC


class DelayAnnounced(Event, frozen=True, kw_only=True):
    combatant: str
    during: Literal["high", "low"]
    hidden: ClassVar[Hidden] = PUBLIC


class CastingStarted(Event, frozen=True, kw_only=True):
    """`uses`: the round's major action for a declared spell; in a surprise segment, where
    nothing was declared, that one segment - and the spell is named here, with its
    `range_ft` (one segment of casting: "only actions that fit in one segment")."""

    caster: str
    spell: str
    targets: tuple[str, ...]
    start_segment: int
    completes_round: int
    completes_segment: int
    uses: Uses = "major"
    range_ft: int = 0
    hidden: ClassVar[Hidden] = PUBLIC


class CastingDelayed(Event, frozen=True, kw_only=True):
    caster: str
    spell: str
    completes_round: int
    completes_segment: int
    hidden: ClassVar[Hidden] = PUBLIC


class SpellWentOff(Event, frozen=True, kw_only=True):
    caster: str
    spell: str
    targets: tuple[str, ...]
    segment: int
    hidden: ClassVar[Hidden] = PUBLIC


class SpellSpoiled(Event, frozen=True, kw_only=True):
    """Concentration broken: the spell is lost as if cast."""

    caster: str
    spell: str
    segment: int
    reason: str
    hidden: ClassVar[Hidden] = PUBLIC


class SpellForgone(Event, frozen=True, kw_only=True):
    """The caster decided not to cast (the spell is not lost), or never began."""

    caster: str
    spell: str
    reason: str = "decided not to cast"
    hidden: ClassVar[Hidden] = PUBLIC


class SimultaneousActionKept(Event, frozen=True, kw_only=True):
    """Fell in a segment in which it acts too: its action still takes effect."""

    combatant: str
    slot: Slot
    hidden: ClassVar[Hidden] = PUBLIC


class MoraleChecked(Event, frozen=True, kw_only=True):
    combatant: str
    total: int
    bonus: int
    needed: int
    holds: bool
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("bonus", "needed"), aloud=("total",))


EVENTS: tuple[type[Event], ...] = (
    CreatureAdded,
    BattlefieldDescribed,
    SurpriseChecked,
    SurpriseSettled,
    SegmentReached,
    RoundActionDeclared,
    GroupD6Rolled,
    HighLowSet,
    SegmentTurnStarted,
    AttackRoutineBegun,
    TableAttackRolled,
    FreeAttackOpened,
    MajorActionTaken,
    MinorActionTaken,
    ImmediateActionTaken,
    CreatureMoved,
    DelayAnnounced,
    CastingStarted,
    CastingDelayed,
    SpellWentOff,
    SpellSpoiled,
    SpellForgone,
    SimultaneousActionKept,
    MoraleChecked,
)
