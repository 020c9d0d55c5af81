"""A round: declarations open, groups act in initiative order one combatant at a time, the
round ends (timers count down) and the next one opens, until a side is dead or has fled.

"Once a round is complete, if there are still combatants alive to fight, you start at the
top of a normal round and go again until one side is dead or has fled the battlefield."
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from combat.common import turns
from combat.common.conditions import expire_conditions
from combat.common.durations import no_repeated_saves
from combat.kernel.commands import EndTurn
from combat.kernel.decider import Rules, Tx
from combat.kernel.events import CombatEnded, Event, RoundEnded, RoundStarted, TurnEnded, TurnStarted
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import EncounterState, with_combatant, with_rules
from combat.rulesets.declared_d10 import timers
from combat.rulesets.declared_d10.acting import cannot_act, name_of
from combat.rulesets.declared_d10.initiative import turn_order
from combat.rulesets.declared_d10.state import will_act

__all__ = [
    "D10DeclarationsOpened",
    "D10LeftBattlefield",
    "waiting",
    "cannot_leave",
    "open_round",
    "next_turn",
    "decided",
    "decision_reason",
    "end_if_decided",
    "RULES",
]

FIGHTING = ("declare", "initiative", "turns")


class D10DeclarationsOpened(Event, frozen=True, kw_only=True):
    """'Everyone declares what they are going to do within X seconds or minutes'."""

    round: int
    seconds: int | None = None
    hidden: ClassVar[Hidden] = PUBLIC


class D10LeftBattlefield(Event, frozen=True, kw_only=True):
    combatant: str
    hidden: ClassVar[Hidden] = PUBLIC


def open_round(tx: Tx) -> None:
    tx.emit(RoundStarted(round=tx.state.round + 1))
    tx.emit(D10DeclarationsOpened(round=tx.state.round, seconds=tx.state.settings.get("declaration_seconds")))


def waiting(state: EncounterState) -> list[str]:
    """Who comes up in this round's order, can act and has not yet started a turn."""
    acted = state.rules.acted
    return [cid for cid in turn_order(state, False) if cid not in acted and will_act(state, state.combatants[cid])]


def next_turn(tx: Tx) -> None:
    """Start the turn of the first combatant in order who has yet to act, or end the round."""
    first = waiting(tx.state)
    if first:
        turns.start_turn(tx, first[0])
        return
    tx.emit(RoundEnded(round=tx.state.round))
    timers.fire_due(tx)
    tx.move_to("round_over")
    open_round(tx)


def _end_turn(tx: Tx, cmd: EndTurn) -> None:
    no_repeated_saves(tx, cmd.save_faces)
    c = turns.require_turn(tx, cmd.combatant)
    tx.emit(TurnEnded(combatant=c.id))
    expire_conditions(tx, c.id, "end")
    # Killed or knocked out by the free attacks its flight opened, it never reaches the edge.
    if cannot_leave(tx.state, c.id) is None:
        tx.emit(D10LeftBattlefield(combatant=c.id))
    if decided(tx.state) is None:
        next_turn(tx)


def cannot_leave(state: EncounterState, cid: str) -> str | None:
    """A combatant leaves the battlefield at the end of a turn it fled in, if still standing."""
    c = state.combatants.get(cid)
    if c is None:
        return f"{cid} is not in the fight any more"
    if c.id not in state.rules.leaving:
        return f"{c.name} never fled toward the edge of the battlefield this turn"
    return f"{c.name} is {c.status} now and could not flee the battlefield" if c.status != "active" else None


def decided(state: EncounterState) -> tuple[str | None, str] | None:
    """(winner, reason) once every side but one is dead, down or gone; else None."""
    sides = {c.side for c in state.combatants.values()}
    standing = {c.side for c in state.combatants.values() if c.status == "active"}
    if len(sides) < 2 or len(standing) > 1:
        return None
    winner = next(iter(standing), None)
    return winner, decision_reason(winner)


def decision_reason(winner: str | None) -> str:
    """The words of a fight that ended by itself (a GM's `end_combat` says its own)."""
    return f"every foe of the {winner} side is dead, down or has fled" if winner else "no one is left standing"


def end_if_decided(tx: Tx) -> None:
    if tx.state.phase not in FIGHTING:
        return
    result = decided(tx.state)
    if result is not None:
        tx.move_to("side_defeated")
        tx.emit(CombatEnded(winner=result[0], reason=result[1], automatic=True))


def _on_round_started(state: EncounterState, e: RoundStarted) -> EncounterState:
    # Initiative and declarations belong to one round: both are made again for the next.
    state = turns.on_round_started(state, e)
    combatants = {cid: msgspec.structs.replace(c, initiative=None) for cid, c in state.combatants.items()}
    state = msgspec.structs.replace(state, combatants=combatants)
    return with_rules(state, declarations={}, locked=False, acted=(), spent=(), free_attacks=(), disengaged_from=(), leaving=())


