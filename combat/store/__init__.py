"""The store: where an encounter's records are kept, behind one way of appending them.

The application (combat.app) asks a store for two things: an encounter's records and latest
snapshot (`PartitionedLog.recorded`, `latest_snapshot`), and a `Commits` to append through
(`PartitionedLog.commits`). Everything below is eventsourcing underneath (its recorders,
notification log and followers), extended through its recorder, mapper and `Application`
classes; sqlite3 and psycopg are imported only here.

- `log`: the records' envelope and snapshot on disk (`MsgspecMapper`), and `EventLog`, the
  eventsourcing application of one partition, reading and writing through eventsourcing.
- `sqlite`: an SQLite file's log: rows read straight from the recorder's query
  (`sqlite_recorder`), written by `GroupWriter` (`group_commit`), which commits several
  encounters' appends together.
- `postgres`: PostgreSQL's recorder, with its insert in one round trip and NOTIFY after it.
- `partitions`: the store split by encounter; where the committer is chosen.
- `settings`: which store a `--db` names.
- `schema`: how every table of the store is made, once per process, one creator at a time.
- `prehash`: the store's own record of the logs written before hashes existed.

A write that finds its seq taken raises `SeqTaken`, whatever the store: the application's
own error, so no caller above this package catches a storage library's exception.
"""

from __future__ import annotations

import time
from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from combat.kernel.records import Recorded
    from combat.store.log import Snapshot

from combat.kernel.errors import RuleError

__all__ = ["SeqTaken", "UnreadableRow", "Commits", "BlockingCommits"]


class SeqTaken(Exception):
    """Another writer stored an event at one of these seqs first: nothing of this append was stored."""


class UnreadableRow(RuleError):
    """A stored row that does not decode as a record (a `"hash": null`, a field of the wrong
    type): the store was edited by hand. Refused with the row's seq, never a 500."""

    def __init__(self, encounter_id: object, seq: int | None, problem: str):
        where = f"seq {seq}" if seq is not None else "a row"
        super().__init__(
            "log/unreadable-row",
            f"encounter {encounter_id}: the stored row at {where} is not a record of this log ({problem})",
            allowed="restore the log from a copy whose chain verifies (combat verify)",
        )
        self.seq = seq


class Commits(Protocol):
    """How one write's appends are made. `blocking`: the calling thread waits in `append`
    (any thread, no event loop); else `append` is awaited on the event loop it belongs to."""

    blocking: bool

    def append(self, records: Sequence[Recorded], snapshot: Snapshot | None) -> Awaitable[None]:
        """Store one encounter's records and the snapshot due after them, in one transaction;
        SeqTaken if a seq is taken. Done once they are committed."""

    def pause(self, seconds: float) -> Awaitable[None]:
        """Wait before deciding again (another writer won a race)."""


class BlockingCommits:
    """Appends made in the calling thread, returning once committed (the thread waits)."""

    blocking = True

    def __init__(self, append: Callable[[Sequence[Recorded], Snapshot | None], object]) -> None:
        self._append = append

    async def append(self, records: Sequence[Recorded], snapshot: Snapshot | None) -> None:
        self._append(records, snapshot)

    async def pause(self, seconds: float) -> None:
        time.sleep(seconds)
