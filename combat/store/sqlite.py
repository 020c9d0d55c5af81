"""An SQLite file's log: rows read straight from the recorder's query, written in groups.

Reading. A replay of a long fight is mostly the read: eventsourcing's path makes a
`sqlite3.Row`, a `StoredEvent` and a mapped object per row; `select_records` runs the same
query in the same kind of read transaction and decodes each row's bytes straight into a
`Recorded` (`combat bench` #1, 2026-11-24: a 100,000-event replay at 8.6x the rate of
eventsourcing's default path, its mapper and `Aggregate` replay, and 0.56x the plain
sqlite3 + msgspec floor at 10,000 events).

Writing. The rows eventsourcing would write (its table, its columns, the mapper's topic and
bytes) go through one plain connection that commits several encounters' appends together
(combat.store.group_commit), with a snapshot in the same transaction as the events it
follows. In memory there is one connection to share: eventsourcing's path writes there.
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

import msgspec
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteConnectionPool

from combat.kernel.records import Recorded
from combat.store.group_commit import GroupWriter, LoopCommits, Row
from combat.store.log import TOPICS, EventLog, MsgspecMapper, RecordDecoder, Snapshot, unreadable

if TYPE_CHECKING:
    import asyncio

__all__ = ["SQLiteLogRecorder", "SQLiteFileLog", "is_sqlite_file"]

_uuid = functools.lru_cache(maxsize=4096)(UUID)


def is_sqlite_file(env: dict[str, str]) -> bool:
    """Whether these settings name an SQLite file (not a database in memory, not PostgreSQL)."""
    return (
        env.get("PERSISTENCE_MODULE", "").endswith("sqlite")
        and "SQLITE_DBNAME" in env
        and not SQLiteConnectionPool.detect_memory_mode(env["SQLITE_DBNAME"])
    )


class SQLiteLogRecorder(SQLiteApplicationRecorder):
    """eventsourcing's SQLite recorder, with its rows read as plain tuples (`select_records`).
    Each row read names its encounter's id: it is parsed once."""

    def select_records(
        self,
        originator_id: UUID,
        decode: Callable[[bytes], Recorded],
        topic: str,
        *,
        gt: int | None = None,
        lte: int | None = None,
    ) -> list[Recorded]:
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
            states = [state for (state,) in rows.execute(statement, params)]
        try:
            return [decode(state) for state in states]  # the fast path: one comprehension, no per-row try
        except (TypeError, msgspec.ValidationError, msgspec.DecodeError):
            pass
        for state in states:  # a row did not decode: find it, to name it
            try:
                decode(state)
            except TypeError:  # msgspec's word for a NULL where bytes were expected
                raise ValueError(f"encounter {originator_id}: a stored event whose topic is not {topic!r}") from None
            except (msgspec.ValidationError, msgspec.DecodeError) as exc:
                raise unreadable(state, originator_id, exc) from None
        raise AssertionError("unreachable: a row failed to decode once and then decoded")

    def convert_originator_id(self, originator_id: str) -> UUID | str:
        return _uuid(originator_id) if self.datastore.originator_id_type == "uuid" else originator_id


class SQLiteFileLog(EventLog):
    """One SQLite file's log (a store of one partition: SQLite locks the whole file for a write)."""

    def __init__(self, env: Any = None, *, records: RecordDecoder, datastore: Any = None) -> None:
        super().__init__(env, records=records, datastore=datastore)
        recorder = cast(SQLiteLogRecorder, self.recorder)
        assert self.snapshots is not None  # is_snapshotting_enabled
        pool = recorder.datastore.pool
        self.writer = GroupWriter(
            pool.db_name,
            recorder.events_table_name,
            self.snapshots.recorder.events_table_name,  # type: ignore[attr-defined]
            pool.lock_timeout or 5,
        )

    def close(self) -> None:
        self.writer.close()
        super().close()

    def _read(self, encounter_id: UUID, gt: int | None, lte: int | None) -> list[Recorded]:
        recorder = cast(SQLiteLogRecorder, self.recorder)
        return recorder.select_records(encounter_id, self._records().decode, TOPICS[Recorded], gt=gt, lte=lte)

    @staticmethod
    def rows(records: Sequence[Recorded], snapshot: Snapshot | None = None) -> tuple[list[Row], Row | None]:
        """The rows `writer` takes: the recorder's columns, with the mapper's own topic and bytes."""
        encode = MsgspecMapper._encoder.encode
        topic = TOPICS[Recorded]
        return (
            [(r.originator_id.hex, r.originator_version, topic, encode(r)) for r in records],
            None
            if snapshot is None
            else (snapshot.originator_id.hex, snapshot.originator_version, TOPICS[Snapshot], encode(snapshot)),
        )

    def loop_commits(self, loop: asyncio.AbstractEventLoop) -> LoopCommits:
        """The appends `loop` makes, committed once per turn of it."""
        return LoopCommits(self.writer, self.rows, loop)

    def append(self, records: Sequence[Recorded], snapshot: Snapshot | None = None) -> None:
        """Store the records and the snapshot due after them in one transaction, shared with
        whatever other appends wait at that moment (see `GroupWriter`)."""
        self.writer.append(*self.rows(records, snapshot))
