"""Group initiative, rolled every round: "Each group will roll a d6. The group with the highest
roll acts first during HIGH group initiative. The group with the low roll acts during LOW
group initiative. If TIED, both groups act during HIGH group initiative. In this case,
action order by type determines who acts first."

- "Adjustments may be made for individuals with a Dexterity Reaction Adjustment in the right
  circumstances": an individual's score is its group's roll plus its adjustment, and it acts
  in HIGH when that score reaches the best opposing roll (a tie puts it in HIGH). Chosen:
  it applies to every action but spells and invocations, whose timing is their casting time
  (setting `dex_reaction_initiative`, on by default).
- "If you declare (during the Declare Actions phase), your intent to delay, you act on LOW
  initiative (no matter your group initiative result)"; "An individual performing a delaying
  activity can only do so during LOW initiative."
- Segments: see segments.py (a group acts in the segment of the best opposing roll).
"""

from __future__ import annotations

from typing import Any

import msgspec

from combat.common.condition_effects import is_incapacitated
from combat.kernel.decider import Rules, Tx
from combat.kernel.state import EncounterState, with_rules
from combat.rulesets.segments_1e.acting import down_as
from combat.rulesets.segments_1e.commands import RollGroupD6
from combat.rulesets.segments_1e.events import GroupD6Rolled, HighLowSet
from combat.rulesets.segments_1e.segments import action_of
from combat.rulesets.segments_1e.side_rolls import sides_to_roll

__all__ = ["groups", "all_rolled", "set_groups", "placements", "RULES"]

ON_LOW = ("delay", "delaying")  # declared actions that act on LOW whatever the dice say


def groups(state: EncounterState) -> list[str]:
    """The sides still in the fight, in the order they joined."""
    return list(dict.fromkeys(c.side for c in state.combatants.values() if not is_incapacitated(c)))


def all_rolled(state: EncounterState) -> bool:
    rolled = state.rules.rolls
    return all(side in rolled for side in groups(state))


# Why a side may not roll group initiative now: the guard's words and the re-check's.
NOBODY_TO_ROLL = "nobody of the {side} side is standing to roll group initiative"
ALREADY_ROLLED = "the {side} side has already rolled group initiative this round"


def _roll(tx: Tx, cmd: RollGroupD6) -> None:
    chosen = sides_to_roll(
        "initiative", cmd.side, groups(tx.state), tx.state.rules.rolls, cmd.faces, unknown=NOBODY_TO_ROLL, already=ALREADY_ROLLED
    )
    for side in chosen:
        tx.emit(GroupD6Rolled(side=side, roll=tx.roll("1d6", purpose="group initiative", roller=side, faces=cmd.faces).total))


def set_groups(tx: Tx) -> None:
    tx.emit(placements(tx.state))


def placements(state: EncounterState) -> HighLowSet:
    """HIGH and LOW from the group dice rolled: every side still in the fight has rolled."""
    ledger = state.rules
    rolls = {side: ledger.rolls[side] for side in groups(state)}
    best = max(rolls.values())
    high = tuple(side for side, r in rolls.items() if r == best)
    tied = len(high) > 1
    ordered = sorted(rolls.values(), reverse=True)
    high_segment = best if tied or len(ordered) < 2 else ordered[1]
    adjust = bool(state.settings.get("dex_reaction_initiative", True))
    placed: dict[str, str] = {}
    scores: dict[str, int] = {}
    for cid, rec in ledger.creatures.items():
        side = state.combatants[cid].side
        if side not in rolls or is_incapacitated(state.combatants[cid]):
            continue
        action = action_of(rec)
        bonus = rec.stats.dex_reaction if adjust and action not in ("spell", "invocation") else 0
        scores[cid] = rolls[side] + bonus
        best_foe = max((r for s, r in rolls.items() if s != side), default=0)
        placed[cid] = "low" if action in ON_LOW else ("high" if scores[cid] >= best_foe else "low")
    moved = tuple(cid for cid, g in placed.items() if g != ("high" if state.combatants[cid].side in high else "low"))
    return HighLowSet(
        rolls=rolls,
        high=high,
        tied=tied,
        high_segment=high_segment,
        low_segment=best,
        groups=placed,  # type: ignore[arg-type]
        scores=scores,
        moved=moved,
    )


