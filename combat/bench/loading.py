"""3. Loading: the state of a short and of a very long encounter, from the store and from the cache.

From the store, a long fight loads from its latest snapshot plus the events after it, so
what it costs depends on how far back that snapshot is: right after one (the best case)
up to SNAPSHOT_INTERVAL - 1 events later (the worst). Both are measured, against the short
fight, which has no snapshot and is folded whole.
"""

from __future__ import annotations

import functools
from pathlib import Path
from typing import Any

from combat.app.application import SNAPSHOT_INTERVAL, Encounters
from combat.bench.fixtures import Fight, long_fight, store_fight
from combat.bench.timing import best_of

__all__ = ["run", "worst_prefix"]


def worst_prefix(fight: Fight, events: int) -> Fight:
    """The longest prefix of `fight` from `events` on that has not yet reached its next snapshot."""
    start = fight.prefix(events)
    total = start.events
    limit = (total // SNAPSHOT_INTERVAL + 1) * SNAPSHOT_INTERVAL
    n = len(start.commands)
    while n < len(fight.commands) and total + len(fight.commands[n]) < limit:
        total += len(fight.commands[n])
        n += 1
    return Fight(fight.commands[:n], {k: s for k, s in fight.snapshots.items() if k <= n}, fight.state)


def run(workdir: Path, small: int, large: int, repeat: int) -> dict[str, Any]:
    big = long_fight(large + SNAPSHOT_INTERVAL)
    fights = {"small": big.prefix(small), "large": big.prefix(large), "large_worst": worst_prefix(big, large)}
    encounters = Encounters(workdir / "loading.db")
    try:
        ids = {name: store_fight(encounters, fight) for name, fight in fights.items()}
        versions = {name: encounters.state(eid).version for name, eid in ids.items()}
        # state(at=version) reads snapshot and events from the store, without the cache.
        cold = {name: best_of(repeat, functools.partial(encounters.state, eid, at=versions[name])) for name, eid in ids.items()}
        warm = {name: best_of(repeat, functools.partial(encounters.state, eid)) for name, eid in ids.items()}
        tails = {}
        for name, eid in ids.items():
            snapshot = encounters.log.latest_snapshot(eid)
            tails[name] = versions[name] - (snapshot.originator_version if snapshot is not None else 0)
    finally:
        encounters.close()
    ratio = cold["large"] / cold["small"]
    ratio_worst = cold["large_worst"] / cold["small"]
    return {
        "small_events": versions["small"],
        "large_events": versions["large"],
        "large_worst_events": versions["large_worst"],
        "events_after_snapshot": tails,
        "snapshot_interval": SNAPSHOT_INTERVAL,
        "cold_ms": {k: v * 1000 for k, v in cold.items()},
        "cached_ms": {k: v * 1000 for k, v in warm.items()},
        "ratio_large_to_small": ratio,
        "ratio_large_worst_to_small": ratio_worst,
        "ratio_cached_large_to_small": warm["large"] / warm["small"],
        "target": "loading the long fight <= 2x the short one (worst case after a snapshot)",
        "met": ratio_worst <= 2,
    }
