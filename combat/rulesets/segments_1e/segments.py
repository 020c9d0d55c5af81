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
"""

from __future__ import annotations

from combat.fivee.conditions import is_incapacitated
from combat.rulesets.segments_1e import phases as P
from combat.rulesets.segments_1e.ledger import Creature, Ledger, Routine, Slot
from combat.kernel.state import Combatant, EncounterState

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
]

ROUND_SEGMENTS = 10
FAST_RANK = {"parley": 1, "flee": 2, "charge": 3, "go_first": 4}
GROUP_RANK = {"innate": 1, "spell": 1, "invocation": 1, "missile": 2, "melee": 3}
OTHER_RANK = 4  # D4. Other: moves, minor actions, anything undeclared
GO_LAST = 9


def action_of(rec: Creature) -> str | None:
    return rec.declared.action if rec.declared else None


def is_multi_attacker(rec: Creature) -> bool:
    """'If any individual has the multi-attack ability (and is in melee)'."""
    return rec.stats.routines_per_round > 1 and action_of(rec) == "melee"


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
        if not is_multi_attacker(rec):
            return None
        if key == P.REST_ROUTINES and rec.routines_used >= rec.stats.routines_per_round:
            return None
        segment = ledger.high_segment if key == P.FIRST_ROUTINES else ledger.low_segment
        return Slot(key=key, segment=segment, rank=GROUP_RANK["melee"], speed=_speed(rec))
    if action in FAST_RANK or is_multi_attacker(rec):
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
