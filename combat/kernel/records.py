"""One event as it was appended to an encounter's log: what every fold and projection reads.

The store (combat.store.log) writes and reads these; history and the projections need only
this type, not the store's library. `Recorded[E]` decodes its event as `E` (the store uses the
catalog's union of every ruleset's event types).
"""

from __future__ import annotations

from datetime import datetime
from typing import Generic, TypeVar
from uuid import UUID

import msgspec

from combat.kernel.events import Event

__all__ = ["Recorded"]

E = TypeVar("E", bound=Event)


class Recorded(msgspec.Struct, Generic[E], frozen=True, kw_only=True, gc=False, omit_defaults=True):
    """One event as it was appended: `originator_version` is the encounter's seq. Stored as
    its JSON, with the fields that hold their default left out (most records have no
    `request_hash`)."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    actor: str
    command_id: str
    event: E
    # Chained to the previous event's (combat.app.chain); "" in logs written before hashes.
    hash: str = ""
    # On the first record of a command sent with a client's id: what it asked for
    # (combat.app.command_ids.request_hash), so a repeat with another request is refused.
    # Not in the chained bytes nor the export; "" in logs written before it.
    request_hash: str = ""

    @property
    def seq(self) -> int:
        return self.originator_version
