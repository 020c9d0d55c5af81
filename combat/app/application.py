"""The application layer: commands in, events appended, state out.

The CLI, the HTTP service and combat.api call only this. It loads an encounter's state (from
its cache, a snapshot and the events after it), asks the ruleset to decide, appends the
events with the expected version, and keeps the folded state.

Every write to an encounter is one coroutine, `Encounters._write`: the encounter's lock, the
decision, the append through a `Commits` (combat.store), and again if another writer
appended first. The service awaits it on its event loop where the store commits there (an
SQLite file); everything else runs it in a thread with blocking commits (`run_sync`).
"""

from __future__ import annotations

import dataclasses
import os
import random
import secrets
import threading
import uuid
from collections.abc import Callable, Coroutine, Iterable, Iterator
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

import msgspec

from combat.app import chain, history
from combat.app.cache import StateCache
from combat.app.catalog import decode_command, record_decoder
from combat.app.command_ids import CommandIndex, check_client_id, check_same_request, request_hash
from combat.app.history import fold_records
from combat.app.history_moves import HistoryMoves
from combat.app.locks import EncounterLocks
from combat.app.outcomes import Outcome, StoreBusy, UnknownEncounter, VersionConflict, run_sync
from combat.campaigns.naming import carries_characters, names_a_stored_character
from combat.kernel import collector
from combat.kernel.commands import Command, check_service_only
from combat.kernel.decider import Decided, decided
from combat.kernel.errors import RuleError
from combat.kernel.events import EncounterCreated, Event
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState
from combat.rulesets import RULESETS, get_ruleset
from combat.store import Commits, SeqTaken
from combat.store.log import Snapshot
from combat.store.partitions import PartitionedLog
from combat.store.settings import store_env

if TYPE_CHECKING:
    from combat.campaigns.party import Campaigns
    from combat.stats.reads import StatsReads

__all__ = ["Encounters", "Outcome", "run_sync", "VersionConflict", "UnknownEncounter", "StoreBusy", "fold_records"]

# Events between snapshots. A load from the store folds at most this many events after the
# latest snapshot, so a fight of any length loads about as fast as one of this length; a
# snapshot costs one row in the transaction of the command that crosses the line.
SNAPSHOT_INTERVAL = 150


def _passed_over(encounter_id: UUID, seq: int, problem: str) -> None:
    # structlog is imported here, not at the top: with rich installed it costs the CLI's
    # every start about 0.1 s (`combat bench` #7), for a warning seldom given.
    import structlog

    structlog.get_logger("combat.store").warning("snapshot passed over", encounter=str(encounter_id), seq=seq, problem=problem)


def _now() -> datetime:
    return datetime.now(UTC)


