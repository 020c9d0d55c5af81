"""A lock per encounter while it is being written (combat.app.keyed_locks): one table's
writes go one at a time, two tables never wait for each other, and no lock outlives the
writes that took it."""

from __future__ import annotations

import threading
import time
from uuid import uuid4

from combat.app.keyed_locks import KeyedLocks


def test_writers_to_one_table_take_turns_and_leave_no_lock_behind():
    """Eight threads each count 500 writes to the same table under its lock: none is lost,
    and once they are done no lock is kept."""
    locks = KeyedLocks(threading.Lock)
    table = uuid4()
    written = [0]

    def writer() -> None:
        for _ in range(500):
            lock = locks.take(table)
            try:
                with lock:
                    seen = written[0]
                    time.sleep(0)  # let another thread run in between, as a commit would
                    written[0] = seen + 1
            finally:
                locks.drop(table)

    threads = [threading.Thread(target=writer) for _ in range(8)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert written[0] == 8 * 500
    assert len(locks) == 0


def test_a_table_being_written_never_holds_up_another_table():
    """One table's write is in progress (its lock held); another table's lock is free at
    once, whatever their ids."""
    locks = KeyedLocks(threading.Lock)
    busy, other = uuid4(), uuid4()
    held = locks.take(busy)
    with held:
        free = locks.take(other)
        assert free.acquire(timeout=1)
        free.release()
        locks.drop(other)
        assert len(locks) == 1
    locks.drop(busy)
    assert len(locks) == 0
