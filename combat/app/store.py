"""The append-only log on disk: eventsourcing with a msgspec mapper.

Each stored record is a `Recorded` envelope (combat.kernel.records: encounter id, seq, time,
actor, command id, and a hash chained to the previous event's) around one domain event. The
default store is SQLite in a file; eventsourcing's
PERSISTENCE_MODULE / POSTGRES_* settings select PostgreSQL instead, where the store is split
by encounter into several `EventLog`s (combat.app.partitions). On an SQLite file the rows
eventsourcing would write are written through one plain connection that commits several
encounters' appends together (combat.app.sqlite_writer), and an encounter's log is read back
with the recorder's own query, each row decoded straight into a `Recorded`
(`SQLiteLogRecorder.select_records`), which a long replay needs; elsewhere eventsourcing
writes and reads every row.
"""

from __future__ import annotations

import functools
import os
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, Generic, TypeVar, cast
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.utils import Environment, get_topic
from eventsourcing.persistence import ApplicationRecorder, EventStore, InfrastructureFactory, IntegrityError, InternalError, Mapper, ProgrammingError, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteCursor, SQLiteFactory

from combat.app import chain, collector
from combat.app.catalog import record_decoder
from combat.app.sqlite_writer import GroupWriter, Row
from combat.app.paths import DB_ENV, DEFAULT_DB
from combat.kernel.errors import RuleError
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState
from combat.rulesets import get_ruleset

__all__ = ["Recorded", "Snapshot", "TOPICS", "STALE_SNAPSHOT_TOPICS", "MsgspecMapper", "EventLog", "DEFAULT_DB", "DB_ENV", "store_env"]



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
# Snapshots got a new topic when each ruleset's state became one typed field: the older
# ones hold the old shape and are passed over (the log is folded instead), never misread.
TOPICS: dict[type, str] = {Recorded: "combat.store:Recorded", Snapshot: "combat.store:Snapshot/2"}
STALE_SNAPSHOT_TOPICS = frozenset({"combat.store:Snapshot"})


class MsgspecMapper(Mapper[UUID]):
    """eventsourcing's default mapper reads `vars(event)`, empty for Structs: encode them whole."""

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
            return decode_record(stored_event.state, stored_event.originator_id)
        if stored_event.topic in STALE_SNAPSHOT_TOPICS:
            return None
        state_type = get_ruleset(self._heads.decode(stored_event.state).state.ruleset).state_type
        decoder = self._snapshots.get(state_type)
        if decoder is None:
            decoder = self._snapshots[state_type] = msgspec.json.Decoder(Snapshot[state_type])  # type: ignore[valid-type]
        return decoder.decode(stored_event.state)


class _Seq(msgspec.Struct):
    originator_version: int | None = None


def unreadable(state: bytes, encounter_id: object, exc: Exception) -> chain.UnreadableRow:
    """The error for a stored row that does not decode as a record, naming its seq if it can."""
    try:
        seq = msgspec.json.decode(state, type=_Seq).originator_version
    except (msgspec.ValidationError, msgspec.DecodeError):
        seq = None
    return chain.UnreadableRow(encounter_id, seq, str(exc))


def decode_record(state: bytes, encounter_id: object) -> Recorded:
    """A stored row as a record; UnreadableRow for one edited out of shape (`"hash": null`)."""
    try:
        return record_decoder().decode(state)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise unreadable(state, encounter_id, exc) from None


_uuid = functools.lru_cache(maxsize=4096)(UUID)
T = TypeVar("T")


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


def _creating_tables(construct: Callable[[], T], attempts: int = 10) -> T:
    """Two processes starting at once on PostgreSQL race to create the same tables and
    function ("tuple concurrently updated", or "relation ... already exists" when both passed
    IF NOT EXISTS before either committed); the loser finds them there on a later try."""
    for attempt in range(1, attempts + 1):
        try:
            return construct()
        except (InternalError, IntegrityError, ProgrammingError):
            if attempt == attempts:
                raise
            time.sleep(0.05 * attempt)
    raise AssertionError("unreachable")


