"""Surprise, checked once before the first round (first-edition defaults, rules README):

- each side rolls a d6; a 1 means surprised for one segment, a 2 for two segments, 3-6 not
  surprised (setting `surprised_on`, 2 by default);
- a creature that "surprises on 1-3" extends the range for the sides facing it;
- a Dexterity surprise bonus cancels surprise segments for that individual but never
  creates surprise;
- in each surprise segment those no longer surprised act, and only actions that fit in
  one segment; "Creatures with the surprised condition cannot make free attacks."

Chosen: when both sides are surprised, nobody acts in the segments everyone is surprised.
"""

from __future__ import annotations

from typing import Any

import msgspec

from combat.kernel.decider import Rules, Tx
from combat.kernel.events import ConditionApplied, ConditionEnded, ConditionSpec
from combat.kernel.state import EncounterState, with_rules
from combat.rulesets.segments_1e.commands import CheckSurprise
from combat.rulesets.segments_1e.events import SegmentReached, SurpriseChecked, SurpriseSettled
from combat.rulesets.segments_1e.side_rolls import sides_to_roll
from combat.rulesets.segments_1e.wording import plural

__all__ = ["SURPRISED", "sides", "settle", "shake_off", "RULES"]

SURPRISED = ConditionSpec(name="surprised", source="surprise")


def sides(state: EncounterState) -> list[str]:
    """Sides in the order their first creature joined."""
    return list(dict.fromkeys(c.side for c in state.combatants.values()))


def _range_against(state: EncounterState, side: str) -> int:
    """The d6 faces that surprise `side`: the table's default, or more if a foe surprises on more."""
    default = int(state.settings.get("surprised_on", 2))
    ledger = state.rules
    foes = [rec.stats.surprises_on for cid, rec in ledger.creatures.items() if state.combatants[cid].side != side]
    return max([default, *(f for f in foes if f is not None)])


def _check(tx: Tx, cmd: CheckSurprise) -> None:
    chosen = sides_to_roll(
        "surprise",
        cmd.side,
        sides(tx.state),
        tx.state.rules.surprise,
        cmd.faces,
        unknown="no side called '{side}'",
        already="the {side} side has rolled for surprise",
    )
    for side in chosen:
        roll = tx.roll("1d6", purpose="surprise", roller=side, faces=cmd.faces).total
        surprised_on = _range_against(tx.state, side)
        tx.emit(SurpriseChecked(side=side, roll=roll, surprised_on=surprised_on, segments=roll if roll <= surprised_on else 0))


def settle(tx: Tx) -> bool:
    """Once every side has rolled: each individual's surprise after its Dexterity bonus, and
    whether anyone acts in the surprise segments (True) or round 1 begins at once (False)."""
    ledger = tx.state.rules
    by_side = ledger.surprise
    segments: dict[str, int] = {}
    cancelled: dict[str, int] = {}
    for cid, rec in ledger.creatures.items():
        surprised = by_side.get(tx.state.combatants[cid].side, 0)
        shaken = min(rec.stats.dex_surprise, surprised)
        if shaken:
            cancelled[cid] = shaken
        if surprised - shaken:
            segments[cid] = surprised - shaken
    window = max(segments.values(), default=0)
    anyone_acts = window > 0 and any(segments.get(cid, 0) < window for cid in ledger.creatures)
    tx.emit(SurpriseSettled(segments=segments, cancelled=cancelled, window=window if anyone_acts else 0))
    for cid in segments:
        tx.emit(ConditionApplied(target=cid, condition=SURPRISED))
    return anyone_acts


def shake_off(tx: Tx, segment: int | None = None) -> None:
    """End the surprised condition of everyone surprised for fewer than `segment` segments
    (everyone, with no segment: the surprise segments are over)."""
    ledger = tx.state.rules
    for cid, rec in ledger.creatures.items():
        if tx.state.combatants[cid].has("surprised") and (segment is None or rec.surprised_segments < segment):
            tx.emit(ConditionEnded(target=cid, condition="surprised", reason="its surprise segments have passed"))


def next_segment(tx: Tx, segment: int) -> None:
    tx.emit(SegmentReached(segment=segment))
    shake_off(tx, segment)


def _on_checked(state: EncounterState, e: SurpriseChecked) -> EncounterState:
    return with_rules(state, surprise={**state.rules.surprise, e.side: e.segments})


def _on_settled(state: EncounterState, e: SurpriseSettled) -> EncounterState:
    ledger = state.rules
    creatures = {
        cid: msgspec.structs.replace(rec, surprised_segments=e.segments.get(cid, 0)) for cid, rec in ledger.creatures.items()
    }
    return with_rules(state, msgspec.structs.replace(ledger, creatures=creatures, surprise_window=e.window))


def _checked_line(n: Any, e: SurpriseChecked) -> str:
    result = f"surprised for {plural(e.segments, 'segment')}" if e.segments else "not surprised"
    return f"The {e.side} side rolls {e.roll} for surprise (surprised on 1-{e.surprised_on}): {result}"


def _settled_line(n: Any, e: SurpriseSettled) -> str:
    if not e.segments:
        return "Nobody is surprised"
    who = "; ".join(f"{n.name(c)} {plural(s, 'segment')}" for c, s in e.segments.items()) or "nobody"
    shaken = "".join(f"; {n.name(c)} shakes off {plural(s, 'segment')} (Dexterity)" for c, s in e.cancelled.items())
    return f"Surprised: {who}{shaken} - {plural(e.window, 'surprise segment')} to play"


RULES = Rules(
    handlers={CheckSurprise: _check},
    appliers={SurpriseChecked: _on_checked, SurpriseSettled: _on_settled},
    narration={SurpriseChecked: _checked_line, SurpriseSettled: _settled_line},
)
