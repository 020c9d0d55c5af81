"""Turns on the timeline: whose turn it is, the one major action a round, and declared
actions that cannot be switched.

"Each round, during combat, a creature has an opportunity to accomplish 1 major task."
A caster "may decide not to cast but cannot switch actions": whatever was declared decides
which major action is allowed (an immediate attack is the text's one exception).
"""

from __future__ import annotations

from typing import Any

import msgspec

from combat.common.conditions import arm_next_turn_ends, expire_conditions
from combat.common.durations import no_repeated_saves
from combat.kernel.commands import EndTurn
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import TurnEnded
from combat.kernel.state import Combatant, Economy, EncounterState, with_combatant, with_rules
from combat.rulesets.segments_1e import phases as P
from combat.rulesets.segments_1e.acting import not_their_turn, unable, whose
from combat.rulesets.segments_1e.events import SegmentReached, SegmentTurnStarted
from combat.rulesets.segments_1e.ledger import Creature, Slot
from combat.rulesets.segments_1e.segments import action_of

__all__ = [
    "ALLOWED_MAJOR",
    "require_turn",
    "require_major",
    "major_refusal",
    "turn_not_running",
    "require_segment",
    "segment_spent",
    "spell_turn",
    "action_segment",
    "spent",
    "start_turn",
    "end_turn",
    "RULES",
]

_ANY = frozenset({"routine_attack", "move_to", "major_action"})
# Declared action -> the commands that carry it out as the major action.
ALLOWED_MAJOR: dict[str | None, frozenset[str]] = {
    None: _ANY,  # undeclared: anything that needs no declaration
    "go_first": _ANY,
    "delay": _ANY,  # a declared delay acts on LOW with whatever it decides then
    "melee": frozenset({"routine_attack"}),
    "missile": frozenset({"routine_attack"}),
    "charge": frozenset({"routine_attack"}),
    "flee": frozenset({"move_to"}),
    "move": frozenset({"move_to"}),
    "parley": frozenset({"major_action"}),
    "innate": frozenset({"major_action"}),
    "other": frozenset({"major_action"}),
    "delaying": frozenset({"major_action"}),
    "complex": frozenset({"major_action"}),
    "spell": frozenset({"begin_casting", "forgo_spell"}),
    "invocation": frozenset({"begin_casting", "forgo_spell"}),
}


def require_turn(tx: Tx, cid: str) -> tuple[Combatant, Creature]:
    c = tx.combatant(cid)
    problem = not_their_turn(tx.state, c)
    if problem:
        raise RuleError("turn/not-yours", problem, allowed=f"commands for {whose(tx.state)}, immediate actions, or GM rulings")
    problem = unable(tx.state, c, "act")
    if problem:
        raise RuleError("combatant/incapacitated", problem)
    return c, tx.state.rules.creatures[cid]


def major_refusal(c: Combatant, rec: Creature, trigger: str) -> RuleError | None:
    """Why `c` could not take `trigger` as its major action now: the one major action a round
    is spent, or it is not what was declared. (`require_major` raises it; the re-check after
    a change to the past reports its words.)"""
    if rec.major_used:
        return RuleError(
            "action/major-used",
            f"{c.name} has already had its major action this round",
            allowed="minor actions, positioning of 10 ft or less, end_turn",
        )
    allowed = ALLOWED_MAJOR.get(action_of(rec), _ANY)
    if trigger in allowed:
        return None
    declared = action_of(rec)
    if declared is None:
        return RuleError(
            "declaration/required",
            f"{c.name} declared nothing, and {trigger.replace('_', ' ')} must be declared",
            allowed=", ".join(sorted(allowed)),
        )
    return RuleError(
        "declaration/locked",
        f"{c.name} declared {declared} and cannot switch to {trigger.replace('_', ' ')}",
        allowed=", ".join(sorted(allowed)),
    )


def require_major(c: Combatant, rec: Creature, trigger: str) -> None:
    refusal = major_refusal(c, rec, trigger)
    if refusal is not None:
        raise refusal


def action_segment(tx: Tx, rec: Creature) -> int:
    """The segment the acting creature's action takes place in: its turn's segment plus
    what its minor actions added ('Any minor action that requires 1 segment will add 1
    segment to any major action')."""
    ledger = tx.state.rules
    if tx.state.phase == P.SURPRISE_SEGMENTS or ledger.slot is None:
        return ledger.segment
    return min(10, ledger.slot.segment + rec.added_segments)


def start_turn(tx: Tx, cid: str, slot: Slot) -> None:
    if slot.segment != tx.state.rules.segment:
        tx.emit(SegmentReached(segment=slot.segment))
    tx.emit(SegmentTurnStarted(combatant=cid, round=tx.state.round, slot=slot))
    expire_conditions(tx, cid, "start")