class Encounters(HistoryMoves):
    """Every encounter in one store. Its moves on the past (undo, amend, fork...) are in
    combat/app/history_moves.py."""

    # A write sent without expected_version is decided again when another process appended
    # first; each lost race means another command was stored, so the fight moves on.
    RETRIES = 200

    def __init__(
        self,
        db: str | os.PathLike[str] | None = None,
        *,
        env: dict[str, str] | None = None,
        max_events: int | None = None,
        cached: int | None = None,
        partitions: int | None = None,
    ):
        # On PostgreSQL the store is split by encounter (combat.store.partitions); `partitions`
        # chooses the count for a new store, else COMBAT_PARTITIONS or the default.
        self._env = {**store_env(db), **(env or {})}
        self.log = PartitionedLog(self._env, partitions, records=record_decoder)
        self._campaigns: Campaigns | None = None
        self._stats: StatsReads | None = None
        self._building = threading.Lock()
        # Told of each append (encounter id, state after it). Unset, a write to a fight that
        # holds stored characters carries it over to them at once (the CLI, the Python API);
        # the service sets it to wake its follower thread instead (combat.app.followers).
        self.on_appended: Callable[[UUID, EncounterState], None] | None = None
        self.max_events = max_events  # events one command may append (a fork copies, so it is not counted)
        self._cache: StateCache[EncounterState] = StateCache(cached)
        self._heads: StateCache[tuple[int, str]] = StateCache(cached)  # (seq, hash) of the last event seen
        self._shared: StateCache[bool] = StateCache(cached)  # encounters another process wrote lately
        self._locks = EncounterLocks()  # writes to one encounter go one at a time
        self._ids = CommandIndex(lambda eid, after, upto: self.log.recorded(eid, gt=after or None, lte=upto))

    @property
    def settings(self) -> dict[str, str]:
        """eventsourcing's settings this store was opened with (what another process, a
        follower say, needs to open the same store)."""
        return dict(self._env)

    def close(self) -> None:
        if self._campaigns is not None:
            self._campaigns.close()
        self.log.close()

    @property
    def campaigns(self) -> Campaigns:
        """The campaigns and their characters, in this store (combat.campaigns), with the
        follower that carries each fight's outcome to them. Built once, under a lock (the
        service builds it before serving)."""
        if self._campaigns is None:
            with self._building:
                if self._campaigns is None:
                    self._campaigns = self._build_campaigns()
        return self._campaigns

    @property
    def stats(self) -> StatsReads:
        """The statistics read model across fights (combat.stats), its tables made once, under
        the same lock as the campaigns' (the service builds it before serving)."""
        if self._stats is None:
            with self._building:
                if self._stats is None:
                    from combat.stats.reads import StatsReads

                    self._stats = StatsReads(self, getattr(self.log.home.factory, "datastore", None))
        return self._stats

    def _build_campaigns(self) -> Campaigns:
        # Loaded here, not at import: a command of a fight loads the campaigns' store only
        # when it reaches a campaign (`combat do` starts quicker without it).
        from combat.campaigns.carry_over import FOLLOWER, CarryOver
        from combat.campaigns.party import Campaigns
        from combat.store.party import behind, follow, start_following

        campaigns = Campaigns(self._env, datastore=getattr(self.log.home.factory, "datastore", None))
        carry = CarryOver(
            created=self.created,
            state_at=lambda eid, seq: self.state(eid, at=seq),
            read=campaigns.log.records,
            fold=campaigns.fold_records,
            roster_ids=campaigns.log.originators,
            record=campaigns.record,
        )
        start_following(self.log.parts, campaigns.log, FOLLOWER, settle=campaigns.settle_legacy(self))
        campaigns.attach(
            lambda: follow(self.log.parts, campaigns.log, FOLLOWER, carry),
            lambda: behind(self.log.parts, campaigns.log, FOLLOWER),
        )
        return campaigns

    def created(self, encounter_id: UUID) -> EncounterCreated:
        """The encounter's first event: its ruleset, and the campaign it belongs to."""
        for rec in self.records(encounter_id, upto=1):
            if isinstance(rec.event, EncounterCreated):
                return rec.event
        raise UnknownEncounter(encounter_id)

    def resolving(self, encounter_id: UUID, command: Command, actor: str = "gm") -> Command:
        """`command` with a character it names filled in from the encounter's campaign: its
        sheet and what it carries from earlier fights. It reads the campaigns' store (and
        carries fights over first), so a caller on an event loop runs it in a thread before
        `executing`. Fields only the service fills in are refused from a client."""
        check_service_only(command)
        if not names_a_stored_character(command):
            return command
        created = self.created(encounter_id)
        campaign = created.campaign
        if campaign is None:
            raise RuleError(
                "character/no-campaign",
                "this encounter is in no campaign, so it reaches no stored character",
                allowed="the whole sheet, or an encounter created in the character's campaign",
            )
        return self.campaigns.resolve(command, encounter_id, campaign, practice=created.practice or bool(created.forked_from))  # type: ignore[arg-type]

    # -- writing -------------------------------------------------------------------------

    def create(
        self,
        ruleset: str,
        name: str,
        *,
        seed: int | None = None,
        settings: dict[str, Any] | None = None,
        actor: str = "gm",
        campaign: UUID | None = None,
        practice: bool = False,
    ) -> UUID:
        """A new encounter; in `campaign`, it adds the campaign's characters by name and
        carries its outcome to them (unless it is a `practice` fight)."""
        chosen = get_ruleset(ruleset)
        if campaign is not None:
            self.campaigns.campaign(campaign)  # refused if there is none
        elif practice:
            raise RuleError("encounter/practice", "a practice fight is one of a campaign", allowed="a campaign with practice")
        event = EncounterCreated(
            ruleset=chosen.id,
            name=name,
            seed=seed if seed is not None else secrets.randbelow(2**31),
            settings=chosen.settings(settings),
            chained=True,
            campaign=campaign,
            practice=practice,
        )
        encounter_id = uuid.uuid4()
        self._append(encounter_id, chosen.initial_state(), [event], actor)
        return encounter_id

    def execute(
        self,
        encounter_id: UUID,
        command: Command,
        *,
        actor: str = "gm",
        expected_version: int | None = None,
        command_id: str | None = None,
    ) -> Outcome:
        """Decide `command` and append its events. With `expected_version`, refuse unless the
        log is at it; without, decide again whenever another writer appended first. A repeat of
        `command_id` returns the outcome it had and appends nothing; the same id with another
        command is refused (`command-id/reused`)."""
        asked = self.asked(command, command_id)  # as sent, before a party character is filled in
        command = self.resolving(encounter_id, command, actor)
        return run_sync(
            self.executing(
                encounter_id,
                command,
                self.log.commits(),
                actor=actor,
                expected_version=expected_version,
                command_id=command_id,
                request=asked,
            )
        )

    @staticmethod
    def asked(command: Command, command_id: str | None) -> str:
        """The request hash a command sent with `command_id` is stored with ("" without an id)."""
        return request_hash("command", command=command) if command_id is not None else ""

    def executing(
        self,
        encounter_id: UUID,
        command: Command,
        commits: Commits,
        *,
        actor: str = "gm",
        expected_version: int | None = None,
        command_id: str | None = None,
        request: str | None = None,
    ) -> Coroutine[Any, Any, Outcome]:
        """`execute`, appending through `commits` (`PartitionedLog.commits`): awaited on an
        event loop with the loop's commits, or run in a thread with blocking ones. `request`
        is `asked` of the command as sent, if it was changed since (a party character filled in)."""
        return self._write(
            encounter_id,
            lambda state: decided(get_ruleset(state.ruleset), state, command, actor),
            commits,
            actor,
            expected_version,
            command_id,
            self.asked(command, command_id) if request is None else request,
        )

    async def _write(
        self,
        encounter_id: UUID,
        events_for: Callable[[EncounterState], list[Event] | Decided],
        commits: Commits,
        actor: str,
        expected_version: int | None,
        command_id: str | None,
        request: str = "",
    ) -> Outcome:
        """Every write to an existing encounter: its lock, the state, the decision (`events_for`),
        the append through `commits`, and again if another writer appended first."""
        if command_id is not None:
            check_client_id(command_id)
        async with self._locks.held(encounter_id, blocking=commits.blocking):
            # The first try decides on the cached state without asking the store whether
            # another process appended since: if one did, the append finds its seq taken and
            # we decide again on the fresh state (a refusal is only trusted once it is fresh).
            # An encounter another process wrote last time is read first instead: a refused
            # insert costs more than the read, and processes taking turns would meet one on
            # every command. The mark goes when a read finds nobody else wrote.
            state = self._cache.get(encounter_id)
            if state is not None and self._shared.get(encounter_id):
                fresher = self.state(encounter_id)
                if fresher.version == state.version:
                    self._shared.pop(encounter_id)
                state = fresher
            for _ in range(self.RETRIES):
                fresh = state is None or (expected_version is not None and expected_version != state.version)
                if state is None or fresh:
                    state = self.state(encounter_id)
                repeat = self._repeat(encounter_id, command_id, state, actor, request)
                if repeat is not None:
                    return repeat
                if expected_version is not None and expected_version != state.version:
                    raise VersionConflict(expected_version, state.version)
                try:
                    decision = events_for(state)
                except RuleError:
                    if fresh or self.state(encounter_id) is state:
                        raise
                    state = None
                    continue
                try:
                    events, after = decision if isinstance(decision, Decided) else (decision, None)
                    return await self._appending(
                        encounter_id, state, events, actor, commits, command_id, request=request, after=after
                    )
                except VersionConflict:
                    self._shared.put(encounter_id, True)
                    state = self.state(encounter_id)
                    if expected_version is not None:
                        repeat = self._repeat(encounter_id, command_id, state, actor, request)
                        if repeat is not None:
                            return repeat
                        raise
                    await commits.pause(random.uniform(0, 0.002))
            raise StoreBusy(self.RETRIES)

    def _repeat(
        self, encounter_id: UUID, command_id: str | None, state: EncounterState, actor: str, request: str
    ) -> Outcome | None:
        """The outcome `command_id` had if it is already in the log up to `state` (refused if
        it was stored with another request than `request`)."""
        if command_id is None:
            return None
        found = self._ids.find(encounter_id, command_id, state.version)
        if found is None:
            return None
        first, last, sender = found
        if sender != actor:
            raise RuleError(
                "command-id/taken", f"command id {command_id} was sent by another sender", allowed="a new id for each new command"
            )
        records = [r for r in self.log.recorded(encounter_id, gt=first - 1, lte=last) if r.command_id == command_id]
        check_same_request(command_id, records[0].request_hash, request)
        return Outcome(records, self.state(encounter_id, at=last), repeated=True)

    def _append(
        self,
        encounter_id: UUID,
        state: EncounterState,
        events: list[Event],
        actor: str,
        command_id: str | None = None,
        *,
        copied: bool = False,
        request: str = "",
    ) -> Outcome:
        """`events` after `state`, appended in this thread, outside the lock: a new encounter's first (a creation, a fork)."""
        return run_sync(
            self._appending(encounter_id, state, events, actor, self.log.commits(), command_id, copied=copied, request=request)
        )

    async def _appending(
        self,
        encounter_id: UUID,
        state: EncounterState,
        events: list[Event],
        actor: str,
        commits: Commits,
        command_id: str | None = None,
        *,
        copied: bool = False,
        request: str = "",
        after: EncounterState | None = None,
    ) -> Outcome:
        """`events` appended after `state`; `after`, the state they lead to when the rules
        folded them already as they decided (a command's: see `decided`), is not folded again."""
        if not copied and self.max_events is not None and len(events) > self.max_events:
            raise RuleError(
                "limits/events",
                f"the command would append {len(events)} events",
                allowed=f"at most {self.max_events} per command",
            )
        command_id = command_id or uuid.uuid4().hex
        at = _now()
        records = [
            Recorded(
                originator_id=encounter_id,
                originator_version=state.version + i,
                timestamp=at,
                actor=actor,
                command_id=command_id,
                event=event,
                request_hash=request if i == 1 else "",
            )
            for i, event in enumerate(events, start=1)
        ]
        records = chain.seal(self._head(encounter_id, state.version), records)
        # The state after them is worked out before they are stored, so that a snapshot due
        # now goes into the same transaction (None: they change the past, see below).
        if after is not None and state.version:
            new_state: EncounterState | None = msgspec.structs.replace(after, version=records[-1].seq)
        else:
            new_state = history.extend(state, records) if state.version else history.replay(records)
        due = new_state is not None and self._snapshot_due(state, new_state)
        try:
            await commits.append(
                records, self._snapshot_of(encounter_id, new_state, records[-1].hash) if new_state is not None and due else None
            )
        except SeqTaken:
            # Another writer appended first: our decision was made on a stale state. The
            # cached state is still one the store holds, so it is brought up to date with the
            # events after it, not reloaded: two processes writing one encounter in turns
            # meet this on nearly every command.
            actual = self.state(encounter_id).version
            raise VersionConflict(state.version, actual) from None
        if new_state is None:  # an undo or amendment: fold the whole log again
            new_state = history.replay(list(self.log.recorded(encounter_id)))
            if self._snapshot_due(state, new_state):
                await commits.append([], self._snapshot_of(encounter_id, new_state, records[-1].hash))
        self._cache.put(encounter_id, new_state)
        if records:
            self._heads.put(encounter_id, (records[-1].seq, records[-1].hash))
        if self.on_appended is not None:
            self.on_appended(encounter_id, new_state)
        elif carries_characters(new_state):
            self.campaigns.carry_over()
        return Outcome(records, new_state)

    def _head(self, encounter_id: UUID, version: int) -> str:
        """The chain hash of the event at seq `version`, which the next event follows."""
        if version == 0:
            return chain.GENESIS
        seen = self._heads.get(encounter_id)
        if seen is not None and seen[0] == version:
            return seen[1]
        for rec in self.log.recorded(encounter_id, gt=version - 1, lte=version):
            if rec.hash:
                return rec.hash
        # A log written before hashes: the chain runs through its events, worked out once.
        return chain.head_of(self.log.recorded(encounter_id, lte=version))

    @staticmethod
    def _snapshot_due(before: EncounterState, after: EncounterState) -> bool:
        return after.version // SNAPSHOT_INTERVAL > before.version // SNAPSHOT_INTERVAL

    @staticmethod
    def _snapshot_of(encounter_id: UUID, state: EncounterState, head: str) -> Snapshot:
        """The state at `state.version`, bound to `head`, the chain hash of the event there."""
        digest = chain.snapshot_digest(encounter_id, state.version, head, state)
        return Snapshot(
            originator_id=encounter_id, originator_version=state.version, timestamp=_now(), state=state, head=head, digest=digest
        )

    # -- reading -------------------------------------------------------------------------

    def read_command(self, encounter_id: UUID, data: bytes | str | dict[str, Any]) -> Command:
        """A command sent as JSON, read as the encounter's ruleset reads it (two rulesets may
        mean different commands by one `type`: see combat.app.catalog)."""
        cached = self._cache.get(encounter_id)  # a ruleset never changes: any cached state names it
        ruleset = cached.ruleset if cached is not None else self.state(encounter_id).ruleset
        return decode_command(data, ruleset)

    def state(self, encounter_id: UUID, *, at: int | None = None) -> EncounterState:
        """The state now (cached, brought up to date from the store), or as it was at seq `at`."""
        if at is not None:
            return self._load(encounter_id, at)
        cached = self._cache.get(encounter_id)
        if cached is None:
            state = self._load(encounter_id, None)
        else:
            newer = self._checked(encounter_id, self.log.recorded(encounter_id, gt=cached.version))
            state = (history.extend(cached, newer) or self._load(encounter_id, None)) if newer else cached
        self._cache.put(encounter_id, state)
        return state

    def _checked(self, encounter_id: UUID, records: Iterable[Recorded]) -> list[Recorded]:
        """Records read from the store, each checked against the chain hash before it (a
        cheap check: only the records read anyway); remembers the last hash for the next append."""
        records = list(records)
        if not records:
            return records
        first = records[0].seq
        seen = self._heads.get(encounter_id)
        previous = chain.GENESIS if first == 1 else seen[1] if seen is not None and seen[0] == first - 1 else None
        check = chain.LinkCheck(previous, unhashed_through=self.log.unhashed_through(encounter_id))
        for rec in records:
            check(rec)
        if check.previous:
            self._heads.put(encounter_id, (records[-1].seq, check.previous))
        return records

    def _load(self, encounter_id: UUID, at: int | None) -> EncounterState:
        with collector.paused():  # from the read to the fold (see combat.kernel.collector)
            return self._loaded(encounter_id, at)

    def _loaded(self, encounter_id: UUID, at: int | None) -> EncounterState:
        snapshot = self.log.latest_snapshot(encounter_id, lte=at)
        if snapshot is not None:
            try:
                state = self._from_snapshot(encounter_id, snapshot, at)
            except chain.MissingHash:
                # A row around the snapshot lost its hash: whether the log was chained, or
                # listed as written before hashes, is known from seq 1, so the whole log is
                # read and the refusal names the first row without one.
                state = None
            if state is not None:
                return state
        # No snapshot, one the log does not bear out, or a past changed after it was taken.
        records = self._checked(encounter_id, self.log.recorded(encounter_id, lte=at))
        if not records:
            raise UnknownEncounter(encounter_id)
        return history.replay(records)

    def _from_snapshot(self, encounter_id: UUID, snapshot: Snapshot, at: int | None) -> EncounterState | None:
        """The state from `snapshot` and the events after it; None when the snapshot is not
        to be used (see `snapshot_problem`) or the past changed after it was taken."""
        seq = snapshot.originator_version
        # The snapshot's own event, checked against the one before it.
        around = self._checked(encounter_id, self.log.recorded(encounter_id, gt=max(seq - 2, 0), lte=seq))
        problem = snapshot_problem(snapshot, around[-1] if around else None)
        if problem is not None:
            if snapshot.digest:  # one written before snapshots were bound to the log is passed over quietly
                _passed_over(encounter_id, seq, problem)
            return None
        self._heads.put(encounter_id, (seq, snapshot.head))
        records = self._checked(encounter_id, self.log.recorded(encounter_id, gt=seq, lte=at))
        return history.extend(snapshot.state, records)

    def records(self, encounter_id: UUID, *, after: int = 0, upto: int | None = None) -> Iterator[Recorded]:
        found = False
        check = chain.LinkCheck(chain.GENESIS if not after else None, unhashed_through=self.log.unhashed_through(encounter_id))
        for rec in self.log.recorded(encounter_id, gt=after or None, lte=upto):
            found = True
            yield check(rec)
        if not found and after == 0:
            raise UnknownEncounter(encounter_id)

    def verify(self, encounter_id: UUID, *, head: str | None = None) -> chain.Report:
        """The full check of an encounter's stored log: every hash and every roll, and the
        latest snapshot, which must be bound to the log and equal its fold up to its seq.
        The rows are read as stored: an event whose ruleset is not installed is checked
        without its type (combat.app.undecoded), and the snapshot, whose state only that
        ruleset reads, is left unchecked."""
        from combat.app.undecoded import known_types, read_row

        known = known_types()
        entries = [read_row(row, encounter_id, known) for row in self.log.stored(encounter_id)]
        if not entries:
            raise UnknownEncounter(encounter_id)
        report = chain.verify(entries, head=head, unhashed_through=self.log.unhashed_through(encounter_id))
        if report.broken is not None or report.undecoded or report.ruleset not in RULESETS:
            return report
        records = [e for e in entries if isinstance(e, Recorded)]
        snapshot = self.log.latest_snapshot(encounter_id)
        if snapshot is None:
            return report
        seq = snapshot.originator_version
        at = records[seq - 1] if 0 < seq <= len(records) else None
        problem = snapshot_problem(snapshot, at and msgspec.structs.replace(at, hash=chain.head_of(records[:seq])))
        if problem is None and history.replay(records[:seq]) != snapshot.state:
            problem = "its state is not the fold of the log up to its seq (its state was changed and its digest worked out again)"
        if problem is None or not snapshot.digest:
            return report
        return dataclasses.replace(
            report, snapshots=(chain.Break(seq, f"the snapshot there {problem}; loads pass it over and fold the log"),)
        )


def snapshot_problem(snapshot: Snapshot, at: Recorded | None) -> str | None:
    """Why `snapshot` is not to be used, given the stored event at its seq; None if it is."""
    seq = snapshot.originator_version
    if not snapshot.digest:
        return "was written before snapshots were bound to the log"
    if chain.snapshot_digest(snapshot.originator_id, seq, snapshot.head, snapshot.state) != snapshot.digest:
        return "does not match its digest (its state or head was changed)"
    if at is None or at.seq != seq:
        return f"is of seq {seq}, which the log does not hold"
    if at.hash != snapshot.head:
        return f"was taken at a head that is not the hash of the event at seq {seq}"
    return None
