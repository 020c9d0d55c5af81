"""Movement and Position: kinds of movement, Difficult Terrain, moving around other entities.

- Climbing, swimming and crawling: "each foot of movement costs 1 extra foot ... or 2 extra
  feet in Difficult Terrain. You ignore this extra cost if you have a Climb Speed [Swim
  Speed] and use it." Crawling always pays it (the text's "while you're climbing" under
  Crawling is read as crawling).
- "Every foot of movement in Difficult Terrain costs 1 extra foot, even if multiple things
  in a space count as Difficult Terrain."
- "During your move, you can pass through the space of an ally, an entity that has the
  Incapacitated condition, a Tiny creature, or a creature that is two sizes larger or
  smaller than you. Another entity's space is Difficult Terrain for you unless that entity
  is Tiny or your ally." A move names the entities whose space it crosses (`through`);
  crossing another's space costs its width in extra feet (Large: 10), never more than the
  move itself, and nothing more if the whole move is already in Difficult Terrain.
- "Dropping Prone. On your turn, you can give yourself the Prone condition without using
  an action or any of your Speed, but you can't do so if your Speed is 0." A Prone creature
  crawls or stands up, which costs half its Speed (the 2024 Prone condition; the text is
  silent).
- Special speeds and switching between them: see speeds.py. Extra costs are recorded as
  their own event after the move (`ExtraFeetSpent`), so `Moved.feet` stays the distance.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import msgspec

from combat.common.condition_effects import is_incapacitated, speed_of
from combat.common.turns import require_able, require_turn
from combat.fivee.action_commands import Move
from combat.fivee.action_events import Moved
from combat.fivee.actions import provoked_by
from combat.fivee.standing import StandUp, StoodUp, not_prone
from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionEnded, ConditionSpec, Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_combatant, with_rules

from .bookkeeping import SPACE_FEET, size_steps
from .mounts import carry, require_mover, require_not_riding
from .speeds import MODES, prone_crawls, require_movement, speed_used
from .unarmed import not_grappling

__all__ = [
    "RULES",
    "Traverse",
    "DropProne",
    "StandUpFromProne",
    "ExtraFeetSpent",
    "StoodUp",
    "breaks_run_up",
]

Mode = Literal["walk", "crawl", "climb", "swim", "fly", "burrow"]


class Traverse(Command, frozen=True, kw_only=True):
    """A move with its terrain: the kind of movement, Difficult Terrain, spaces crossed, a creature dragged."""

    combatant: str
    feet: int
    mode: Mode = "walk"
    difficult_terrain: bool = False
    through: tuple[str, ...] = ()  # entities whose space the move crosses
    dragging: str | None = None  # a creature this one grapples and drags along
    leaves_reach_of: tuple[str, ...] = ()


class DropProne(Command, frozen=True, kw_only=True):
    combatant: str


class StandUpFromProne(Command, frozen=True, kw_only=True):
    combatant: str


class ExtraFeetSpent(Event, frozen=True, kw_only=True):
    combatant: str
    feet: int
    reasons: tuple[str, ...]
    hidden: ClassVar[Hidden] = PUBLIC


def _move(tx: Tx, cmd: Move) -> None:
    if cmd.mode not in MODES:
        raise RuleError("move/mode", f"'{cmd.mode}' is not a kind of movement", allowed=", ".join(MODES))
    if cmd.difficult_terrain not in (0, cmd.feet):
        raise RuleError(
            "move/difficult-terrain",
            f"{cmd.difficult_terrain} of {cmd.feet} ft in Difficult Terrain: a move here is all in it or not",
            allowed=f"difficult_terrain 0 or {cmd.feet}; split the move in two",
        )
    _traverse(
        tx,
        Traverse(
            combatant=cmd.combatant,
            feet=cmd.feet,
            mode=cmd.mode,  # type: ignore[arg-type]
            difficult_terrain=cmd.difficult_terrain > 0,
            leaves_reach_of=cmd.leaves_reach_of,
        ),
    )


def _traverse(tx: Tx, cmd: Traverse) -> None:
    c = require_mover(tx, tx.combatant(cmd.combatant))
    require_able(c, "move")
    require_not_riding(tx, c)
    if cmd.feet <= 0:
        raise RuleError("move/distance", f"cannot move {cmd.feet} ft", allowed="a positive number of feet")
    problem = prone_crawls(c, cmd.mode)
    if problem:
        raise RuleError("move/prone", problem, allowed="mode crawl, or stand_up_from_prone (half its Speed)")
    speed = speed_used(tx.state, c, cmd.mode)
    extra, reasons = _extra_cost(tx, c, cmd, speed)
    require_movement(
        tx.state, c, cmd.feet + extra, speed, f"{cmd.feet} ft ({cmd.mode})" + (f" with {', '.join(reasons)}" if reasons else "")
    )
    tx.emit(Moved(combatant=c.id, feet=cmd.feet, mode=cmd.mode, provoked=provoked_by(tx, c, cmd.leaves_reach_of)))
    if extra:
        tx.emit(ExtraFeetSpent(combatant=c.id, feet=extra, reasons=tuple(reasons)))
    carry(tx, c, cmd.feet, cmd.leaves_reach_of)


def _extra_cost(tx: Tx, c: Combatant, cmd: Traverse, speed: str) -> tuple[int, list[str]]:
    extra = 0
    reasons: list[str] = []
    if cmd.mode == "crawl" or (cmd.mode in ("climb", "swim") and speed == "walk"):
        extra += cmd.feet
        reasons.append(f"{cmd.mode}ing" if cmd.mode != "swim" else "swimming")
    crossed = 0
    for oid in dict.fromkeys(cmd.through):
        other = tx.combatant(oid)
        if other.id == c.id:
            continue
        ally = other.side == c.side
        if not (ally or is_incapacitated(other) or other.size == "tiny" or abs(size_steps(c, other)) >= 2):
            raise RuleError(
                "move/blocked",
                f"{c.name} cannot pass through {other.name}'s space",
                allowed="the space of an ally, an Incapacitated or Tiny entity, or one two sizes larger or smaller",
            )
        if not ally and other.size != "tiny":
            crossed += SPACE_FEET[other.size]
    difficult = cmd.feet if cmd.difficult_terrain else min(cmd.feet, crossed)
    if difficult:
        # Climbing, swimming and crawling pay 2 extra feet in Difficult Terrain: this 1 and theirs.
        extra += difficult
        reasons.append("difficult terrain" if cmd.difficult_terrain else "another entity's space")
    if cmd.dragging is not None:
        dragged = tx.combatant(cmd.dragging)
        problem = not_grappling(tx.state, c.id, dragged.id)
        if problem:
            raise RuleError("move/not-grappling", problem, allowed="a creature it grapples")
        if dragged.size != "tiny" and size_steps(dragged, c) < 2:
            extra += cmd.feet
            reasons.append(f"dragging {dragged.name}")
    return extra, reasons


def _drop_prone(tx: Tx, cmd: DropProne) -> None:
    c = require_turn(tx, cmd.combatant)
    require_not_riding(tx, c)
    if speed_of(c) == 0:
        raise RuleError("prone/speed-zero", f"{c.name}'s Speed is 0, so it can't drop Prone")
    if c.has("prone"):
        raise RuleError("prone/already", f"{c.name} is already Prone")
    tx.emit(ConditionApplied(target=c.id, condition=ConditionSpec(name="prone", source=c.id)))


def _stand_up(tx: Tx, cmd: StandUpFromProne) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "stand up")
    problem = not_prone(c)
    if problem:
        raise RuleError("prone/not-prone", problem)
    if speed_of(c) == 0:
        raise RuleError("prone/speed-zero", f"{c.name}'s Speed is 0, so it can't stand up")
    cost = speed_of(c) // 2
    require_movement(tx.state, c, cost, "walk", "standing up")
    tx.emit(StoodUp(combatant=c.id, cost=cost))
    tx.emit(ConditionEnded(target=c.id, condition="prone", reason="stood up"))


def _stand_up_as_shared(tx: Tx, cmd: StandUp) -> None:
    """The 5e family's `stand_up` is this ruleset's `stand_up_from_prone`."""
    _stand_up(tx, StandUpFromProne(combatant=cmd.combatant))


def _spend(state: EncounterState, cid: str, feet: int) -> EncounterState:
    c = state.combatants[cid]
    return with_combatant(state, cid, economy=msgspec.structs.replace(c.economy, moved=c.economy.moved + feet))


# -- the run-up a long jump needs ("provided you move at least 10 feet immediately before") --


def _count_run_up(state: EncounterState, e: Moved) -> EncounterState:
    run = state.rules.run_up
    if e.mode != "walk":
        return with_rules(state, run_up=None)
    feet = run[1] + e.feet if run is not None and run[0] == e.combatant else e.feet
    return with_rules(state, run_up=(e.combatant, feet))


def breaks_run_up(field: str):
    """Anything else the runner does between the run and the jump stops the run-up."""

    def after(state: EncounterState, e: Any) -> EncounterState:
        run = state.rules.run_up
        return with_rules(state, run_up=None) if run is not None and run[0] == getattr(e, field) else state

    return after


RULES = Rules(
    handlers={
        Move: _move,
        Traverse: _traverse,
        DropProne: _drop_prone,
        StandUpFromProne: _stand_up,
        StandUp: _stand_up_as_shared,
    },
    appliers={
        ExtraFeetSpent: lambda s, e: _spend(s, e.combatant, e.feet),
        StoodUp: lambda s, e: _spend(s, e.combatant, e.cost),
    },
    after={Moved: (_count_run_up,)},
    narration={
        ExtraFeetSpent: lambda n, e: f"{n.name(e.combatant)} spends {e.feet} ft more for {', '.join(e.reasons)}",
        StoodUp: lambda n, e: f"{n.name(e.combatant)} stands up, spending {e.cost} ft of movement",
    },
)
