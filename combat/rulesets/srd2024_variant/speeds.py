"""Speed and special speeds: which speed a kind of movement uses and how much of it is left.

"If you have more than one speed, ... you can switch between the speeds during your move.
Whenever you switch, subtract the distance already moved from the new speed. The result
determines how much farther you can move." Movement spent this turn (`economy.moved`,
extra costs included) is subtracted from whichever speed the next part of the move uses,
so Speed 30 and Fly Speed 40 let you fly 10, walk 10 and fly 20 more.

"If an effect increases or decreases your Speed ..., any special speed you have increases
or decreases by an equal amount": a Speed of 0 stops every speed. The extra movement of
Dash ("equal to your Speed") is added to every speed.
"""

from __future__ import annotations

from combat.common.condition_effects import speed_of
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant, EncounterState

from .bookkeeping import traits_of

__all__ = ["MODES", "speed_used", "speed_now", "movement_left", "movement_short", "require_movement", "prone_crawls"]

# Kinds of movement a Move or Traverse may name.
MODES = ("walk", "crawl", "climb", "swim", "fly", "burrow")
_NEEDS_ITS_SPEED = ("fly", "burrow")
_OWN_SPEED_IF_ANY = ("climb", "swim")


def speed_used(state: EncounterState, c: Combatant, mode: str) -> str:
    """The speed a kind of movement spends: its own special speed if the creature has one."""
    speeds = traits_of(state, c.id).speeds
    if mode in _NEEDS_ITS_SPEED:
        if not speeds.get(mode):
            raise RuleError(
                "move/no-speed",
                f"{c.name} has no {mode.title()} Speed",
                allowed=", ".join(["walk", "crawl", "climb", "swim", *(m for m in _NEEDS_ITS_SPEED if speeds.get(m))]),
            )
        return mode
    if mode in _OWN_SPEED_IF_ANY and speeds.get(mode):
        return mode
    return "walk"


def speed_now(state: EncounterState, c: Combatant, speed: str) -> int:
    walk = speed_of(c)
    if walk == 0:
        return 0
    if speed == "walk":
        return walk
    return max(0, traits_of(state, c.id).speeds.get(speed, 0) + (walk - c.speed))


def movement_left(state: EncounterState, c: Combatant, speed: str = "walk") -> int:
    if speed_of(c) == 0:
        return 0
    extra = c.economy.movement - speed_of(c)  # what Dash added this turn
    return max(0, speed_now(state, c, speed) + extra - c.economy.moved)


def movement_short(state: EncounterState, c: Combatant, cost: int, speed: str, doing: str) -> str | None:
    """The problem when `doing` costs more of `speed` than `c` has left this turn, else None."""
    left = movement_left(state, c, speed)
    if cost <= left:
        return None
    which = "" if speed == "walk" else f"{speed} "
    return f"{c.name} has {max(0, left)} ft of {which}movement left; {doing} costs {cost} ft"


def require_movement(state: EncounterState, c: Combatant, cost: int, speed: str, doing: str) -> None:
    problem = movement_short(state, c, cost, speed, doing)
    if problem:
        left = max(0, movement_left(state, c, speed))
        raise RuleError("economy/movement", problem, allowed=f"up to {left} ft of movement, or Dash for more")


def prone_crawls(c: Combatant, mode: str) -> str | None:
    """Prone: 'Your only movement options are to crawl or to spend an amount of movement equal
    to half your Speed ... to right yourself': no walking, flying or jumping."""
    return f"{c.name} is Prone: it can only crawl or stand up, not {mode}" if c.has("prone") and mode != "crawl" else None
