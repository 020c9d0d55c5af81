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

import msgspec

from combat.fivee.conditions import is_incapacitated
from combat.kernel.decider import Tx, Applier, Handler
from combat.rulesets.segments_1e.commands import RollGroupD6
from combat.rulesets.segments_1e.events import GroupD6Rolled, HighLowSet
from combat.rulesets.segments_1e.side_rolls import sides_to_roll
from combat.rulesets.segments_1e.segments import action_of
from combat.kernel.state import EncounterState, with_rules

__all__ = ["groups", "all_rolled", "set_groups", "placements", "HANDLERS", "APPLIERS"]

ON_LOW = ("delay", "delaying")  # declared actions that act on LOW whatever the dice say


def groups(state: EncounterState) -> list[str]:
    """The sides still in the fight, in the order they joined."""
    return list(dict.fromkeys(c.side for c in state.combatants.values() if not is_incapacitated(c)))


def all_rolled(state: EncounterState) -> bool:
    rolled = state.rules.rolls
    return all(side in rolled for side in groups(state))


def _roll(tx: Tx, cmd: RollGroupD6) -> None:
    chosen = sides_to_roll("initiative", cmd.side, groups(tx.state), tx.state.rules.rolls, cmd.faces,
                           unknown="no side called '{side}' is in the fight", already="the {side} side has rolled this round")
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
        rolls=rolls, high=high, tied=tied, high_segment=high_segment, low_segment=best,
        groups=placed, scores=scores, moved=moved,  # type: ignore[arg-type]
    )


def _on_rolled(state: EncounterState, e: GroupD6Rolled) -> EncounterState:
    ledger = state.rules
    return with_rules(state, msgspec.structs.replace(ledger, rolls={**ledger.rolls, e.side: e.roll}))


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
    combatants = {
        cid: msgspec.structs.replace(c, initiative=e.scores.get(cid)) for cid, c in state.combatants.items()
    }
    ledger = msgspec.structs.replace(
        ledger, high=e.high, tied=e.tied, high_segment=e.high_segment, low_segment=e.low_segment, creatures=creatures
    )
    return with_rules(msgspec.structs.replace(state, combatants=combatants), ledger)


HANDLERS: dict[type, Handler] = {RollGroupD6: _roll}
APPLIERS: dict[type, Applier] = {GroupD6Rolled: _on_rolled, HighLowSet: _on_set}
