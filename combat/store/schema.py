"""Creating the store's tables: once per process, before serving, one creator at a time.

Several processes starting at once on a new PostgreSQL schema used to create the same
objects together: `CREATE TABLE IF NOT EXISTS` passes in both before either commits, and
the loser fails on a catalog index ("duplicate key value violates unique constraint
pg_type_typname_nsp_index", "tuple concurrently updated"). The old cure retried; a retry
that gave up left a half-built application whose garbage collection closed the connection
pool it shared with the encounters, and every later request failed (issue 30).

Here every CREATE the store makes (eventsourcing's events and snapshots tables, indexes and
composite type, the partition count, the partitions' marks, the tokens and quotas) runs in
one transaction on one pooled connection, after `pg_advisory_xact_lock` on a key named for
the schema: creators take turns, each commits before the next starts (the lock ends with
the transaction), so a later one finds everything there and its `IF NOT EXISTS` skips. One
connection, so a pool of one connection starts too. On SQLite the file's write lock already
serialises creators; the same function wraps the error there.

A failure is `SchemaError` (`store/schema`), naming what was being created and where, with
the database's own message; nothing is retried and no pool is closed (an application
sharing a pool never closes it: `combat.store.log.SharedPool`).

What eventsourcing's PostgreSQL recorders create that is shared between applications of
one schema: the composite type `stored_event_{uuid|text}`, named for the id type alone
(every recorder of the schema creates the same definition; `CREATE TYPE` has no `IF NOT
EXISTS`, so under the lock it is created once, the later creators' duplicates passed over),
and the insert function `es_insert_events_{uuid|text}`, also named for the id type alone
but whose body inserts into one application's table: whichever application created it last
would receive every application's inserts through it. It is never created here; the
setting that would call it (POSTGRES_ENABLE_DB_FUNCTIONS) is refused (`SharedPool`).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterable, Iterator
from typing import Any, TypeVar

from combat.kernel.errors import RuleError

__all__ = ["SchemaError", "creating", "create_statements", "create_recorder_tables", "lock_key", "where"]

R = TypeVar("R")


class SchemaError(RuleError):
    """Creating the store's tables failed: what, where, and the database's word for why."""

    def __init__(self, what: str, place: str, problem: str):
        super().__init__(
            "store/schema",
            f"creating {what} in {place} failed: {problem}",
            allowed="a database user that may create tables in that schema, and no other object under those names; "
            "then start again (the other tables and the encounters are untouched)",
        )
        self.what = what


def is_postgres(datastore: Any) -> bool:
    return type(datastore).__module__ == "eventsourcing.postgres"


def lock_key(datastore: Any) -> str:
    """The advisory lock's name: one per schema (hashed by PostgreSQL's hashtext)."""
    return f"combat-schema:{datastore.schema}"


def where(datastore: Any) -> str:
    """The schema, or the SQLite file, a datastore writes to."""
    if is_postgres(datastore):
        return f"schema {datastore.schema!r}"
    return f"SQLite database {getattr(datastore.pool, 'db_name', '?')!r}"


@contextlib.contextmanager
def creating(datastore: Any, what: str) -> Iterator[Any]:
    """A cursor in a transaction that holds the schema's creation lock (PostgreSQL) or the
    file's write lock (SQLite), committed at the end; SchemaError naming `what` if it fails."""
    try:
        if is_postgres(datastore):
            with datastore.get_connection() as conn, conn.transaction(), conn.cursor() as cursor:
                cursor.execute("SELECT pg_advisory_xact_lock(hashtext(%s))", (lock_key(datastore),))
                yield cursor
        else:
            with datastore.transaction(commit=True) as cursor:
                # eventsourcing opens a deferred transaction: its first read would take a
                # snapshot, and the write after it would fail at once ("database is locked")
                # if another connection committed in between. The write lock is taken first,
                # waiting its turn as any writer does.
                cursor.execute("COMMIT")
                cursor.execute("BEGIN IMMEDIATE")
                yield cursor
    except RuleError:
        raise
    except Exception as exc:
        raise SchemaError(what, where(datastore), f"{type(exc).__name__}: {str(exc).strip()}") from exc


def create_statements(datastore: Any, what: str, statements: Iterable[Any]) -> None:
    """Run CREATE (or ALTER ... IF NOT EXISTS) statements under the lock, in one transaction."""
    with creating(datastore, what) as cursor:
        for statement in statements:
            cursor.execute(statement)


