"""The statistics follower on its own (`combat stats follow`): the read model kept up to date by
a process other than the writers', until it is told to stop.

The same follower as everywhere (combat.store.party.follow: each batch's rows and position in
one transaction, so a kill -9 counts nothing twice and several followers at once are safe);
what is new here is only what wakes it. Another process's appends cannot poke it, so on SQLite
(no subscriptions) it looks every `interval` seconds (250 ms unless told), and on PostgreSQL it
LISTENs on every partition's channel (combat.store.follow's listener: each append's NOTIFY
wakes it at once), looking every `interval` (a second unless told) as well in case a NOTIFY
was missed while it reconnected. Two passes are at least `GAP` apart, so under a stream of
writes each pass takes in a batch.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any
from uuid import UUID

import structlog

from combat.kernel.errors import RuleError
from combat.stats.settings import LISTEN_FALLBACK, POLL_SECONDS
from combat.store.follow import Follower, follower_for

__all__ = ["StatsFollower"]

log = structlog.get_logger("combat.stats")

GAP = 0.25  # seconds: the least time between two passes (each takes in a batch: fewer, larger commits)


class _Wake:
    """What the PostgreSQL listener tells (its `Listeners`): any append wakes the follower."""

    def __init__(self, wake: threading.Event):
        self._wake = wake

    def watched(self) -> bool:
        return True

    def advanced(self, encounter_id: UUID) -> None:
        self._wake.set()

    def advanced_all(self) -> None:
        self._wake.set()


class StatsFollower:
    """`run` follows until `stop` (from any thread, a signal handler's included); `read` is
    how many events it took in."""

    def __init__(self, encounters: Any, *, interval: float | None = None, ready: Callable[[int], None] | None = None):
        if encounters.log.in_memory:
            raise RuleError(
                "stats/follow-in-memory",
                "a store in memory is this process's alone: no other process can follow it",
                allowed="an SQLite file or PostgreSQL (--db)",
            )
        self._encounters = encounters
        postgres = encounters.log.kind == "postgres"
        self._interval = interval if interval is not None else LISTEN_FALLBACK if postgres else POLL_SECONDS
        self._ready = ready
        self._stopping = threading.Event()
        self._wake = threading.Event()
        self.read = 0

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()

    def run(self) -> None:
        stats = self._encounters.stats
        listener: Follower | None = None
        if self._encounters.log.kind == "postgres":
            listener = follower_for(self._encounters.log, _Wake(self._wake))
        try:
            self._pass(stats)
            if self._ready is not None:
                self._ready(self.read)
            gap = min(GAP, self._interval)
            while not self._stopping.is_set():
                self._stopping.wait(gap)
                # Woken by a NOTIFY (PostgreSQL) or a stop; else the wait ends in a look anyway.
                self._wake.wait(self._interval - gap)
                if not self._stopping.is_set():
                    self._pass(stats)
        finally:
            if listener is not None:
                listener.stop()

    def _pass(self, stats: Any) -> None:
        self._wake.clear()  # an append from now on wakes the next pass
        try:
            self.read += stats.fresh(self._stopping.is_set)
        except Exception as exc:  # the store restarting or briefly locked: the next pass reads on
            log.warning("stats follower failed", error=f"{type(exc).__name__}: {exc}")
