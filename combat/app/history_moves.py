"""The GM's moves on an encounter's past: undo, redo, retract, amend, override and fork
(combat/app/history.py says what each does to the effective history). `Encounters`
(combat/app/application.py) has them from `HistoryMoves`; each is one write through the
application's write coroutine, so it takes the encounter's lock, checks `expected_version`
and `command_id` like any command, and appends only events."""

from __future__ import annotations

import uuid
from collections.abc import Callable, Coroutine, Iterable, Iterator
from contextlib import AbstractContextManager, nullcontext
from typing import Any, Protocol
from uuid import UUID

import msgspec

from combat.app import history
from combat.app.command_ids import check_client_id, check_same_request, request_hash
from combat.app.outcomes import Outcome, VersionConflict, run_sync
from combat.kernel.commands import Command
from combat.kernel.decider import Decided, decide
from combat.kernel.errors import RuleError
from combat.kernel.events import ConflictOverridden, EncounterCreated, Event, EventsRetracted, PhaseChanged, RulingAmended
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState
from combat.rulesets import get_ruleset
from combat.store.partitions import PartitionedLog

__all__ = ["HistoryMoves"]


class Application(Protocol):
    """What the moves use of the application they are part of."""

    log: PartitionedLog

    def records(self, encounter_id: UUID, *, after: int = 0, upto: int | None = None) -> Iterator[Recorded]: ...
    def state(self, encounter_id: UUID, *, at: int | None = None) -> EncounterState: ...
    def read_command(self, encounter_id: UUID, data: bytes | str | dict[str, Any]) -> Command: ...
    # The write paths, as combat/app/application.py declares them.
    def _write(self, *args: Any, **kwargs: Any) -> Coroutine[Any, Any, Outcome]: ...
    def _append(self, *args: Any, **kwargs: Any) -> Outcome: ...


