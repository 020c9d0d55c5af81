"""PostgreSQL's recorder: eventsourcing's, with its insert in one round trip and its NOTIFY
sent after the insert has committed, by a thread that sends many at once.

This module holds the store's whole difference from eventsourcing's PostgreSQL path: it
overrides the recorder's `insert_events`, the recorder contract's public method, and nothing
private (eventsourcing's NOTIFY is sent from its own insert, which this one replaces whole;
its shared insert function is left out where the tables are made, combat.store.schema;
tests/app/test_eventsourcing_hooks.py holds both to the installed eventsourcing). Each part
is there for a measured need. A py-spy
profile of `combat serve` under 8 clients on 4 partitions (docs/scaling.md) put the insert
and its NOTIFY among the largest costs; with both cut here (and the followers and token
lookup elsewhere), the server's CPU per command fell from 2.27 to 1.05 ms for one process
and from 2.83 to 1.23 ms for two, and one process's rate rose from 404 to 694 commands/s.

The insert. eventsourcing's takes three round trips in a pipelined transaction (BEGIN and
the lock and the insert, then COMMIT, then the pool's checks); here the lock and the insert
go as one query string, which PostgreSQL runs as one implicit transaction: the table lock
(see combat.store.partitions) is taken, the rows inserted and the whole committed, or on a
taken (encounter, seq) nothing is, and the connection is idle again either way.

The NOTIFY. PostgreSQL serialises every transaction that sends NOTIFY on one lock held until
after its commit is flushed ("hold till after commit", so that notifications arrive in
commit order): sent inside the insert, as eventsourcing does, it would make every write to
every partition of the database wait for each other's disk flush, and partitions would gain
little. Sent after, in a transaction of its own whose commit need not wait for the disk, the
lock is held for microseconds. A `Notifier` thread per connection pool sends them: an insert
only queues its encounter's id, and the thread sends whatever has queued meanwhile in one
transaction, one NOTIFY per channel whose payload names the encounters that moved (so a
follower need not read the notification log to know which streams to wake). Nothing depends
on the NOTIFY but promptness: a stream woken reads the store after the last seq it sent, and
one that has been quiet a while re-reads the store on its own (combat.service.stream), so a
NOTIFY lost to a crash delays a stream, it never loses or reorders an event.
"""

from __future__ import annotations

import atexit
import contextlib
import queue
import threading
import weakref
from collections.abc import Sequence
from typing import Any
from uuid import UUID

from eventsourcing.persistence import InterfaceError, OperationalError, StoredEvent
from eventsourcing.postgres import PostgresApplicationRecorder
from eventsourcing.utils import retry
from psycopg import ClientCursor
from psycopg.sql import SQL, Composed, Identifier, Literal

__all__ = ["PostgresLogRecorder", "Notifier", "PAYLOAD_SEPARATOR"]

PAYLOAD_SEPARATOR = ","
# PostgreSQL refuses a payload of 8,000 bytes or more: 200 ids of 32 hex digits stay well under.
IDS_PER_NOTIFY = 200


