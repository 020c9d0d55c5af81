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

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, cast
from uuid import UUID

from combat.kernel.records import Recorded
from combat.store.group_commit import GroupWriter, LoopCommits, Row
from combat.store.log import TOPICS, EventLog, MsgspecMapper, RecordDecoder, Snapshot
from combat.store.sqlite_recorder import SQLiteLogRecorder

if TYPE_CHECKING:
    import asyncio

__all__ = ["SQLiteFileLog"]


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
