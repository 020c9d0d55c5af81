"""Rounds and turns: whose turn it is, what refreshes at its start, and when the fight ends."""

from __future__ import annotations

from collections.abc import Callable

import msgspec

from combat.common.condition_effects import INCAPACITATING, speed_of
from combat.common.conditions import arm_next_turn_ends, expire_conditions
from combat.common.zero_hp import zero_hp
from combat.kernel.commands import EndCombat
from combat.kernel.decider import Applier, Handler, Rules, Tx
from combat.kernel.encounter import ENCOUNTER, defeat_reason
from combat.kernel.errors import RuleError
from combat.kernel.events import CombatEnded, RoundEnded, RoundStarted, TurnEnded, TurnStarted
from combat.kernel.state import Combatant, Economy, EncounterState

__all__ = [
    "require_turn",
    "require_able",
    "start_round",
    "first_turn",
    "next_turn",
    "start_turn",
    "end_fight_if_decided",
    "HANDLERS",
    "APPLIERS",
    "RULES",
    "on_round_started",
    "on_turn_started",
    "on_turn_ended",
]

OrderFn = Callable[[EncounterState, bool], list[str]]


def require_turn(tx: Tx, cid: str) -> Combatant:
    c = tx.combatant(cid)
    if tx.state.turn != cid:
        whose = tx.state.combatants[tx.state.turn].name if tx.state.turn else "nobody"
        raise RuleError(
            "turn/not-yours",
            f"it is {whose}'s turn, not {c.name}'s",
            allowed=f"commands for {whose}, reactions, or GM rulings",
        )
    return c


def blocked_by(c: Combatant) -> str | None:
    """What stops `c` acting: its status (dead, unconscious...) or an Incapacitating condition;
    None when nothing does. `require_able` refuses with it; the re-checks after a change to the
    past (combat.fivee.consistency.able) report it."""
    if c.status != "active":
        return c.status
    return next((x.name for x in c.conditions if x.name in INCAPACITATING), None)


def require_able(c: Combatant, doing: str) -> None:
    blocking = blocked_by(c)
    if blocking:
        raise RuleError("combatant/incapacitated", f"{c.name} is {blocking} and cannot {doing}")


def start_round(tx: Tx, order: OrderFn) -> None:
    tx.emit(RoundStarted(round=tx.state.round + 1))
    first_turn(tx, order)


def first_turn(tx: Tx, order: OrderFn) -> None:
    """Start the round's first turn, passing over the dead."""
    next_turn(tx, order(tx.state, True))


def next_turn(tx: Tx, candidates: list[str]) -> bool:
    """Start the first living candidate's turn; False if none is left this round."""
    for cid in candidates:
        if tx.state.combatants[cid].status != "dead":
            start_turn(tx, cid)
            return True
        # A dead creature's turn never comes, but what lasts "until the start (or end) of its
        # turn" still runs out when that turn would have.
        expire_conditions(tx, cid, "start")
        expire_conditions(tx, cid, "end")
    return False


def start_turn(tx: Tx, cid: str) -> None:
    # Expire first: a Speed 0 condition that ends at the start of this turn must not
    # leave the turn with no movement (TurnStarted grants movement from the current Speed).
    expire_conditions(tx, cid, "start")
    tx.emit(TurnStarted(combatant=cid, round=tx.state.round))
    zero_hp(tx).turn_started(tx, cid)


def end_fight_if_decided(tx: Tx) -> None:
    """'Combat ends when one side or the other is defeated': no one left standing on all but one side."""
    if tx.state.phase != "turns":
        return
    sides = {c.side for c in tx.state.combatants.values()}
    standing = {c.side for c in tx.state.combatants.values() if c.status == "active"}
    if len(sides) < 2 or len(standing) > 1:
        return
    tx.move_to("side_defeated")
    winner = next(iter(standing), None)
    tx.emit(CombatEnded(winner=winner, reason=defeat_reason(winner), automatic=True))


def on_round_started(state: EncounterState, e: RoundStarted) -> EncounterState:
    return msgspec.structs.replace(state, round=e.round)


def on_turn_started(state: EncounterState, e: TurnStarted) -> EncounterState:
    c = state.combatants[e.combatant]
    # A creature regains its reaction at the start of its turn (what its actions gave it
    # until then is the 5e family's: combat/fivee/until_next_turn.py).
    state = arm_next_turn_ends(state, e.combatant)
    economy = Economy(movement=speed_of(c), reaction=True)
    combatants = dict(state.combatants)
    combatants[e.combatant] = msgspec.structs.replace(combatants[e.combatant], economy=economy)
    return msgspec.structs.replace(state, combatants=combatants, turn=e.combatant)


def on_turn_ended(state: EncounterState, e: TurnEnded) -> EncounterState:
    return msgspec.structs.replace(state, turn=None)


HANDLERS: dict[type, Handler] = {EndCombat: ENCOUNTER.handlers[EndCombat]}
APPLIERS: dict[type, Applier] = {
    RoundStarted: on_round_started,
    RoundEnded: lambda state, e: state,
    TurnStarted: on_turn_started,
    TurnEnded: on_turn_ended,
    CombatEnded: ENCOUNTER.appliers[CombatEnded],
}
RULES = Rules(handlers=HANDLERS, appliers=APPLIERS)  # declared-d10 takes the tables
