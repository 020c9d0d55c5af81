"""The statistics read model's tables (docs/stats.md), kept by a follower with its position.

An eventsourcing `TrackingRecorder` (its SQLite or PostgreSQL one, in the encounters' store and
connection pool) that also holds the read model's tables: `append` writes a batch's rows,
re-decides which rows still count for the encounters whose history moved, and records the
follower's position, all in one transaction, so a follower killed anywhere applies each event
once (eventsourcing's `Projection` pattern: a view whose rows and tracking commit together).
What it reads is combat.store.party.follow's loop over every partition's notification log:
eventsourcing's `ProjectionRunner` needs subscriptions, which its SQLite recorder lacks, so the
same pull loop runs on both stores (docs/stats.md says what runs where).

The tables' names and columns are declared here (`COLUMNS`, `KEYS`); what goes into them is the
policy's (combat.stats.rows).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any

from eventsourcing.persistence import IntegrityError, Tracking
from eventsourcing.sqlite import SQLiteTrackingRecorder

from combat.store import SeqTaken
from combat.store.schema import create_process_tables, is_postgres

__all__ = ["COLUMNS", "KEYS", "EVENT_TABLES", "INTEGER_COLUMNS", "StatsTables", "TRACKING_TABLE"]

# Every event table also has `counted` (1 unless the event was undone, retracted or amended away).
COLUMNS: dict[str, tuple[str, ...]] = {
    "stats_encounters": ("encounter", "campaign", "name", "ruleset", "kind", "round", "command", "actor"),
    "stats_combatants": ("encounter", "combatant", "name", "kind", "side", "player", "character"),
    "stats_rolls": (
        "encounter", "seq", "n", "campaign", "round", "roller", "purpose", "notation",
        "sides", "faces", "kept", "total", "natural_d20", "source",
    ),
    "stats_attacks": (
        "encounter", "seq", "n", "campaign", "round", "attacker", "target", "attack",
        "hit", "critical", "roll_mode", "natural", "total", "target_ac",
    ),
    "stats_damage": ("encounter", "seq", "n", "campaign", "round", "source", "via", "target", "damage_type", "rolled", "dealt"),
    "stats_spells": ("encounter", "seq", "n", "campaign", "round", "caster", "spell", "level", "slot"),
    "stats_saves": ("encounter", "seq", "n", "campaign", "round", "combatant", "ability", "dc", "total", "success", "source"),
    "stats_conditions": ("encounter", "seq", "n", "campaign", "round", "target", "condition", "change", "source", "reason"),
    "stats_turns": ("encounter", "seq", "n", "campaign", "round", "combatant", "change", "at"),
    "stats_history": ("encounter", "seq", "n", "campaign", "kind", "seqs", "reason", "actor", "at", "about"),
}  # fmt: skip
KEYS: dict[str, tuple[str, ...]] = {
    "stats_encounters": ("encounter",),
    "stats_combatants": ("encounter", "combatant"),
    **{t: ("encounter", "seq", "n") for t in COLUMNS if t not in ("stats_encounters", "stats_combatants")},
}
EVENT_TABLES = tuple(t for t in COLUMNS if KEYS[t] == ("encounter", "seq", "n"))
INTEGER_COLUMNS = frozenset(
    ("seq", "n", "round", "total", "natural_d20", "natural", "target_ac", "rolled", "dealt", "level", "slot", "dc")
    + ("hit", "critical", "success")
)
TRACKING_TABLE = "stats_tracking"  # PostgreSQL's; on SQLite every tracker shares eventsourcing's `tracking`


def _create_statements(prefix: str) -> list[str]:
    out = []
    for table, columns in COLUMNS.items():
        # Quoted: `natural` is a reserved word in PostgreSQL.
        cols = [f'"{c}" {"BIGINT" if c in INTEGER_COLUMNS else "TEXT"}' for c in columns]
        if table in EVENT_TABLES:
            cols.append("counted INTEGER NOT NULL DEFAULT 1")
        out.append(f"CREATE TABLE IF NOT EXISTS {prefix}{table} ({', '.join(cols)}, PRIMARY KEY ({', '.join(KEYS[table])}))")
    return out


class _SQLiteStats(SQLiteTrackingRecorder):
    def construct_create_table_statements(self) -> list[str]:
        return [*super().construct_create_table_statements(), *_create_statements("")]


def _postgres_recorder(datastore: Any) -> Any:
    from eventsourcing.postgres import PostgresTrackingRecorder  # psycopg is an optional extra
    from psycopg.sql import SQL

    recorder = PostgresTrackingRecorder(datastore, tracking_table_name=TRACKING_TABLE)
    prefix = f'"{datastore.schema}".' if datastore.schema else ""
    recorder.sql_create_statements.extend(SQL(s) for s in _create_statements(prefix))  # type: ignore[misc]
    return recorder


class StatsTables:
    """The read model on one datastore: `append` (rows, recount and position in one
    transaction), `position`, `select`, and `clear` for a rebuild."""

    def __init__(self, datastore: Any, *, create: bool = True) -> None:
        self.datastore = datastore
        self.postgres = is_postgres(datastore)
        self.recorder: Any = _postgres_recorder(datastore) if self.postgres else _SQLiteStats(datastore)
        self._prefix = f'"{datastore.schema}".' if self.postgres and datastore.schema else ""
        if create:
            create_process_tables(self.recorder, "the statistics tables")

    def _sql(self, text: str) -> str:
        text = re.sub(r"\b(stats_\w+|tracking)\b", lambda m: self._prefix + m.group(1), text) if self._prefix else text
        return text.replace("?", "%s") if self.postgres else text

    def position(self, name: str) -> int:
        """The last notification id of partition-follower `name` applied here (0: none)."""
        return self.recorder.max_tracking_id(name) or 0

    def append(self, batch: Any, *, tracking: tuple[str, int]) -> None:
        """A batch (`tables`: rows by table; `recount`: encounter -> the seqs that no longer
        count, for encounters whose history moved) with the position reached, in one
        transaction; SeqTaken if that position was recorded already (another follower was first)."""
        try:
            with self.datastore.transaction(commit=True) as cursor:
                self._write(cursor, batch.tables, batch.recount)
                self.recorder._insert_tracking(cursor, Tracking(*tracking))
        except IntegrityError:
            raise SeqTaken(None, tracking[1]) from None

    def _write(
        self, cursor: Any, tables: Mapping[str, Sequence[Mapping[str, Any]]], recount: Mapping[str, Iterable[int]]
    ) -> None:
        for table, rows in tables.items():
            if not rows:
                continue
            columns = COLUMNS[table]
            keys = KEYS[table]
            names = ", ".join(f'"{c}"' for c in columns)
            updates = ", ".join(f'"{c}" = excluded."{c}"' for c in columns if c not in keys)
            statement = self._sql(
                f"INSERT INTO {table} ({names}) VALUES ({', '.join('?' * len(columns))}) "
                f"ON CONFLICT ({', '.join(keys)}) DO UPDATE SET {updates}"
            )
            cursor.executemany(statement, [tuple(_value(row.get(c)) for c in columns) for row in rows])
        for encounter, gone in recount.items():
            seqs = sorted(set(gone))
            for table in EVENT_TABLES:
                if seqs:
                    marks = ", ".join("?" * len(seqs))
                    statement = f"UPDATE {table} SET counted = CASE WHEN seq IN ({marks}) THEN 0 ELSE 1 END WHERE encounter = ?"
                    cursor.execute(self._sql(statement), (*seqs, encounter))
                else:
                    cursor.execute(self._sql(f"UPDATE {table} SET counted = 1 WHERE encounter = ?"), (encounter,))

    def select(self, table: str, *, encounters: Sequence[str] | None = None, counted: bool = True) -> list[dict[str, Any]]:
        """A table's rows (of these encounters; only those that count), in log order."""
        where: list[str] = []
        params: list[Any] = []
        if encounters is not None:
            if not encounters:
                return []
            where.append(f"encounter IN ({', '.join('?' * len(encounters))})")
            params.extend(encounters)
        if counted and table in EVENT_TABLES:
            where.append("counted = 1")
        order = " ORDER BY " + ", ".join(KEYS[table])
        statement = f"SELECT * FROM {table}" + (" WHERE " + " AND ".join(where) if where else "") + order
        with self.datastore.transaction(commit=False) as cursor:
            cursor.execute(self._sql(statement), tuple(params))
            return [_row(r, table) for r in cursor.fetchall()]

    def clear(self, follower: str) -> None:
        """Every row gone and every position of `follower` forgotten, in one transaction: the
        next follow rebuilds the model from the logs."""
        with self.datastore.transaction(commit=True) as cursor:
            for table in COLUMNS:
                cursor.execute(self._sql(f"DELETE FROM {table}"))
            tracking = TRACKING_TABLE if self.postgres else "tracking"
            cursor.execute(self._sql(f"DELETE FROM {tracking} WHERE application_name LIKE ?"), (f"{follower}<-%",))


def _value(value: Any) -> Any:
    return int(value) if isinstance(value, bool) else value


def _row(raw: Any, table: str) -> dict[str, Any]:
    row = dict(raw) if isinstance(raw, dict) else {k: raw[k] for k in raw.keys()}  # noqa: SIM118 (an sqlite3.Row iterates its values)
    for name in ("hit", "critical", "success"):
        if name in row and row[name] is not None:
            row[name] = bool(row[name])
    return row
