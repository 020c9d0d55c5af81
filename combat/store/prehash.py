"""Which encounters of a partition were written before hashes existed: the store's own
record, kept where the event rows cannot change it.

A log whose rows carry no hash, and whose first event does not say it is chained, reads as a
log written before hashes existed: nothing vouches for it, but old logs must still load. The
same shape is what an editor leaves who strips every hash of a log and relabels its first
event `chained: false`; read on that shape alone, the edit was served, chained onto and then
verified (issue 30). So the shape is not enough: the store says which logs it held before
hashing, in a table of its own beside the partition's events (`combat_prehash`,
`combat_p{k}_prehash`; `stored_prehash` on SQLite), written once, the first time a release that keeps this record opens
the partition: the encounters whose first row then carried no hash and did not say it was
chained, each with the seq its rows without a hash ran to (a pre-hash log continued by a
release that hashes has hashed rows after them). A store made now lists none; a store from
before lists its old logs. The table is never written again, so relabelling a log later does
not put it on the list, and stripping the hashes of rows appended since does not make them
old: combat.app.chain.LinkCheck refuses a row without a hash unless its log is listed and
its seq is within the listed run. The census runs
under the store's creation lock (combat.store.schema): processes opening an old store at
once agree on one census. A row marks it done (`encounter_id` ''), so a census never runs
twice, even over an empty list.

What it cannot tell: a log relabelled before this release first opened the store is listed
as old (the census believes the rows it finds); someone who can write the database can also
write this table. The published head (`combat export`, `combat verify --head`) is the check
that holds against both (docs/trust.md).
"""

from __future__ import annotations

from typing import Any
from uuid import UUID

import msgspec

from combat.store.schema import cell, creating, is_postgres

__all__ = ["table_of", "census", "unhashed"]

DONE = ""  # the census's own row: never an encounter id


class _Created(msgspec.Struct):
    chained: bool = False


class _First(msgspec.Struct):
    hash: str = ""
    event: _Created = msgspec.field(default_factory=_Created)


_first = msgspec.json.Decoder(_First)


def table_of(events_table: str) -> str:
    """The record's table, named as the partition's events table is: `combat_events` →
    `combat_prehash`, `combat_p3_events` → `combat_p3_prehash`; on SQLite, whose tables
    eventsourcing names `stored_events` and `stored_snapshots`, `stored_prehash`."""
    return f"{events_table.removesuffix('_events')}_prehash"


def unhashed(state: bytes, *, first: bool = True) -> bool:
    """Whether a stored row carries no hash (and, the first row of a log, does not say the
    log is chained): a row written before hashes existed."""
    try:
        row = _first.decode(state)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return False  # not a record at all: refused on load as unreadable, never listed
    return not row.hash and not (first and row.event.chained)


def census(datastore: Any, events_table: str) -> dict[UUID, int]:
    """The partition's encounters written before hashes, each with how many of its first
    rows carry no hash (seq 1 to that): taken now if never taken, else read."""
    name = table_of(events_table)
    if is_postgres(datastore):
        from psycopg.sql import SQL, Identifier

        schema = Identifier(datastore.schema)
        table: Any = SQL("{}.{}").format(schema, Identifier(name))
        events: Any = SQL("{}.{}").format(schema, Identifier(events_table))
        param = "%s"

        def sql(text: str, **names: Any) -> Any:
            return SQL(text).format(**names)
    else:
        table, events, param = name, events_table, "?"

        def sql(text: str, **names: Any) -> Any:
            return text.format(**names)

    with creating(datastore, f"the record of logs written before hashes ({name})") as cursor:
        cursor.execute(sql("CREATE TABLE IF NOT EXISTS {t} (encounter_id TEXT PRIMARY KEY, through INTEGER NOT NULL)", t=table))
        insert = sql(f"INSERT INTO {{t}} (encounter_id, through) VALUES ({param}, {param}) ON CONFLICT DO NOTHING", t=table)
        cursor.execute(insert, (DONE, 0))
        if getattr(cursor, "sqlite_cursor", cursor).rowcount == 1:  # the first open: take the census
            cursor.execute(sql("SELECT originator_id, state FROM {e} WHERE originator_version = 1", e=events))
            old = [_id(row, 0) for row in cursor.fetchall() if unhashed(bytes(cell(row, 1)))]
            rows = sql(f"SELECT state FROM {{e}} WHERE originator_id = {param} ORDER BY originator_version", e=events)
            for encounter_id in old:
                cursor.execute(rows, (encounter_id if is_postgres(datastore) else encounter_id.hex,))
                through = 0
                for row in cursor.fetchall():
                    if not unhashed(bytes(cell(row, 0)), first=through == 0):
                        break
                    through += 1
                cursor.execute(insert, (encounter_id.hex, through))
        cursor.execute(sql(f"SELECT encounter_id, through FROM {{t}} WHERE encounter_id <> {param}", t=table), (DONE,))
        return {UUID(str(cell(row, 0))): int(cell(row, 1)) for row in cursor.fetchall()}


def _id(row: Any, index: int) -> UUID:
    value = cell(row, index)
    return value if isinstance(value, UUID) else UUID(str(value))
