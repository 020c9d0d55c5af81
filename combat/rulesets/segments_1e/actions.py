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

from typing import Any

from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import EncounterState
from combat.rulesets.segments_1e import phases as P
from combat.rulesets.segments_1e.acting import able, record, unable
from combat.rulesets.segments_1e.commands import ImmediateAction, MajorAction, MinorAction
from combat.rulesets.segments_1e.events import CastingDelayed, ImmediateActionTaken, MajorActionTaken, MinorActionTaken
from combat.rulesets.segments_1e.segments import advance
from combat.rulesets.segments_1e.turns import (
    action_segment,
    major_refusal,
    require_major,
    require_segment,
    require_turn,
    segment_spent,
    spent,
)
from combat.rulesets.segments_1e.wording import plural

__all__ = ["RULES"]


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
        raise RuleError(
            "minor/time",
            f"a minor action takes 1 segment or none, not {cmd.segments}",
            allowed="segments: 1, or 0 for no time (*)",
        )
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
    problem = unable(tx.state, c, "act", own_turn=False)
    if problem:
        raise RuleError("combatant/incapacitated", problem, allowed="an able creature")
    if not cmd.description.strip():
        raise RuleError("action/what", "say what the action is", allowed="description: e.g. 'shouts a warning'")
    tx.emit(ImmediateActionTaken(combatant=c.id, description=cmd.description, segment=tx.state.rules.segment))


def _on_major(state: EncounterState, e: MajorActionTaken) -> EncounterState:
    return spent(state, e.combatant, e.uses)


def _on_minor(state: EncounterState, e: MinorActionTaken) -> EncounterState:
    rec = state.rules.creatures[e.combatant]
    return spent(state, e.combatant, e.uses, added_segments=rec.added_segments + e.segments + e.gm_delay)


def _check_major(state: EncounterState, e: MajorActionTaken, ctx: dict[str, Any]) -> str | None:
    problem = able(state, e.combatant, "act")
    if problem:
        return problem
    c, rec, ledger = record(state, e.combatant)
    if e.uses == "surprise_segment":
        return segment_spent(c, rec, ledger.segment)
    refusal = major_refusal(c, rec, "major_action")
    return refusal.message if refusal is not None else None


def _check_minor(state: EncounterState, e: MinorActionTaken, ctx: dict[str, Any]) -> str | None:
    problem = able(state, e.combatant, "act")
    if problem:
        return problem
    c, rec, ledger = record(state, e.combatant)
    return segment_spent(c, rec, ledger.segment) if e.uses == "surprise_segment" else None


def _minor_line(n: Any, e: MinorActionTaken) -> str:
    took = "no time" if not e.segments else plural(e.segments, "segment")
    by_gm = f", +{e.gm_delay} by the GM" if e.gm_delay else ""
    return f"{n.name(e.combatant)} (minor, {took}{by_gm}): {e.description}"


RULES = Rules(
    handlers={MajorAction: _major, MinorAction: _minor, ImmediateAction: _immediate},
    appliers={MajorActionTaken: _on_major, MinorActionTaken: _on_minor, ImmediateActionTaken: lambda state, e: state},
    checks={
        MajorActionTaken: _check_major,
        MinorActionTaken: _check_minor,
        ImmediateActionTaken: lambda state, e, ctx: able(state, e.combatant, "act", own_turn=False),
    },
    narration={
        MajorActionTaken: lambda n, e: f"{n.name(e.combatant)}: {e.description} (segment {e.segment})",
        MinorActionTaken: _minor_line,
        ImmediateActionTaken: lambda n, e: f"{n.name(e.combatant)} (immediate, segment {e.segment}): {e.description}",
    },
)
