"""The append-only log of one partition: eventsourcing with a msgspec mapper.

Each stored record is a `Recorded` envelope (combat.kernel.records: encounter id, seq, time,
actor, command id, and a hash chained to the previous event's) around one domain event,
stored by `MsgspecMapper` in eventsourcing's tables. `EventLog` is the eventsourcing
application of one partition (combat.store.partitions) and reads and writes through
eventsourcing's event store: PostgreSQL, and SQLite in memory. An SQLite file's log is its
subclass in combat.store.sqlite.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Any, Generic, TypeVar, cast
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import (
    ApplicationRecorder,
    EventStore,
    InfrastructureFactory,
    IntegrityError,
    InterfaceError,
    Mapper,
    OperationalError,
    StoredEvent,
)
from eventsourcing.sqlite import SQLiteFactory
from eventsourcing.utils import Environment, get_topic

from combat.kernel import collector
from combat.kernel.errors import RuleError
from combat.kernel.events import EncounterCreated
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState
from combat.rulesets import RULESETS, RulesetNotInstalled, installed_ruleset
from combat.store import SeqTaken, UnreadableRow
from combat.store.prehash import census
from combat.store.schema import create_recorder_tables
from combat.store.unreadable import unreadable

__all__ = [
    "UNAVAILABLE",
    "SharedPool",
    "Recorded",
    "Snapshot",
    "TOPICS",
    "STALE_SNAPSHOT_TOPICS",
    "MsgspecMapper",
    "EventLog",
    "RecordDecoder",
    "Deferred",
    "decode_record",
]


S = TypeVar("S")


class Snapshot(msgspec.Struct, Generic[S], frozen=True, kw_only=True):
    """The folded state at `originator_version`, so long fights load without a full replay."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    state: EncounterState[S]
    # The chain hash of the event at `originator_version`, and the state bound to it
    # (combat.app.chain.snapshot_digest). A snapshot without them (written before) or whose
    # digest or head the log does not bear out is passed over: the log is folded instead.
    head: str = ""
    digest: str = ""


class _Ruleset(msgspec.Struct):
    ruleset: str


class _SnapshotHead(msgspec.Struct):
    """Enough of a stored snapshot to know which ruleset's state type it holds."""

    state: _Ruleset


# The topics stored with each row name the record type as it was first stored, so stores
# written before the classes moved still read (a topic is data, not an import path here).
# Snapshots get a new topic whenever the state's shape changes so that an old one would be
# misread (a field it holds no longer read): when each ruleset's state became one typed field
# ("/2"), when what a 5e fight holds open moved from the shared fields into the 5e slice ("/3"),
# when Dodge, Disengage and a readied action left the combatant for it ("/4", never released)
# and the concentration saves owed followed them ("/5").
# The older ones are passed over (the log is folded instead), never misread.
TOPICS: dict[type, str] = {Recorded: "combat.store:Recorded", Snapshot: "combat.store:Snapshot/5"}
STALE_SNAPSHOT_TOPICS = frozenset(
    {"combat.store:Snapshot", "combat.store:Snapshot/2", "combat.store:Snapshot/3", "combat.store:Snapshot/4"}
)


# The decoder of every event type loaded now (combat.app.catalog.record_decoder): asked for
# at each read, so an event type registered or loaded later (a plug-in ruleset) reads back too.
RecordDecoder = Callable[[], "msgspec.json.Decoder[Recorded]"]


class MsgspecMapper(Mapper[UUID]):
    """eventsourcing's default mapper reads `vars(event)`, empty for Structs: encode them whole."""

    def __init__(self, records: RecordDecoder, **kwargs: Any):
        super().__init__(**kwargs)
        self.records = records

    _heads = msgspec.json.Decoder(_SnapshotHead)
    _snapshots: dict[type, msgspec.json.Decoder[Snapshot[Any]]] = {}
    _encoder = msgspec.json.Encoder()

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=TOPICS[type(domain_event)],
            state=self._encoder.encode(domain_event),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        """The record or snapshot stored; None for a snapshot of an older shape."""
        if stored_event.topic == TOPICS[Recorded]:
            return decode_record(self.records(), stored_event.state, stored_event.originator_id)
        if stored_event.topic in STALE_SNAPSHOT_TOPICS:
            return None
        try:
            state_type = installed_ruleset(self._heads.decode(stored_event.state).state.ruleset).state_type
            decoder = self._snapshots.get(state_type)
            if decoder is None:
                decoder = self._snapshots[state_type] = msgspec.json.Decoder(Snapshot[state_type])  # type: ignore[valid-type]
            return decoder.decode(stored_event.state)
        except RulesetNotInstalled:
            raise  # the log it shortcuts is unreadable here too: said once, by its ruleset's id
        except (msgspec.ValidationError, msgspec.DecodeError) as exc:
            raise UnreadableSnapshot(stored_event.originator_version, str(exc)) from None


