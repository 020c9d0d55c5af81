"""9. The statistics projection (docs/stats.md): rebuilding its tables from a store of N events,
how far it lags behind the write path, and what it costs the write path while it runs, with
the follower where `combat serve --stats-follower` may put it.

- rebuild: a stored fight of N events (100,000 in the full run), `combat stats rebuild`'s
  call timed: every row and position dropped, every event folded into rows again;
- the write path: `commands` move/attack/end-turn commands played one after another on a
  fresh short fight of the same SQLite file, timed (wall, and this process's CPU) three ways:
  `none` (no follower), `thread` (combat.app.followers' thread in this process, poked by each
  append, as `combat serve` runs it) and `process` (`combat stats follow` as a child,
  combat.app.follower_process, looking every `interval`, 50 ms), and `process_slow` (the
  same child looking every `slow_interval`, 250 ms, as `combat serve` runs it unless told:
  fewer, larger batches, a longer lag). They
  take turns within each round, in an order rotated round by round, so a machine that gets busier or quieter during
  the run weighs on each alike; each mode's ratio is taken against `none` in the same round,
  and the median over the rounds is reported with the lowest and highest;
- lag: after the timed commands, a tenth as many more, each waited for until the follower's
  committed position passes it (from its commit: the pass's wait, its batch and its commit).
"""

from __future__ import annotations

import resource
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from pathlib import Path
from statistics import median
from typing import Any

from combat.app.application import Encounters
from combat.app.follower_process import FollowerProcess
from combat.app.followers import FollowerThread
from combat.bench.fixtures import TARGETS, long_fight, store_fight
from combat.bench.timing import percentile
from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack
from combat.kernel.commands import EndTurn
from combat.stats.projection import FOLLOWER
from combat.stats.settings import POLL_SECONDS
from combat.store.party import tracking_name

__all__ = ["run", "MODES"]

MODES = ("none", "thread", "process", "process_slow")
FAST_INTERVAL = 0.05  # seconds: a child looking 5x more often than by default


def _play(encounters: Encounters, commands: int, on_commit: Callable[[], None] | None = None) -> tuple[float, float]:
    """Wall and CPU time of this process for `commands` move/attack/end-turn commands on a fresh short fight."""
    eid = store_fight(encounters, long_fight(50))
    state = encounters.state(eid)
    began, cpu = time.perf_counter(), time.process_time()
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
    return time.perf_counter() - began, time.process_time() - cpu


def _children_cpu() -> float:
    used = resource.getrusage(resource.RUSAGE_CHILDREN)
    return used.ru_utime + used.ru_stime


@contextmanager
def _follower(mode: str, encounters: Encounters, interval: float, spent: list[float]) -> Iterator[None]:
    """The stats follower running as `mode` says (caught up before this yields); the child's
    CPU seconds (start-up included) are added to `spent`."""
    if mode == "none":
        yield
    elif mode == "thread":
        stats = encounters.stats
        thread = FollowerThread([(stats.fresh, stats.behind)])
        encounters.on_appended = lambda encounter_id, state: thread.poke()
        try:
            thread.caught_up(60)
            yield
        finally:
            encounters.on_appended = None
            thread.stop()
    else:
        before = _children_cpu()
        child = FollowerProcess(encounters.settings, interval=interval)
        try:
            if not child.ready(120):
                raise RuntimeError("combat stats follow did not start within 120 s")
            yield
        finally:
            child.stop()
            spent.append(_children_cpu() - before)


def run(
    workdir: Path,
    events: int,
    commands: int,
    rounds: int = 15,
    interval: float = FAST_INTERVAL,
    slow_interval: float = POLL_SECONDS,
) -> dict[str, Any]:
    encounters = Encounters(workdir / "stats.db")
    try:
        store_fight(encounters, long_fight(events), snapshots=False)
        read, rebuild_s = encounters.stats.rebuild()
        name = tracking_name(FOLLOWER, encounters.log.home)
        recorder = encounters.log.home.recorder
        wall: dict[str, list[float]] = {m: [] for m in MODES}
        cpu: dict[str, list[float]] = {m: [] for m in MODES}
        lags: dict[str, list[float]] = {m: [] for m in MODES if m != "none"}
        child_cpu: dict[str, list[float]] = {}

        def lag_of(mode: str) -> Callable[[], None]:
            def wait_for_follower() -> None:
                head, began = recorder.max_notification_id() or 0, time.perf_counter()
                while encounters.stats.tables.position(name) < head:
                    time.sleep(0.001)
                lags[mode].append(time.perf_counter() - began)

            return wait_for_follower

        _play(encounters, commands)  # warm-up, not counted: the first play pays for caches the others find filled
        for r in range(rounds):
            for mode in MODES[r % len(MODES) :] + MODES[: r % len(MODES)]:
                encounters.stats.fresh()  # each mode starts with nothing left to take in
                every = slow_interval if mode == "process_slow" else interval
                with _follower(mode, encounters, every, child_cpu.setdefault(mode, [])):
                    seconds, used = _play(encounters, commands)
                    wall[mode].append(seconds)
                    cpu[mode].append(used)
                    if mode != "none":
                        _play(encounters, max(1, commands // 10), on_commit=lag_of(mode))
        out: dict[str, Any] = {
            "events": read,
            "rebuild_s": rebuild_s,
            "rebuild_events_per_s": read / rebuild_s if rebuild_s else 0.0,
            "commands": commands,
            "rounds": rounds,
            "interval_s": interval,
            "slow_interval_s": slow_interval,
            "modes": {},
        }
        for mode in MODES:
            ratios = [n / w for n, w in zip(wall["none"], wall[mode], strict=True)]
            out["modes"][mode] = {
                "commands_per_s": commands / median(wall[mode]),
                "cpu_ms_per_command": median(cpu[mode]) / commands * 1000,
                # This process's CPU (the follower's too where it is a thread): the disk's
                # fsyncs, which the wall time also holds, do not move it.
                "cpu_ratio": median(n / c for n, c in zip(cpu["none"], cpu[mode], strict=True)),
                "ratio": median(ratios),
                "ratio_low": min(ratios),
                "ratio_high": max(ratios),
                **(
                    {"lag_p50_ms": percentile(lags[mode], 50) * 1000, "lag_p99_ms": percentile(lags[mode], 99) * 1000}
                    if mode in lags
                    else {}
                ),
            }
        for mode in ("process", "process_slow"):
            out["modes"][mode]["child_cpu_s"] = median(child_cpu[mode])
        return out
    finally:
        encounters.close()