def _on_rolled(state: EncounterState, e: GroupD6Rolled) -> EncounterState:
    return with_rules(state, rolls={**state.rules.rolls, e.side: e.roll})


def _on_set(state: EncounterState, e: HighLowSet) -> EncounterState:
    ledger = state.rules
    creatures = {
        cid: msgspec.structs.replace(
            rec,
            group=e.groups.get(cid),
            acting_segment=e.high_segment if e.groups.get(cid) == "high" else e.low_segment,
        )
        for cid, rec in ledger.creatures.items()
    }
    combatants = {cid: msgspec.structs.replace(c, initiative=e.scores.get(cid)) for cid, c in state.combatants.items()}
    ledger = msgspec.structs.replace(
        ledger, high=e.high, tied=e.tied, high_segment=e.high_segment, low_segment=e.low_segment, creatures=creatures
    )
    return with_rules(msgspec.structs.replace(state, combatants=combatants), ledger)


def _check_rolled(state: EncounterState, e: GroupD6Rolled, ctx: dict[str, Any]) -> str | None:
    if e.side not in groups(state):
        return NOBODY_TO_ROLL.format(side=e.side)
    if e.side in state.rules.rolls:
        return ALREADY_ROLLED.format(side=e.side)
    return None


def _check_set(state: EncounterState, e: HighLowSet, ctx: dict[str, Any]) -> str | None:
    """HIGH and LOW as the group dice and who stands place them now (`placements`, the flow's own)."""
    rolled = state.rules.rolls
    for side in groups(state):
        if side not in rolled:
            return f"the {side} side has someone standing now but rolled no group d6"
    for side in e.rolls:
        if side not in groups(state):
            return f"nobody of the {side} side is standing now, yet it was placed by group initiative"
    now = placements(state)
    if (now.rolls, now.high_segment, now.low_segment) != (e.rolls, e.high_segment, e.low_segment):
        dice = ", ".join(f"{side} {roll}" for side, roll in now.rolls.items())
        return f"the group dice stand at {dice} now: HIGH acts in segment {now.high_segment}, LOW in {now.low_segment}"
    for cid in dict.fromkeys([*now.groups, *e.groups]):
        if cid not in state.combatants:
            return f"{cid} is not in the fight any more, yet it was placed in {e.groups[cid].upper()}"
        name = state.combatants[cid].name
        was, should = e.groups.get(cid), now.groups.get(cid)
        if was == should:
            continue
        if was is None:
            return f"{name} is standing now but was left out of group initiative"
        if should is None:
            return f"{name} is {down_as(state.combatants[cid])} now but was placed in {was.upper()}"
        return f"{name} would act in {should.upper()} now, not {was.upper()}"
    return None


def _groups_line(n: Any, e: HighLowSet) -> str:
    rolls = ", ".join(f"{side} {roll}" for side, roll in e.rolls.items())
    moved = "".join(f"; {n.name(cid)} acts in {e.groups[cid].upper()}" for cid in e.moved)
    if e.tied:
        return f"Group initiative {rolls}: tied, so both act in HIGH (segment {e.high_segment}), ordered by action type{moved}"
    low = [s for s in e.rolls if s not in e.high]
    return f"Group initiative {rolls}: HIGH {', '.join(e.high)} in segment {e.high_segment}, LOW {', '.join(low)} in segment {e.low_segment}{moved}"


RULES = Rules(
    handlers={RollGroupD6: _roll},
    appliers={GroupD6Rolled: _on_rolled, HighLowSet: _on_set},
    checks={GroupD6Rolled: _check_rolled, HighLowSet: _check_set},
    narration={
        GroupD6Rolled: lambda n, e: f"The {e.side} side rolls {e.roll} for group initiative",
        HighLowSet: _groups_line,
    },
)
