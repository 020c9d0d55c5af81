"""Appends to an SQLite store through one plain `sqlite3` connection, committed in groups.

eventsourcing's SQLite path takes a connection from its pool, a reader-writer lock and a
transaction wrapper for every append: about a sixth of a command's CPU in the service. This
writes the same rows (the recorder's table, its columns, the mapper's topic and bytes) with
none of that, and commits the appends of several encounters together: whichever writing
thread finds the connection free commits every append waiting at that moment in one
transaction, so the threads that queued behind a commit share the next one's flush instead
of taking one each. Each append is its own savepoint inside it: one whose seq is taken
(another writer got there first) fails alone, with eventsourcing's `IntegrityError`, and the
others commit. No append returns before the transaction holding it has committed, so a
reply is only ever sent for a stored command.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Sequence

from eventsourcing.persistence import IntegrityError, OperationalError, PersistenceError

__all__ = ["GroupWriter", "Row"]

Row = tuple[str, int, str, bytes]  # originator_id (hex), originator_version, topic, state


class _Append:
    __slots__ = ("rows", "snapshot", "done", "error", "ids")

    def __init__(self, rows: Sequence[Row], snapshot: Row | None):
        self.rows = rows
        self.snapshot = snapshot
        self.done = False
        self.error: BaseException | None = None
        self.ids: list[int] = []  # the notification ids (rowids) its rows were given


class GroupWriter:
    """One connection to `path`; `append` returns once its rows are committed."""

    def __init__(self, path: str, events_table: str, snapshots_table: str | None, timeout: float):
        self._connection = sqlite3.connect(path, uri=True, isolation_level=None, check_same_thread=False, timeout=timeout,
                                           cached_statements=16)
        self._insert = f"INSERT INTO {events_table} VALUES (?,?,?,?)"
        self._snapshot = f"INSERT OR IGNORE INTO {snapshots_table} VALUES (?,?,?,?)" if snapshots_table else None
        self._waiting: list[_Append] = []
        self._queue = threading.Lock()  # guards `_waiting`
        self._committing = threading.Lock()  # held by the thread whose transaction is open

    def append(self, rows: Sequence[Row], snapshot: Row | None = None) -> list[int]:
        """Store `rows` (and `snapshot`); the notification ids the rows were given, as
        eventsourcing's recorder returns them."""
        job = _Append(rows, snapshot)
        with self._queue:
            self._waiting.append(job)
        with self._committing:
            if not job.done:  # nobody took it into their transaction: commit it and whoever else waits
                with self._queue:
                    batch, self._waiting = self._waiting, []
                self._commit(batch)
        if job.error is not None:
            raise job.error
        return job.ids

    def commit_all(self, appends: Sequence[tuple[Sequence[Row], Row | None]]) -> list[BaseException | None]:
        """Commit these appends together, now, in the calling thread: for each, its error, or
        None where it was stored (one whose seq is taken fails alone, as in `append`)."""
        batch = [_Append(rows, snapshot) for rows, snapshot in appends]
        with self._committing:
            self._commit(batch)
        return [job.error for job in batch]

    def _commit(self, batch: list[_Append]) -> None:
        c = self._connection
        try:
            c.execute("BEGIN IMMEDIATE")
            alone = len(batch) == 1
            for job in batch:
                if alone:
                    self._write(job)
                    continue
                c.execute("SAVEPOINT one")
                try:
                    self._write(job)
                except sqlite3.IntegrityError as exc:
                    c.execute("ROLLBACK TO one")
                    job.error = IntegrityError(exc)
                    job.ids = []
                c.execute("RELEASE one")
            c.execute("COMMIT")
        except BaseException as exc:
            if c.in_transaction:
                c.execute("ROLLBACK")
            failed = _persistence_error(exc)
            for job in batch:
                job.error = job.error or failed
        finally:
            for job in batch:
                job.done = True

    def _write(self, job: _Append) -> None:
        execute = self._connection.execute
        job.ids = [execute(self._insert, row).lastrowid or 0 for row in job.rows]
        if job.snapshot is not None and self._snapshot is not None:
            # A snapshot is only ever a shortcut: one already there for that seq never fails the append.
            self._connection.execute(self._snapshot, job.snapshot)

    def close(self) -> None:
        with self._committing:
            self._connection.close()


def _persistence_error(exc: BaseException) -> BaseException:
    """eventsourcing's exception for an sqlite3 one, as its own recorder raises them."""
    if isinstance(exc, sqlite3.IntegrityError):
        return IntegrityError(exc)
    if isinstance(exc, sqlite3.OperationalError):
        return OperationalError(exc)
    if isinstance(exc, sqlite3.Error):
        return PersistenceError(exc)
    return exc
