"""A lock per encounter while it is being written (combat.app.locks): one table's writes go
one at a time, whether they come from threads or the event loop, two tables never wait for
each other, and no lock outlives the writes that took it."""

from __future__ import annotations

import asyncio
import threading
import time
from uuid import uuid4

from combat.app.application import run_sync
from combat.app.locks import EncounterLocks


class _Counted:
    """Writes to one table counted under its lock, each reading the count, letting another
    writer run in between (as a commit would) and writing it plus one: a lost write shows."""

    def __init__(self) -> None:
        self.locks = EncounterLocks()
        self.table = uuid4()
        self.written = 0

    async def write(self, *, blocking: bool, sleep: float = 0) -> None:
        """One write: from a thread (`blocking`) that sleeps `sleep` seconds in the middle, or
        from the event loop, awaiting in the middle."""
        async with self.locks.held(self.table, blocking=blocking):
            seen = self.written
            if blocking:
                time.sleep(sleep)
            else:
                await asyncio.sleep(0)
            self.written = seen + 1


def test_writers_to_one_table_take_turns_and_leave_no_lock_behind():
    """Eight threads each count 500 writes to the same table under its lock: none is lost,
    and once they are done no lock is kept."""
    counted = _Counted()

    def writer() -> None:
        for _ in range(500):
            run_sync(counted.write(blocking=True))

    threads = [threading.Thread(target=writer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert counted.written == 8 * 500
    assert len(counted.locks) == 0


def test_threads_and_the_event_loop_take_turns_on_one_table():
    """Four threads and forty requests on the event loop count writes to one table, each
    yielding in the middle (a thread sleeps, a request awaits a commit): none is lost."""
    counted = _Counted()

    def thread_writer() -> None:
        for _ in range(50):
            run_sync(counted.write(blocking=True, sleep=0.0001))

    async def play() -> None:
        threads = [asyncio.to_thread(thread_writer) for _ in range(4)]
        await asyncio.gather(*threads, *(counted.write(blocking=False) for _ in range(40)))

    asyncio.run(play())
    assert counted.written == 4 * 50 + 40
    assert len(counted.locks) == 0


def test_a_request_that_goes_away_while_waiting_passes_its_turn_on():
    """A request waiting for a busy table is cancelled (its client hung up): the next writer
    still gets the lock, and none is left behind."""
    locks = EncounterLocks()
    table = uuid4()

    async def play() -> list[str]:
        order: list[str] = []
        first_in = asyncio.Event()
        release = asyncio.Event()

        async def holder() -> None:
            async with locks.held(table, blocking=False):
                first_in.set()
                await release.wait()
                order.append("first")

        async def waiter(name: str) -> None:
            async with locks.held(table, blocking=False):
                order.append(name)

        first = asyncio.create_task(holder())
        await first_in.wait()
        gone = asyncio.create_task(waiter("gone"))
        third = asyncio.create_task(waiter("third"))
        await asyncio.sleep(0)
        gone.cancel()
        release.set()
        await asyncio.gather(first, third, return_exceptions=True)
        return order

    assert asyncio.run(play()) == ["first", "third"]
    assert len(locks) == 0


def test_a_table_being_written_never_holds_up_another_table():
    """One table's write is in progress (its lock held); another table's lock is free at
    once, whatever their ids."""
    locks = EncounterLocks()
    busy, other = uuid4(), uuid4()

    async def play() -> int:
        async with locks.held(busy, blocking=False), locks.held(other, blocking=False):
            return len(locks)

    assert asyncio.run(asyncio.wait_for(play(), timeout=1)) == 2
    assert len(locks) == 0
