"""Which store a `--db` names, as eventsourcing's settings; light enough for the CLI to read at start-up."""

from __future__ import annotations

import os
from pathlib import Path

from combat.kernel.errors import RuleError

__all__ = ["DEFAULT_DB", "DB_ENV", "POSTGRES_SCHEMES", "postgres_env", "store_env"]

DEFAULT_DB = "combat.db"
DB_ENV = "COMBAT_DB"

POSTGRES_SCHEMES = ("postgresql://", "postgres://")


def postgres_env(url: str) -> dict[str, str]:
    """eventsourcing's PostgreSQL settings from a URL, postgresql://[user[:password]@]host[:port]/dbname
    (`?schema=NAME` for POSTGRES_SCHEMA): how `--db` names a PostgreSQL store."""
    from urllib.parse import parse_qs, unquote, urlsplit

    parts = urlsplit(url)
    dbname = unquote(parts.path.lstrip("/"))
    if not parts.hostname or not dbname:
        raise RuleError(
            "store/bad-url",
            f"{url!r} does not name a PostgreSQL database",
            allowed="postgresql://[user[:password]@]host[:port]/dbname",
        )
    env = {
        "PERSISTENCE_MODULE": "eventsourcing.postgres",
        "POSTGRES_HOST": parts.hostname,
        "POSTGRES_PORT": str(parts.port or 5432),
        "POSTGRES_DBNAME": dbname,
        "POSTGRES_USER": unquote(parts.username or "postgres"),
        "POSTGRES_PASSWORD": unquote(parts.password or ""),
    }
    schema = parse_qs(parts.query).get("schema")
    if schema:
        env["POSTGRES_SCHEMA"] = schema[0]
    return env


def store_env(db: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """Settings for eventsourcing: a PostgreSQL URL's, PostgreSQL when configured in the
    environment and no file is named, else SQLite."""
    if isinstance(db, str) and db.startswith(POSTGRES_SCHEMES):
        return postgres_env(db)
    if os.environ.get("PERSISTENCE_MODULE", "").endswith("postgres") and db is None:
        return {}
    path = Path(db or os.environ.get(DB_ENV) or DEFAULT_DB)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "10",
    }
