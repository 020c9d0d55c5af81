"""Movement: split around actions, several speeds, crawling, climbing and swimming, standing up.

"When switching between different movement speeds, you subtract the distance you've already
moved during your turn from the new speed. If the remainder is 0 or less, you cannot use the
new speed this turn."
"Climbing and Swimming. You can use your base Speed to perform these tasks, but you must spend
1 extra foot for every foot you do so. A swim or climb speed allows you to move through these
environments at no additional cost. Gliding, Hovering, and Burrowing. You must have the
appropriate movement speed."
Prone: "Your only movement option is to crawl (every 1 foot of movement while crawling costs 1
extra foot) until you stand up. Standing up requires half your movement."

Extra movement from Dash or Sprint adds to every speed alike.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from combat.common.condition_effects import speed_of
from combat.common.turns import require_able, require_turn
from combat.fivee.action_commands import Move
from combat.fivee.action_events import Moved
from combat.fivee.actions import provoked_by
from combat.fivee.standing import StandUp  # the 5e family's command; a5e's text decides what it costs
from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionEnded, Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_combatant, with_rules

__all__ = [
    "RULES",
    "GROUND",
    "SetSpeeds",
    "StandUp",
    "SpeedsSet",
    "ExtraMovementSpent",
    "movement_left",
    "costs_double",
    "no_speed",
    "prone_crawls",
    "movement_short",
]

GROUND = ("walk", "crawl", "climb", "swim")  # possible on base Speed
SPECIAL = ("fly", "burrow", "hover", "glide", "climb", "swim")
_DOUBLED = {"crawl": "crawling", "climb": "climbing without a climb speed", "swim": "swimming without a swim speed"}


class SetSpeeds(Command, frozen=True, kw_only=True):
    """A participant's speeds besides walking, e.g. {"fly": 60} or {"swim": 30}."""

    gm_only: ClassVar[bool] = True  # part of the stat block

    combatant: str
    speeds: dict[str, int]


class SpeedsSet(Event, frozen=True, kw_only=True):
    combatant: str
    speeds: dict[str, int]
    hidden: ClassVar[Hidden] = PUBLIC


class ExtraMovementSpent(Event, frozen=True, kw_only=True):
    """Movement spent beyond the feet moved: crawling, climbing without a climb speed, standing up."""

    combatant: str
    feet: int
    reason: str
    hidden: ClassVar[Hidden] = PUBLIC


def _set_speeds(tx: Tx, cmd: SetSpeeds) -> None:
    c = tx.combatant(cmd.combatant)
    for mode, feet in cmd.speeds.items():
        if mode not in SPECIAL or feet < 0:
            raise RuleError("move/speed", f"{mode} {feet} ft is not a speed", allowed=", ".join(SPECIAL) + " at 0 ft or more")
    tx.emit(SpeedsSet(combatant=c.id, speeds=dict(cmd.speeds)))


def movement_left(state: EncounterState, c: Combatant, mode: str) -> int:
    """Feet left for `mode`: its speed, plus any Dash or Sprint, less what was moved this turn."""
    if speed_of(c) == 0:
        return 0
    speeds = state.rules.speeds.get(c.id, {})
    extra = max(0, c.economy.movement - c.speed)
    mode_speed = speeds.get(mode, c.speed if mode in GROUND else 0)
    return mode_speed + extra - c.economy.moved


def costs_double(state: EncounterState, c: Combatant, mode: str) -> bool:
    """Crawling, and climbing or swimming without that speed, cost 1 extra foot per foot."""
    return mode == "crawl" or (mode in ("climb", "swim") and mode not in state.rules.speeds.get(c.id, {}))


def no_speed(state: EncounterState, c: Combatant, mode: str) -> str | None:
    """Walking, crawling, climbing and swimming come with any speed; flying and the rest need their own."""
    if mode in GROUND or mode in state.rules.speeds.get(c.id, {}):
        return None
    return f"{c.name} has no {mode} speed"


def prone_crawls(c: Combatant, mode: str) -> str | None:
    """Prone: 'Your only movement option is to crawl'."""
    return f"{c.name} is prone: its only movement is to crawl" if c.has("prone") and mode != "crawl" else None


