"""eventsourcing's PostgreSQL recorder, with its NOTIFY sent after the insert has committed.

PostgreSQL serialises every transaction that sends NOTIFY on one lock held until after its
commit is flushed ("hold till after commit", so that notifications arrive in commit order):
sent inside the insert, as eventsourcing does, it would make every write to every partition
of the database wait for each other's disk flush, and partitions would gain little. Sent
after, in a transaction of its own whose commit need not wait for the disk, the lock is held
for microseconds. Nothing depends on the NOTIFY but promptness: a follower woken reads the
notification log from its own position, and a stream re-reads the store when it has been
quiet a while (combat.service.stream), so a NOTIFY lost to a crash between the two delays a
stream, it never loses or reorders an event.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from eventsourcing.persistence import StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from psycopg import Cursor
from psycopg.rows import DictRow
from psycopg.sql import SQL, Composed, Identifier

__all__ = ["PostgresLogRecorder"]


class PostgresLogRecorder(PostgresApplicationRecorder):
    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # One round trip; the commit of a transaction that only notifies can skip the flush.
        self._notify_after: Composed = SQL("BEGIN; SET LOCAL synchronous_commit TO OFF; NOTIFY {0}; COMMIT").format(
            Identifier(self.channel_name))

    def _notify_channel(self, curs: Cursor[DictRow]) -> None:
        """Not inside the insert's transaction: see insert_events."""

    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        ids = super().insert_events(stored_events, **kwargs)
        if stored_events:
            with self.datastore.get_connection() as conn:
                conn.execute(self._notify_after)
        return ids
