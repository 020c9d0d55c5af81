"""The store split by encounter, so that writes to different encounters do not wait on one lock.

eventsourcing's PostgreSQL recorder locks its events table for every insert (so that
notification ids are committed in the order they are issued, and a follower never passes
over a gap filled in later): on one table, every write to every encounter goes one at a
time. A partitioned store is N eventsourcing applications on one database, each with its
own events and snapshots tables, notification log and lock; an encounter lives in the
partition a stable hash of its id picks, so all of one encounter's events are in one
table, in seq order, and two encounters in different partitions are written at once.

Partition 0 is the application `combat`, whose tables (`combat_events`, `combat_snapshots`)
are the ones every store had before partitions; partition k > 0 is `combat_p{k}`. The count
is recorded in the store (table `combat_partitions`) the first time a process opens it, and
every later process takes it from there: changing it would move encounters to partitions
that do not hold them. A store that already held events before partitions existed is a
store of one partition. The count can be chosen for a new store with COMBAT_PARTITIONS
(default DEFAULT_PARTITIONS on PostgreSQL); a setting that disagrees with the store's
record is refused. SQLite locks the whole file for a write, so tables would not help: an
SQLite store is always one partition.

The partitions share one connection pool, unless one is configured apart: eventsourcing
reads a setting prefixed with the application's name first (COMBAT_P2_POSTGRES_HOST, then
POSTGRES_HOST), so partition k can live in a schema or on a server of its own (a shard,
docs/scaling.md). Partition 0 holds the tokens table and the count's record.
"""

from __future__ import annotations

import functools
import hashlib
import os
from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING, Any, cast, overload
from uuid import UUID

from combat.kernel.errors import RuleError
from combat.kernel.records import Recorded
from combat.store import BlockingCommits, Commits
from combat.store.log import EventLog, RecordDecoder, Snapshot
from combat.store.partition_marks import check_marks
from combat.store.schema import creating
from combat.store.sqlite import SQLiteFileLog
from combat.store.sqlite_recorder import is_sqlite_file

if TYPE_CHECKING:
    import asyncio

__all__ = ["PartitionedLog", "partition_of", "PARTITIONS_ENV", "DEFAULT_PARTITIONS", "MAX_PARTITIONS", "TABLE"]

PARTITIONS_ENV = "COMBAT_PARTITIONS"
# Measured on a 2-core machine (docs/scaling.md): 4 keeps two processes' writes apart with
# room for more processes. The streams' listener takes one connection per process, however many.
DEFAULT_PARTITIONS = 4
MAX_PARTITIONS = 64
TABLE = "combat_partitions"


def partition_of(encounter_id: UUID, count: int) -> int:
    """The partition of an encounter: a hash of its id, the same in every process and release
    (not Python's hash(), which is salted per process)."""
    if count == 1:
        return 0
    digest = hashlib.blake2b(encounter_id.bytes, digest_size=8).digest()
    return int.from_bytes(digest, "big") % count


@functools.cache
def partition_class(k: int) -> type[EventLog]:
    """The eventsourcing application of partition k: its name prefixes its tables."""
    if k == 0:
        return EventLog
    return cast(type[EventLog], type(f"EventLogPartition{k}", (EventLog,), {"name": f"combat_p{k}", "__module__": __name__}))


def wanted_count(env: Mapping[str, str]) -> int | None:
    """The count asked for in the settings (or the environment), None if not asked."""
    text = env.get(PARTITIONS_ENV) or os.environ.get(PARTITIONS_ENV)
    if text is None or not text.strip():
        return None
    try:
        count = int(text)
    except ValueError:
        count = 0
    if not 1 <= count <= MAX_PARTITIONS:
        raise RuleError(
            "partitions/count",
            f"{PARTITIONS_ENV}={text!r} is not a partition count",
            allowed=f"a whole number from 1 to {MAX_PARTITIONS} (default {DEFAULT_PARTITIONS} on PostgreSQL)",
        )
    return count


