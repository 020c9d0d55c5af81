"""The flow of the round, run after every command: it settles surprise, places the groups,
hands the turn to whoever acts next on the timeline, moves through the steps of the round
once nobody is left to act in one, and ends the round and the fight.

"The GM then announces the beginning of the next Combat Round (following the same 8 steps)."
The fight ends by itself when only one side has anyone standing - once every simultaneous
blow of that segment has landed.
"""

from __future__ import annotations

from typing import Any

import msgspec

from combat.common.condition_effects import is_incapacitated
from combat.kernel.decider import Rules, Tx
from combat.kernel.encounter import defeat_reason
from combat.kernel.events import CombatEnded, ConditionEnded, PhaseChanged, RoundEnded, RoundStarted
from combat.kernel.state import EncounterState, with_rules
from combat.rulesets.segments_1e import phases as P
from combat.rulesets.segments_1e.acting import able, down_as, record
from combat.rulesets.segments_1e.events import SegmentReached, SegmentTurnStarted, SpellForgone
from combat.rulesets.segments_1e.initiative import all_rolled, set_groups
from combat.rulesets.segments_1e.ledger import Creature, Slot
from combat.rulesets.segments_1e.segments import left_behind, next_turn, spell_due, step_key, step_name, turns
from combat.rulesets.segments_1e.surprise import next_segment, settle, shake_off, sides
from combat.rulesets.segments_1e.turns import end_turn, start_turn

__all__ = ["flow", "decided", "fight_over", "RULES"]

_GUARD = 1000  # steps in one command; far more than any round needs


def flow(tx: Tx) -> None:
    for _ in range(_GUARD):
        if not _step(tx):
            return
    raise RuntimeError("the round's flow did not settle")


def _step(tx: Tx) -> bool:
    """Take one automatic step; False when the table waits for a command."""
    state = tx.state
    if state.phase in (P.SETUP, P.ENDED):
        return False
    if _fight_decided(tx):
        return False
    if state.phase == P.SURPRISE:
        if not all(side in state.rules.surprise for side in sides(state)):
            return False
        if settle(tx):
            tx.move_to("surprise_checked")
            next_segment(tx, 1)
        else:
            shake_off(tx)
            _begin_round(tx)
        return True
    if state.phase == P.DECLARE:
        return False
    if state.phase == P.INITIATIVE:
        if not all_rolled(state):
            return False
        set_groups(tx)
        tx.move_to("groups_set")
        return True
    if state.phase == P.END_OF_ROUND:
        _end_round(tx)
        return True
    if state.turn is not None:
        return _turn_cut_short(tx)
    upcoming = spell_due(state) or next_turn(state, step_key(state))
    if upcoming is not None:
        start_turn(tx, *upcoming)
        return True
    if state.phase == P.SURPRISE_SEGMENTS:
        ledger = state.rules
        if ledger.segment < ledger.surprise_window:
            next_segment(tx, ledger.segment + 1)
        else:
            shake_off(tx)
            _begin_round(tx)
        return True
    tx.move_to(P.NEXT_STEP[state.phase])
    return True


def _turn_cut_short(tx: Tx) -> bool:
    """A turn ends by itself when its creature can no longer act (or its spell was lost)."""
    state = tx.state
    ledger = state.rules
    cid = state.turn
    rec = ledger.creatures[cid]
    c = state.combatants[cid]  # type: ignore[index]
    if ledger.slot is not None and ledger.slot.key == P.SPELLS:
        # A spell still in casting goes off whatever became of its caster: had the caster's
        # fall come before it, the fall would have spoiled it.
        cut = rec.casting is None
    else:
        cut = is_incapacitated(c) and rec.downed_in != ledger.slot
    if cut:
        end_turn(tx, c.id)
        return True
    return False


def _simultaneous_pending(state: EncounterState) -> bool:
    return any(rec.downed_in is not None and rec.downed_in.key not in rec.done for rec in state.rules.creatures.values())


def decided(state: EncounterState) -> bool:
    """Only one side (or none) has anyone standing, and every simultaneous blow has landed."""
    everyone = {c.side for c in state.combatants.values()}
    standing = {c.side for c in state.combatants.values() if c.status == "active"}
    return len(everyone) >= 2 and len(standing) <= 1 and not _simultaneous_pending(state)


def _fight_decided(tx: Tx) -> bool:
    state = tx.state
    if not decided(state):
        return False
    tx.move_to("side_defeated")
    winner = next((c.side for c in state.combatants.values() if c.status == "active"), None)
    tx.emit(CombatEnded(winner=winner, reason=defeat_reason(winner), automatic=True))
    return True


def _begin_round(tx: Tx) -> None:
    tx.move_to("round_begins")
    tx.emit(RoundStarted(round=tx.state.round + 1))


def _end_round(tx: Tx) -> None:
    state = tx.state
    for cid, c in state.combatants.items():
        if c.has("delayed"):
            tx.emit(ConditionEnded(target=cid, condition="delayed", reason="the round ends"))
    for cid, rec in state.rules.creatures.items():
        if rec.casting is not None and not rec.casting.started:
            tx.emit(SpellForgone(caster=cid, spell=rec.casting.spell, reason="never began casting"))
    tx.emit(RoundEnded(round=state.round))
    _begin_round(tx)


def _fresh(rec: Creature) -> Creature:
    """What a new round gives back; a spell still in casting carries over."""
    return Creature(
        stats=rec.stats,
        attacks_as=rec.attacks_as,
        saves_as=rec.saves_as,
        x=rec.x,
        y=rec.y,
        surprised_segments=rec.surprised_segments,
        casting=rec.casting,
    )


