"""Each partition's mark: a process whose settings put a partition in the wrong place is
refused before it reads or writes there.

A partition configured apart (`COMBAT_P{k}_POSTGRES_HOST` and the rest, docs/scaling.md)
lives wherever its settings point. A process started without those settings (a copy of an
old unit file, a shell missing one export) would find no tables for that partition on the
first server, create empty ones and serve them: its encounters unknown there, and new
encounters written where the other processes never look. So each partition is marked once,
when the first process opens it: a random mark recorded beside the partition count in
partition 0's schema (table `combat_partition_marks`, one row per partition), and the same
mark in a table of the partition's own beside its events (`combat_p{k}_mark`). Every later
process reads both; a partition whose own table lacks the store's mark, or holds another, is
refused (`partitions/misplaced`). Moving a partition moves its mark table with its events
and snapshots tables (docs/scaling.md).
"""

from __future__ import annotations

import time
import uuid
from typing import Any

from combat.kernel.errors import RuleError
from combat.store.log import EventLog
from combat.store.schema import create_statements

__all__ = ["RECORD", "check_marks", "mark_table"]

RECORD = "combat_partition_marks"
# Another process opening a new store at once may be between its two inserts: a partition
# found recorded but not yet marked in its own table is read again (for about 2 s) before it
# is refused.
ATTEMPTS = 8


def mark_table(k: int) -> str:
    """Partition k's own mark table, named as its events table is (`combat_p{k}_events`)."""
    return f"combat_p{k}_mark"


def check_marks(parts: list[EventLog]) -> None:
    """Each partition after the first is where the store's record says it was first opened
    (see the module); partition 0 holds the record, so it is where it is by definition."""
    home: Any = parts[0].recorder.datastore  # type: ignore[attr-defined]
    _create(home, RECORD)
    for k, part in enumerate(parts[1:], start=1):
        own: Any = part.recorder.datastore  # type: ignore[attr-defined]
        _create(own, mark_table(k))
        _settle(k, home, own)


def _table(datastore: Any, name: str) -> Any:
    from psycopg.sql import SQL, Identifier

    return SQL("{}.{}").format(Identifier(datastore.schema), Identifier(name))


def _create(datastore: Any, name: str) -> None:
    from psycopg.sql import SQL

    statement = SQL("CREATE TABLE IF NOT EXISTS {} (k integer PRIMARY KEY, mark uuid NOT NULL)").format(_table(datastore, name))
    create_statements(datastore, f"the partition mark table {name}", [statement])


def _read(datastore: Any, name: str, k: int) -> uuid.UUID | None:
    from psycopg.sql import SQL

    with datastore.transaction(commit=False) as cursor:
        cursor.execute(SQL("SELECT mark FROM {} WHERE k = %s").format(_table(datastore, name)), (k,))
        row = cursor.fetchone()
    return None if row is None else uuid.UUID(str(row["mark"]))


def _write(datastore: Any, name: str, k: int, mark: uuid.UUID) -> None:
    from psycopg.sql import SQL

    with datastore.transaction(commit=True) as cursor:
        cursor.execute(
            SQL("INSERT INTO {} (k, mark) VALUES (%s, %s) ON CONFLICT (k) DO NOTHING").format(_table(datastore, name)),
            (k, mark),
        )


def _settle(k: int, home: Any, own: Any) -> None:
    mine = mark_table(k)
    for attempt in range(1, ATTEMPTS + 1):
        recorded, found = _read(home, RECORD, k), _read(own, mine, k)
        if recorded is not None and found == recorded:
            return
        if recorded is None and found is None:  # a partition opened for the first time
            _write(home, RECORD, k, uuid.uuid4())
            recorded = _read(home, RECORD, k)  # whichever process's insert won
            assert recorded is not None
            _write(own, mine, k, recorded)
            continue
        if recorded is None:  # marked, but not recorded (the record's table was lost): take its word
            assert found is not None
            _write(home, RECORD, k, found)
            continue
        if found is not None:  # another store's partition
            break
        time.sleep(0.05 * attempt)
    problem = "belong to another store" if _read(own, mine, k) else "were never written by this store"
    raise RuleError(
        "partitions/misplaced",
        f"partition {k} is not where this store keeps it: its tables at this process's settings ({_where(own)}) {problem}",
        allowed=f"COMBAT_P{k}_POSTGRES_HOST, _PORT, _DBNAME and _SCHEMA as the store's other processes have them "
        "(docs/scaling.md, 'Moving a partition')",
    )


def _where(datastore: Any) -> str:
    """host:port/dbname, schema: where a partition's settings point."""
    connection = getattr(datastore.pool, "kwargs", None) or {}
    return f"{connection.get('host')}:{connection.get('port')}/{connection.get('dbname')}, schema {datastore.schema}"
