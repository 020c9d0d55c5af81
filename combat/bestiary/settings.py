"""Where the GM's own stat blocks are kept: the local store's file and the variable naming it.
Its own module so that `combat --help` reads them without loading the bestiary."""

from __future__ import annotations

__all__ = ["STORE_ENV", "DEFAULT_STORE"]

STORE_ENV = "COMBAT_BESTIARY"
DEFAULT_STORE = "combat-bestiary.json"
