"""Initiative rounds: world actions, then each participant's turn, then the end of the round.

"1. World Actions. If the environment features any world bonuses or penalties with an active
element, it occurs at the start of a round before the participants take their turns.
2. On Your Turn. ... 4. End of Round. When everyone has taken their turn, the initiative round
repeats at step 1 until the encounter has concluded."

When the scene's environment has world actions every round opens in the `world` phase, where
the Narrator rolls owed recharges, uses world actions and ends the world step; otherwise the
first participant's turn starts at once.
"""

from __future__ import annotations

from combat.common import turns
from combat.common.concentration import pending_checks_of
from combat.fivee import banked_actions, spell_effects_ongoing, turn_ends
from combat.fivee.initiative import turn_order, units, unresolved_ties
from combat.kernel.commands import Command, EndTurn, TurnStartDice
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import RoundStarted
from combat.rulesets.a5e.sprint import recover_fatigue
from combat.rulesets.a5e.surprise import end_surprise
from combat.rulesets.a5e.world_actions import environment, require_no_owed

__all__ = ["RULES", "EndWorldStep", "start_round", "flow"]


class EndWorldStep(Command, frozen=True, kw_only=True):
    """The world has acted (or passes): the participants' turns begin."""

    # The dice of the effects that act as the first turn starts, as end_turn's.
    turn_start_faces: dict[str, TurnStartDice] = {}


def start_round(tx: Tx) -> None:
    tx.emit(RoundStarted(round=tx.state.round + 1))
    recover_fatigue(tx)
    env = environment(tx.state)
    if env is not None and env.world_actions:
        tx.move_to("world_step")
        return
    if tx.state.phase == "initiative":
        tx.move_to("start_rounds")
    _first_turn(tx)


def _first_turn(tx: Tx) -> None:
    turns.first_turn(tx, turn_order)


def _end_world_step(tx: Tx, cmd: EndWorldStep) -> None:
    require_no_owed(tx, "is owed this round")
    pending = pending_checks_of(tx.state)
    if pending:
        raise RuleError(
            "world/pending-save",
            "a concentration save is owed after the world's damage",
            allowed="concentration_save for " + ", ".join(p.combatant for p in pending),
        )
    turns.end_fight_if_decided(tx)  # the world's damage may have settled it
    if tx.state.phase == "turns":
        _first_turn(tx)


_end_turn = turn_ends.end_turn_handler(turn_order, new_round=start_round)


def end_turn(tx: Tx, cmd: EndTurn) -> None:
    end_surprise(tx, cmd)
    _end_turn(tx, cmd)


def flow(tx: Tx) -> None:
    """After every command: open round 1 once initiative is settled; end a decided fight."""
    state = tx.state
    if state.phase == "initiative":
        everyone_rolled = all(members[0].initiative is not None for members in units(state).values())
        if everyone_rolled and not unresolved_ties(state):
            start_round(tx)
    spell_effects_ongoing.follow(tx)  # what the command's events set off: Heroism's Temporary Hit Points...
    banked_actions.redeem(tx)
    turns.end_fight_if_decided(tx)


RULES = Rules(
    handlers={EndWorldStep: _end_world_step, EndTurn: end_turn},
)