class SQLiteLogRecorder(SQLiteApplicationRecorder):
    """eventsourcing's SQLite recorder, with a snapshot written in the transaction of the
    events it follows (as its process recorder writes tracking records): a snapshot then costs
    a row, not a second commit. Each row read names its encounter's id: it is parsed once."""

    snapshots_table: str | None = None

    def select_records(self, originator_id: UUID, decode: Callable[[bytes], Recorded], topic: str, *,
                       gt: int | None = None, lte: int | None = None) -> list[Recorded]:
        """The rows `select_events` reads, each decoded straight from its column by `decode`.

        eventsourcing's path makes a `sqlite3.Row` and a `StoredEvent` per row, then maps
        each: over a long log that is most of the read. This is the same query in the same
        kind of read transaction, with the rows as plain tuples. A row of another topic than
        the records' (none is ever written) reads as NULL, refused rather than misread."""
        statement = f"SELECT CASE topic WHEN ? THEN state END FROM {self.events_table_name} WHERE originator_id=? "
        params: list[Any] = [topic, originator_id.hex]
        if gt is not None:
            statement += "AND originator_version>? "
            params.append(gt)
        if lte is not None:
            statement += "AND originator_version<=? "
            params.append(lte)
        statement += "ORDER BY originator_version"
        with self.datastore.transaction(commit=False) as c:
            rows = c.sqlite_cursor
            rows.row_factory = None
            rows.execute(statement, params)
            records = []
            for (state,) in rows:
                try:
                    records.append(decode(state))
                except TypeError:  # msgspec's word for a NULL where bytes were expected
                    raise ValueError(f"encounter {originator_id}: a stored event whose topic is not {topic!r}") from None
                except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                    raise unreadable(state, originator_id, exc) from None
            return records

    def _insert_events(self, c: SQLiteCursor, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        ids = super()._insert_events(c, stored_events, **kwargs)
        snapshot: StoredEvent | None = kwargs.get("snapshot")
        if snapshot is not None and self.snapshots_table is not None:
            # A snapshot is only ever a shortcut: one already there for that seq never fails the append.
            c.execute(f"INSERT OR IGNORE INTO {self.snapshots_table} VALUES (?,?,?,?)",
                      (UUID(str(snapshot.originator_id)).hex, snapshot.originator_version, snapshot.topic, snapshot.state))
        return ids

    def convert_originator_id(self, originator_id: str) -> UUID | str:
        return _uuid(originator_id) if self.datastore.originator_id_type == "uuid" else originator_id


class EventLog(Application[UUID]):
    name = "combat"
    is_snapshotting_enabled = True

    def __init__(self, env: Any = None, *, datastore: Any = None) -> None:
        # A partition of a partitioned store (combat.app.partitions) shares the first
        # partition's connection pool: one database, one pool, however many partitions.
        self._shared_datastore = datastore
        super().__init__(env)
        if isinstance(self.recorder, SQLiteLogRecorder) and self.snapshots is not None:
            self.recorder.snapshots_table = self.snapshots.recorder.events_table_name  # type: ignore[attr-defined]
        self._writer: GroupWriter | None = None
        datastore = getattr(self.recorder, "datastore", None)
        if self._reads_directly and datastore is not None and not datastore.pool.is_sqlite_memory_mode:
            recorder = cast(SQLiteLogRecorder, self.recorder)
            self._writer = GroupWriter(datastore.pool.db_name, recorder.events_table_name, recorder.snapshots_table,
                                       datastore.pool.lock_timeout or 5)

    def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
        super().close()

    def construct_factory(self, env: Environment) -> InfrastructureFactory:
        factory = super().construct_factory(env)
        if self._shared_datastore is not None:
            factory.datastore = self._shared_datastore  # type: ignore[attr-defined]  # its own pool was never opened
        return factory

    def construct_mapper(self) -> Mapper[UUID]:
        # eventsourcing would compress or encrypt through its mapper; this store's mapper does
        # neither, and a setting that silently did nothing would leave a GM believing the log
        # encrypted. Refused, saying so.
        for name in ("COMPRESSOR_TOPIC", "CIPHER_TOPIC"):
            if self.env.get(name):
                raise RuleError("store/unsupported-setting", f"{name} is set, but this store neither compresses nor encrypts its log",
                                allowed=f"unset {name} (encrypt the disk or the database connection instead)")
        return MsgspecMapper(transcoder=self.construct_transcoder())

    def construct_recorder(self) -> ApplicationRecorder:
        if isinstance(self.factory, SQLiteFactory):
            self.factory.application_recorder_class = SQLiteLogRecorder  # unless the env names another
            return super().construct_recorder()
        if type(self.factory).__module__ == "eventsourcing.postgres":
            from combat.app.postgres_recorder import PostgresLogRecorder  # psycopg is an optional extra

            # Named by topic: eventsourcing's PostgreSQL factory reads the recorder class from
            # its own class, not the instance (setting it as SQLite's is set above did nothing).
            topic_key = self.factory.APPLICATION_RECORDER_TOPIC
            if not self.factory.env.get(topic_key):
                self.factory.env[topic_key] = get_topic(PostgresLogRecorder)
        return _creating_tables(super().construct_recorder)

    def construct_snapshot_store(self) -> EventStore[UUID]:
        return _creating_tables(super().construct_snapshot_store)

    def recorded(self, encounter_id: UUID, *, gt: int | None = None, lte: int | None = None) -> Iterator[Recorded]:
        """The encounter's records in seq order, after `gt` and up to `lte`, read when first
        iterated (see `Deferred`).

        On SQLite the rows are decoded straight from the recorder's query (`select_records`);
        elsewhere, or if the mapper was given a compressor or cipher to undo first, they
        come through eventsourcing's event store and mapper. Both give the same records."""
        if self._reads_directly:
            recorder = cast(SQLiteLogRecorder, self.recorder)
            decode = record_decoder().decode
            return Deferred(lambda: recorder.select_records(encounter_id, decode, TOPICS[Recorded], gt=gt, lte=lte))
        return Deferred(lambda: cast(list[Recorded], list(self.events.get(encounter_id, gt=gt, lte=lte))))

    @property
    def _reads_directly(self) -> bool:
        mapper = self.mapper
        return (isinstance(self.recorder, SQLiteLogRecorder) and type(mapper) is MsgspecMapper
                and mapper.compressor is None and mapper.cipher is None)

    def latest_snapshot(self, encounter_id: UUID, *, lte: int | None = None) -> Snapshot | None:
        """The newest snapshot up to seq `lte`; None if there is none or it is of an older shape."""
        if self.snapshots is None:
            return None
        for snap in self.snapshots.get(encounter_id, desc=True, limit=1, lte=lte):
            return cast("Snapshot | None", snap)
        return None

    @property
    def writer(self) -> GroupWriter | None:
        """The writer of an SQLite file's rows (None elsewhere)."""
        return self._writer

    @staticmethod
    def rows(records: Sequence[Recorded], snapshot: Snapshot | None = None) -> tuple[list[Row], Row | None]:
        """The rows `writer` takes: the recorder's columns, with the mapper's own topic and bytes."""
        encode = MsgspecMapper._encoder.encode
        topic = TOPICS[Recorded]
        return ([(r.originator_id.hex, r.originator_version, topic, encode(r)) for r in records],
                None if snapshot is None else
                (snapshot.originator_id.hex, snapshot.originator_version, TOPICS[Snapshot], encode(snapshot)))

    def append(self, records: Sequence[Recorded], snapshot: Snapshot | None = None) -> list[int]:
        """Store an encounter's new records and the snapshot due after them, in one
        transaction where the store allows it; the notification ids the records were given.
        Raises IntegrityError if a seq is taken.

        On an SQLite file the rows go through `GroupWriter` (combat.app.sqlite_writer): the
        rows eventsourcing would write, with the mapper's own topic and bytes."""
        if self._writer is not None:
            return self._writer.append(*self.rows(records, snapshot))
        ids: list[int] = []
        if snapshot is not None and isinstance(self.recorder, SQLiteLogRecorder) and self.recorder.snapshots_table:
            return [r.notification.id for r in self.events.put(records, snapshot=self.mapper.to_stored_event(snapshot))]
        if records:
            ids = [r.notification.id for r in self.events.put(records)]
        if snapshot is not None and self.snapshots is not None:
            self.snapshots.put([snapshot])
        return ids


POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def postgres_env(url: str) -> dict[str, str]:
    """eventsourcing's PostgreSQL settings from a URL, postgresql://[user[:password]@]host[:port]/dbname
    (`?schema=NAME` for POSTGRES_SCHEMA): how `--db` names a PostgreSQL store."""
    from urllib.parse import parse_qs, unquote, urlsplit

    parts = urlsplit(url)
    dbname = unquote(parts.path.lstrip("/"))
    if not parts.hostname or not dbname:
        raise RuleError("store/bad-url", f"{url!r} does not name a PostgreSQL database",
                        allowed="postgresql://[user[:password]@]host[:port]/dbname")
    env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_HOST": parts.hostname,
           "POSTGRES_PORT": str(parts.port or 5432), "POSTGRES_DBNAME": dbname,
           "POSTGRES_USER": unquote(parts.username or "postgres"), "POSTGRES_PASSWORD": unquote(parts.password or "")}
    schema = parse_qs(parts.query).get("schema")
    if schema:
        env["POSTGRES_SCHEMA"] = schema[0]
    return env


def store_env(db: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """Settings for eventsourcing: a PostgreSQL URL's, PostgreSQL when configured in the
    environment and no file is named, else SQLite."""
    if isinstance(db, str) and db.startswith(POSTGRES_SCHEMES):
        return postgres_env(db)
    if os.environ.get("PERSISTENCE_MODULE", "").endswith("postgres") and db is None:
        return {}
    path = Path(db or os.environ.get(DB_ENV) or DEFAULT_DB)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "10",
    }