def end_turn(tx: Tx, cid: str) -> None:
    tx.emit(TurnEnded(combatant=cid))
    expire_conditions(tx, cid, "end")


def turn_not_running(state: EncounterState, cid: str) -> str | None:
    """An end of turn needs that turn to be running (the re-check of TurnEnded asks this)."""
    if state.turn == cid:
        return None
    name = state.combatants[cid].name if cid in state.combatants else cid
    return f"{name}'s turn was not running (it was {whose(state)}'s turn), so it could not end"


def _end_turn(tx: Tx, cmd: EndTurn) -> None:
    no_repeated_saves(tx, cmd.save_faces)
    c = tx.combatant(cmd.combatant)
    if tx.state.turn != c.id:
        require_turn(tx, c.id)
    rec = tx.state.rules.creatures[c.id]
    if spell_turn(tx.state) and rec.casting is not None:
        raise RuleError(
            "spell/resolve-first",
            f"{c.name}'s {rec.casting.spell} goes off now",
            allowed="resolve_spell (or it is lost to broken concentration)",
        )
    end_turn(tx, c.id)


def spent(state: EncounterState, cid: str, uses: str, **changes: object) -> EncounterState:
    """Apply what an action used up (see events.Uses), with any other changes to its record."""
    ledger = state.rules
    rec = ledger.creatures[cid]
    if uses == "major":
        changes["major_used"] = True
        c = state.combatants[cid]
        state = with_combatant(state, cid, economy=msgspec.structs.replace(c.economy, action=False))
    elif uses == "surprise_segment":
        changes["segment_used"] = ledger.segment
    elif uses in ("charge", "close_in"):
        changes["charged"] = True
    creatures = {**ledger.creatures, cid: msgspec.structs.replace(rec, **changes)}
    return with_rules(state, msgspec.structs.replace(ledger, creatures=creatures))


def segment_spent(c: Combatant, rec: Creature, segment: int) -> str | None:
    """'only actions that fit in one segment can be done in each' surprise segment: has it
    spent this one? (The guard below and the re-check after a change to the past ask this.)"""
    return f"{c.name} has already spent surprise segment {segment}" if rec.segment_used == segment else None


def require_segment(c: Combatant, rec: Creature, segment: int) -> None:
    problem = segment_spent(c, rec, segment)
    if problem:
        raise RuleError("surprise/segment-used", problem, allowed="actions that take no time, end_turn")


def spell_turn(state: EncounterState) -> bool:
    """Is the turn being played a spell going off (in step 7, or on the timeline)?"""
    slot = state.rules.slot
    return slot is not None and slot.key == P.SPELLS


def _on_turn_started(state: EncounterState, e: SegmentTurnStarted) -> EncounterState:
    ledger = state.rules
    rec = ledger.creatures[e.combatant]
    state = with_rules(state, msgspec.structs.replace(ledger, slot=e.slot))
    state = arm_next_turn_ends(state, e.combatant)
    # The shared economy only mirrors what is left, for the table view.
    economy = Economy(
        movement=state.combatants[e.combatant].speed,
        action=not rec.major_used,
        bonus_action=False,
        reaction=False,
        object_interaction=False,
    )
    state = with_combatant(state, e.combatant, economy=economy)
    return msgspec.structs.replace(state, turn=e.combatant)


def _on_turn_ended(state: EncounterState, e: TurnEnded) -> EncounterState:
    ledger = state.rules
    rec = ledger.creatures[e.combatant]
    key = ledger.slot.key if ledger.slot else state.phase
    creatures = {**ledger.creatures, e.combatant: msgspec.structs.replace(rec, done=rec.done + (key,))}
    state = with_rules(state, msgspec.structs.replace(ledger, slot=None, creatures=creatures))
    return msgspec.structs.replace(state, turn=None)


def _on_segment(state: EncounterState, e: SegmentReached) -> EncounterState:
    return with_rules(state, segment=e.segment)


def _turn_line(n: Any, e: SegmentTurnStarted) -> str:
    step = _STEP.get(e.slot.key, e.slot.key.replace("-", " segment "))
    return f"Segment {e.slot.segment} ({step}): {n.name(e.combatant)} acts"


_STEP = {
    "fast_actions": "fast actions",
    "multi_attacks": "multi-attack",
    "high": "HIGH",
    "low": "LOW",
    "multi_attacks_rest": "remaining multi-attacks",
    "spells": "spells",
}

RULES = Rules(
    handlers={EndTurn: _end_turn},
    appliers={SegmentTurnStarted: _on_turn_started, TurnEnded: _on_turn_ended, SegmentReached: _on_segment},
    narration={
        SegmentReached: lambda n, e: f"Segment {e.segment}",
        SegmentTurnStarted: _turn_line,
    },
)
