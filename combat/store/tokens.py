"""Access tokens, kept as SHA-256 hashes in their own table beside the event log.

Never in the log itself or its JSONL export: a token is a key to the table, not something
that happened at it. The table lives in the same database as the log (the SQLite file, or
the PostgreSQL schema), through the event store's own connection pool.

Each token has a public id (the first 16 hex digits of its hash: it names the token in a
list or a revocation without giving away the secret), may expire, and may be revoked. A
token is looked up in the table on every request, never remembered by a process, so a
revocation holds at once on every process serving the store. On SQLite that lookup goes
through a plain read connection of each thread's own rather than the event store's pool,
where a read queues behind every commit in progress (SQLite's WAL lets it read alongside);
on PostgreSQL it is one statement outside any explicit transaction (one round trip).

Beside it, `combat_quotas` counts the encounters each credential has created (forks
included), one row per credential. A slot is taken by one conditional statement
(`UPDATE ... SET used = used + 1 WHERE used < max`), so two requests, on any process,
can never both take the last one: counting the tokens and then creating, as before, let
40 concurrent creations under a quota of 5 make 9 encounters on SQLite and 13 on two
PostgreSQL processes. A slot is taken before the encounter is written and given back if
the write fails; a process killed between the two keeps the slot taken (the count errs
towards refusing). A credential's row starts from the tokens it was given before the
table existed, so an older store keeps its count.
"""

from __future__ import annotations

import functools
import json
import sqlite3
import threading
from contextlib import AbstractContextManager, closing
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any, Protocol
from uuid import UUID

from combat.store.log import EventLog
from combat.store.schema import creating

__all__ = ["Grant", "TokenRecord", "TokenStore", "store_kind", "token_id_of"]

TABLE = "combat_tokens"
QUOTAS = "combat_quotas"
TOKEN_ID_LENGTH = 16
_COLUMNS = "token_hash, encounter_id, role, name, combatants, issued_at, expires_at, revoked_at, created_by"
# Columns added after the table was first made: a store written before gets them on open.
_ADDED = ("expires_at", "revoked_at", "created_by")


def token_id_of(token_hash: str) -> str:
    return token_hash[:TOKEN_ID_LENGTH]


@dataclass(frozen=True)
class Grant:
    """What a token lets its holder do, in one encounter."""

    encounter_id: UUID
    role: str  # gm, player or viewer
    name: str  # the actor recorded for a player's commands
    combatants: frozenset[str] = frozenset()
    token_hash: str = ""

    @property
    def token_id(self) -> str:
        return token_id_of(self.token_hash)


@dataclass(frozen=True)
class TokenRecord:
    """One row of the table: the grant and its life (no secret: only a hash is stored)."""

    grant: Grant
    issued_at: datetime
    expires_at: datetime | None
    revoked_at: datetime | None
    created_by: str | None

    def refusal(self, now: datetime) -> str | None:
        """Why the token no longer opens anything, or None while it does."""
        if self.revoked_at is not None:
            return "revoked"
        if self.expires_at is not None and now >= self.expires_at:
            return "expired"
        return None


class _Datastore(Protocol):
    def transaction(self, *, commit: bool) -> AbstractContextManager[Any]: ...
    def cursor(self) -> AbstractContextManager[Any]: ...


def store_kind(log: EventLog) -> str:
    """sqlite or postgres: which eventsourcing persistence module the log runs on."""
    return type(log.factory).__module__.rpartition(".")[2]


def _time(text: str | None) -> datetime | None:
    return datetime.fromisoformat(text) if text else None


@functools.lru_cache(maxsize=4096)
def _record(values: tuple[Any, ...]) -> TokenRecord:
    """A row as read: the same row (a revocation changes it) is parsed once."""
    token_hash, encounter_id, role, name, combatants, issued, expires, revoked, created_by = values
    grant = Grant(
        encounter_id=UUID(encounter_id), role=role, name=name, combatants=frozenset(json.loads(combatants)), token_hash=token_hash
    )
    return TokenRecord(grant, _time(issued) or datetime.min, _time(expires), _time(revoked), created_by)


