"""The effective history: the log minus what was retracted, with amendments in place.

Nothing is ever deleted. An undo appends `EventsRetracted`; retracting a retraction is a
redo. An amendment appends `RulingAmended` and, in the same command, the corrected events,
which take effect where the first replaced event stood. State is the fold of the effective
history, so an undone attack gives back its HP and the economy it spent.

After a change to the past, every later event is checked again against the rules
(`Ruleset.checks`); what no longer fits is listed as a conflict, never silently rewritten.
The GM resolves a conflict by retracting or amending further, or with `ConflictOverridden`.
"""

from __future__ import annotations

import operator
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

import msgspec

from combat.kernel import collector
from combat.kernel.decider import Ruleset, evolve, fold
from combat.kernel.errors import RuleError
from combat.kernel.events import ConflictOverridden, EncounterCreated, EventsRetracted, RoundStarted, RulingAmended, TurnStarted
from combat.kernel.records import Recorded
from combat.kernel.state import Conflict, EncounterState
from combat.rulesets import installed_ruleset

__all__ = ["HISTORY_TYPES", "Effective", "effective", "replay", "extend", "fold_records", "command_seqs"]

HISTORY_TYPES = (EventsRetracted, RulingAmended, ConflictOverridden)


@dataclass
class Effective:
    order: list[Recorded]  # the events that count, in the order they take effect
    positions: list[tuple[int, ...]]  # where each of them stands in that order
    retracted_by: dict[int, int]  # seq -> seq of the retraction or amendment that replaced it
    overridden: dict[int, int]  # seq -> seq of the override ruling that lets it stand
    changed_from: tuple[int, ...] | None  # position of the earliest change to the past
    causes: tuple[int, ...] = field(default=())


def _changes_history(records: Iterable[Recorded]) -> bool:
    """Whether any record retracts, amends or overrides (the few types of a log looked up, not
    each of its events: this runs on every replay)."""
    return any(issubclass(kind, HISTORY_TYPES) for kind in set(map(type, map(_event, records))))


_event = operator.attrgetter("event")
_seq = operator.attrgetter("originator_version")


def effective(records: Sequence[Recorded]) -> Effective:
    if not _changes_history(records):
        # Nothing was ever changed: the log is the history (the common case, and the hot path
        # of every replay).
        as_logged = list(records)
        positions: list[tuple[int, ...]] = list(zip(map(_seq, as_logged)))  # each seq, alone in its tuple
        return Effective(order=as_logged, positions=positions, retracted_by={}, overridden={}, changed_from=None)
    retracted_by: dict[int, int] = {}
    control: list[Recorded] = []
    # Backwards, because a retraction only ever names earlier events: when we reach an
    # event we already know whether anything later (and still standing) retracted it.
    for rec in reversed(records):
        if rec.seq in retracted_by:
            continue
        if isinstance(rec.event, (EventsRetracted, RulingAmended)):
            control.append(rec)
            for seq in rec.event.seqs:
                retracted_by.setdefault(seq, rec.seq)
    amendments = {rec.command_id: rec for rec in control if isinstance(rec.event, RulingAmended)}
    by_seq = {rec.seq: rec for rec in records}

    def position(seq: int) -> tuple[int, ...]:
        rec = by_seq.get(seq)
        amendment = amendments.get(rec.command_id) if rec is not None else None
        if amendment is None or seq <= amendment.seq:
            return (seq,)
        # A corrected event stands just after the first event its amendment replaced.
        return position(min(amendment.event.seqs)) + (seq,)

    overridden: dict[int, int] = {}
    order: list[Recorded] = []
    for rec in records:
        if rec.seq in retracted_by:
            continue
        if isinstance(rec.event, ConflictOverridden):
            for seq in rec.event.seqs:
                overridden.setdefault(seq, rec.seq)
        if isinstance(rec.event, HISTORY_TYPES):
            continue
        order.append(rec)
    order.sort(key=lambda rec: position(rec.seq))
    # Only domain events count as a change to the past: retracting an undo (a redo) brings
    # back what was there before, which was already checked then.
    undone = [seq for seq in retracted_by if seq in by_seq and not isinstance(by_seq[seq].event, HISTORY_TYPES)]
    causes = {retracted_by[seq] for seq in undone}
    return Effective(
        order=order,
        positions=[position(rec.seq) for rec in order],
        retracted_by=retracted_by,
        overridden=overridden,
        changed_from=min(position(seq) for seq in undone) if undone else None,
        causes=tuple(sorted(causes)),
    )