def movement_short(state: EncounterState, c: Combatant, mode: str, cost: int) -> str | None:
    """The problem when `cost` feet of `mode` movement is more than `c` has left, else None."""
    left = max(0, movement_left(state, c, mode))
    return None if cost <= left else f"{c.name} has {left} ft of {mode} movement left, not {cost}"


def _move(tx: Tx, cmd: Move) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "move")
    mode = cmd.mode.lower()
    if cmd.feet <= 0:
        raise RuleError("move/distance", f"cannot move {cmd.feet} ft", allowed="a positive number of feet")
    problem = no_speed(tx.state, c, mode)
    if problem:
        raise RuleError(
            "move/no-speed", problem, allowed=", ".join(("walk", "crawl", "climb", "swim", *tx.state.rules.speeds.get(c.id, {})))
        )
    problem = prone_crawls(c, mode)
    if problem:
        raise RuleError("move/prone", problem, allowed="crawl, or stand_up")
    if not 0 <= cmd.difficult_terrain <= cmd.feet:
        raise RuleError(
            "move/difficult-terrain",
            f"{cmd.difficult_terrain} ft of Difficult Terrain in a move of {cmd.feet} ft",
            allowed=f"0 to {cmd.feet}",
        )
    doubled = costs_double(tx.state, c, mode)
    # Difficult Terrain costs 1 extra foot per foot, on top of crawling's or climbing's extra.
    cost = cmd.feet * (2 if doubled else 1) + cmd.difficult_terrain
    problem = movement_short(tx.state, c, mode, cost)
    if problem:
        left = max(0, movement_left(tx.state, c, mode))
        switching = " (what was moved is subtracted when switching speeds)" if mode != "walk" else ""
        per_foot = " at 2 ft per foot" if doubled else ""
        raise RuleError(
            "economy/movement",
            problem,
            allowed=f"up to {left // (2 if doubled else 1)} ft of {mode}{per_foot}{switching}, or Dash for more",
        )
    # "... when a hostile creature that you can see moves out of your reach." A surprised foe
    # cannot react yet; its opportunity attack would be refused anyway.
    provoked = tuple(fid for fid in provoked_by(tx, c, cmd.leaves_reach_of) if not tx.state.combatants[fid].surprised)
    tx.emit(Moved(combatant=c.id, feet=cmd.feet, mode=mode, provoked=provoked))
    if cost > cmd.feet:
        reasons = ([_DOUBLED[mode]] if doubled else []) + (["through Difficult Terrain"] if cmd.difficult_terrain else [])
        tx.emit(ExtraMovementSpent(combatant=c.id, feet=cost - cmd.feet, reason=" and ".join(reasons)))


def _stand_up(tx: Tx, cmd: StandUp) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "stand up")
    if not c.has("prone"):
        raise RuleError("condition/absent", f"{c.name} is not prone", allowed="move")
    cost = c.speed // 2
    left = movement_left(tx.state, c, "walk")
    if speed_of(c) == 0 or cost > left:
        raise RuleError(
            "economy/movement",
            f"standing up takes {cost} ft of movement; {c.name} has {max(0, left)}",
            allowed="stay prone and crawl, or end_turn",
        )
    tx.emit(ConditionEnded(target=c.id, condition="prone", reason="stood up"))
    tx.emit(ExtraMovementSpent(combatant=c.id, feet=cost, reason="standing up"))


def _on_speeds(state: EncounterState, e: SpeedsSet) -> EncounterState:
    return with_rules(state, speeds={**state.rules.speeds, e.combatant: e.speeds})


def _on_extra(state: EncounterState, e: ExtraMovementSpent) -> EncounterState:
    c = state.combatants[e.combatant]
    return with_combatant(state, c.id, economy=msgspec.structs.replace(c.economy, moved=c.economy.moved + e.feet))


RULES = Rules(
    handlers={Move: _move, SetSpeeds: _set_speeds, StandUp: _stand_up},
    appliers={SpeedsSet: _on_speeds, ExtraMovementSpent: _on_extra},
    narration={
        SpeedsSet: lambda n, e: f"{n.name(e.combatant)} has speeds: " + ", ".join(f"{m} {f} ft" for m, f in e.speeds.items()),
        ExtraMovementSpent: lambda n, e: f"{n.name(e.combatant)} spends {e.feet} more ft of movement {e.reason}",
    },
)
