"""The append-only log on disk: eventsourcing with a msgspec mapper.

Each stored record is a `Recorded` envelope (encounter id, seq, time, actor, command id)
around one domain event. The default store is SQLite in a file; eventsourcing's
PERSISTENCE_MODULE / POSTGRES_* settings select PostgreSQL instead.
"""

from __future__ import annotations

import os
from datetime import datetime
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.persistence import Mapper, StoredEvent
from eventsourcing.utils import get_topic

from combat.catalog import AnyEvent
from combat.state import EncounterState

__all__ = ["Recorded", "Snapshot", "MsgspecMapper", "EventLog", "DEFAULT_DB", "DB_ENV", "store_env"]

DEFAULT_DB = "combat.db"
DB_ENV = "COMBAT_DB"


class Recorded(msgspec.Struct, frozen=True, kw_only=True):
    """One event as it was appended: `originator_version` is the encounter's seq."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    actor: str
    command_id: str
    event: AnyEvent  # type: ignore[valid-type]

    @property
    def seq(self) -> int:
        return self.originator_version


class Snapshot(msgspec.Struct, frozen=True, kw_only=True):
    """The folded state at `originator_version`, so long fights load without a full replay."""

    originator_id: UUID
    originator_version: int
    timestamp: datetime
    state: EncounterState


class MsgspecMapper(Mapper[UUID]):
    """eventsourcing's default mapper reads `vars(event)`, empty for Structs: encode them whole."""

    _decoders = {get_topic(cls): msgspec.json.Decoder(cls) for cls in (Recorded, Snapshot)}
    _encoder = msgspec.json.Encoder()

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=get_topic(type(domain_event)),
            state=self._encoder.encode(domain_event),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        return self._decoders[stored_event.topic].decode(stored_event.state)


class EventLog(Application[UUID]):
    name = "combat"
    is_snapshotting_enabled = True

    def construct_mapper(self) -> Mapper[UUID]:
        return MsgspecMapper(transcoder=self.construct_transcoder())


def store_env(db: str | os.PathLike[str] | None = None) -> dict[str, str]:
    """Settings for eventsourcing: PostgreSQL when configured in the environment, else SQLite."""
    if os.environ.get("PERSISTENCE_MODULE", "").endswith("postgres") and db is None:
        return {}
    path = Path(db or os.environ.get(DB_ENV) or DEFAULT_DB)
    return {
        "PERSISTENCE_MODULE": "eventsourcing.sqlite",
        "SQLITE_DBNAME": str(path),
        "SQLITE_LOCK_TIMEOUT": "10",
    }
