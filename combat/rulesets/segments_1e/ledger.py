"""What segments-1e remembers beyond the shared encounter state: stat blocks, the round's
declarations and group placements, spells in casting, and the segment clock.

It is the ruleset's `state_type`: `state.rules` holds a `Ledger`, and appliers write a changed
copy with `combat.kernel.state.with_rules` (or `with_creature` for one creature). The JSON
views show it under "segments_1e".

Each fact lives in one place. What every combatant has - id, name, kind, side, AC, hit points,
movement (the combatant's `speed`), player - is the shared `Combatant` under `combatants`; a
creature's record here holds only what is first-edition: its `stats` (a `Sheet`: hit dice,
class and level, AAC0, Dexterity adjustments, surprise range, attack routines), its attack
and save rows, its square on the map (`x`, `y`) and the round's bookkeeping. The
`CreatureAdded` event still carries the whole stat block as the GM entered it
(`CreatureStats`, the log format is unchanged).

Changed in the JSON views (`show --json`, the state in HTTP replies, `replays/*.expected.json`):
`segments_1e.creatures.<id>.stats` used to repeat `id`, `name`, `kind`, `side`, `ac`, `hp`
(as entered, null when rolled), `move_ft`, `player` and the square the creature started on
(`x`, `y`); it now shows the `Sheet` alone. Read those from `combatants.<id>` (`speed` for
`move_ft`, `max_hp` for the hit points it began with) and the creature's own `x`, `y`.
Snapshots stored in the old shape still load as they were meant (the extra fields are
ignored).
"""

from __future__ import annotations

from typing import Any, Literal

import msgspec

from combat.kernel.state import EncounterState, with_rules

__all__ = [
    "Strike",
    "Routine",
    "Sheet",
    "sheet_of",
    "CreatureStats",
    "Declared",
    "Casting",
    "Slot",
    "Creature",
    "Ledger",
    "creature_of",
    "with_creature",
]

RoutineKind = Literal["melee", "missile"]


class Strike(msgspec.Struct, frozen=True, kw_only=True):
    """One attack of a routine: `claw 1d8`. `bonus` is every modifier to the d20 roll."""

    name: str
    damage: str
    bonus: int = 0


class Routine(msgspec.Struct, frozen=True, kw_only=True):
    """An attack routine: one or more strikes in the same segment against one target.

    `speed` is the weapon speed used to break ties; `space_ft` the room the weapon needs
    in restricted quarters; `range_ft` the reach of a missile routine.
    """

    name: str
    strikes: tuple[Strike, ...]
    kind: RoutineKind = "melee"
    speed: int = 0
    space_ft: int = 3
    range_ft: int = 0


class Sheet(msgspec.Struct, frozen=True, kw_only=True):
    """What a first-edition stat block holds beyond what every combatant has.

    The attacker's table is the AAC0 shorthand when given (an int, or "20*"), else the
    class table for `character_class`/`level`, else the monster table by `hit_dice`
    ("4+4", "1-1", "1/2"); a creature with both racial hit dice and a class level uses the
    higher of the two.
    """

    hit_dice: str | None = None
    character_class: str | None = None
    level: int | None = None
    aac0: int | str | None = None
    dex_reaction: int = 0  # Dexterity reaction adjustment (initiative, where it applies)
    dex_surprise: int = 0  # segments of surprise the individual shakes off
    surprises_on: int | None = None  # "surprises on 1-3" = 3; None: the table's default
    routines: tuple[Routine, ...] = ()
    routines_per_round: int = 1  # more than 1: the multi-attack ability


class CreatureStats(Sheet, frozen=True, kw_only=True):
    """A first-edition stat block as the GM enters it: the `Sheet`, and what becomes the
    shared `Combatant` (`move_ft` its `speed`) and the creature's first square on the map.
    `hp` None rolls the hit dice (4+4 HD: 4d8+16)."""

    id: str
    name: str
    kind: Literal["pc", "monster"]
    side: str
    ac: int
    hp: int | None = None
    move_ft: int = 120
    x: int | None = None  # 5-ft squares on the battle map
    y: int | None = None
    player: str | None = None