def create_recorder_tables(recorder: R, what: str | None = None) -> R:
    """Create an eventsourcing aggregate or application recorder's tables (what its own
    `create_table` creates, but the shared insert function) under the lock; the recorder."""
    table = getattr(recorder, "events_table_name", type(recorder).__name__)
    what = what or f"table {table}"
    datastore: Any = recorder.datastore  # type: ignore[attr-defined]
    if not is_postgres(datastore):
        with creating(datastore, what) as cursor:
            recorder._create_table(cursor)  # type: ignore[attr-defined]
        return recorder

    shared_function = getattr(recorder, "sql_create_pg_function_insert_events", None)
    statements = [s for s in recorder.sql_create_statements if s is not shared_function]  # type: ignore[attr-defined]
    with creating(datastore, what) as cursor:
        _create_types(cursor, statements)
        for statement in statements:
            if "CREATE TYPE" not in statement.as_string(cursor.connection):
                cursor.execute(statement, prepare=False)
    try:
        datastore.register_type_adapters()  # after the commit: the types are there to read
    except Exception as exc:
        raise SchemaError(what, where(datastore), f"{type(exc).__name__}: {exc}") from exc
    return recorder


def create_process_tables(recorder: R, what: str | None = None) -> R:
    """Create an eventsourcing process recorder's tables (its events table and its tracking
    table) under the lock, as `create_recorder_tables` does an application recorder's: the
    recorder's own `_create_table`, so its tracking table gets the migration marker
    eventsourcing reads on the next start, but never the shared insert function."""
    table = getattr(recorder, "events_table_name", type(recorder).__name__)
    what = what or f"table {table}"
    datastore: Any = recorder.datastore  # type: ignore[attr-defined]
    rec: Any = recorder
    shared_function = getattr(recorder, "sql_create_pg_function_insert_events", None)
    if shared_function is not None and shared_function in rec.sql_create_statements:
        rec.sql_create_statements.remove(shared_function)
    with creating(datastore, what) as cursor:
        # What eventsourcing's own `create_table` reads first, read here under the lock (read
        # before it, two processes both found no table and both wrote its migration marker):
        # is there a tracking table, and which marker does it hold.
        rec.tracking_table_exists, marker = _tracking_marker(cursor, rec, is_postgres(datastore))
        rec.tracking_migration_current = rec.tracking_migration_previous = marker
        if is_postgres(datastore):
            _create_types(cursor, rec.sql_create_statements)  # eventsourcing's `_create_table` leaves them out
        rec._create_table(cursor)
    if is_postgres(datastore):
        try:
            datastore.register_type_adapters()
        except Exception as exc:
            raise SchemaError(what, where(datastore), f"{type(exc).__name__}: {exc}") from exc
    return recorder


def _tracking_marker(cursor: Any, recorder: Any, postgres: bool) -> tuple[bool, int | None]:
    if postgres:
        table = f"{recorder.datastore.schema}.{recorder.tracking_table_name}"
        found = _one(cursor, "SELECT to_regclass(%s) IS NOT NULL AS found", (table,))
        name = f'"{recorder.datastore.schema}"."{recorder.tracking_table_name}"'
        query = f"SELECT max(notification_id) FROM {name} WHERE application_name = %s"
    else:
        found = _one(cursor, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = 'tracking'", ())
        query = "SELECT max(notification_id) FROM tracking WHERE application_name = ?"
    if not found:
        return False, None
    return True, _one(cursor, query, (recorder.table_migration_identifier,))


def _one(cursor: Any, query: str, params: tuple[Any, ...]) -> Any:
    """A one-row, one-column query's value."""
    cursor.execute(query, params)
    return cell(cursor.fetchone(), 0)


def cell(row: Any, index: int) -> Any:
    """A column of a row, from psycopg's dict rows or SQLite's tuples and Rows."""
    return list(row.values())[index] if isinstance(row, dict) else row[index]


def _create_types(cursor: Any, statements: Iterable[Any]) -> None:
    """eventsourcing's CREATE TYPE statements, each in a savepoint: there is no IF NOT EXISTS
    for types, and another recorder of the schema may have made it first."""
    import psycopg

    conn = cursor.connection
    for statement in statements:
        if "CREATE TYPE" in statement.as_string(conn):
            with contextlib.suppress(psycopg.errors.DuplicateObject), conn.transaction():
                cursor.execute(statement, prepare=False)
