"""Following the log: who is told when an encounter's log grows.

A stream never trusts a notification for its content: when woken it reads the encounter's
records after the last seq it sent, from the store, so nothing is lost, repeated or
reordered even if a wake-up is missed. The followers only make it prompt:

- on PostgreSQL, eventsourcing's projection runner follows each partition's notification
  log (combat.app.partitions) over LISTEN/NOTIFY, one runner per partition, so an append by
  any process to any partition wakes the streams of every process;
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

from eventsourcing.persistence import Tracking
from eventsourcing.popo import POPOTrackingRecorder
from eventsourcing.projection import BaseProjectionRunner, Projection
from eventsourcing.system import NotificationLogReader

from combat.service.logging import log
from combat.service.token_store import store_kind
from combat.kernel.records import Recorded
from combat.app.partitions import PartitionedLog
from combat.app.store import TOPICS, EventLog

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
        except asyncio.TimeoutError:
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


class _Doorbells(Projection[POPOTrackingRecorder]):
    """A projection whose view is only the position reached: each event rings its encounter."""

    name = "combat_stream_doorbells"
    topics = (TOPICS[Recorded],)

    def __init__(self, view: POPOTrackingRecorder, hub: Hub):
        super().__init__(view)
        self.hub = hub

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        self.hub.advanced(domain_event.originator_id)
        self.view.insert_tracking(tracking)


class PostgresFollower:
    def __init__(self, log: EventLog, hub: Hub):
        view = POPOTrackingRecorder()
        # Start at the end of the log: streams catch up from the store, not from here.
        position = log.recorder.max_notification_id()
        if position:
            view.insert_tracking(Tracking(application_name=log.name, notification_id=position))
        self._runner = BaseProjectionRunner(
            projection=_Doorbells(view, hub),
            application_class=type(log),
            tracking_recorder=view,
            topics=_Doorbells.topics,
            # One connection listens, one reads what was notified: no need for the full pool.
            env={**log.env, "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "1"},
        )
        self._runner.__enter__()

    def poke(self, encounter_id: UUID) -> None:
        """Nothing to do: the append's NOTIFY reaches the runner, as it does other processes'."""

    def stop(self) -> None:
        self._runner.__exit__(None, None, None)


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
    started: list[Follower] = []
    try:
        for part in log.parts:
            started.append(PostgresFollower(part, hub))
    except BaseException:
        Followers(started).stop()
        raise
    return Followers(started)
