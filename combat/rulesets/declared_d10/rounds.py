"""A round: declarations open, groups act in initiative order one combatant at a time, the
round ends (timers count down) and the next one opens, until a side is dead or has fled.

"Once a round is complete, if there are still combatants alive to fight, you start at the
top of a normal round and go again until one side is dead or has fled the battlefield."
"""

from __future__ import annotations

import msgspec

from combat.fivee import turns
from combat.kernel.commands import EndTurn
from combat.fivee.conditions import expire_conditions
from combat.kernel.decider import Tx
from combat.kernel.events import CombatEnded, Event, RoundEnded, RoundStarted, TurnEnded, TurnStarted
from combat.rulesets.declared_d10 import timers
from combat.rulesets.declared_d10.initiative import turn_order
from combat.rulesets.declared_d10.state import will_act
from combat.kernel.state import EncounterState, with_combatant, with_rules

__all__ = [
    "D10DeclarationsOpened",
    "D10LeftBattlefield",
    "open_round",
    "next_turn",
    "decided",
    "decision_reason",
    "end_if_decided",
    "HANDLERS",
    "APPLIERS",
    "NARRATION",
]

FIGHTING = ("declare", "initiative", "turns")


class D10DeclarationsOpened(Event, frozen=True, kw_only=True):
    """'Everyone declares what they are going to do within X seconds or minutes'."""

    round: int
    seconds: int | None = None


class D10LeftBattlefield(Event, frozen=True, kw_only=True):
    combatant: str


def open_round(tx: Tx) -> None:
    tx.emit(RoundStarted(round=tx.state.round + 1))
    tx.emit(D10DeclarationsOpened(round=tx.state.round, seconds=tx.state.settings.get("declaration_seconds")))


def next_turn(tx: Tx) -> None:
    """Start the turn of the first combatant in order who has yet to act, or end the round."""
    acted = tx.state.rules.acted
    for cid in turn_order(tx.state, False):
        if cid not in acted and will_act(tx.state, tx.state.combatants[cid]):
            turns.start_turn(tx, cid)
            return
    tx.emit(RoundEnded(round=tx.state.round))
    timers.fire_due(tx)
    tx.move_to("round_over")
    open_round(tx)


def _end_turn(tx: Tx, cmd: EndTurn) -> None:
    c = turns.require_turn(tx, cmd.combatant)
    tx.emit(TurnEnded(combatant=c.id))
    expire_conditions(tx, c.id, "end")
    # Killed or knocked out by the free attacks its flight opened, it never reaches the edge.
    if c.id in tx.state.rules.leaving and tx.state.combatants[c.id].status == "active":
        tx.emit(D10LeftBattlefield(combatant=c.id))
    if decided(tx.state) is None:
        next_turn(tx)


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
    state = turns.APPLIERS[RoundStarted](state, e)
    combatants = {cid: msgspec.structs.replace(c, initiative=None) for cid, c in state.combatants.items()}
    state = msgspec.structs.replace(state, combatants=combatants)
    return with_rules(
        state, declarations={}, locked=False, acted=(), spent=(), free_attacks=(), disengaged_from=(), leaving=()
    )


def _on_round_ended(state: EncounterState, e: RoundEnded) -> EncounterState:
    # A surprise lasts one round; every running timer counts one round down.
    t = state.rules
    ticking = tuple(
        msgspec.structs.replace(x, rounds_left=max(0, x.rounds_left - 1)) if not x.fired else x for x in t.timers
    )
    return with_rules(state, round_kind="normal", attackers=None, defenders=None, timers=ticking)


def _on_turn_started(state: EncounterState, e: TurnStarted) -> EncounterState:
    state = turns.APPLIERS[TurnStarted](state, e)
    t = state.rules
    parrying = tuple(p for p in t.parrying if p != e.combatant)  # "until your next action"
    return with_rules(state, acted=t.acted + (e.combatant,), spent=(), disengaged_from=(), parrying=parrying)


def _on_turn_ended(state: EncounterState, e: TurnEnded) -> EncounterState:
    # Free attacks not taken by the end of the turn that opened them are gone.
    state = turns.APPLIERS[TurnEnded](state, e)
    return with_rules(state, spent=(), disengaged_from=(), free_attacks=())


def _on_left(state: EncounterState, e: D10LeftBattlefield) -> EncounterState:
    state = with_combatant(state, e.combatant, status="fled")
    return with_rules(state, leaving=tuple(x for x in state.rules.leaving if x != e.combatant))


def _on_opened(state: EncounterState, e: D10DeclarationsOpened) -> EncounterState:
    return with_rules(state, declaration_seconds=e.seconds)


HANDLERS = {EndTurn: _end_turn}
APPLIERS = {
    RoundStarted: _on_round_started,
    RoundEnded: _on_round_ended,
    TurnStarted: _on_turn_started,
    TurnEnded: _on_turn_ended,
    D10DeclarationsOpened: _on_opened,
    D10LeftBattlefield: _on_left,
}
NARRATION = {
    D10DeclarationsOpened: lambda n, e: "declare your actions"
    + (f" (within {e.seconds} seconds)" if e.seconds else ""),
    D10LeftBattlefield: lambda n, e: f"{n.name(e.combatant)} flees the battlefield",
}
