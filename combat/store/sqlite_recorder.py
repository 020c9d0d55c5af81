"""eventsourcing's SQLite recorder, with an encounter's rows read straight from its query
(`select_records`): what an SQLite file's log (combat.store.sqlite) reads through, and what
the partition's `EventLog` (combat.store.log) names as its recorder class for SQLite."""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteConnectionPool

from combat.kernel.records import Recorded
from combat.store.unreadable import unreadable

__all__ = ["SQLiteLogRecorder", "is_sqlite_file"]

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
