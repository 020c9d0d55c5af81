"""Major and minor actions and the time they take.

- "If an action or activity does not have a time component noted ... the action takes 1
  segment to complete unless noted with an asterisk (*) which means the activity takes
  'no time'."
- "Any minor action that requires 1 segment will add 1 segment to any major action no matter
  when the minor action is executed. This additional segment will be factored into melee
  weapon speed ... or other timed actions." Before the major action it puts the action one
  segment later; after it, a spell still in casting goes off one segment later.
- "If performing more than one minor action during the same initiative phase, the GM may
  assign a delay": `gm_delay` segments, which only the GM can add.
- Complex activities take the whole round and go last (segment 10).
- In a surprise segment "only actions that fit in one segment can be done": a major action
  there is one of one segment, and spends that segment instead of the round's major action.
- Immediate actions "take no time, do not need to be declared, can happen anytime during the
  round (even during fast actions or during another group's initiative)".
"""

from __future__ import annotations

from combat.kernel.decider import Tx, Applier, Handler
from combat.kernel.errors import RuleError
from combat.rulesets.segments_1e import phases as P
from combat.fivee.conditions import is_incapacitated
from combat.rulesets.segments_1e.commands import ImmediateAction, MajorAction, MinorAction
from combat.rulesets.segments_1e.events import CastingDelayed, ImmediateActionTaken, MajorActionTaken, MinorActionTaken
from combat.rulesets.segments_1e.segments import advance
from combat.rulesets.segments_1e.turns import action_segment, require_major, require_segment, require_turn, spent
from combat.kernel.state import EncounterState

__all__ = ["HANDLERS", "APPLIERS"]


def _major(tx: Tx, cmd: MajorAction) -> None:
    c, rec = require_turn(tx, cmd.combatant)
    uses = "major"
    if tx.state.phase == P.SURPRISE_SEGMENTS:
        # A one-segment action, in the one segment the unsurprised have in each.
        require_segment(c, rec, tx.state.rules.segment)
        uses = "surprise_segment"
    else:
        require_major(c, rec, "major_action")
    if not cmd.description.strip():
        raise RuleError("action/what", "say what the action is", allowed="description: e.g. 'opens the door'")
    tx.emit(MajorActionTaken(combatant=c.id, description=cmd.description, segment=action_segment(tx, rec), uses=uses))  # type: ignore[arg-type]


def _minor(tx: Tx, cmd: MinorAction) -> None:
    c, rec = require_turn(tx, cmd.combatant)
    if cmd.segments not in (0, 1):
        raise RuleError("minor/time", f"a minor action takes 1 segment or none, not {cmd.segments}", allowed="segments: 1, or 0 for no time (*)")
    if cmd.gm_delay < 0:  # only the GM sets it at all (MinorAction.gm_fields)
        raise RuleError("minor/gm-delay", "a delay for several minor actions cannot be negative", allowed="gm_delay: 0 or more")
    uses = "none"
    if tx.state.phase == P.SURPRISE_SEGMENTS and cmd.segments:
        require_segment(c, rec, tx.state.rules.segment)
        uses = "surprise_segment"
    tx.emit(
        MinorActionTaken(combatant=c.id, description=cmd.description, segments=cmd.segments, uses=uses, gm_delay=cmd.gm_delay)  # type: ignore[arg-type]
    )
    added = cmd.segments + cmd.gm_delay
    cast = rec.casting
    if added and cast is not None and cast.started and cast.completes_round is not None:
        later = advance(cast.completes_round, cast.completes_segment or 1, added)
        tx.emit(CastingDelayed(caster=c.id, spell=cast.spell, completes_round=later[0], completes_segment=later[1]))


def _immediate(tx: Tx, cmd: ImmediateAction) -> None:
    c = tx.combatant(cmd.combatant)
    if is_incapacitated(c):
        raise RuleError("combatant/incapacitated", f"{c.name} is {c.status} and cannot act", allowed="an able creature")
    if not cmd.description.strip():
        raise RuleError("action/what", "say what the action is", allowed="description: e.g. 'shouts a warning'")
    tx.emit(ImmediateActionTaken(combatant=c.id, description=cmd.description, segment=tx.state.rules.segment))


def _on_major(state: EncounterState, e: MajorActionTaken) -> EncounterState:
    return spent(state, e.combatant, e.uses)


def _on_minor(state: EncounterState, e: MinorActionTaken) -> EncounterState:
    rec = state.rules.creatures[e.combatant]
    return spent(state, e.combatant, e.uses, added_segments=rec.added_segments + e.segments + e.gm_delay)


HANDLERS: dict[type, Handler] = {MajorAction: _major, MinorAction: _minor, ImmediateAction: _immediate}
APPLIERS: dict[type, Applier] = {MajorActionTaken: _on_major, MinorActionTaken: _on_minor, ImmediateActionTaken: lambda state, e: state}