class TokenStore:
    def __init__(self, log: EventLog):
        self._datastore: _Datastore = log.recorder.datastore  # type: ignore[attr-defined]
        self.kind = store_kind(log)
        pool = getattr(self._datastore, "pool", None)  # the file's name and mode are the pool's, not the datastore's
        memory = getattr(pool, "is_sqlite_memory_mode", True)
        self._file: str | None = getattr(pool, "db_name", None) if self.kind == "sqlite" and not memory else None
        self._readers = threading.local()
        if self.kind == "postgres":
            from psycopg.sql import SQL, Identifier

            table = SQL("{}.{}").format(Identifier(self._datastore.schema), Identifier(TABLE))
            quotas = SQL("{}.{}").format(Identifier(self._datastore.schema), Identifier(QUOTAS))
            self._param = "%s"
            self._sql = lambda text: SQL(text).format(table=table, quotas=quotas)
        else:
            self._param = "?"
            self._sql = lambda text: text.format(table=TABLE, quotas=QUOTAS)
        self._create_table()

    def _create_table(self) -> None:
        statement = self._sql(
            "CREATE TABLE IF NOT EXISTS {table} ("
            "token_hash TEXT PRIMARY KEY, encounter_id TEXT NOT NULL, role TEXT NOT NULL, "
            "name TEXT NOT NULL, combatants TEXT NOT NULL, issued_at TEXT NOT NULL, "
            "expires_at TEXT, revoked_at TEXT, created_by TEXT)"
        )
        quotas = self._sql("CREATE TABLE IF NOT EXISTS {quotas} (credential TEXT PRIMARY KEY, used INTEGER NOT NULL)")
        with creating(self._datastore, f"the tokens and quotas tables ({TABLE}, {QUOTAS})") as cursor:
            cursor.execute(statement)
            cursor.execute(quotas)
            self._add_columns(cursor)

    def _add_columns(self, cursor: Any) -> None:
        if self.kind == "postgres":
            for column in _ADDED:
                cursor.execute(self._sql(f"ALTER TABLE {{table}} ADD COLUMN IF NOT EXISTS {column} TEXT"))
            return
        cursor.execute(f"PRAGMA table_info({TABLE})")
        present = {row[1] for row in cursor.fetchall()}
        for column in _ADDED:
            if column not in present:
                cursor.execute(f"ALTER TABLE {TABLE} ADD COLUMN {column} TEXT")

    def add(self, token_hash: str, grant: Grant, *, expires_at: datetime | None = None, created_by: str | None = None) -> None:
        p = ", ".join([self._param] * 9)
        with self._datastore.transaction(commit=True) as cursor:
            cursor.execute(
                self._sql(f"INSERT INTO {{table}} ({_COLUMNS}) VALUES ({p})"),
                (
                    token_hash,
                    str(grant.encounter_id),
                    grant.role,
                    grant.name,
                    json.dumps(sorted(grant.combatants)),
                    datetime.now(UTC).isoformat(),
                    expires_at.isoformat() if expires_at else None,
                    None,
                    created_by,
                ),
            )

    def names(self, encounter_id: UUID) -> list[str]:
        """The names already issued in an encounter (for telling look-alikes apart)."""
        with self._datastore.transaction(commit=False) as cursor:
            cursor.execute(
                self._sql(f"SELECT DISTINCT name FROM {{table}} WHERE encounter_id = {self._param}"), (str(encounter_id),)
            )
            rows = cursor.fetchall()
        return [row["name"] if isinstance(row, dict) else row[0] for row in rows]

    def _reading(self) -> AbstractContextManager[Any]:
        if self.kind == "postgres":
            # One statement on an autocommit connection is its own transaction: one round
            # trip, where BEGIN, SELECT and ROLLBACK would take three.
            return self._datastore.cursor()
        if self._file is None:
            return self._datastore.transaction(commit=False)
        connection = getattr(self._readers, "connection", None)
        if connection is None:
            connection = self._readers.connection = sqlite3.connect(self._file, uri=True, isolation_level=None, timeout=10)
        return closing(connection.cursor())

    def _rows(self, where: str, params: tuple[Any, ...]) -> list[TokenRecord]:
        with self._reading() as cursor:
            cursor.execute(self._select(where), params)
            rows = cursor.fetchall()
        return [_record(tuple(row[k] for k in _COLUMNS.split(", ")) if isinstance(row, dict) else tuple(row)) for row in rows]

    @functools.lru_cache(maxsize=8)  # noqa: B019  (8 statements; the store lives as long as the process)
    def _select(self, where: str) -> Any:
        """A SELECT composed once (on PostgreSQL, composing a statement costs more than sending it)."""
        statement = self._sql(f"SELECT {_COLUMNS} FROM {{table}} WHERE {where}")
        return statement if isinstance(statement, str) else statement.as_string(None)

    def find(self, token_hash: str) -> TokenRecord | None:
        rows = self._rows(f"token_hash = {self._param}", (token_hash,))
        return rows[0] if rows else None

    def of_encounter(self, encounter_id: UUID) -> list[TokenRecord]:
        rows = self._rows(f"encounter_id = {self._param}", (str(encounter_id),))
        return sorted(rows, key=lambda r: (r.issued_at, r.grant.token_hash))

    def revoke(self, encounter_id: UUID, token_id: str) -> bool:
        """Revoke the encounter's token with this public id; False if it has none such."""
        p = self._param
        with self._datastore.transaction(commit=True) as cursor:
            cursor.execute(
                self._sql(
                    f"UPDATE {{table}} SET revoked_at = COALESCE(revoked_at, {p}) "
                    f"WHERE encounter_id = {p} AND substr(token_hash, 1, {TOKEN_ID_LENGTH}) = {p}"
                ),
                (datetime.now(UTC).isoformat(), str(encounter_id), token_id),
            )
            cursor = getattr(cursor, "sqlite_cursor", cursor)  # eventsourcing's SQLite wrapper hides it
            return bool(cursor.rowcount)

    def take_slot(self, credential: str, most: int) -> bool:
        """Count one more encounter for `credential` unless it has `most` already: False then.
        Atomic on SQLite and PostgreSQL alike (see the module's docstring)."""
        p = self._param
        take = self._sql(f"UPDATE {{quotas}} SET used = used + 1 WHERE credential = {p} AND used < {p}")
        # The first slot of a credential: its row, counting the encounters it made before
        # the table existed. A row another request inserted meanwhile is found by the
        # second UPDATE (on PostgreSQL each statement reads what is committed when it starts).
        first = self._sql(
            f"INSERT INTO {{quotas}} (credential, used) "
            f"SELECT {p}, n + 1 FROM (SELECT COUNT(DISTINCT encounter_id) AS n FROM {{table}} "
            f"WHERE created_by = {p}) AS made WHERE n < {p} ON CONFLICT (credential) DO NOTHING"
        )
        with self._datastore.transaction(commit=True) as cursor:
            for statement, params in (
                (take, (credential, most)),
                (first, (credential, credential, most)),
                (take, (credential, most)),
            ):
                cursor.execute(statement, params)
                if getattr(cursor, "sqlite_cursor", cursor).rowcount:
                    return True
        return False

    def give_back_slot(self, credential: str) -> None:
        """Undo `take_slot`: the encounter it was taken for was not written."""
        p = self._param
        with self._datastore.transaction(commit=True) as cursor:
            cursor.execute(self._sql(f"UPDATE {{quotas}} SET used = used - 1 WHERE credential = {p} AND used > 0"), (credential,))