class UnreadableSnapshot(Exception):
    """A stored snapshot that does not decode (edited out of shape): passed over, never a
    refusal, since the log it shortcuts is the truth (`EventLog.latest_snapshot`)."""

    def __init__(self, seq: int, problem: str):
        super().__init__(f"the snapshot at seq {seq} does not decode: {problem}")
        self.seq = seq
        self.problem = problem


def decode_record(decoder: msgspec.json.Decoder[Recorded], state: bytes, encounter_id: object) -> Recorded:
    """A stored row as a record; UnreadableRow for one edited out of shape (`"hash": null`)."""
    try:
        return decoder.decode(state)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise unreadable(state, encounter_id, exc) from None


R = TypeVar("R")

# What the store's libraries raise when the database cannot be reached or is locked past its
# timeout: the service answers them with 503 store/unavailable, never a 500.
UNAVAILABLE: tuple[type[Exception], ...] = (OperationalError, InterfaceError, sqlite3.OperationalError)


class Deferred(Iterator[Recorded]):
    """Records read from the store when first iterated, not when asked for. A reader that
    folds them (`history.replay`) holds the collector off while it does: reading inside that
    pause keeps the collector from walking every record just read (each holds its encounter's
    UUID, an object the collector tracks) on its way from the read to the fold."""

    __slots__ = ("_read", "_records")

    def __init__(self, read: Callable[[], Sequence[Recorded]]):
        self._read = read
        self._records: Iterator[Recorded] | None = None

    def __iter__(self) -> Iterator[Recorded]:
        if self._records is None:
            with collector.paused():
                self._records = iter(self._read())
        return self._records

    def __next__(self) -> Recorded:
        return next(iter(self))


class SharedPool(Application[UUID]):
    """An eventsourcing application that may use another's connection pool (`datastore`):
    the partitions of one database and the party's log share the first partition's pool.

    Its tables are created as it is built, by `create_tables` (combat.store.schema: one
    creator at a time per schema, in one transaction on one connection), not by
    eventsourcing's factory (several transactions, a type created apart, no lock). A pool
    lent to it is never closed by it: not by `close`, and not when an application that
    failed half-way through being built is collected (eventsourcing's `Application.__del__`
    closes its factory's pool: a party whose tables could not be made closed the pool of
    every encounter, `/health` included, until a restart)."""

    def __init__(self, env: Any = None, *, datastore: Any = None) -> None:
        self._shared_datastore = datastore
        self._creates_tables = True
        super().__init__(env)

    def construct_factory(self, env: Environment) -> InfrastructureFactory:
        factory = super().construct_factory(env)
        if self._shared_datastore is not None:
            factory.datastore = self._shared_datastore  # type: ignore[attr-defined]  # its own pool was never opened
        datastore = getattr(factory, "datastore", None)
        if getattr(datastore, "enable_db_functions", False):
            # eventsourcing's insert function is named for the id type alone, its body
            # inserting into one application's table: shared by every application of the
            # schema, it would take each one's inserts to whichever created it last.
            raise RuleError(
                "store/unsupported-setting",
                "POSTGRES_ENABLE_DB_FUNCTIONS is set, but eventsourcing's insert function is one per schema "
                "and this store keeps several applications' tables in it",
                allowed="unset POSTGRES_ENABLE_DB_FUNCTIONS",
            )
        # CREATE_TABLE=no still means what eventsourcing documents: nothing is created.
        self._creates_tables = factory.env_create_table()  # type: ignore[attr-defined]
        factory.env_create_table = lambda: False  # type: ignore[attr-defined]  # made by create_tables instead
        return factory

    def put(self, records: Sequence[Any], **options: Any) -> None:
        """The one way records reach eventsourcing's event store (an encounter's, a
        follower's with its `tracking`): in one transaction; SeqTaken if a version is taken,
        or a follower's position was recorded already (someone else wrote first)."""
        try:
            self.events.put(records, **options)
        except IntegrityError:
            first = records[0] if records else None
            raise SeqTaken(getattr(first, "originator_id", None), getattr(first, "originator_version", 0)) from None

    def create_tables(self, recorder: R) -> R:
        """The recorder, its tables created (unless CREATE_TABLE=no) one creator at a time:
        the one way this store's applications make eventsourcing's tables; SchemaError
        (`store/schema`) naming the table if that fails, the shared pool left open."""
        if self._creates_tables:
            create_recorder_tables(recorder, f"the {self.name} application's table {_table_of(recorder)}")
        return recorder

    def construct_recorder(self) -> ApplicationRecorder:
        return self.create_tables(super().construct_recorder())

    def construct_snapshot_store(self) -> EventStore[UUID]:
        store = super().construct_snapshot_store()
        self.create_tables(store.recorder)
        return store

    def close(self) -> None:
        if self._shared_datastore is None:
            super().close()
        else:
            self.closing.set()  # the pool is its owner's to close