def _on_round_ended(state: EncounterState, e: RoundEnded) -> EncounterState:
    # A surprise lasts one round; every running timer counts one round down.
    t = state.rules
    ticking = tuple(msgspec.structs.replace(x, rounds_left=max(0, x.rounds_left - 1)) if not x.fired else x for x in t.timers)
    return with_rules(state, round_kind="normal", attackers=None, defenders=None, timers=ticking)


def _on_turn_started(state: EncounterState, e: TurnStarted) -> EncounterState:
    state = turns.on_turn_started(state, e)
    t = state.rules
    parrying = tuple(p for p in t.parrying if p != e.combatant)  # "until your next action"
    return with_rules(state, acted=t.acted + (e.combatant,), spent=(), disengaged_from=(), parrying=parrying)


def _on_turn_ended(state: EncounterState, e: TurnEnded) -> EncounterState:
    # Free attacks not taken by the end of the turn that opened them are gone.
    state = turns.on_turn_ended(state, e)
    return with_rules(state, spent=(), disengaged_from=(), free_attacks=())


def _on_left(state: EncounterState, e: D10LeftBattlefield) -> EncounterState:
    state = with_combatant(state, e.combatant, status="fled")
    return with_rules(state, leaving=tuple(x for x in state.rules.leaving if x != e.combatant))


def _on_opened(state: EncounterState, e: D10DeclarationsOpened) -> EncounterState:
    return with_rules(state, declaration_seconds=e.seconds)


def _newly_skipped(state: EncounterState, upto: str | None) -> list[str]:
    """Who still waits although its place in the round's planned order comes before `upto` (or
    the round's end), leaving out anyone already passed over by an earlier turn: one skipped
    turn is one conflict, not one for every turn after it."""
    planned = turn_order(with_rules(state, acted=()), False)
    place = {cid: i for i, cid in enumerate(planned)}
    last_acted = max((place[cid] for cid in state.rules.acted if cid in place), default=-1)
    limit = place.get(upto, len(planned)) if upto is not None else len(planned)
    return [cid for cid in waiting(state) if last_acted < place.get(cid, limit) < limit]


def _check_turn_started(state: EncounterState, e: TurnStarted, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    over = decided(state)
    if over is not None:
        return f"the fight was already over ({over[1]}) and {c.name} took no turn"
    if not will_act(state, c):
        return cannot_act(state, c, "take a turn") or f"{c.name} hesitated (did not declare in time) and took no turn"
    if c.id in state.rules.acted:
        return f"{c.name} had already taken its turn this round"
    if c.id not in waiting(state):
        return f"{c.name}'s group rolled no initiative this round"
    skipped = [name_of(state, cid) for cid in _newly_skipped(state, c.id)]
    if len(skipped) == 1:
        return f"{skipped[0]} is standing now and goes before {c.name} this round: its turn was skipped"
    if skipped:
        return f"{', '.join(skipped)} are standing now and go before {c.name} this round: their turns were skipped"
    return None


def _check_round_ended(state: EncounterState, e: RoundEnded, ctx: dict[str, Any]) -> str | None:
    skipped = [name_of(state, cid) for cid in _newly_skipped(state, None)]
    if not skipped:
        return None
    return f"{', '.join(skipped)} {'is' if len(skipped) == 1 else 'are'} standing now but never took a turn this round"


def _check_combat_ended(state: EncounterState, e: CombatEnded, ctx: dict[str, Any]) -> str | None:
    if not e.automatic:
        return None  # the GM ended the fight by ruling: that is not for the rules to question
    now = decided(state)
    if now is None:
        sides = sorted({c.side for c in state.combatants.values() if c.status == "active"})
        return f"the fight was not over: {' and '.join(sides)} both have someone standing now"
    if now[0] != e.winner:
        return f"the fight ended otherwise now: {now[1]}"
    return None


RULES = Rules(
    handlers={EndTurn: _end_turn},
    appliers={
        RoundStarted: _on_round_started,
        RoundEnded: _on_round_ended,
        TurnStarted: _on_turn_started,
        TurnEnded: _on_turn_ended,
        D10DeclarationsOpened: _on_opened,
        D10LeftBattlefield: _on_left,
    },
    checks={
        TurnStarted: _check_turn_started,
        RoundEnded: _check_round_ended,
        CombatEnded: _check_combat_ended,
        D10LeftBattlefield: lambda state, e, ctx: cannot_leave(state, e.combatant),
    },
    narration={
        D10DeclarationsOpened: lambda n, e: "declare your actions" + (f" (within {e.seconds} seconds)" if e.seconds else ""),
        D10LeftBattlefield: lambda n, e: f"{n.name(e.combatant)} flees the battlefield",
    },
)
