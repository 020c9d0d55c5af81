"""The round as a timeline of ten six-second segments, and who acts when on it.

"1 round (one minute) = 10 segments (each 6 seconds)." Every turn has a `Slot`: the step of
the round, the segment it happens in, and what orders it within that segment. Turns with
equal slots are simultaneous.

Chosen where the text points at its missing Combat Round Flowchart:
- A group acts in the segment shown by the best opposing group d6 (the first-edition
  reading of group dice and segments): the HIGH group in the segment of the LOW roll, the
  LOW group in the segment of the HIGH roll; tied groups both act in the tied roll's segment.
- Within a group the order by action type is D1 innate abilities (spell targets are named
  and casting begins here), D2 missiles, D3 melee, D4 other; melee ties go to the lower
  weapon speed (plus the segments of minor actions declared before it). Equal slots are
  simultaneous. Complex activities (and delaying activities of the delayed) go last, in
  segment 10.
- Fast actions take place in segment 1 in the order parley, flee, charge, go first, HIGH
  before LOW within each; first multi-attack routines in the HIGH group's segment, the
  remaining ones in the LOW group's segment.
- "4. If any individual has the multi-attack ability (and is in melee)": a multi-attacker
  with no foe in melee when that step comes takes its turn with its group instead (step 5),
  where it may close in before its first routine; the rest follow in step 6 (setting
  `multi_attackers_close_in`).
- A spell goes off at the end of the segment its casting time ends in: after every other
  turn of that segment, before any turn of a later one, whatever step of the round that
  turn belongs to (setting `spells_on_timeline`). What is left for step 7 are the spells
  going off after the round's last turn; a spell cast in a surprise segment goes off at the
  end of that segment.
"""

from __future__ import annotations

from combat.common.condition_effects import is_incapacitated
from combat.kernel.state import Combatant, EncounterState
from combat.rulesets.segments_1e import phases as P
from combat.rulesets.segments_1e.ledger import Creature, Ledger, Routine, Slot
from combat.rulesets.segments_1e.melee import foes_in_melee, where

__all__ = [
    "ROUND_SEGMENTS",
    "FAST_RANK",
    "action_of",
    "is_multi_attacker",
    "carries_casting",
    "slot_for",
    "turns",
    "next_turn",
    "step_key",
    "completion",
    "advance",
    "turn_order",
    "declared_routine",
    "SPELLS_ON_TIMELINE",
    "CLOSE_IN",
    "spells_on_timeline",
    "closes_in",
    "spell_due",
    "step_name",
    "left_behind",
]

# Settings every new encounter records as true. Logs from before they existed carry neither
# and keep the reading they were played with: spells in step 7 after the groups (a blow in
# the segment a spell goes off is simultaneous with it), multi-attackers in step 4 wherever
# they stand.
SPELLS_ON_TIMELINE = "spells_on_timeline"
CLOSE_IN = "multi_attackers_close_in"

ROUND_SEGMENTS = 10
FAST_RANK = {"parley": 1, "flee": 2, "charge": 3, "go_first": 4}
GROUP_RANK = {"innate": 1, "spell": 1, "invocation": 1, "missile": 2, "melee": 3}
OTHER_RANK = 4  # D4. Other: moves, minor actions, anything undeclared
GO_LAST = 9
# Steps before the groups act: a multi-attacker not yet in melee is still in melee's step 4.
_BEFORE_GROUPS = (P.SETUP, P.SURPRISE, P.SURPRISE_SEGMENTS, P.DECLARE, P.INITIATIVE, P.FAST, P.FIRST_ROUTINES)


def action_of(rec: Creature) -> str | None:
    return rec.declared.action if rec.declared else None


def is_multi_attacker(rec: Creature) -> bool:
    """Has the multi-attack ability and declared melee (steps 4 and 6 of the round)."""
    return rec.stats.routines_per_round > 1 and action_of(rec) == "melee"


def spells_on_timeline(state: EncounterState) -> bool:
    return bool(state.settings.get(SPELLS_ON_TIMELINE))


def _out_of_melee(state: EncounterState, cid: str) -> bool:
    """On the map with no standing foe in melee (off the map, the GM has it in melee)."""
    return where(state.rules.creatures[cid]) is not None and not foes_in_melee(state, cid)


def closes_in(state: EncounterState, cid: str) -> bool:
    """A multi-attacker that had no foe in melee when step 4 came: it takes its turn with its
    group instead, closing in before its first routine. Before step 4 is over, whether it
    is in melee now decides it."""
    rec = state.rules.creatures[cid]
    if not state.settings.get(CLOSE_IN) or not is_multi_attacker(rec):
        return False
    if P.FIRST_ROUTINES in rec.done or rec.routines_used:
        return False
    return _out_of_melee(state, cid) or state.phase not in _BEFORE_GROUPS


