"""9. The statistics projection (docs/stats.md): rebuilding its tables from a store of N events,
how far it lags behind the write path, and what it costs the write path while it runs.

- rebuild: a stored fight of N events (100,000 in the full run), `combat stats rebuild`'s
  call timed: every row and position dropped, every event folded into rows again;
- lag: commands played one at a time while a follower thread pulls the notification log every
  `interval`; each command's lag is from its commit until the follower's committed position
  passes it (the follower runs in the same process, as it does under `combat serve`);
- cost: the same commands' wall time with and without that follower running, as a ratio.
"""

from __future__ import annotations

import threading
import time
from pathlib import Path
from typing import Any

from combat.app.application import Encounters
from combat.bench.fixtures import TARGETS, long_fight, store_fight
from combat.bench.timing import percentile
from combat.kernel.commands import Attack, EndTurn, Move
from combat.stats.projection import FOLLOWER
from combat.store.party import tracking_name

__all__ = ["run"]


def _play(encounters: Encounters, commands: int, on_commit: Any = None) -> float:
    """Wall time of `commands` move/attack/end-turn commands on a fresh short fight."""
    eid = store_fight(encounters, long_fight(50))
    state = encounters.state(eid)
    began = time.perf_counter()
    done = 0
    while done < commands:
        cid = state.turn
        assert cid is not None
        for command in (Move(combatant=cid, feet=5), Attack(attacker=cid, target=TARGETS[cid]), EndTurn(combatant=cid)):
            outcome = encounters.execute(eid, command)
            state = outcome.state
            if on_commit is not None:
                on_commit()
            done += 1
    return time.perf_counter() - began


def run(workdir: Path, events: int, commands: int, interval: float = 0.05) -> dict[str, Any]:
    encounters = Encounters(workdir / "stats.db")
    try:
        store_fight(encounters, long_fight(events), snapshots=False)
        read, rebuild_s = encounters.stats.rebuild()
        without = _play(encounters, commands)
        encounters.stats.fresh()
        name = tracking_name(FOLLOWER, encounters.log.home)
        recorder = encounters.log.home.recorder
        lags: list[float] = []
        stop = threading.Event()

        def follower() -> None:
            while not stop.is_set():
                encounters.stats.fresh()
                stop.wait(interval)

        def wait_for_follower() -> None:
            head, began = recorder.max_notification_id() or 0, time.perf_counter()
            while encounters.stats.tables.position(name) < head:
                time.sleep(0.001)
            lags.append(time.perf_counter() - began)

        thread = threading.Thread(target=follower, daemon=True)
        thread.start()
        try:
            with_follower = _play(encounters, commands)
            _play(encounters, max(1, commands // 10), on_commit=wait_for_follower)
        finally:
            stop.set()
            thread.join()
        return {
            "events": read,
            "rebuild_s": rebuild_s,
            "rebuild_events_per_s": read / rebuild_s if rebuild_s else 0.0,
            "commands": commands,
            "interval_s": interval,
            "lag_p50_ms": percentile(lags, 50) * 1000,
            "lag_p99_ms": percentile(lags, 99) * 1000,
            "write_ratio_with_follower": without / with_follower if with_follower else 0.0,
        }
    finally:
        encounters.close()
