"""The whole benchmark: every section in order, at full or quick sizes, into one result dict."""

from __future__ import annotations

import platform
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import datetime, timezone
from pathlib import Path
from typing import Any

from combat.bench import commands, folding, lag, loading, memory, replay, scaling, servers, service, startup, store_writes

__all__ = ["Sizes", "FULL", "QUICK", "run", "machine"]


@dataclass(frozen=True)
class Sizes:
    replay_events: int
    replay_repeat: int
    command_fight: int
    command_samples: int
    load_small: int
    load_large: int
    load_repeat: int
    clients: int
    encounters: int
    load_seconds: float
    warmup_seconds: float
    max_commands: int
    memory_events: int
    memory_encounters: int
    lag_commands: int
    startup_runs: int
    touched_few: int
    touched_many: int
    fold_repeat: int
    fold_times: int


FULL = Sizes(replay_events=100_000, replay_repeat=3, command_fight=1_000, command_samples=1_000, load_small=100,
             load_large=100_000, load_repeat=20, clients=8, encounters=8, load_seconds=10.0, warmup_seconds=1.0,
             max_commands=100_000, memory_events=1_000, memory_encounters=300, lag_commands=300, startup_runs=15,
             touched_few=1_000, touched_many=10_000, fold_repeat=7, fold_times=50)
QUICK = Sizes(replay_events=10_000, replay_repeat=2, command_fight=1_000, command_samples=100, load_small=100,
              load_large=10_000, load_repeat=5, clients=4, encounters=4, load_seconds=1.5, warmup_seconds=0.3,
              max_commands=5_000, memory_events=1_000, memory_encounters=30, lag_commands=30, startup_runs=3,
              touched_few=100, touched_many=1_000, fold_repeat=3, fold_times=5)

SERVICE_TARGET = "on SQLite (2 cores): >= 1,000 commands/s at p99 <= 25 ms"


def machine() -> dict[str, Any]:
    memory_total = ""
    try:
        with open("/proc/meminfo") as meminfo:
            kib = int(meminfo.readline().split()[1])
            memory_total = f"{kib / 2**20:.1f} GiB"
    except OSError:
        pass
    return {
        "date": datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        **service.cpus(),
        "memory": memory_total,
    }


def _load(servers_: list[servers.Server], sizes: Sizes) -> dict[str, Any]:
    """The service load, with how busy the server processes were meanwhile (100 = one core)."""
    cpu, wall = sum(s.cpu_seconds() for s in servers_), time.monotonic()
    result = service.load([s.port for s in servers_], sizes.clients, sizes.encounters, sizes.load_seconds,
                          sizes.warmup_seconds, sizes.max_commands)
    result["server_cpu_percent"] = 100 * (sum(s.cpu_seconds() for s in servers_) - cpu) / (time.monotonic() - wall)
    return result


def _scaling(workdir: Path, sizes: Sizes, postgres: bool, quick: bool, say: Callable[[str], None]) -> dict[str, Any]:
    reason = None if postgres else "left out (--no-postgres)"
    reason = reason or servers.postgres_unreachable()
    if reason:
        return {"skipped": reason}
    # --quick measures the pair and the alternating run only, not the curve's other stores.
    curve = (scaling.DEFAULT,) if quick else scaling.CURVE
    result = scaling.run(workdir, sizes.clients, sizes.encounters, sizes.load_seconds, sizes.warmup_seconds,
                         sizes.max_commands, lambda started, seconds: _load(started, replace(sizes, load_seconds=seconds)),
                         curve, 1 if quick else scaling.ROUNDS, say)
    if not quick:
        say("writes to the PostgreSQL store without HTTP: 1 and 2 processes on 1 and 4 partitions")
        result["store_writes"] = store_writes.run(sizes.load_seconds / 2)
    return result


def _services(workdir: Path, sizes: Sizes, postgres: bool, say: Callable[[str], None]) -> tuple[dict, dict]:
    loads: dict[str, Any] = {}
    lags: dict[str, Any] = {}
    say("service on SQLite: one process")
    with servers.sqlite_server(workdir) as (server,):
        loads["sqlite"] = _load([server], sizes)
        say("projection lag on SQLite")
        lags["sqlite"] = lag.measure(server.port, server.port, sizes.lag_commands)
    reason = None if postgres else "left out (--no-postgres)"
    reason = reason or servers.postgres_unreachable()
    if reason:
        say(f"service on PostgreSQL skipped: {reason}")
        loads["postgres"] = lags["postgres"] = {"skipped": reason}
    else:
        say("service on PostgreSQL: two processes")
        with servers.postgres_servers(workdir, 2) as pair:
            loads["postgres"] = _load(pair, sizes)
            say("projection lag on PostgreSQL: command to one process, stream from the other")
            lags["postgres"] = lag.measure(pair[0].port, pair[1].port, sizes.lag_commands)
    sqlite = loads["sqlite"]
    loads["target"] = SERVICE_TARGET
    loads["met"] = sqlite["commands_per_s"] >= 1000 and sqlite["p99_ms"] <= 25
    return loads, lags


def run(quick: bool = False, *, postgres: bool = True, workdir: Path | None = None,
        say: Callable[[str], None] = lambda _: None) -> dict[str, Any]:
    sizes = QUICK if quick else FULL
    with tempfile.TemporaryDirectory(prefix="combat-bench-", dir=workdir) as tmp:
        where = Path(tmp)
        result: dict[str, Any] = {"machine": machine(), "quick": quick}
        say(f"replay: {sizes.replay_events:,} events")
        result["replay"] = replay.run(where, sizes.replay_events, sizes.replay_repeat)
        say(f"command latency: {sizes.command_samples:,} attacks")
        result["commands"] = commands.run(where, sizes.command_fight, sizes.command_samples)
        say(f"loading: {sizes.load_small:,} and {sizes.load_large:,} events")
        result["loading"] = loading.run(where, sizes.load_small, sizes.load_large, sizes.load_repeat)
        result["service"], result["lag"] = _services(where, sizes, postgres, say)
        result["scaling"] = _scaling(where, sizes, postgres, quick, say)
        say(f"memory: {sizes.memory_encounters} cached encounters")
        result["memory"] = memory.run(where, sizes.memory_events, sizes.memory_encounters)
        say(f"memory: {sizes.touched_few:,} then {sizes.touched_many:,} encounters read")
        result["memory"]["touched"] = memory.run_touched(where, sizes.touched_few, sizes.touched_many)
        say(f"start-up: {sizes.startup_runs} runs of combat --help and combat do")
        result["startup"] = startup.run(where, sizes.startup_runs)
        say("folding each ruleset's demo fight")
        result["folding"] = folding.run(where, sizes.fold_repeat, sizes.fold_times)
    return result