def sheet_of(stats: CreatureStats) -> Sheet:
    return Sheet(**{name: getattr(stats, name) for name in Sheet.__struct_fields__})


class Declared(msgspec.Struct, frozen=True, kw_only=True):
    """What an individual declared in the Declare Actions phase."""

    action: str
    routine: str | None = None
    spell: str | None = None
    casting_segments: int = 1
    range_ft: int = 0
    targets: tuple[str, ...] = ()
    minor_segments: int = 0
    description: str = ""


class Casting(msgspec.Struct, frozen=True, kw_only=True):
    """A declared spell (incantation or invocation); `start_segment` once casting has begun."""

    spell: str
    kind: Literal["incantation", "invocation"]
    casting_segments: int
    range_ft: int = 0
    targets: tuple[str, ...] = ()
    declared_round: int
    start_segment: int | None = None
    completes_round: int | None = None
    completes_segment: int | None = None

    @property
    def started(self) -> bool:
        return self.start_segment is not None


class Slot(msgspec.Struct, frozen=True, kw_only=True):
    """Where a turn falls: the step of the round (`key`), its segment, and what orders it
    within the segment (action type `rank`, `after` for ties lost, weapon `speed`).
    Two turns with equal slots are simultaneous."""

    key: str
    segment: int
    rank: int = 0
    after: int = 0
    speed: int = 0


class Creature(msgspec.Struct, frozen=True, kw_only=True):
    """One creature's first-edition record; the rest of it is its `Combatant`."""

    stats: Sheet
    attacks_as: str | None = None  # the attack table row, e.g. "Fighter 5" or "monster 4-5+ HD"
    saves_as: int | None = None  # saving-throw (and overall) hit dice of a monster
    x: int | None = None
    y: int | None = None
    surprised_segments: int = 0
    casting: Casting | None = None
    # -- this round only; cleared when it ends --
    declared: Declared | None = None
    group: Literal["high", "low"] | None = None
    acting_segment: int = 0
    added_segments: int = 0  # minor actions (and the GM's delay for several) add time
    major_used: bool = False
    routines_used: int = 0
    charged: bool = False  # has made the move of a declared charge (or closed in, a multi-attacker)
    attacked: tuple[str, ...] = ()  # targets of its routines and free attacks this round
    free_attack_segments: tuple[int, ...] = ()
    segment_used: int = 0  # the surprise segment in which it last spent its one segment
    done: tuple[str, ...] = ()  # slot keys of the turns it has finished
    downed_in: Slot | None = None  # fell during a turn simultaneous with its own


class Ledger(msgspec.Struct, frozen=True, kw_only=True):
    segment: int = 0
    slot: Slot | None = None  # the turn being played
    restricted: bool = False  # tight quarters: weapons needing more than 4 ft need an open square
    walls: tuple[tuple[int, int], ...] = ()
    surprise: dict[str, int] = {}  # side -> segments it is surprised for (0: not surprised)
    surprise_window: int = 0  # how many surprise segments are played
    rolls: dict[str, int] = {}  # side -> group d6 this round
    high: tuple[str, ...] = ()
    tied: bool = False
    high_segment: int = 0
    low_segment: int = 0
    openings: tuple[tuple[str, str], ...] = ()  # (who may make a free attack, at whom)
    creatures: dict[str, Creature] = {}


def creature_of(state: EncounterState, cid: str) -> Creature:
    return state.rules.creatures[cid]


def with_creature(state: EncounterState, cid: str, **changes: Any) -> EncounterState:
    ledger = state.rules
    creatures = dict(ledger.creatures)
    creatures[cid] = msgspec.structs.replace(creatures[cid], **changes)
    return with_rules(state, creatures=creatures)