class HistoryMoves:
    """Undo, redo, retract, amend, override, fork: the moves that change which events count."""

    def retract(
        self: Application,
        encounter_id: UUID,
        seqs: Iterable[int],
        *,
        reason: str,
        actor: str = "gm",
        expected_version: int | None = None,
        whole: bool = False,
        command_id: str | None = None,
    ) -> Outcome:
        """Undo the commands whose events are at `seqs` (a retraction's seq redoes what it
        undid). A command's events go together: naming only some of them is refused, unless
        `whole`, which takes every event of each command named, or they are events in
        conflict after a changed past (see _takes_back_conflicts)."""
        seqs = tuple(seqs)

        def events_for(state: EncounterState) -> list[Event]:
            records = list(self.records(encounter_id, upto=state.version))
            targets = _retractable(records, state, seqs)
            commands = history.command_seqs(records, targets)
            if whole:
                targets = _retractable(records, state, commands)
            elif (missing := sorted(set(commands) - set(targets))) and not _takes_back_conflicts(records, state, targets):
                # Retracting part of a command leaves a state no command made (a TurnStarted
                # alone undone: nobody's turn, and no command to move the fight on).
                raise RuleError(
                    "retract/part-of-command",
                    f"seq {_seq_list(targets)} is only part of what its command did; it also made {_seq_list(missing)}",
                    allowed=f"retract {_seq_list(commands)} (or whole: true to take each whole command)",
                )
            return [EventsRetracted(seqs=targets, reason=_reason(reason))]

        asked = request_hash("retract", seqs=seqs, reason=reason, whole=whole) if command_id is not None else ""
        return _written(self, encounter_id, events_for, actor, expected_version, command_id, asked)

    def undo_last(
        self: Application,
        encounter_id: UUID,
        *,
        reason: str,
        actor: str = "gm",
        expected_version: int | None = None,
        command_id: str | None = None,
    ) -> Outcome:
        """Retract everything the last command produced; undoing an undo is a redo."""

        def events_for(state: EncounterState) -> list[Event]:
            records = list(self.records(encounter_id, upto=state.version))
            last = records[-1]
            if last.seq == 1:
                raise RuleError("undo/nothing", "nothing to undo: the encounter was only just created")
            targets = tuple(r.seq for r in records if r.command_id == last.command_id)
            return [EventsRetracted(seqs=_retractable(records, state, targets), reason=_reason(reason))]

        asked = request_hash("undo", reason=reason) if command_id is not None else ""
        return _written(self, encounter_id, events_for, actor, expected_version, command_id, asked)

    def amend(
        self: Application,
        encounter_id: UUID,
        seqs: Iterable[int],
        command: Command | bytes | str | dict[str, Any],
        *,
        reason: str,
        actor: str = "gm",
        expected_version: int | None = None,
        command_id: str | None = None,
    ) -> Outcome:
        """Replace the commands that produced `seqs` by `command` (a command, or one as JSON),
        decided where they stood."""
        seqs = tuple(seqs)
        ruling = command if isinstance(command, Command) else self.read_command(encounter_id, command)

        def events_for(state: EncounterState) -> list[Event]:
            records = list(self.records(encounter_id, upto=state.version))
            targets = history.command_seqs(records, _retractable(records, state, seqs))
            # Amending an amendment corrects its corrected events: they stand where the
            # first ruling stood, and the new ruling is decided there.
            targets = tuple(r.seq for r in records if r.seq in targets and not isinstance(r.event, RulingAmended))
            if not targets or any(isinstance(r.event, history.HISTORY_TYPES) for r in records if r.seq in targets):
                raise RuleError("amend/history", "an undo or override is not a ruling to amend", allowed="retract it instead")
            before = _state_before(records, min(targets))
            corrected = decide(get_ruleset(state.ruleset), before, ruling, actor)
            return [RulingAmended(seqs=targets, reason=_reason(reason)), *corrected]

        asked = request_hash("amend", seqs=seqs, command=ruling, reason=reason) if command_id is not None else ""
        return _written(self, encounter_id, events_for, actor, expected_version, command_id, asked)

    def override(
        self: Application,
        encounter_id: UUID,
        seqs: Iterable[int],
        *,
        ruling: str,
        actor: str = "gm",
        expected_version: int | None = None,
        command_id: str | None = None,
    ) -> Outcome:
        """Let conflicting events stand by the GM's ruling."""
        wanted = tuple(sorted(set(seqs)))

        def events_for(state: EncounterState) -> list[Event]:
            conflicting = {c.seq for c in state.conflicts}
            stray = [seq for seq in wanted if seq not in conflicting]
            if not wanted or stray:
                raise RuleError(
                    "override/no-conflict",
                    f"no conflict at seq {', '.join(map(str, stray)) or 'none given'}",
                    allowed=", ".join(str(seq) for seq in sorted(conflicting)) or "no conflicts to override",
                )
            return [ConflictOverridden(seqs=wanted, ruling=_reason(ruling))]

        asked = request_hash("override", seqs=wanted, ruling=ruling) if command_id is not None else ""
        return _written(self, encounter_id, events_for, actor, expected_version, command_id, asked)

    def fork(
        self: Application,
        encounter_id: UUID,
        at: int,
        *,
        name: str | None = None,
        actor: str = "gm",
        expected_version: int | None = None,
        command_id: str | None = None,
        writing: Callable[[], AbstractContextManager[object]] = nullcontext,
    ) -> UUID:
        """A what-if branch: a new encounter whose log is this one's effective history up to `at`.
        With `command_id` the branch's id follows from it, so a repeat finds the branch made
        (and the same id with another `at` or name is refused). `writing` is entered once
        everything is checked, around the write alone (the service takes a quota slot there:
        a refused fork writes nothing)."""
        version = self.state(encounter_id).version
        if expected_version is not None and expected_version != version:
            raise VersionConflict(expected_version, version)
        if not 1 <= at <= version:
            raise RuleError("fork/at", f"seq {at} is outside the log", allowed=f"1 to {version}")
        fork_id = uuid.uuid4() if command_id is None else uuid.uuid5(encounter_id, check_client_id(command_id))
        asked = request_hash("fork", at=at, name=name) if command_id is not None else ""
        if command_id is not None and _repeat_fork(self.log, fork_id, command_id, asked):
            return fork_id
        records = list(self.records(encounter_id, upto=at))
        kept = history.effective(records).order
        created = kept[0].event
        assert isinstance(created, EncounterCreated)
        start = msgspec.structs.replace(
            created,
            name=name or f"{created.name} (what if, from seq {at})",
            forked_from=str(encounter_id),
            chained=True,
            forked_at=at,
        )
        empty = get_ruleset(created.ruleset).initial_state()
        try:
            with writing():
                self._append(fork_id, empty, [start, *(r.event for r in kept[1:])], actor, command_id, copied=True, request=asked)
        except VersionConflict:
            if command_id is None:
                raise
            _repeat_fork(self.log, fork_id, command_id, asked)  # the same id sent at once: was it the same fork?
        return fork_id


