"""The service's command threads are joined when it stops (issue 25, finding 6: "After a
full test run, 7 worker threads are still alive at interpreter exit, a known cause of the
unexplained 'Fatal Python error' the suite hit once")."""

from __future__ import annotations

import asyncio
import threading
import time

from litestar.testing import TestClient

from combat.app.application import Encounters
from combat.kernel.commands import AddCombatant
from combat.service import create_app
from combat.service.workers import Workers
from tests.helpers import pc
from tests.service.helpers import open_fight


def _alive(prefix: str) -> list[str]:
    return [t.name for t in threading.enumerate() if t.name.startswith(prefix)]


def test_close_lets_queued_jobs_finish_then_joins_every_thread_and_a_later_job_starts_new_ones():
    workers = Workers(4, "test-workers")
    done: list[int] = []

    def job(i: int) -> int:
        time.sleep(0.01)
        done.append(i)
        return i

    async def send(n: int) -> list[int]:
        return list(await asyncio.gather(*(workers.run(lambda i=i: job(i)) for i in range(n))))

    assert asyncio.run(send(12)) == list(range(12))
    assert len(_alive("test-workers")) == 4
    workers.close()
    assert _alive("test-workers") == [] and sorted(done) == list(range(12))
    assert asyncio.run(send(3)) == [0, 1, 2]
    workers.close()
    assert _alive("test-workers") == []


def test_a_service_whose_commands_run_in_threads_leaves_none_running_when_it_stops():
    encounters = Encounters(":memory:")  # SQLite in memory: commands go to the worker threads
    try:
        with TestClient(create_app(encounters)) as http:  # type: ignore[arg-type]
            # One command is enough to start the threads (a whole scene met a 503 under load:
            # SQLite in memory shares one locked cache between the threads and the stream's reader).
            open_fight(http).do(AddCombatant(combatant=pc("aria")))
            assert _alive("combat-command")
        assert _alive("combat-command") == []
    finally:
        encounters.close()
