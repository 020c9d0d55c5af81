"""Delay and the delayed condition.

"Anytime during group actions, you can announce your intent to delay ... If you are in HIGH
initiative, you lose all actions until LOW initiative ... You also gain the delayed condition
for the rest of the round. If you announce a delay during LOW initiative, you lose your major
action that round." "An individual with this condition always has LOW initiative no matter
the result of group initiative rolls. All group initiative action ties are lost unless the
opponent has the delayed condition" (see segments.py for where that puts its turn).

Chosen: a delay is announced on one's own turn, before the major action; a spell declared
and not yet begun is kept for LOW when delaying from HIGH, and forgone when the delay is
announced during LOW (the major action is lost).
"""

from __future__ import annotations

from typing import Any

from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionSpec
from combat.kernel.state import Combatant, EncounterState
from combat.rulesets.segments_1e import phases as P
from combat.rulesets.segments_1e.acting import able, record
from combat.rulesets.segments_1e.commands import AnnounceDelay
from combat.rulesets.segments_1e.events import DelayAnnounced, SpellForgone
from combat.rulesets.segments_1e.ledger import Creature
from combat.rulesets.segments_1e.turns import end_turn, require_turn, spent

__all__ = ["DELAYED", "delay_refusal", "RULES"]

DELAYED = ConditionSpec(name="delayed", source="delay")


def delay_refusal(c: Combatant, rec: Creature) -> RuleError | None:
    """One delay a round, announced before the major action."""
    if c.has("delayed"):
        return RuleError("delay/already-delayed", f"{c.name} is already delayed this round", allowed="act, or end_turn")
    if rec.major_used:
        return RuleError(
            "delay/after-major", f"{c.name} has already had its major action this round", allowed="minor actions, end_turn"
        )
    return None


def _announce(tx: Tx, cmd: AnnounceDelay) -> None:
    c, rec = require_turn(tx, cmd.combatant)
    refusal = delay_refusal(c, rec)
    if refusal is not None:
        raise refusal
    during = "high" if tx.state.phase == P.HIGH else "low"
    tx.emit(DelayAnnounced(combatant=c.id, during=during))  # type: ignore[arg-type]
    tx.emit(ConditionApplied(target=c.id, condition=DELAYED))
    if during == "high":
        end_turn(tx, c.id)  # nothing more until LOW
    elif rec.casting is not None and not rec.casting.started:
        tx.emit(SpellForgone(caster=c.id, spell=rec.casting.spell, reason="delayed during LOW"))


def _on_announced(state: EncounterState, e: DelayAnnounced) -> EncounterState:
    return spent(state, e.combatant, "major" if e.during == "low" else "none")


def _check_announced(state: EncounterState, e: DelayAnnounced, ctx: dict[str, Any]) -> str | None:
    problem = able(state, e.combatant, "delay")
    if problem:
        return problem
    c, rec, _ = record(state, e.combatant)
    refusal = delay_refusal(c, rec)
    return refusal.message if refusal is not None else None


RULES = Rules(
    handlers={AnnounceDelay: _announce},
    appliers={DelayAnnounced: _on_announced},
    checks={DelayAnnounced: _check_announced},
    narration={
        DelayAnnounced: lambda n, e: (
            f"{n.name(e.combatant)} delays during {e.during.upper()}"
            + (": no action until LOW" if e.during == "high" else ": its major action is lost")
        ),
    },
)
