"""Appends to an SQLite file through one plain `sqlite3` connection, committed in groups:
from threads (`GroupWriter.append`) or from an event loop (`LoopCommits`).

eventsourcing's SQLite path takes a connection from its pool, a reader-writer lock and a
transaction wrapper for every append: about a sixth of a command's CPU in the service. This
writes the same rows (the recorder's table, its columns, the mapper's topic and bytes) with
none of that, and commits the appends of several encounters together: whichever writing
thread finds the connection free commits every append waiting at that moment in one
transaction, so the threads that queued behind a commit share the next one's flush instead
of taking one each. Each append is its own savepoint inside it: one whose seq is taken
(another writer got there first) fails alone, with `SeqTaken`, and the others commit. No append returns before the transaction holding it has committed, so a
reply is only ever sent for a stored command.
"""

from __future__ import annotations

import sqlite3
import threading
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from eventsourcing.persistence import OperationalError, PersistenceError

from combat.store import SeqTaken

if TYPE_CHECKING:  # asyncio only once an event loop commits here: the CLI never does
    import asyncio

    from combat.kernel.records import Recorded
    from combat.store.log import Snapshot

__all__ = ["GroupWriter", "Row", "LoopCommits", "Gathering"]

Row = tuple[str, int, str, bytes]  # originator_id (hex), originator_version, topic, state


class _Append:
    __slots__ = ("done", "error", "ids", "rows", "snapshot")

    def __init__(self, rows: Sequence[Row], snapshot: Row | None):
        self.rows = rows
        self.snapshot = snapshot
        self.done = False
        self.error: BaseException | None = None
        self.ids: list[int] = []  # the notification ids (rowids) its rows were given


class GroupWriter:
    """One connection to `path`; `append` returns once its rows are committed."""

    def __init__(self, path: str, events_table: str, snapshots_table: str | None, timeout: float):
        self._connection = sqlite3.connect(
            path, uri=True, isolation_level=None, check_same_thread=False, timeout=timeout, cached_statements=16
        )
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
                    job.error = SeqTaken(exc)
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
    """SeqTaken for a taken seq; else eventsourcing's exception for an sqlite3 one, as its own
    recorder raises them (the service answers those with 503, the store being unavailable)."""
    if isinstance(exc, sqlite3.IntegrityError):
        return SeqTaken(exc)
    if isinstance(exc, sqlite3.OperationalError):
        return OperationalError(exc)
    if isinstance(exc, sqlite3.Error):
        return PersistenceError(exc)
    return exc


# -- from an event loop -------------------------------------------------------------------

# On an SQLite file the service decides a command on its event loop and does not hand it to a
# thread: the hand-off to a worker thread and back (and the GIL's, with it) cost this 2-core
# machine more CPU than the rules, 0.70 ms a command against 0.41 without. The commit still
# waits for the disk, so it is not made per command: a request's append is queued, and once
# the loop has run every request ready in this turn (see Gathering), one transaction commits all
# that queued (each append in its own savepoint, so one whose seq another writer took fails
# alone), and each request resumes with its own result. The loop waits for that one flush,
# not for one per command; the slower the disk, the more each flush holds. A store another
# process holds the write lock of (a CLI writing the same file) makes the loop wait too, up
# to the store's lock timeout.

_Queued = tuple[Sequence[Row], Row | None, "asyncio.Future[None]"]


class Gathering:
    """How long a flush waits for more writes: one more turn of the loop while the last turn
    queued more, up to TURNS. Requests trickle in between turns, and each commit costs about
    80 us of CPU here whatever it holds (8 clients: 3.5 writes per commit at once, 7.7 with
    the wait, and 5% less CPU per command; 1 and 0 turns were slower)."""

    TURNS = 3

    def __init__(self) -> None:
        self._seen = self._waited = 0

    def another_turn(self, queued: int) -> bool:
        """With `queued` writes waiting: wait one more turn (True), or flush now (False)."""
        if queued > self._seen and self._waited < self.TURNS:
            self._seen, self._waited = queued, self._waited + 1
            return True
        self._seen = self._waited = 0
        return False


class LoopCommits:
    """The appends one event loop makes to one SQLite file, committed once per turn of the
    loop (a `Commits`: combat.store)."""

    blocking = False

    def __init__(self, writer: GroupWriter, rows: Callable[..., tuple[list[Row], Row | None]], loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self._writer = writer
        self._rows = rows
        self._queued: list[_Queued] = []  # a flush is due while anything is
        self._gathering = Gathering()

    def append(self, records: Sequence[Recorded], snapshot: Snapshot | None) -> asyncio.Future[None]:
        """Queued for this turn's flush; the future is done once committed (SeqTaken if a seq was taken)."""
        done: asyncio.Future[None] = self.loop.create_future()
        if not records and snapshot is None:
            done.set_result(None)
            return done
        if not self._queued:
            # call_soon runs after the callbacks already ready: every request this turn of
            # the loop woke has decided (or is waiting on its encounter's lock) by then. See
            # Gathering for why it may wait longer.
            self.loop.call_soon(self._flush)
        rows, snapshot_row = self._rows(records, snapshot)
        self._queued.append((rows, snapshot_row, done))
        return done

    async def pause(self, seconds: float) -> None:
        import asyncio

        await asyncio.sleep(seconds)

    def _flush(self) -> None:
        if self._gathering.another_turn(len(self._queued)):
            self.loop.call_soon(self._flush)
            return
        queued, self._queued = self._queued, []
        try:
            errors = self._writer.commit_all([(rows, snapshot) for rows, snapshot, _ in queued])
        except BaseException as exc:  # the connection itself failed: every write in it did
            errors = [exc] * len(queued)
        for (_, _, done), error in zip(queued, errors):
            if done.cancelled():
                continue
            if error is not None:
                done.set_exception(error)
            else:
                done.set_result(None)
