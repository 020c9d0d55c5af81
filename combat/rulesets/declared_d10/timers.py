"""Timer dice: "roll the die determined by the GM and that is the number of rounds until
something happens like the ceiling collapses, cliff falls away, barrels explode, etc."

Reading: the count is of round ends, the current round included. A timer rolled at 3 in
round 2 counts down at the end of rounds 2, 3 and 4, and fires at the end of round 4, before
anyone declares for round 5. The state shows the rounds left; the log says when it fires.
"""

from __future__ import annotations

from typing import ClassVar

from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import EncounterState, with_rules
from combat.rulesets.declared_d10.state import Timer

__all__ = ["D10StartTimer", "D10TimerStarted", "D10TimerFired", "not_due", "fire_due", "RULES"]


class D10StartTimer(Command, frozen=True, kw_only=True):
    what: str
    die: str = "1d6"
    faces: tuple[int, ...] | None = None


class D10TimerStarted(Event, frozen=True, kw_only=True):
    timer: str
    what: str
    rounds: int
    hidden: ClassVar[Hidden] = PUBLIC


class D10TimerFired(Event, frozen=True, kw_only=True):
    timer: str
    what: str
    hidden: ClassVar[Hidden] = PUBLIC


def _start(tx: Tx, cmd: D10StartTimer) -> None:
    if not cmd.what.strip():
        raise RuleError("timer/what", "a timer needs to say what happens", allowed="what: e.g. the ceiling collapses")
    roll = tx.roll(cmd.die, purpose=f"timer: {cmd.what}", roller="gm", faces=cmd.faces)
    if roll.total < 1:
        raise RuleError("timer/rounds", f"{cmd.die} gave {roll.total} rounds", allowed="a die that rolls 1 or more")
    timer = f"timer-{len(tx.state.rules.timers) + 1}"
    tx.emit(D10TimerStarted(timer=timer, what=cmd.what, rounds=roll.total))


def not_due(state: EncounterState, timer_id: str, what: str) -> str | None:
    """A timer goes off once, when it has counted down to 0: else the problem."""
    timer = next((x for x in state.rules.timers if x.id == timer_id), None)
    if timer is None:
        return f"no timer {timer_id} was running ({what})"
    if timer.fired:
        return f"{what}: the timer had already gone off"
    if timer.rounds_left:
        return f"{what}: the timer had {timer.rounds_left} round{'s' if timer.rounds_left != 1 else ''} left"
    return None


def fire_due(tx: Tx) -> None:
    """After a round ends: every timer that has counted down to 0 goes off."""
    for timer in tx.state.rules.timers:
        if not_due(tx.state, timer.id, timer.what) is None:
            tx.emit(D10TimerFired(timer=timer.id, what=timer.what))


def _on_started(state: EncounterState, e: D10TimerStarted) -> EncounterState:
    timers = state.rules.timers + (Timer(id=e.timer, what=e.what, rounds_left=e.rounds),)
    return with_rules(state, timers=timers)


def _on_fired(state: EncounterState, e: D10TimerFired) -> EncounterState:
    timers = tuple(Timer(id=x.id, what=x.what, rounds_left=0, fired=True) if x.id == e.timer else x for x in state.rules.timers)
    return with_rules(state, timers=timers)


RULES = Rules(
    handlers={D10StartTimer: _start},
    appliers={D10TimerStarted: _on_started, D10TimerFired: _on_fired},
    checks={D10TimerFired: lambda state, e, ctx: not_due(state, e.timer, e.what)},
    narration={
        D10TimerStarted: lambda n, e: f"Timer: {e.what} in {e.rounds} round{'s' if e.rounds != 1 else ''}",
        D10TimerFired: lambda n, e: f"Timer runs out: {e.what}!",
    },
)
