"""Communicating Δ: extended communication among allies costs an action or a bonus action.

"Interactions among allies, for example to provide a detailed explanation or discuss
strategies, require: the entity initiating the communication to use either an Action or a
Bonus Action; if a reply is needed, replying entities use their Reaction." Brief utterances
and gestures stay free (no command). "Attempts to influence a foe require the usage of the
Influence action", so a foe cannot be a listener here.

The conversation stays open until the speaker's turn ends; each listener may reply once.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from combat.common.turns import require_able, require_turn
from combat.fivee.actions import require_reaction, spend_check
from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event, TurnEnded
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_combatant, with_rules
from combat.rulesets.srd2024_variant.state import VariantTalk

__all__ = ["RULES", "CommunicateWithAllies", "ReplyToAlly", "AlliesAddressed", "AllyReplied"]


class CommunicateWithAllies(Command, frozen=True, kw_only=True):
    combatant: str
    listeners: tuple[str, ...]
    uses: Literal["action", "bonus_action"] = "action"
    topic: str = ""


class ReplyToAlly(Command, frozen=True, kw_only=True):
    combatant: str
    topic: str = ""


class AlliesAddressed(Event, frozen=True, kw_only=True):
    combatant: str
    listeners: tuple[str, ...]
    uses: Literal["action", "bonus_action"]
    topic: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


class AllyReplied(Event, frozen=True, kw_only=True):
    combatant: str
    to: str
    topic: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


def _communicate(tx: Tx, cmd: CommunicateWithAllies) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "communicate at length")
    listeners = [tx.combatant(cid) for cid in dict.fromkeys(cmd.listeners) if cid != c.id]
    if not listeners:
        raise RuleError("communicate/nobody", f"{c.name} addresses no one", allowed="listeners: allies' ids")
    for other in listeners:
        if other.side != c.side:
            raise RuleError(
                "communicate/foe",
                f"{other.name} is a foe: swaying a foe takes the Influence action",
                allowed="take_action influence",
            )
        if other.status == "dead":
            raise RuleError("target/dead", f"{other.name} is dead", allowed="living allies")
    spend_check(c, cmd.uses)
    tx.emit(AlliesAddressed(combatant=c.id, listeners=tuple(o.id for o in listeners), uses=cmd.uses, topic=cmd.topic))


def nothing_to_reply(state: EncounterState, c: Combatant) -> str | None:
    """The problem when `c` has no reply to give now (no ally is talking with it, or it has
    replied once already), else None: the reply guard refuses with it, the re-check of an
    AllyReplied after a changed past reports it."""
    talk = state.rules.talk
    if talk is None or c.id not in talk.listeners:
        return f"no ally is waiting for {c.name}'s reply"
    return f"{c.name} has already replied" if c.id in talk.replied else None


def _reply(tx: Tx, cmd: ReplyToAlly) -> None:
    c = tx.combatant(cmd.combatant)
    talk = tx.state.rules.talk
    problem = nothing_to_reply(tx.state, c)
    if problem:
        waiting = [] if talk is None else [cid for cid in talk.listeners if cid not in talk.replied]
        raise RuleError("communicate/not-addressed", problem, allowed=", ".join(waiting) or "communicate_with_allies first")
    require_reaction(c)
    tx.emit(AllyReplied(combatant=c.id, to=talk.speaker, topic=cmd.topic))


def _on_addressed(state: EncounterState, e: AlliesAddressed) -> EncounterState:
    c = state.combatants[e.combatant]
    state = with_combatant(state, c.id, economy=msgspec.structs.replace(c.economy, **{e.uses: False}))
    return with_rules(state, talk=VariantTalk(speaker=e.combatant, listeners=e.listeners))


def _on_replied(state: EncounterState, e: AllyReplied) -> EncounterState:
    c = state.combatants[e.combatant]
    state = with_combatant(state, c.id, economy=msgspec.structs.replace(c.economy, reaction=False))
    talk = state.rules.talk
    if talk is not None:
        state = with_rules(state, talk=msgspec.structs.replace(talk, replied=talk.replied + (e.combatant,)))
    return state


def _close_talk(state: EncounterState, e: TurnEnded) -> EncounterState:
    talk = state.rules.talk
    return with_rules(state, talk=None) if talk is not None and talk.speaker == e.combatant else state


RULES = Rules(
    handlers={CommunicateWithAllies: _communicate, ReplyToAlly: _reply},
    appliers={AlliesAddressed: _on_addressed, AllyReplied: _on_replied},
    after={TurnEnded: (_close_talk,)},
    narration={
        AlliesAddressed: lambda n, e: (
            f"{n.name(e.combatant)} uses {'an action' if e.uses == 'action' else 'a bonus action'} "
            f"to talk with {', '.join(n.name(c) for c in e.listeners)}" + (f": {e.topic}" if e.topic else "")
        ),
        AllyReplied: lambda n, e: (
            f"{n.name(e.combatant)} uses their reaction to reply to {n.name(e.to)}" + (f": {e.topic}" if e.topic else "")
        ),
    },
)
