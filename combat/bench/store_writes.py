"""4c. Writes to the PostgreSQL store alone, without HTTP: P processes, each with T threads
appending rulings to its own encounters through `Encounters`, on a new store of N
partitions. What the partitions change is the time writers wait on each other's table lock;
the service's own CPU (which the HTTP runs of 4b also measure) is left out.
"""

from __future__ import annotations

import multiprocessing
import threading
import time
from typing import Any

from combat.bench import servers

__all__ = ["run"]

STARTUP = 4.0  # seconds for a spawned process to import and connect


def _writer(env: dict[str, str], ids: list[str], start_at: float, stop_at: float, done: Any) -> None:
    from uuid import UUID

    from combat.app.application import Encounters
    from combat.kernel.commands import Ruling

    encounters = Encounters(env=env)
    counts: list[int] = []
    for eid in ids:  # loaded before the window opens
        encounters.state(UUID(eid))
    time.sleep(max(0.0, start_at - time.time()))

    def write(eid: UUID) -> None:
        n = 0
        while time.time() < stop_at:
            encounters.execute(eid, Ruling(text=f"ruling {n}"))
            n += 1
        counts.append(n)

    threads = [threading.Thread(target=write, args=(UUID(eid),)) for eid in ids]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    encounters.close()
    done.put(sum(counts))


def _rate(partitions: int, processes: int, threads: int, seconds: float) -> float:
    from combat.app.application import Encounters

    with servers.postgres_schema(partitions) as env:
        setup = Encounters(env=env)
        try:
            ids = [str(setup.create("srd-2024", f"writer table {n}", seed=n)) for n in range(processes * threads)]
        finally:
            setup.close()
        context = multiprocessing.get_context("spawn")
        done = context.Queue()
        # Every process writes in the same window of wall-clock time, once all have started.
        start_at = time.time() + STARTUP
        workers = [
            context.Process(target=_writer, args=(env, ids[p::processes], start_at, start_at + seconds, done))
            for p in range(processes)
        ]
        for worker in workers:
            worker.start()
        total = sum(done.get(timeout=STARTUP + seconds + 60) for _ in workers)
        for worker in workers:
            worker.join()
    return total / seconds


def run(seconds: float, threads: int = 4, curve: tuple[int, ...] = (1, 4)) -> dict[str, Any]:
    rates = {f"{p} process(es), {n} partition(s)": _rate(n, p, threads, seconds) for n in curve for p in (1, 2)}
    return {"threads_per_process": threads, "seconds": seconds, "commands_per_s": rates}