def replay(records: Iterable[Recorded]) -> EncounterState:
    """The state after a whole log (or a prefix of one): the fold of its effective history."""
    with collector.paused():  # a fold makes one short-lived state per event and no cycles
        return _replay(list(records))


def _replay(records: list[Recorded]) -> EncounterState:
    if not records:
        raise RuleError("log/empty", "the log holds no events")
    if not isinstance(records[0].event, EncounterCreated):
        raise RuleError("log/no-start", "a log must begin with EncounterCreated")
    first = records[0].originator_id
    ruleset = installed_ruleset(records[0].event.ruleset, first if first.int else None)  # a file's records: UUID 0
    history = effective(records)
    first_checked = _first_checked(history)
    state = ruleset.initial_state()
    context: dict[str, Any] = {}
    conflicts: list[Conflict] = []
    checked = history.order[first_checked:]
    if not checked:  # nothing changed: a plain fold (every replay of an unchanged log)
        state = fold(ruleset, map(_event, history.order), state)
    else:
        for rec in history.order[:first_checked]:  # the unchanged past, before the changed part is checked
            state = evolve(ruleset, state, rec.event)
            _track(context, rec)
    for rec in checked:
        problem = _check(ruleset, state, rec, context)
        try:
            after = evolve(ruleset, state, rec.event)
        except (KeyError, ValueError, IndexError, StopIteration) as exc:
            # Only possible in a changed past (say, an event about a combatant whose arrival
            # was retracted): the event cannot take effect, which is itself the conflict.
            problem = problem or f"cannot take effect any more ({type(exc).__name__}: {exc})"
            after = state
        _track(context, rec)
        if problem and rec.seq not in history.overridden:
            conflicts.append(Conflict(seq=rec.seq, type=type(rec.event).__name__, problem=problem, caused_by=history.causes))
        state = after
    return msgspec.structs.replace(
        state,
        version=records[-1].seq,
        retracted=tuple(sorted(history.retracted_by)),
        conflicts=tuple(conflicts),
    )


def extend(state: EncounterState, records: Sequence[Recorded]) -> EncounterState | None:
    """Fold newly appended records onto `state`, or None when they change the past (refold)."""
    if not records:
        return state
    if _changes_history(records):
        return None
    state = fold(installed_ruleset(state.ruleset), map(_event, records), state)
    # As in `replay`, the version is set once at the end: no applier reads it.
    return msgspec.structs.replace(state, version=records[-1].seq)


def command_seqs(records: Sequence[Recorded], seqs: Iterable[int]) -> tuple[int, ...]:
    """Every seq of the commands that produced `seqs`: a command's events stand or fall together."""
    wanted = {rec.command_id for rec in records if rec.seq in set(seqs)}
    return tuple(rec.seq for rec in records if rec.command_id in wanted)


def _first_checked(history: Effective) -> int:
    """Index of the first event whose past was changed; every event from there on is checked."""
    if history.changed_from is None:
        return len(history.order)
    later = [i for i, pos in enumerate(history.positions) if pos > history.changed_from]
    return later[0] if later else len(history.order)


def _check(ruleset: Ruleset, state: EncounterState, rec: Recorded, context: dict[str, Any]) -> str | None:
    check = ruleset.checks.get(type(rec.event))
    if check is None:
        return None
    try:
        return check(state, rec.event, context)
    except Exception as exc:  # a changed past can leave a check facing what it never saw
        return f"could not be checked against the changed past ({type(exc).__name__}: {exc})"


def _track(context: dict[str, Any], rec: Recorded) -> None:
    """Remember what checks need beyond the state: whose turn came last this round."""
    if isinstance(rec.event, RoundStarted):
        context["previous_turn"] = None
    elif isinstance(rec.event, TurnStarted):
        context["previous_turn"] = rec.event.combatant
        context.pop("moved_to", None)
    elif rec.event.moves_turn:  # the GM chose the next turn, out of order (its type declares it)
        context["moved_to"] = getattr(rec.event, "combatant", None)


def fold_records(records: Iterable[Recorded], state: EncounterState | None = None) -> EncounterState:
    """The state after `records`: a whole log, or new records on top of `state`."""
    if state is None:
        return replay(records)
    records = list(records)
    extended = extend(state, records)
    if extended is None:
        raise ValueError("records that change the past need the whole log: use history.replay")
    return extended