def carries_casting(rec: Creature, round_: int) -> bool:
    """Still casting a spell begun in an earlier round: no other action this round."""
    return rec.casting is not None and rec.casting.declared_round < round_


def declared_routine(rec: Creature, kind: str | None = None) -> Routine | None:
    routines = rec.stats.routines
    if rec.declared and rec.declared.routine:
        return next((r for r in routines if r.name.lower() == rec.declared.routine.lower()), None)
    return next((r for r in routines if kind is None or r.kind == kind), None)


def _delayed(c: Combatant) -> bool:
    return c.has("delayed")


def _goes_last(rec: Creature, c: Combatant) -> bool:
    """Complex activities go last; 'A delayed individual performing delaying activities
    treats those activities as complex'."""
    action = action_of(rec)
    return action == "complex" or (action == "delaying" and _delayed(c))


def _speed(rec: Creature) -> int:
    routine = declared_routine(rec, "melee")
    declared_minor = rec.declared.minor_segments if rec.declared else 0
    return (routine.speed if routine else 0) + declared_minor


def _group_slot(key: str, segment: int, rec: Creature, c: Combatant, after: int) -> Slot:
    action = action_of(rec)
    rank = GROUP_RANK.get(action or "", OTHER_RANK)
    declared_minor = rec.declared.minor_segments if rec.declared else 0
    speed = _speed(rec) if rank == GROUP_RANK["melee"] else 0
    return Slot(key=key, segment=min(ROUND_SEGMENTS, segment + declared_minor), rank=rank, after=after, speed=speed)


def slot_for(state: EncounterState, ledger: Ledger, cid: str, key: str) -> Slot | None:
    """The slot of `cid`'s turn in step `key` of this round, or None if it has none there."""
    rec = ledger.creatures[cid]
    c = state.combatants[cid]
    action = action_of(rec)
    if key.startswith("surprise-"):
        segment = int(key.split("-")[1])
        return Slot(key=key, segment=segment) if rec.surprised_segments < segment else None
    if key == P.SPELLS:
        cast = rec.casting
        if cast is None or not cast.started or cast.completes_round != state.round:
            return None
        return Slot(key=key, segment=cast.completes_segment or ROUND_SEGMENTS)
    if carries_casting(rec, state.round):
        return None
    if key == P.FAST:
        if action not in FAST_RANK:
            return None
        return Slot(key=key, segment=1, rank=FAST_RANK[action], after=0 if rec.group == "high" else 1)
    if key in (P.FIRST_ROUTINES, P.REST_ROUTINES):
        if not is_multi_attacker(rec) or (key == P.FIRST_ROUTINES and closes_in(state, cid)):
            return None
        if key == P.REST_ROUTINES and rec.routines_used >= rec.stats.routines_per_round:
            return None
        segment = ledger.high_segment if key == P.FIRST_ROUTINES else ledger.low_segment
        return Slot(key=key, segment=segment, rank=GROUP_RANK["melee"], speed=_speed(rec))
    if action in FAST_RANK or (is_multi_attacker(rec) and not closes_in(state, cid)):
        return None
    if key == P.HIGH:
        if rec.group != "high" or _delayed(c) or _goes_last(rec, c):
            return None
        return _group_slot(key, ledger.high_segment, rec, c, after=0)
    if key == P.LOW:
        if _goes_last(rec, c):
            return Slot(key=key, segment=ROUND_SEGMENTS, rank=GO_LAST, after=int(_delayed(c)))
        if rec.group != "low" and not _delayed(c):
            return None
        # "All group initiative action ties are lost unless the opponent has the delayed condition."
        return _group_slot(key, ledger.low_segment, rec, c, after=int(_delayed(c)))
    return None


def turns(state: EncounterState, key: str) -> list[tuple[str, Slot]]:
    """Who still has a turn in step `key`, in order. A creature that fell during a turn
    simultaneous with its own keeps that turn; a spell still in casting resolves whatever
    became of its caster (if the caster's fall had spoiled it, it would be gone)."""
    ledger = state.rules
    found: list[tuple[int, str, Slot]] = []
    for index, (cid, rec) in enumerate(ledger.creatures.items()):
        if key in rec.done or cid not in state.combatants:
            continue
        slot = slot_for(state, ledger, cid, key)
        if slot is None:
            continue
        if is_incapacitated(state.combatants[cid]) and key != P.SPELLS and rec.downed_in != slot:
            continue
        found.append((index, cid, slot))
    found.sort(key=lambda f: (f[2].segment, f[2].rank, f[2].after, f[2].speed, f[0]))
    return [(cid, slot) for _, cid, slot in found]


