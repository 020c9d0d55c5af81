"""Who is told when an encounter's log grows: the streams waiting on this process.

A stream never trusts a wake-up for its content: when woken it reads the encounter's records
after the last seq it sent, from the store, so nothing is lost, repeated or reordered even
if a wake-up is missed. The store's followers (combat.store.follow) ring the `Hub` when an
encounter moves; they only make a stream prompt.
"""

from __future__ import annotations

import asyncio
import threading
from collections import defaultdict
from uuid import UUID

__all__ = ["Hub", "Waiter"]


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
