"""Where the embedded store lives by default; light enough for the CLI to read at start-up."""

from __future__ import annotations

__all__ = ["DEFAULT_DB", "DB_ENV"]

DEFAULT_DB = "combat.db"
DB_ENV = "COMBAT_DB"