def next_turn(state: EncounterState, key: str) -> tuple[str, Slot] | None:
    upcoming = turns(state, key)
    return upcoming[0] if upcoming else None


def spell_due(state: EncounterState) -> tuple[str, Slot] | None:
    """The spell that goes off now, before the next turn, if one does: "A spell's casting
    starts in its caster's acting segment and goes off when its casting time has passed"
    (rules README) - at the end of its last segment, after that segment's other turns.

    In a surprise segment, once nobody is left to act in it. In the round's steps (setting
    `spells_on_timeline`), just before the next turn to be played when that turn falls in a
    later segment (a step with nobody left to act hands on to the next one first); the
    spells going off after the round's last turn are left to step 7, which resolves them in
    the order they go off. The flow starts the turn this names, and the re-check after a
    change to the past asks the same question."""
    spells = turns(state, P.SPELLS)
    if not spells:
        return None
    first = spells[0]
    if state.phase == P.SURPRISE_SEGMENTS:
        if turns(state, step_key(state)):
            return None
        return first if first[1].segment <= state.rules.segment else None
    if state.phase not in P.ACTION_PHASES or state.phase == P.SPELLS or not spells_on_timeline(state):
        return None
    upcoming = turns(state, state.phase)
    return first if upcoming and first[1].segment < upcoming[0][1].segment else None


STEP_NAMES = {
    P.FAST: "the fast actions",
    P.FIRST_ROUTINES: "the first multi-attack routines",
    P.HIGH: "HIGH",
    P.LOW: "LOW",
    P.REST_ROUTINES: "the remaining multi-attack routines",
    P.SPELLS: "the spells step",
}


def step_name(key: str) -> str:
    """A slot key as a GM says it: "HIGH", "surprise segment 2"."""
    return f"surprise segment {key.split('-')[1]}" if key.startswith("surprise-") else STEP_NAMES.get(key, key)


def left_behind(state: EncounterState, key: str) -> str | None:
    """Who still had a turn, or a spell still to go off, in step `key`: what the flow waits
    for before it leaves a step (the re-check of a step left early asks the same)."""
    left = turns(state, key)
    if not left:
        due = spell_due(state)
        if due is not None:
            return f"{state.combatants[due[0]].name}'s spell was still to go off in {step_name(key)} when it was over"
        return None
    cid, slot = left[0]
    return f"{state.combatants[cid].name} still had a turn in {step_name(key)} (segment {slot.segment}) when it was over"


def step_key(state: EncounterState) -> str:
    """The slot key of the step being played: the phase, or `surprise-N` in surprise segment N."""
    if state.phase == P.SURPRISE_SEGMENTS:
        return f"surprise-{state.rules.segment}"
    return state.phase


def completion(round_: int, start: int, segments: int) -> tuple[int, int]:
    """(round, segment) in which an activity begun in segment `start` and lasting `segments`
    is complete. A whole number of rounds ("1 round") ends with the last segment of a round,
    like a complex activity; anything else runs segment by segment into the next round."""
    if segments % ROUND_SEGMENTS == 0:
        return round_ + segments // ROUND_SEGMENTS - 1, ROUND_SEGMENTS
    return advance(round_, start, segments - 1)


def advance(round_: int, segment: int, segments: int) -> tuple[int, int]:
    """(round, segment) `segments` segments after segment `segment` of round `round_`."""
    absolute = segment - 1 + segments
    return round_ + absolute // ROUND_SEGMENTS, absolute % ROUND_SEGMENTS + 1


def turn_order(state: EncounterState, include_dead: bool = False) -> list[str]:
    """The table's order for this round: HIGH then LOW, by action type, then as added."""
    ledger = state.rules
    ranked = []
    for index, (cid, rec) in enumerate(ledger.creatures.items()):
        c = state.combatants.get(cid)
        if c is None or (c.status == "dead" and not include_dead):
            continue
        group = {"high": 0, "low": 1}.get(rec.group or "", 2)
        action = action_of(rec)
        rank = FAST_RANK.get(action or "", 0) - 10 if action in FAST_RANK else GROUP_RANK.get(action or "", OTHER_RANK)
        ranked.append(((group, rank, index), cid))
    return [cid for _, cid in sorted(ranked)]
