"""Access tokens, kept as SHA-256 hashes in their own table beside the event log.

Never in the log itself or its JSONL export: a token is a key to the table, not something
that happened at it. The table lives in the same database as the log (the SQLite file, or
the PostgreSQL schema), through the event store's own connection pool.
"""

from __future__ import annotations

import json
import threading
from contextlib import AbstractContextManager
from dataclasses import dataclass
from datetime import datetime, timezone
from typing import Any, Protocol
from uuid import UUID

from combat.app.store import EventLog

__all__ = ["Grant", "TokenStore", "store_kind"]

TABLE = "combat_tokens"
_CACHED = 10_000  # grants never change, so a found one can be remembered


@dataclass(frozen=True)
class Grant:
    """What a token lets its holder do, in one encounter."""

    encounter_id: UUID
    role: str  # gm, player or viewer
    name: str  # the actor recorded for a player's commands
    combatants: frozenset[str] = frozenset()


class _Datastore(Protocol):
    def transaction(self, *, commit: bool) -> AbstractContextManager[Any]: ...


def store_kind(log: EventLog) -> str:
    """sqlite or postgres: which eventsourcing persistence module the log runs on."""
    return type(log.factory).__module__.rpartition(".")[2]


class TokenStore:
    def __init__(self, log: EventLog):
        self._datastore: _Datastore = log.recorder.datastore  # type: ignore[attr-defined]
        self.kind = store_kind(log)
        if self.kind == "postgres":
            from psycopg.sql import SQL, Identifier

            table = SQL("{}.{}").format(Identifier(self._datastore.schema), Identifier(TABLE))  # type: ignore[attr-defined]
            self._param = "%s"
            self._sql = lambda text: SQL(text).format(table=table)
        else:
            self._param = "?"
            self._sql = lambda text: text.format(table=TABLE)
        self._cache: dict[str, Grant] = {}
        self._guard = threading.Lock()
        self._create_table()

    def _create_table(self) -> None:
        statement = self._sql(
            "CREATE TABLE IF NOT EXISTS {table} ("
            "token_hash TEXT PRIMARY KEY, encounter_id TEXT NOT NULL, role TEXT NOT NULL, "
            "name TEXT NOT NULL, combatants TEXT NOT NULL, issued_at TEXT NOT NULL)"
        )
        try:
            with self._datastore.transaction(commit=True) as cursor:
                cursor.execute(statement)
        except Exception:
            # Two processes starting at once on PostgreSQL can race on CREATE TABLE IF NOT
            # EXISTS; the loser finds the table there on a second try.
            with self._datastore.transaction(commit=True) as cursor:
                cursor.execute(statement)

    def add(self, token_hash: str, grant: Grant) -> None:
        p = self._param
        with self._datastore.transaction(commit=True) as cursor:
            cursor.execute(
                self._sql(f"INSERT INTO {{table}} VALUES ({p}, {p}, {p}, {p}, {p}, {p})"),
                (
                    token_hash,
                    str(grant.encounter_id),
                    grant.role,
                    grant.name,
                    json.dumps(sorted(grant.combatants)),
                    datetime.now(timezone.utc).isoformat(),
                ),
            )

    def names(self, encounter_id: UUID) -> list[str]:
        """The names already issued in an encounter (for telling look-alikes apart)."""
        with self._datastore.transaction(commit=False) as cursor:
            cursor.execute(self._sql(f"SELECT DISTINCT name FROM {{table}} WHERE encounter_id = {self._param}"),
                           (str(encounter_id),))
            rows = cursor.fetchall()
        return [row["name"] if isinstance(row, dict) else row[0] for row in rows]

    def remembered(self, token_hash: str) -> Grant | None:
        """The grant if it was found before (no I/O, so it can be asked on the event loop)."""
        return self._cache.get(token_hash)

    def find(self, token_hash: str) -> Grant | None:
        found = self._cache.get(token_hash)
        if found is not None:
            return found
        with self._datastore.transaction(commit=False) as cursor:
            cursor.execute(
                self._sql(f"SELECT encounter_id, role, name, combatants FROM {{table}} WHERE token_hash = {self._param}"),
                (token_hash,),
            )
            row = cursor.fetchone()
        if row is None:
            return None
        encounter_id, role, name, combatants = (row[k] for k in ("encounter_id", "role", "name", "combatants")) \
            if isinstance(row, dict) else tuple(row)
        grant = Grant(encounter_id=UUID(encounter_id), role=role, name=name, combatants=frozenset(json.loads(combatants)))
        with self._guard:
            if len(self._cache) >= _CACHED:
                self._cache.clear()
            self._cache[token_hash] = grant
        return grant