class PartitionedLog:
    """Every partition of one store; reads and writes of an encounter go to its partition."""

    def __init__(self, env: dict[str, str], partitions: int | None = None, *, records: RecordDecoder):
        wanted = partitions if partitions is not None else wanted_count(env)
        first = SQLiteFileLog(env, records=records) if is_sqlite_file(env) else EventLog(env, records=records)
        self.kind = type(first.factory).__module__.rpartition(".")[2]  # sqlite or postgres
        # SQLite in memory: one process, and one locked cache its threads all share.
        self.in_memory = self.kind == "sqlite" and not isinstance(first, SQLiteFileLog)
        self._blocking = BlockingCommits(self.append)
        self._on_loop: tuple[asyncio.AbstractEventLoop, Commits | None] | None = None
        try:
            if self.kind == "postgres":
                count = _settle_count(first, wanted)
            elif wanted not in (None, 1):
                raise RuleError(
                    "partitions/sqlite",
                    f"{PARTITIONS_ENV}={wanted}: an SQLite store is one partition "
                    "(SQLite locks the whole file for each write, so more tables would not help)",
                    allowed=f"1, or PostgreSQL for {wanted} partitions",
                )
            else:
                count = 1
            shared = getattr(first.factory, "datastore", None)
            self.parts: list[EventLog] = [first]
            for k in range(1, count):
                own = _has_own_settings(k, env)
                self.parts.append(partition_class(k)(env, records=records, datastore=None if own else shared))
            if count > 1:
                check_marks(self.parts)
        except BaseException:
            for part in reversed(getattr(self, "parts", [first])):
                part.close()
            raise

    @property
    def count(self) -> int:
        return len(self.parts)

    @property
    def home(self) -> EventLog:
        """Partition 0: also where the tables beside the log (tokens) live."""
        return self.parts[0]

    def of(self, encounter_id: UUID) -> EventLog:
        return self.parts[partition_of(encounter_id, len(self.parts))]

    def recorded(self, encounter_id: UUID, *, gt: int | None = None, lte: int | None = None) -> Iterator[Recorded]:
        return self.of(encounter_id).recorded(encounter_id, gt=gt, lte=lte)

    def stored(self, encounter_id: UUID, *, desc: bool = False, limit: int | None = None) -> list[bytes]:
        return self.of(encounter_id).stored(encounter_id, desc=desc, limit=limit)

    def latest_snapshot(self, encounter_id: UUID, *, lte: int | None = None) -> Snapshot | None:
        return self.of(encounter_id).latest_snapshot(encounter_id, lte=lte)

    def unhashed_through(self, encounter_id: UUID) -> int:
        """The last seq of the encounter's rows that may lack a hash (combat.store.prehash)."""
        return self.of(encounter_id).unhashed_through(encounter_id)

    def append(self, records: Sequence[Recorded], snapshot: Snapshot | None = None) -> None:
        """One encounter's records (and its snapshot) into its partition, in one transaction
        where the store allows it; SeqTaken if a seq is taken."""
        owner = records[0].originator_id if records else snapshot.originator_id if snapshot is not None else None
        if owner is not None:
            self.of(owner).append(records, snapshot)

    @overload
    def commits(self) -> Commits: ...
    @overload
    def commits(self, loop: asyncio.AbstractEventLoop) -> Commits | None: ...

    def commits(self, loop: asyncio.AbstractEventLoop | None = None) -> Commits | None:
        """How a write made here appends: the one place the committer is chosen.

        Without a loop, in the calling thread, which waits for the commit (the CLI, combat.api,
        the service's worker threads). On an event loop, the loop's group commit where the
        store has one (an SQLite file: combat.store.group_commit); None where it has not
        (PostgreSQL, SQLite in memory): a write there blocks, so it is made in a thread."""
        if loop is None:
            return self._blocking
        if self._on_loop is None or self._on_loop[0] is not loop:
            home = self.home
            self._on_loop = (loop, home.loop_commits(loop) if isinstance(home, SQLiteFileLog) else None)
        return self._on_loop[1]

    def exists(self, encounter_id: UUID) -> bool:
        return any(True for _ in self.of(encounter_id).events.get(encounter_id, limit=1))

    def close(self) -> None:
        # The partitions share one pool: closing it again is a no-op.
        for part in reversed(self.parts):
            part.close()


def _has_own_settings(k: int, env: Mapping[str, str]) -> bool:
    """Whether partition k is configured apart (eventsourcing reads COMBAT_P{k}_POSTGRES_HOST
    before POSTGRES_HOST, and so on): then it has its own connection pool, to its own schema
    or server; else it shares partition 0's."""
    prefix = f"COMBAT_P{k}_"
    return any(key.startswith(prefix) for key in (*os.environ, *env))


def _settle_count(first: EventLog, wanted: int | None) -> int:
    """The store's count: read from its record, or recorded now (the first process to open a
    store decides; the others wait for it under the schema's creation lock, then read it)."""
    from psycopg.sql import SQL, Identifier

    datastore: Any = first.recorder.datastore  # type: ignore[attr-defined]
    schema = Identifier(datastore.schema)
    table = SQL("{}.{}").format(schema, Identifier(TABLE))
    events = SQL("{}.{}").format(schema, Identifier(first.recorder.events_table_name))  # type: ignore[attr-defined]
    with creating(datastore, f"the partition count's table {TABLE}") as cursor:
        cursor.execute(
            SQL(
                "CREATE TABLE IF NOT EXISTS {} (only_row boolean PRIMARY KEY DEFAULT true "
                "CHECK (only_row), partitions integer NOT NULL)"
            ).format(table)
        )
        cursor.execute(SQL("SELECT partitions FROM {}").format(table))
        row = cursor.fetchone()
        if row is None:
            # Events already there were written before partitions: they are all in
            # the first tables, so the store stays one partition.
            cursor.execute(SQL("SELECT EXISTS (SELECT 1 FROM {})").format(events))
            legacy = bool(cursor.fetchone()["exists"])
            count = 1 if legacy else wanted or DEFAULT_PARTITIONS
            cursor.execute(SQL("INSERT INTO {} (partitions) VALUES (%s) ON CONFLICT DO NOTHING").format(table), (count,))
            cursor.execute(SQL("SELECT partitions FROM {}").format(table))
            row = cursor.fetchone()
    recorded = int(row["partitions"])
    if wanted is not None and wanted != recorded:
        raise RuleError(
            "partitions/mismatch",
            f"this store has {recorded} partition{'s' if recorded > 1 else ''} (recorded when it was made); "
            f"{PARTITIONS_ENV}={wanted} would look for encounters where they are not",
            allowed=f"{recorded}, or leave {PARTITIONS_ENV} unset to take the store's count",
        )
    return recorded
