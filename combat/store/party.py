"""The campaigns' store: each campaign's and each character's log, in its own table beside
the encounters', and the position up to which the encounters' logs have been carried into it.

An eventsourcing application named `party` sharing the encounters' connection pool; its
records are one msgspec struct type (the use case's, `combat.campaigns.records.PartyRecord`),
stored whole under one topic. Its recorder is eventsourcing's *process* recorder: records
are inserted together with a `Tracking` row (the partition followed and the notification id
reached) in one transaction, so what a follower writes and how far it has read commit or
fail together (`follow`), and a follower killed between the two never applies an event twice.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Sequence
from typing import Any, Generic, Protocol, TypeVar
from uuid import UUID

import msgspec
from eventsourcing.persistence import Mapper, ProcessRecorder, StoredEvent, Tracking
from eventsourcing.sqlite import SQLiteFactory, SQLiteProcessRecorder

from combat.kernel.records import Recorded
from combat.store import SeqTaken, UnreadableRow
from combat.store.log import TOPICS, EventLog, SharedPool
from combat.store.prehash import census
from combat.store.schema import create_process_tables

__all__ = ["Followed", "PartyLog", "TABLE", "TOPIC", "follow", "behind", "start_following", "tracking_name"]

TABLE = "party_events"
TOPIC = "combat.party:Record"
R = TypeVar("R")


class _Mapper(Mapper[UUID], Generic[R]):
    def __init__(self, record_type: type[R], **kwargs: Any):
        super().__init__(**kwargs)
        self._decoder = msgspec.json.Decoder(record_type)
        self._encoder = msgspec.json.Encoder()

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=TOPIC,
            state=self._encoder.encode(domain_event),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        try:
            return self._decoder.decode(stored_event.state)
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise UnreadableRow(stored_event.originator_id, stored_event.originator_version, str(exc)) from None


class PartyLog(SharedPool, Generic[R]):
    """Every campaign's and character's log: `records(id)`, `append(records, tracking)`,
    `originators()`, and `position(leader)`, how far a leader's log has been carried here."""

    name = "party"

    def __init__(self, env: Any, record_type: type[R], *, datastore: Any = None) -> None:
        self._record_type = record_type
        super().__init__(env, datastore=datastore)
        # Which logs were written before the party's records were hashed, and how many of
        # their first records carry no hash: the store's record, taken once (combat.store.prehash).
        recorder: Any = self.recorder
        self.prehash = census(recorder.datastore, recorder.events_table_name)

    def unhashed_through(self, log_id: UUID) -> int:
        """How many of a log's first records may carry no hash (0 for a log begun by this release)."""
        return self.prehash.get(log_id, 0)

    def construct_mapper(self) -> Mapper[UUID]:
        return _Mapper(self._record_type, transcoder=self.construct_transcoder())

    def construct_recorder(self) -> ProcessRecorder:
        # eventsourcing's SQLite factory names every application's table `stored_events`
        # (its PostgreSQL factory names it after the application: `party_events`); the
        # party's rows must not mingle with the encounters', which listing and the streams
        # read whole.
        if isinstance(self.factory, SQLiteFactory):
            recorder: ProcessRecorder = SQLiteProcessRecorder(self.factory.datastore, events_table_name=TABLE)
        else:
            recorder = self.factory.process_recorder()  # tables not made here: SharedPool turns that off
        if self._creates_tables:
            create_process_tables(recorder, f"the party's tables {TABLE} and its tracking")
        return recorder

    @property
    def _process_recorder(self) -> ProcessRecorder:
        assert isinstance(self.recorder, ProcessRecorder)
        return self.recorder

    def records(self, originator_id: UUID) -> list[R]:
        """One log, in version order; UnreadableRow if a row of it does not decode."""
        return list(self.events.get(originator_id))  # type: ignore[arg-type]

    def append(self, records: Sequence[Any], *, tracking: tuple[str, int] | None = None) -> None:
        """Records (and, with `tracking`, the position a follower reached) in one
        transaction; SeqTaken if a version is taken or the position was already recorded
        (someone else wrote first)."""
        self.put(records, tracking=Tracking(*tracking) if tracking else None)

    def originators(self) -> list[UUID]:
        """Every log's id, in the order they were first stored."""
        ids: dict[UUID, None] = {}
        start = 1
        while True:
            page = self.recorder.select_notifications(start=start, limit=500)
            for n in page:
                ids[UUID(str(n.originator_id))] = None
            if len(page) < 500:
                return list(ids)
            start = page[-1].id + 1

    def position(self, leader: str) -> int:
        """The last notification id of `leader` carried here (0: none yet)."""
        return self._process_recorder.max_tracking_id(leader) or 0

    def started(self, leader: str) -> bool:
        """Has a position in `leader` been recorded (`start_following`)?"""
        return self._process_recorder.max_tracking_id(leader) is not None