class PostgresLogRecorder(PostgresApplicationRecorder):
    def __init__(self, *args: Any, **kwargs: Any):
        super().__init__(*args, **kwargs)
        # Its tables are created by combat.store.schema, under the schema's lock (issue 30),
        # without eventsourcing's insert function, which nothing here calls (issue 25).
        table = SQL("{}.{}").format(Identifier(self.datastore.schema), Identifier(self.events_table_name))
        self._lock_and_insert: Composed = SQL(
            "SET LOCAL lock_timeout = '{}s'; LOCK TABLE {} IN EXCLUSIVE MODE; "
            "INSERT INTO {} (originator_id, originator_version, topic, state) VALUES "
        ).format(Literal(self.datastore.lock_timeout), table, table)
        self._row = SQL("(%s, %s, %s, %s)")
        self._statements: dict[int, bytes] = {}
        self.notifier = Notifier.of(self.datastore)

    @retry((InterfaceError, OperationalError), max_attempts=10, wait=0.2)
    def insert_events(self, stored_events: Sequence[StoredEvent], **kwargs: Any) -> Sequence[int] | None:
        """Insert the rows under the table lock, in one round trip, and return the
        notification ids they were given (eventsourcing's recorder contract); IntegrityError
        if a seq is taken."""
        if not stored_events:
            return None  # as eventsourcing's recorder answers an empty insert
        params: list[Any] = []
        for e in stored_events:
            params += (e.originator_id, e.originator_version, e.topic, e.state)
        with self.datastore.get_connection() as conn:
            statement = self._statements.get(len(stored_events))
            if statement is None:  # composed once per row count, not per insert
                composed = (
                    self._lock_and_insert + SQL(", ").join([self._row] * len(stored_events)) + SQL(" RETURNING notification_id")
                )
                statement = self._statements[len(stored_events)] = composed.as_bytes(conn)
            # Client-side binding: several statements in one string run as one transaction.
            with ClientCursor(conn) as curs:
                curs.execute(statement, params)
                while curs.nextset():  # the results of SET and LOCK come first
                    pass
                ids = [row["notification_id"] if isinstance(row, dict) else row[0] for row in curs.fetchall()]
        self.notifier.moved(self.channel_name, stored_events[0].originator_id)
        return ids


class Notifier:
    """Sends, for the recorders sharing one connection pool, the NOTIFYs of their inserts:
    whatever queued while the last batch was sent goes in one transaction."""

    _by_datastore: weakref.WeakKeyDictionary[Any, Notifier] = weakref.WeakKeyDictionary()
    _guard = threading.Lock()

    @classmethod
    def of(cls, datastore: Any) -> Notifier:
        with cls._guard:
            notifier = cls._by_datastore.get(datastore)
            if notifier is None:
                notifier = cls._by_datastore[datastore] = cls(datastore)
            return notifier

    def __init__(self, datastore: Any):
        self._datastore = weakref.ref(datastore)
        self._queue: queue.SimpleQueue[tuple[str, UUID | str]] = queue.SimpleQueue()
        self._thread = threading.Thread(target=self._run, name="combat-notify", daemon=True)
        self._pending = 0  # queued and not yet sent
        self._count = threading.Lock()
        self._idle = threading.Event()
        self._idle.set()
        self._thread.start()
        atexit.register(self.flush)

    def moved(self, channel: str, encounter_id: UUID | str) -> None:
        with self._count:
            self._pending += 1
            self._idle.clear()
        self._queue.put((channel, encounter_id))

    def flush(self, timeout: float = 2.0) -> None:
        """Wait until what was queued has been sent (at exit, so a short-lived process's last
        appends still wake the streams of the others at once)."""
        self._idle.wait(timeout)

    def _run(self) -> None:
        while True:
            try:
                item: tuple[str, UUID | str] | None = self._queue.get(timeout=5.0)
            except queue.Empty:
                if self._datastore() is None:  # its store was closed and dropped: so is this thread
                    return
                continue
            moved: dict[str, dict[str, None]] = {}
            taken = 0
            while item is not None:
                taken += 1
                channel, encounter_id = item
                moved.setdefault(channel, {})[UUID(str(encounter_id)).hex] = None
                try:
                    item = self._queue.get_nowait()
                except queue.Empty:
                    item = None
            with contextlib.suppress(Exception):  # a lost NOTIFY only delays a stream (see the module)
                self._send(moved)
            with self._count:
                self._pending -= taken
                if not self._pending:
                    self._idle.set()

    def _send(self, moved: dict[str, dict[str, None]]) -> None:
        datastore = self._datastore()
        if datastore is None:
            return
        notifies = []
        for channel, ids in moved.items():
            listed = list(ids)
            for start in range(0, len(listed), IDS_PER_NOTIFY):
                payload = PAYLOAD_SEPARATOR.join(listed[start : start + IDS_PER_NOTIFY])
                notifies.append(SQL("NOTIFY {}, {}").format(Identifier(channel), Literal(payload)))
        # One round trip; the commit of a transaction that only notifies can skip the flush.
        statement = SQL("BEGIN; SET LOCAL synchronous_commit TO OFF; {}; COMMIT").format(SQL("; ").join(notifies))
        with datastore.get_connection() as conn:
            conn.execute(statement)
