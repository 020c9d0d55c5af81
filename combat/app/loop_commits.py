"""Writes decided on an event loop and committed together, once per turn of the loop.

On an SQLite file the service decides a command on its event loop and does not hand it to a
thread: the hand-off to a worker thread and back (and the GIL's, with it) cost this 2-core
machine more CPU than the rules, 0.70 ms a command against 0.41 without. The commit still
waits for the disk, so it is not made per command: a request's `Write` is queued, and once
the loop has run every request ready in this turn (see Gathering), one transaction commits all
that queued (each append in its own savepoint, so one whose seq another writer took fails
alone), and each request resumes with its own result. The loop waits for that one flush,
not for one per command; the slower the disk, the more each flush holds. A store another
process holds the write lock of (a CLI writing the same file) makes the loop wait too, up
to the store's lock timeout.

Writes to one encounter still go one at a time, through an asyncio lock of its own while
any request for it is in flight (combat.app.keyed_locks): the next command to it is decided
on the state the previous one's commit left. A thread of
this process writing the same encounter (a route that still writes from a worker thread) is
not kept out by those locks; it is met as another process would be, by the seq being taken
and the command decided again.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from uuid import UUID

from eventsourcing.persistence import IntegrityError

from combat.app.application import Outcome, Wait, Writing
from combat.app.keyed_locks import KeyedLocks
from combat.app.partitions import PartitionedLog
from combat.app.sqlite_writer import GroupWriter, Row
from combat.app.store import Snapshot
from combat.kernel.records import Recorded

__all__ = ["Gathering", "LoopCommits"]

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
    """The writes of one event loop to one store. Only for a store whose every partition
    has a `GroupWriter` (an SQLite file): see `of`."""

    def __init__(self, log: PartitionedLog, loop: asyncio.AbstractEventLoop):
        self.loop = loop
        self._log = log
        self._locks = KeyedLocks(asyncio.Lock)
        self._queued: dict[GroupWriter, list[_Queued]] = {}  # a flush is due while anything is
        self._gathering = Gathering()

    @staticmethod
    def of(log: PartitionedLog, loop: asyncio.AbstractEventLoop) -> LoopCommits | None:
        """Commits for `loop`, or None when the store has no writer of its own to commit
        with (PostgreSQL, SQLite in memory): their writes stay in threads."""
        if any(part.writer is None for part in log.parts):
            return None
        return LoopCommits(log, loop)

    async def run(self, encounter_id: UUID, steps: Writing) -> Outcome:
        """A write's steps, with its writes committed in this turn's flush. One at a time per
        encounter; `steps` must be of `encounter_id`."""
        lock = self._locks.take(encounter_id)
        try:
            async with lock:
                return await self._run(steps)
        finally:
            self._locks.drop(encounter_id)

    async def _run(self, steps: Writing) -> Outcome:
        """Each step made: a `Write` through this turn's flush, a `Wait` slept."""
        failed: IntegrityError | None = None
        while True:
            try:
                step = steps.throw(failed) if failed is not None else next(steps)
            except StopIteration as done:
                return done.value
            failed = None
            if isinstance(step, Wait):
                await asyncio.sleep(step.seconds)
                continue
            try:
                await self._write(step.records, step.snapshot)
            except IntegrityError as exc:
                failed = exc

    def _write(self, records: Sequence[Recorded], snapshot: Snapshot | None) -> asyncio.Future[None]:
        done: asyncio.Future[None] = self.loop.create_future()
        part = self._log.part_of(records, snapshot)
        if part is None:  # nothing to store
            done.set_result(None)
            return done
        assert part.writer is not None, "LoopCommits.of checks every partition has one"
        if not self._queued:
            # call_soon runs after the callbacks already ready: every request this turn of
            # the loop woke has decided (or is waiting on one of the locks) by then. See
            # Gathering for why it may wait longer.
            self.loop.call_soon(self._flush)
        rows, snapshot_row = part.rows(records, snapshot)
        self._queued.setdefault(part.writer, []).append((rows, snapshot_row, done))
        return done

    def _flush(self) -> None:
        if self._gathering.another_turn(sum(len(writes) for writes in self._queued.values())):
            self.loop.call_soon(self._flush)
            return
        queued, self._queued = self._queued, {}
        for writer, writes in queued.items():
            try:
                errors = writer.commit_all([(rows, snapshot) for rows, snapshot, _ in writes])
            except BaseException as exc:  # the connection itself failed: every write in it did
                errors = [exc] * len(writes)
            for (_, _, done), error in zip(writes, errors):
                if done.cancelled():
                    continue
                if error is not None:
                    done.set_exception(error)
                else:
                    done.set_result(None)