def tracking_name(follower: str, part: EventLog) -> str:
    """The name a follower's position in one partition is tracked by. SQLite keeps every
    application's positions in one table keyed by this name, so it names the follower too."""
    return f"{follower}<-{part.name}"


class Followed(Protocol):
    """Where a follower writes: its position in a partition, and what it makes of a batch
    appended with the position reached, in one transaction (SeqTaken if someone was first)."""

    def position(self, leader: str) -> int: ...
    def append(self, out: Any, *, tracking: tuple[str, int]) -> None: ...


def follow(
    parts: Sequence[EventLog],
    party: Followed,
    follower: str,
    step: Callable[[list[Recorded]], Any],
    *,
    batch: int = 500,
    stopping: Callable[[], bool] | None = None,
) -> int:
    """Carry every partition's new records into `party` (the campaigns' log, or another
    follower's tables: combat.store.stats_tables): `step` turns a batch of records (in
    notification order) into the records to append, appended with the batch's last position
    in one transaction. Another process that carried the same batch first wins; this one
    reads on from where that one stopped. `stopping` is asked before each batch (a follower
    told to stop leaves a long backlog at the last position committed). Returns how many
    records were read."""
    read = 0
    for part in parts:
        name = tracking_name(follower, part)
        lost = 0
        while stopping is None or not stopping():
            start = party.position(name)
            page = part.recorder.select_notifications(
                start=start, limit=batch, topics=[TOPICS[Recorded]], inclusive_of_start=False
            )
            if not page:
                break
            records = part.decoded(page, passing_over_uninstalled=True)
            try:
                party.append(step(records), tracking=(name, page[-1].id))
            except SeqTaken:
                lost += 1  # carried by another process (or a character changed meanwhile): read on from there
                if lost > 100:
                    raise
                continue
            read += len(page)
            if len(page) < batch:
                break
    return read


def behind(parts: Sequence[EventLog], party: Followed, follower: str) -> bool:
    """Has any partition a record the follower has not carried yet?"""
    return any((part.recorder.max_notification_id() or 0) > party.position(tracking_name(follower, part)) for part in parts)


def start_following(parts: Sequence[EventLog], party: PartyLog[R], follower: str, settle: Callable[[], list[R]]) -> None:
    """Record where a follower starts, once per store, before anything else is written to
    the party: at 0 in a new store; in a store whose fights were carried the old way
    (read when next needed, before this follower existed), at each partition's current
    head, with what `settle` makes of the fights still to be read, in the same transaction."""
    names = [tracking_name(follower, part) for part in parts]
    if all(party.started(name) for name in names):
        return
    older = bool(party.originators())
    for i, (part, name) in enumerate(zip(parts, names, strict=True)):
        if party.started(name):
            continue
        head = (part.recorder.max_notification_id() or 0) if older else 0
        with contextlib.suppress(SeqTaken):  # another process started it first
            party.append(settle() if older and i == 0 else [], tracking=(name, head))
