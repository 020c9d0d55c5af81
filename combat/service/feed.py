"""Following the log: who is told when an encounter's log grows.

A stream never trusts a notification for its content: when woken it reads the encounter's
records after the last seq it sent, from the store, so nothing is lost, repeated or
reordered even if a wake-up is missed. The followers only make it prompt:

- on PostgreSQL, one connection per process LISTENs on every partition's channel
  (combat.app.partitions); each append's NOTIFY, sent by any process, names the encounters
  that moved (combat.app.postgres_recorder), so their streams are rung without reading the
  notification log;
- on SQLite (no subscriptions there), this process's own appends ring its streams at once,
  and a thread pulls the notification log with the reader of eventsourcing's `system`
  module every `interval` seconds for other writers on the same file.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from typing import Any, Protocol
from uuid import UUID

from eventsourcing.system import NotificationLogReader

from combat.app.partitions import PartitionedLog
from combat.app.store import EventLog
from combat.service.logging import log
from combat.service.token_store import store_kind

__all__ = ["Hub", "Waiter", "Follower", "Followers", "follower_for"]


class Waiter:
    """One stream's doorbell, rung from any thread, awaited in the stream's event loop."""

    def __init__(self, loop: asyncio.AbstractEventLoop):
        self._loop = loop
        self._rung = asyncio.Event()

    def ring(self) -> None:
        if not self._loop.is_closed():
            self._loop.call_soon_threadsafe(self._rung.set)

    def clear(self) -> None:
        self._rung.clear()

    async def wait(self, timeout: float) -> bool:
        try:
            await asyncio.wait_for(self._rung.wait(), timeout)
        except TimeoutError:
            return False
        return True


class Hub:
    """The waiting streams of this process, by encounter."""

    def __init__(self) -> None:
        self._waiters: dict[UUID, set[Waiter]] = defaultdict(set)
        self._guard = threading.Lock()
        self.closed = False

    def subscribe(self, encounter_id: UUID) -> Waiter:
        waiter = Waiter(asyncio.get_running_loop())
        with self._guard:
            self._waiters[encounter_id].add(waiter)
        return waiter

    def unsubscribe(self, encounter_id: UUID, waiter: Waiter) -> None:
        with self._guard:
            waiters = self._waiters.get(encounter_id)
            if waiters is not None:
                waiters.discard(waiter)
                if not waiters:
                    del self._waiters[encounter_id]

    def watched(self) -> bool:
        """Whether any stream of this process is waiting at all."""
        return bool(self._waiters)

    def advanced(self, encounter_id: UUID) -> None:
        with self._guard:
            waiters = list(self._waiters.get(encounter_id, ()))
        for waiter in waiters:
            waiter.ring()

    def advanced_all(self) -> None:
        with self._guard:
            waiters = [w for ws in self._waiters.values() for w in ws]
        for waiter in waiters:
            waiter.ring()

    def close(self) -> None:
        """Wake every stream so it sees `closed` and ends (the server is stopping)."""
        self.closed = True
        with self._guard:
            waiters = [w for ws in self._waiters.values() for w in ws]
        for waiter in waiters:
            waiter.ring()


class Follower(Protocol):
    def poke(self, encounter_id: UUID) -> None: ...
    def stop(self) -> None: ...


class PostgresFollower:
    """Listens on the channels of the partitions sharing one connection pool, on one
    connection: each NOTIFY's payload names the encounters that moved
    (combat.app.postgres_recorder), whose streams are rung; nothing is read from the store. A
    NOTIFY without a payload (sent by eventsourcing's own recorder) rings every stream."""

    def __init__(self, logs: list[EventLog], hub: Hub, timeout: float = 0.5):
        from combat.app.postgres_recorder import PAYLOAD_SEPARATOR  # psycopg is an optional extra

        self._separator = PAYLOAD_SEPARATOR
        self._datastore: Any = logs[0].recorder.datastore  # type: ignore[attr-defined]
        self._channels = [log.recorder.channel_name for log in logs]  # type: ignore[attr-defined]
        self._hub = hub
        self._timeout = timeout
        self._stopping = threading.Event()
        self._listening = threading.Event()
        self._thread = threading.Thread(target=self._run, name="combat-log-listen", daemon=True)
        self._thread.start()
        # Streams opened once the server is up are then woken by the first append after.
        self._listening.wait(10)

    def poke(self, encounter_id: UUID) -> None:
        """Nothing to do: the append's NOTIFY reaches this process too, as it does the others."""

    def _run(self) -> None:
        while not self._stopping.is_set():
            try:
                self._listen()
            except Exception as exc:  # the server restarting: streams re-read the store meanwhile
                log.warning("log listen failed", error=type(exc).__name__)
                self._stopping.wait(1.0)

    def _listen(self) -> None:
        from psycopg.sql import SQL, Identifier

        # A connection of its own, made as the pool makes them, not one taken from the pool.
        with self._datastore.pool._connect() as conn:
            for channel in self._channels:
                conn.execute(SQL("LISTEN {}").format(Identifier(channel)))
            self._listening.set()
            while not self._stopping.is_set():
                for notify in conn.notifies(timeout=self._timeout):
                    self._ring(notify.payload)

    def _ring(self, payload: str) -> None:
        if not payload:
            self._hub.advanced_all()
            return
        for text in payload.split(self._separator):
            try:
                encounter_id = UUID(text)
            except ValueError:
                continue
            self._hub.advanced(encounter_id)

    def stop(self) -> None:
        self._stopping.set()
        self._thread.join(timeout=5)


class SQLiteFollower:
    def __init__(self, log: EventLog, hub: Hub, interval: float = 0.5):
        self._reader = NotificationLogReader(log.notification_log)
        self._recorder = log.recorder
        self._position = log.recorder.max_notification_id() or 0
        self._hub = hub
        self._interval = interval
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._thread = threading.Thread(target=self._run, name="combat-log-pull", daemon=True)
        self._thread.start()

    def poke(self, encounter_id: UUID) -> None:
        """This process appended: ring its streams now, rather than read back what it wrote."""
        self._hub.advanced(encounter_id)

    def _run(self) -> None:
        while not self._stopping.is_set():
            self._wake.wait(self._interval)
            self._wake.clear()
            try:
                self._pull()
            except Exception as exc:  # the store may be briefly locked; streams also re-read on their own
                log.warning("log pull failed", error=type(exc).__name__)

    def _pull(self) -> None:
        if not self._hub.watched():
            latest = self._recorder.max_notification_id() or self._position
            if not self._hub.watched():
                # Nobody to ring: skip what was appended up to now instead of reading it. A
                # stream that subscribes after this reads the store itself before it waits.
                self._position = latest
                return
        for notifications in self._reader.select(start=self._position, inclusive_of_start=False):
            for notification in notifications:
                self._hub.advanced(UUID(str(notification.originator_id)))
                self._position = notification.id

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        self._thread.join(timeout=5)


class Followers:
    """One follower per partition of the store."""

    def __init__(self, followers: list[Follower]):
        self._followers = followers

    def poke(self, encounter_id: UUID) -> None:
        for follower in self._followers:
            follower.poke(encounter_id)

    def stop(self) -> None:
        for follower in self._followers:
            follower.stop()


def follower_for(log: PartitionedLog, hub: Hub) -> Follower:
    if store_kind(log.home) != "postgres":
        return SQLiteFollower(log.home, hub)  # an SQLite store is one partition
    # One listener per connection pool: partitions configured apart may be on other servers.
    pools: dict[int, list[EventLog]] = {}
    for part in log.parts:
        pools.setdefault(id(part.recorder.datastore), []).append(part)  # type: ignore[attr-defined]
    started: list[Follower] = []
    try:
        for parts in pools.values():
            started.append(PostgresFollower(parts, hub))
    except BaseException:
        Followers(started).stop()
        raise
    return Followers(started)