def _table_of(recorder: object) -> str:
    return str(getattr(recorder, "events_table_name", type(recorder).__name__))


class EventLog(SharedPool):
    """One partition's log, read and written through eventsourcing's event store (PostgreSQL,
    SQLite in memory); an SQLite file's is `combat.store.sqlite.SQLiteFileLog`."""

    name = "combat"
    is_snapshotting_enabled = True

    def __init__(self, env: Any = None, *, records: RecordDecoder, datastore: Any = None) -> None:
        self._records = records
        super().__init__(env, datastore=datastore)
        recorder: Any = self.recorder
        # Which logs of this partition were written before hashes (combat.store.prehash).
        self.prehash = census(recorder.datastore, recorder.events_table_name)

    def unhashed_through(self, encounter_id: UUID) -> int:
        """The last seq of the encounter's rows written before hashes existed, as the store
        listed them when this release first opened it (0: none). Only those rows may lack a hash."""
        return self.prehash.get(encounter_id, 0)

    def construct_mapper(self) -> Mapper[UUID]:
        # eventsourcing would compress or encrypt through its mapper; this store's mapper does
        # neither, and a setting that silently did nothing would leave a GM believing the log
        # encrypted. Refused, saying so.
        for name in ("COMPRESSOR_TOPIC", "CIPHER_TOPIC"):
            if self.env.get(name):
                raise RuleError(
                    "store/unsupported-setting",
                    f"{name} is set, but this store neither compresses nor encrypts its log",
                    allowed=f"unset {name} (encrypt the disk or the database connection instead)",
                )
        return MsgspecMapper(self._records, transcoder=self.construct_transcoder())

    def construct_recorder(self) -> ApplicationRecorder:
        if isinstance(self.factory, SQLiteFactory):
            from combat.store.sqlite_recorder import SQLiteLogRecorder

            self.factory.application_recorder_class = SQLiteLogRecorder  # unless the env names another
            return super().construct_recorder()
        if type(self.factory).__module__ == "eventsourcing.postgres":
            from combat.store.postgres import PostgresLogRecorder  # psycopg is an optional extra

            # Named by topic: eventsourcing's PostgreSQL factory reads the recorder class from
            # its own class, not the instance (setting it as SQLite's is set above did nothing).
            topic_key = self.factory.APPLICATION_RECORDER_TOPIC
            if not self.factory.env.get(topic_key):
                self.factory.env[topic_key] = get_topic(PostgresLogRecorder)
        return super().construct_recorder()

    def recorded(self, encounter_id: UUID, *, gt: int | None = None, lte: int | None = None) -> Iterator[Recorded]:
        """The encounter's records in seq order, after `gt` and up to `lte`, read when first
        iterated (see `Deferred`)."""
        return Deferred(lambda: self._widening(encounter_id, lambda: self._read(encounter_id, gt, lte)))

    def _read(self, encounter_id: UUID, gt: int | None, lte: int | None) -> list[Recorded]:
        return cast(list[Recorded], list(self.events.get(encounter_id, gt=gt, lte=lte)))

    def _widening(self, encounter_id: UUID, read: Callable[[], list[Recorded]]) -> list[Recorded]:
        """What `read` reads. A ruleset loads when first needed (combat.rulesets), so a row
        that does not decode may hold an event of one not loaded yet: the encounter's own
        ruleset is loaded (its first record names it) and the rows read again, then every
        ruleset; only a row that none of them reads is unreadable. If the encounter's ruleset
        is not installed, that is what is said (RulesetNotInstalled), never an unreadable row:
        nothing of the log was changed."""
        named: list[str] = []
        loads = iter((lambda: self._load_ruleset_of(encounter_id, named), RULESETS.load_all))
        while True:
            try:
                return read()
            except UnreadableRow:
                before = RULESETS.version
                for load in loads:
                    load()
                    if RULESETS.version != before:
                        break
                else:
                    if named and named[0] not in RULESETS:
                        raise RulesetNotInstalled(named[0], encounter_id) from None
                    raise

    def stored(self, encounter_id: UUID, *, desc: bool = False, limit: int | None = None) -> list[bytes]:
        """The encounter's records as stored, in seq order (`desc`: newest first), not
        decoded: what is read of an encounter whose ruleset is not installed (its list entry,
        `combat verify`), through eventsourcing's own query."""
        rows = self.recorder.select_events(encounter_id, desc=desc, limit=limit)
        return [row.state for row in rows if row.topic == TOPICS[Recorded]]

    def decoded(self, notifications: Sequence[Any], *, passing_over_uninstalled: bool = False) -> list[Recorded]:
        """Rows of the notification log as records (a follower's batch), each read as
        `recorded` reads it: a ruleset not loaded yet is loaded for a row that needs it.
        `passing_over_uninstalled`: the rows of an encounter whose ruleset is not installed are
        left out, with a warning, rather than refused (a follower reads on past a plug-in's
        fights: they carry no party's characters, and `combat stats rebuild` counts them once
        the plug-in is installed again)."""
        decode = self.mapper.to_domain_event
        try:
            return [cast(Recorded, decode(n)) for n in notifications]  # the batch at once: the usual case
        except UnreadableRow:
            pass

        def one(n: Any) -> list[Recorded]:
            encounter_id = UUID(str(n.originator_id))
            try:
                return self._widening(encounter_id, lambda: [cast(Recorded, decode(n))])
            except RulesetNotInstalled as missing:
                if not passing_over_uninstalled:
                    raise
                # structlog imported here: the CLI's start would pay for it (combat.app.application).
                import structlog

                structlog.get_logger("combat.store").warning(
                    "row passed over", encounter=str(encounter_id), seq=n.originator_version, problem=str(missing)
                )
                return []

        return [rec for n in notifications for rec in one(n)]

    def _load_ruleset_of(self, encounter_id: UUID, named: list[str]) -> None:
        """Load the ruleset the encounter's first record names, and add its id to `named`."""
        try:
            first = self._read(encounter_id, None, 1)
            if first and isinstance(first[0].event, EncounterCreated):
                named.append(first[0].event.ruleset)
                installed_ruleset(first[0].event.ruleset)
        except RuleError:  # the first row unreadable too (UnreadableRow), or its ruleset not installed
            pass

    def latest_snapshot(self, encounter_id: UUID, *, lte: int | None = None) -> Snapshot | None:
        """The newest snapshot up to seq `lte`; None if there is none or it is of an older
        shape. One that does not decode is passed over with a warning, for the one before it."""
        if self.snapshots is None:
            return None
        while lte is None or lte > 0:
            try:
                for snap in self.snapshots.get(encounter_id, desc=True, limit=1, lte=lte):
                    return cast("Snapshot | None", snap)
                return None
            except UnreadableSnapshot as bad:
                # structlog imported here: the CLI's start would pay for it (combat.app.application).
                import structlog

                structlog.get_logger("combat.store").warning(
                    "snapshot passed over", encounter=str(encounter_id), seq=bad.seq, problem=f"does not decode: {bad.problem}"
                )
                lte = bad.seq - 1
        return None

    def append(self, records: Sequence[Recorded], snapshot: Snapshot | None = None) -> None:
        """Store an encounter's new records, then the snapshot due after them; SeqTaken if a
        seq is taken. A snapshot is only a shortcut: one lost between the two is not missed."""
        if records:
            self.put(records)
        if snapshot is not None and self.snapshots is not None:
            self.snapshots.put([snapshot])
