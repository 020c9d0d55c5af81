"""The party's store: each character's log, in its own table beside the encounters'.

An eventsourcing application named `party` sharing the encounters' connection pool; its
records are one msgspec struct type (the use case's, `combat.app.party.PartyRecord`),
stored whole under one topic.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar
from uuid import UUID

import msgspec
from eventsourcing.persistence import ApplicationRecorder, IntegrityError, Mapper, StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteFactory

from combat.store import SeqTaken
from combat.store.log import SharedPool

__all__ = ["PartyLog", "TABLE", "TOPIC"]

TABLE = "party_events"
TOPIC = "combat.party:Record"
R = TypeVar("R")


class _Mapper(Mapper[UUID], Generic[R]):
    def __init__(self, record_type: type[R], **kwargs: Any):
        super().__init__(**kwargs)
        self._decoder = msgspec.json.Decoder(record_type)
        self._encoder = msgspec.json.Encoder()

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        return StoredEvent(
            originator_id=domain_event.originator_id,
            originator_version=domain_event.originator_version,
            topic=TOPIC,
            state=self._encoder.encode(domain_event),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        return self._decoder.decode(stored_event.state)


class PartyLog(SharedPool, Generic[R]):
    """Every character's log: `records(id)`, `append(record)`, `originators()`."""

    name = "party"

    def __init__(self, env: Any, record_type: type[R], *, datastore: Any = None) -> None:
        self._record_type = record_type
        super().__init__(env, datastore=datastore)

    def construct_mapper(self) -> Mapper[UUID]:
        return _Mapper(self._record_type, transcoder=self.construct_transcoder())

    def construct_recorder(self) -> ApplicationRecorder:
        # eventsourcing's SQLite factory names every application's table `stored_events`
        # (its PostgreSQL factory names it after the application: `party_events`); the
        # party's rows must not mingle with the encounters', which listing and the streams
        # read whole.
        if isinstance(self.factory, SQLiteFactory):
            return self.create_tables(SQLiteApplicationRecorder(self.factory.datastore, events_table_name=TABLE))
        return super().construct_recorder()  # its tables made by SharedPool.create_tables too

    def records(self, originator_id: UUID) -> list[R]:
        return list(self.events.get(originator_id))  # type: ignore[arg-type]

    def append(self, record: Any) -> None:
        """One record; SeqTaken if its version is taken (someone else changed the character)."""
        try:
            self.events.put([record])
        except IntegrityError:
            raise SeqTaken(record.originator_id, record.originator_version) from None

    def originators(self) -> list[UUID]:
        """Every character's id, in the order they were first stored."""
        ids: dict[UUID, None] = {}
        start = 1
        while True:
            page = self.recorder.select_notifications(start=start, limit=500)
            for n in page:
                ids[UUID(str(n.originator_id))] = None
            if len(page) < 500:
                return list(ids)
            start = page[-1].id + 1