def _written(
    app: Application,
    encounter_id: UUID,
    events_for: Callable[[EncounterState], list[Event] | Decided],
    actor: str,
    expected_version: int | None,
    command_id: str | None,
    request: str,
) -> Outcome:
    return run_sync(app._write(encounter_id, events_for, app.log.commits(), actor, expected_version, command_id, request))


def _repeat_fork(log: PartitionedLog, fork_id: UUID, command_id: str, request: str) -> bool:
    """Whether the branch of `command_id` is made (refused if it was made by another request)."""
    first = next(iter(log.recorded(fork_id, lte=1)), None)
    if first is None:
        return False
    check_same_request(command_id, first.request_hash, request)
    return True


def _state_before(records: list[Recorded], first: int) -> EncounterState:
    """The effective state just before the event at seq `first` took effect."""
    history_now = history.effective(records)
    position = history_now.positions[[r.seq for r in history_now.order].index(first)]
    kept = {r.seq for r, pos in zip(history_now.order, history_now.positions) if pos < position}
    prefix = [r for r in records if r.seq in kept or isinstance(r.event, history.HISTORY_TYPES)]
    return history.replay(prefix)


def _retractable(records: list[Recorded], state: EncounterState, seqs: Iterable[int]) -> tuple[int, ...]:
    wanted = tuple(sorted(set(seqs)))
    if not wanted:
        raise RuleError("retract/nothing", "name at least one seq to retract", allowed=f"2 to {state.version}")
    for seq in wanted:
        if not 2 <= seq <= state.version:
            raise RuleError("retract/seq", f"seq {seq} is not an event that can be retracted", allowed=f"2 to {state.version}")
        if seq in state.retracted:
            raise RuleError(
                "retract/already", f"seq {seq} is already retracted", allowed="retract the retraction to bring it back"
            )
    # An amendment stands or falls with its corrected events.
    amended = {r.command_id for r in records if r.seq in wanted and isinstance(r.event, RulingAmended)}
    return tuple(sorted(set(wanted) | {r.seq for r in records if r.command_id in amended}))


def _takes_back_conflicts(records: list[Recorded], state: EncounterState, seqs: Iterable[int]) -> bool:
    """The one part of a command that may go alone: events a changed past put in conflict
    (with the phase changes that came with them), such as the end of a fight that a corrected
    ruling no longer decides."""
    conflicting = {c.seq for c in state.conflicts}
    phase_changes = {r.seq for r in records if isinstance(r.event, PhaseChanged)}
    named = set(seqs)
    return bool(named & conflicting) and named <= conflicting | phase_changes


def _seq_list(seqs: Iterable[int]) -> str:
    return ", ".join(map(str, seqs))


def _reason(text: str) -> str:
    if not text or not text.strip():
        raise RuleError("history/reason", "say why", allowed="a reason or ruling in words")
    return text.strip()
