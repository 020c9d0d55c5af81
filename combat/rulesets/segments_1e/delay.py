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

from combat.kernel.decider import Tx, Applier, Handler
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionSpec
from combat.rulesets.segments_1e import phases as P
from combat.rulesets.segments_1e.commands import AnnounceDelay
from combat.rulesets.segments_1e.events import DelayAnnounced, SpellForgone
from combat.rulesets.segments_1e.turns import end_turn, require_turn, spent
from combat.kernel.state import EncounterState

__all__ = ["DELAYED", "HANDLERS", "APPLIERS"]

DELAYED = ConditionSpec(name="delayed", source="delay")


def _announce(tx: Tx, cmd: AnnounceDelay) -> None:
    c, rec = require_turn(tx, cmd.combatant)
    if c.has("delayed"):
        raise RuleError("delay/already-delayed", f"{c.name} is already delayed this round", allowed="act, or end_turn")
    if rec.major_used:
        raise RuleError("delay/after-major", f"{c.name} has already had its major action", allowed="minor actions, end_turn")
    during = "high" if tx.state.phase == P.HIGH else "low"
    tx.emit(DelayAnnounced(combatant=c.id, during=during))  # type: ignore[arg-type]
    tx.emit(ConditionApplied(target=c.id, condition=DELAYED))
    if during == "high":
        end_turn(tx, c.id)  # nothing more until LOW
    elif rec.casting is not None and not rec.casting.started:
        tx.emit(SpellForgone(caster=c.id, spell=rec.casting.spell, reason="delayed during LOW"))


def _on_announced(state: EncounterState, e: DelayAnnounced) -> EncounterState:
    return spent(state, e.combatant, "major" if e.during == "low" else "none")


HANDLERS: dict[type, Handler] = {AnnounceDelay: _announce}
APPLIERS: dict[type, Applier] = {DelayAnnounced: _on_announced}