def _on_round_started(state: EncounterState, e: RoundStarted) -> EncounterState:
    ledger = state.rules
    creatures = {cid: _fresh(rec) for cid, rec in ledger.creatures.items()}
    ledger = msgspec.structs.replace(
        ledger,
        segment=0,
        slot=None,
        rolls={},
        high=(),
        tied=False,
        high_segment=0,
        low_segment=0,
        openings=(),
        creatures=creatures,
    )
    combatants = {cid: msgspec.structs.replace(c, initiative=None) for cid, c in state.combatants.items()}
    return with_rules(msgspec.structs.replace(state, round=e.round, turn=None, combatants=combatants), ledger)


# -- after a change to the past: the timeline the flow laid down ---------------------------------


def fight_over(state: EncounterState) -> str | None:
    """The fight ended, or would have ended by now (`decided`, the flow's own question)."""
    if state.phase == P.ENDED:
        return "the fight had already ended"
    if decided(state):
        winner = next((c.side for c in state.combatants.values() if c.status == "active"), None)
        if winner is None:
            return "no one is standing now: the fight was over"
        return f"every foe of the {winner} side is down now: the fight was over"
    return None


def _order(slot: Slot) -> tuple[int, int, int, int]:
    return (slot.segment, slot.rank, slot.after, slot.speed)


def _no_turn(state: EncounterState, cid: str, key: str) -> str:
    c, rec, _ = record(state, cid)
    if key in rec.done:
        return f"{c.name} had already taken its turn in {step_name(key)}"
    if is_incapacitated(c):
        return f"{c.name} is {down_as(c)} now and could not take a turn"
    if key == P.SPELLS:
        return f"{c.name} has no spell going off now"
    return f"{c.name} has no turn in {step_name(key)} now"


def _out_of_time(state: EncounterState, e: SegmentTurnStarted) -> str | None:
    """A spell goes off just before the first turn of a later segment (segments.spell_due,
    which the flow asks too): not before, and no turn of a later segment before it."""
    due = spell_due(state)
    if e.slot.key == P.SPELLS and state.phase != P.SPELLS and (due is None or due[0] != e.combatant):
        c, rec, _ = record(state, e.combatant)
        spell = rec.casting.spell if rec.casting else "spell"
        return f"{c.name}'s {spell} does not go off before the next turn now: it goes off after the turns of segment {e.slot.segment}"
    if due is not None and due[0] != e.combatant:
        caster, _, _ = record(state, due[0])
        return (
            f"{caster.name}'s spell goes off in segment {due[1].segment} now, before {state.combatants[e.combatant].name}'s turn"
        )
    return None


def _check_turn_started(state: EncounterState, e: SegmentTurnStarted, ctx: dict[str, Any]) -> str | None:
    """The turn the flow would hand out now: this creature's, in this segment, none skipped."""
    if e.combatant not in state.combatants:
        return f"{e.combatant} is not in the fight any more"
    problem = fight_over(state)
    if problem:
        return problem
    upcoming = turns(state, e.slot.key)
    mine = next((slot for cid, slot in upcoming if cid == e.combatant), None)
    if mine is None:
        return _no_turn(state, e.combatant, e.slot.key)
    if state.combatants[e.combatant].hp <= 0 and state.combatants[e.combatant].status == "active":
        return able(state, e.combatant, "take a turn", own_turn=False)
    problem = _out_of_time(state, e)
    if problem:
        return problem
    first, slot = upcoming[0]
    if _order(slot) < _order(mine):
        skipped, acting = state.combatants[first].name, state.combatants[e.combatant].name
        return f"{skipped} is standing now and acts in {step_name(e.slot.key)} before {acting} (segment {slot.segment}): its turn was skipped"
    if mine.segment != e.slot.segment:
        return f"{state.combatants[e.combatant].name}'s turn in {step_name(e.slot.key)} falls in segment {mine.segment} now, not {e.slot.segment}"
    return None


def _check_phase_changed(state: EncounterState, e: PhaseChanged, ctx: dict[str, Any]) -> str | None:
    """Leaving a step of the round (not the fight) while someone still had a turn in it."""
    if e.phase == P.ENDED or state.turn is not None:
        return None
    if e.previous in P.ACTION_PHASES or e.previous == P.SURPRISE_SEGMENTS:
        return left_behind(state, step_key(state))
    return None


def _check_segment_reached(state: EncounterState, e: SegmentReached, ctx: dict[str, Any]) -> str | None:
    """Moving on to the next surprise segment while someone could still act in this one."""
    if state.phase != P.SURPRISE_SEGMENTS or state.turn is not None:
        return None
    return left_behind(state, step_key(state))


def _check_combat_ended(state: EncounterState, e: CombatEnded, ctx: dict[str, Any]) -> str | None:
    if not e.automatic:
        return None  # the GM ended it (morale, a parley...): nothing to re-judge
    standing = [c for c in state.combatants.values() if c.status == "active" and c.side != e.winner]
    if standing:
        return f"{standing[0].name} is standing now: the {standing[0].side} side was not defeated"
    return None


RULES = Rules(
    appliers={RoundStarted: _on_round_started, RoundEnded: lambda state, e: state},
    checks={
        RoundStarted: lambda state, e, ctx: fight_over(state),
        CombatEnded: _check_combat_ended,
        PhaseChanged: _check_phase_changed,
        SegmentReached: _check_segment_reached,
        SegmentTurnStarted: _check_turn_started,
    },
)
