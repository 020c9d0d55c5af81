"""The GM moves the turn pointer: `goto_turn` (a monster's surprise turn in a 2014-style game,
a skipped turn) and `previous_turn` (going back one).

What each does, so a GM can predict it:
- goto_turn: the current turn ends as with end_turn, its end-of-turn effects included (the
  saves it repeats then, their faces in `save_faces` as end_turn's); the
  named combatant's turn starts as any turn does: its start-of-turn effects run and it has
  a fresh economy (its Speed in movement, an action, a bonus action, its reaction back).
  Combatants passed over get no turn, and their start- and end-of-turn effects do not run.
  The round does not change; after that turn, end_turn goes on in initiative order from the
  combatant moved to.
- previous_turn: the current turn is taken back: it ends without its end-of-turn effects,
  because that turn will come again; the previous living combatant in the order gets a fresh
  turn as above (what it spent on the turn it had is not given back: it is a new turn, and
  effects that already ended stay ended). From the first turn of a round it goes back to the
  last turn of the round before, and the round number goes back with it.
- Neither moves while a concentration save or an attack's damage is owed, as end_turn waits.
- Both take `turn_start_faces`, as end_turn does: the dice of the effects that act as the
  turn they start begins (combat/fivee/turn_start_dice.py).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import msgspec

from combat.common.turns import OrderFn, start_turn
from combat.fivee.turn_ends import end_turn_effects, require_nothing_owed
from combat.kernel.commands import Command, TurnStartDice
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event, TurnEnded
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import EncounterState

__all__ = ["rules", "GotoTurn", "PreviousTurn", "TurnMoved"]


# -- the commands and events of the turn pointer ---------------------------------------------


class GotoTurn(Command, frozen=True, kw_only=True):
    """The GM moves the turn to `combatant`: the current turn ends as with end_turn (its
    end-of-turn effects run) and the named one starts as any turn does (fresh economy,
    start-of-turn effects). Combatants passed over get no turn and no start/end effects."""

    gm_only: ClassVar[bool] = True

    combatant: str
    reason: str = ""
    # The saves the creature whose turn ends repeats then, as end_turn's `save_faces`.
    save_faces: tuple[tuple[int, ...], ...] = ()
    # The dice of the effects that act as the named creature's turn starts, as end_turn's.
    turn_start_faces: dict[str, TurnStartDice] = {}


class PreviousTurn(Command, frozen=True, kw_only=True):
    """The GM goes back one turn: the current turn is taken back (no end-of-turn effects, as
    it will come again) and the previous living combatant gets a fresh turn; from the first
    turn of a round it goes back to the last turn of the round before."""

    gm_only: ClassVar[bool] = True

    reason: str = ""
    # The dice of the effects that act as the fresh turn starts, as end_turn's.
    turn_start_faces: dict[str, TurnStartDice] = {}


class TurnMoved(Event, frozen=True, kw_only=True):
    """The GM moved the turn pointer: the `TurnStarted` that follows is the GM's choice, not
    the next in the order; `round` is the round it stands in (earlier when going back)."""

    combatant: str
    round: int
    back: bool = False
    reason: str = ""
    hidden: ClassVar[Hidden] = PUBLIC
    moves_turn: ClassVar[bool] = True


def _goto(order: OrderFn) -> Callable[[Tx, GotoTurn], None]:
    def goto_turn(tx: Tx, cmd: GotoTurn) -> None:
        c = tx.combatant(cmd.combatant)
        living = order(tx.state, False)
        if c.status == "dead" or c.id not in living:
            why = "is dead" if c.status == "dead" else "has no place in the initiative order"
            raise RuleError("turn/cannot-goto", f"{c.name} {why}", allowed=", ".join(living))
        if tx.state.turn == c.id:
            raise RuleError("turn/already", f"it is already {c.name}'s turn", allowed="another combatant, or previous_turn")
        require_nothing_owed(tx, "the turn cannot move")
        current = tx.state.turn
        if current is not None:
            tx.emit(TurnEnded(combatant=current))
        end_turn_effects(tx, current, cmd.save_faces)
        tx.emit(TurnMoved(combatant=c.id, round=tx.state.round, reason=cmd.reason))
        start_turn(tx, c.id)

    return goto_turn


def _previous(order: OrderFn) -> Callable[[Tx, PreviousTurn], None]:
    def previous_turn(tx: Tx, cmd: PreviousTurn) -> None:
        current = tx.state.turn
        if current is None:
            raise RuleError("turn/none", "it is nobody's turn, so there is no turn to go back from", allowed="goto_turn")
        full = [cid for cid in order(tx.state, True) if tx.state.combatants[cid].status != "dead" or cid == current]
        before = full[: full.index(current)] if current in full else []
        living_before = [cid for cid in before if cid != current]
        round_ = tx.state.round
        if living_before:
            back_to = living_before[-1]
        elif round_ > 1:
            back_to, round_ = full[-1], round_ - 1
        else:
            raise RuleError("turn/first", "this is the first turn of the fight; there is none before it", allowed="goto_turn")
        require_nothing_owed(tx, "the turn cannot move back")
        tx.emit(TurnEnded(combatant=current, taken_back=True))
        tx.emit(TurnMoved(combatant=back_to, round=round_, back=True, reason=cmd.reason))
        start_turn(tx, back_to)

    return previous_turn


def rules(order: OrderFn) -> Rules:
    """The two commands for a ruleset whose turns follow `order`."""
    return Rules(
        handlers={GotoTurn: _goto(order), PreviousTurn: _previous(order)},
        appliers={TurnMoved: _on_moved},
        narration={TurnMoved: _narrate},
    )


def _on_moved(state: EncounterState, e: TurnMoved) -> EncounterState:
    return msgspec.structs.replace(state, round=e.round)


def _narrate(n: Any, e: TurnMoved) -> str:
    n.round = e.round  # going back past a round's start puts the narrative in that round again
    where = "back to" if e.back else "to"
    return f"The GM moves the turn {where} {n.name(e.combatant)}" + (f" ({e.reason})" if e.reason else "")
