"""Actions in combat other than attacks and maneuvers, and free actions.

"Within a single round, you can take an action, a bonus action, and any free actions (like
communicating with allies, dismissing the effect of a thaumaturgy cantrip you have already
cast, or interacting with an object) during your turn, and one reaction at any time."

Cast a Spell, Dash, Disengage, Dodge, Help, Hide, Ready, Search and Use an Object are the
shared 5e actions under their a5e names; Press the Attack, Fall Back and Tumble are in
maneuvers.py and Sprint in sprint.py. "You cannot take the Dodge action when your Speed is
reduced to 0."

Reading: an incapacitated participant (unconscious, say) whose turn comes round takes no
free action either.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from combat.common.concentration import start_concentration
from combat.common.condition_effects import speed_of
from combat.common.turns import require_able, require_turn
from combat.fivee import actions as shared
from combat.fivee.action_commands import TakeAction
from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden

__all__ = ["RULES", "A5E_ACTIONS", "FreeAction", "FreeActionTaken"]

A5E_ACTIONS = ("cast a spell", "dash", "disengage", "dodge", "help", "hide", "ready", "search", "use an object")
_OWN_COMMAND = {
    "attack": "attack or make_attack",
    "press the attack": "press_the_attack",
    "fall back": "fall_back",
    "sprint": "sprint",
    "tumble": "tumble",
}


class FreeAction(Command, frozen=True, kw_only=True):
    """Communicating with allies, dismissing a cantrip's effect... as many as the Narrator allows."""

    combatant: str
    description: str


class FreeActionTaken(Event, frozen=True, kw_only=True):
    combatant: str
    description: str
    hidden: ClassVar[Hidden] = PUBLIC


def _take_action(tx: Tx, cmd: TakeAction) -> None:
    action = " ".join(cmd.action.lower().replace("-", " ").replace("_", " ").split())
    if action in _OWN_COMMAND:
        raise RuleError("action/own-command", f"{action.title()} has its own command", allowed=_OWN_COMMAND[action])
    if action == "dodge" and speed_of(tx.combatant(cmd.combatant)) == 0:
        raise RuleError(
            "action/speed-zero",
            "you cannot take the Dodge action when your Speed is reduced to 0",
            allowed=", ".join(a for a in A5E_ACTIONS if a != "dodge"),
        )
    shared.take_action(tx, msgspec.structs.replace(cmd, action=action), actions=A5E_ACTIONS)
    if action == "cast a spell" and cmd.concentration:
        start_concentration(tx, cmd.combatant, cmd.detail or "a spell")


def _free_action(tx: Tx, cmd: FreeAction) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "take a free action")  # an unconscious character's turn still comes round
    if not cmd.description.strip():
        raise RuleError("action/free-empty", "say what the free action is", allowed="description")
    tx.emit(FreeActionTaken(combatant=c.id, description=cmd.description))


RULES = Rules(
    handlers={TakeAction: _take_action, FreeAction: _free_action},
    appliers={FreeActionTaken: lambda state, e: state},
    narration={FreeActionTaken: lambda n, e: f"{n.name(e.combatant)} (free action): {e.description}"},
)
