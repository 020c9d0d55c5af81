"""The whole benchmark: every section in order, at full or quick sizes, into one result dict."""

from __future__ import annotations

import os
import platform
import sys
import tempfile
from collections.abc import Callable, Collection
from contextlib import ExitStack
from dataclasses import dataclass, replace
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from combat.bench import (
    commands,
    folding,
    lag,
    loading,
    memory,
    replay,
    scaling,
    servers,
    service,
    startup,
    stats_projection,
    store_writes,
)

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
    clients: int  # the headline run, and PostgreSQL's
    client_counts: tuple[int, ...]  # each against combat serve and both floors
    shared_clients: int  # all on one encounter
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
    stats_events: int = 100_000  # the statistics projection's rebuild (combat.bench.stats_projection)
    stats_commands: int = 500  # per mode and round (combat.bench.stats_projection)
    stats_rounds: int = 15


FULL = Sizes(
    replay_events=100_000,
    replay_repeat=3,
    command_fight=1_000,
    command_samples=1_000,
    load_small=100,
    load_large=100_000,
    load_repeat=20,
    clients=8,
    client_counts=(1, 8, 32, 128),
    shared_clients=32,
    load_seconds=5.0,
    warmup_seconds=1.0,
    max_commands=100_000,
    memory_events=1_000,
    memory_encounters=300,
    lag_commands=300,
    startup_runs=15,
    touched_few=1_000,
    touched_many=10_000,
    fold_repeat=7,
    fold_times=50,
)
# The quick run: FULL made smaller (its command fight, small load, clients and memory events kept).
QUICK = replace(
    FULL,
    replay_events=10_000,
    replay_repeat=1,
    command_samples=100,
    load_large=10_000,
    load_repeat=5,
    client_counts=(8,),
    shared_clients=8,
    load_seconds=0.2,
    warmup_seconds=0.05,
    max_commands=5_000,
    memory_encounters=30,
    lag_commands=10,
    startup_runs=2,
    touched_few=100,
    touched_many=1_000,
    fold_repeat=3,
    fold_times=5,
    stats_events=5_000,
    stats_commands=30,
    stats_rounds=3,
)

SERVICE_TARGETS = {
    "ratio_to_litestar_at_8": 0.5,  # commands/s against the minimal Litestar floor, 8 clients
    "p99_ms_at_32": 25.0,
    "p99_ms_at_128": 100.0,
    "errors": 0,
}
SERVICE_TARGET = (
    f"on SQLite, same run: >= {SERVICE_TARGETS['ratio_to_litestar_at_8']}x the minimal Litestar floor "
    f"at 8 clients, p99 <= {SERVICE_TARGETS['p99_ms_at_32']:.0f} ms at 32 clients and "
    f"<= {SERVICE_TARGETS['p99_ms_at_128']:.0f} ms at 128, no errors"
)
SERVERS = ("combat", "litestar", "asgi")  # combat serve, the minimal Litestar floor, the bare ASGI floor


def machine() -> dict[str, Any]:
    memory_total = ""
    try:
        with open("/proc/meminfo") as meminfo:
            kib = int(meminfo.readline().split()[1])
            memory_total = f"{kib / 2**20:.1f} GiB"
    except OSError:
        pass
    return {
        "date": datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "python": sys.version.split()[0],
        "platform": platform.platform(),
        "processor": platform.processor() or platform.machine(),
        **service.cpus(),
        "memory": memory_total,
    }


def _load(servers_: list[servers.Server], sizes: Sizes, clients: int, **shape: Any) -> dict[str, Any]:
    return service.load(
        [s.port for s in servers_],
        clients,
        sizes.load_seconds,
        sizes.warmup_seconds,
        sizes.max_commands,
        cpu=lambda: sum(s.cpu_seconds() for s in servers_),
        **shape,
    )


def _ratios(loads: dict[str, dict[str, Any]]) -> dict[str, Any]:
    """combat serve's figures against each floor's in the same run."""
    runs: dict[str, Any] = dict(loads)
    ours = runs["combat"]
    for floor in SERVERS[1:]:
        theirs = runs[floor]
        runs[f"ratio_to_{floor}"] = ours["commands_per_s"] / theirs["commands_per_s"] if theirs["commands_per_s"] else 0.0
        runs[f"cpu_ratio_to_{floor}"] = ours["server_cpu_ms_per_command"] / theirs["server_cpu_ms_per_command"]
    return runs


def _http_on_sqlite(
    workdir: Path, sizes: Sizes, say: Callable[[str], None], others_ready: Callable[[], object]
) -> tuple[dict, dict]:
    """combat serve and the two floors, all up at once, loaded in turn at each client count
    (so each ratio compares runs seconds apart), then all clients on one encounter. Servers
    started for later sections (`others_ready`) have finished starting before any load."""
    with servers.sqlite_and_floors(workdir) as (server, litestar, asgi):
        others_ready()
        targets = dict(zip(SERVERS, ([server], [litestar], [asgi])))
        load_before = os.getloadavg()
        by_clients: dict[str, Any] = {}
        for clients in sizes.client_counts:
            say(f"service on SQLite and its floors: {clients} client(s), each on its own encounter")
            by_clients[str(clients)] = _ratios(
                {name: _load(target, sizes, clients, floor=name != "combat") for name, target in targets.items()}
            )
        say(f"service on SQLite and its floors: {sizes.shared_clients} clients on one encounter")
        shared = _ratios(
            {
                name: _load(target, sizes, sizes.shared_clients, shared=True, floor=name != "combat")
                for name, target in targets.items()
            }
        )
        load_after = os.getloadavg()
        say("projection lag on SQLite")
        lag_result = lag.measure(server.port, server.port, sizes.lag_commands)
    headline = by_clients[str(sizes.clients)]["combat"] if str(sizes.clients) in by_clients else {}
    result = {
        **headline,
        "by_clients": by_clients,
        "shared": shared,
        "machine_load": {"before": load_before[0], "after": load_after[0]},
    }
    return result, lag_result


def _verdict(sqlite: dict[str, Any]) -> dict[str, Any]:
    runs = sqlite["by_clients"]
    runs_all = [r["combat"] for r in runs.values()] + [sqlite["shared"]["combat"]]
    checks = {"no_errors": sum(r["errors"] for r in runs_all) <= SERVICE_TARGETS["errors"]}
    if "8" in runs:
        checks["ratio_to_litestar_at_8"] = runs["8"]["ratio_to_litestar"] >= SERVICE_TARGETS["ratio_to_litestar_at_8"]
    for clients in ("32", "128"):
        if clients in runs:
            checks[f"p99_ms_at_{clients}"] = runs[clients]["combat"]["p99_ms"] <= SERVICE_TARGETS[f"p99_ms_at_{clients}"]
    return checks


def _postgres(
    pair: list[servers.Server], workdir: Path, sizes: Sizes, quick: bool, say: Callable[[str], None]
) -> tuple[dict, dict, dict]:
    """The service on PostgreSQL, its projection lag and the scale-out, on one pair of
    processes on a store of scaling.DEFAULT partitions: the service's figure is the
    two-process run of the scale-out's median round. The full run adds the curve's other
    partition counts and the store writes without HTTP."""

    def load(started: list[servers.Server], seconds: float) -> dict[str, Any]:
        return _load(started, replace(sizes, load_seconds=seconds), sizes.clients, store_cpu=servers.postgres_cpu_seconds)

    result = scaling.run(
        pair,
        sizes.clients,
        sizes.load_seconds,
        sizes.warmup_seconds,
        sizes.max_commands,
        load,
        1 if quick else scaling.ROUNDS,
        say,
    )
    say("projection lag on PostgreSQL: command to one process, stream from the other")
    lag_result = lag.measure(pair[0].port, pair[1].port, sizes.lag_commands)
    if not quick:  # --quick measures the pair and the alternating run only
        result["curve"].update(scaling.curve(workdir, sizes.load_seconds, load, say=say))
        say("writes to the PostgreSQL store without HTTP: 1 and 2 processes on 1 and 4 partitions")
        result["store_writes"] = store_writes.run(sizes.load_seconds / 2)
    return result["two"], lag_result, result


def _services(workdir: Path, sizes: Sizes, postgres: bool, quick: bool, say: Callable[[str], None]) -> tuple[dict, dict, dict]:
    """On SQLite, then on PostgreSQL; the PostgreSQL pair starts with the SQLite servers."""
    loads: dict[str, Any] = {}
    lags: dict[str, Any] = {}
    reason = None if postgres else "left out (--no-postgres)"
    reason = reason or servers.postgres_unreachable()
    with ExitStack() as stack:
        pair = [] if reason else stack.enter_context(servers.postgres_servers(workdir, 2, scaling.DEFAULT, wait=False))
        loads["sqlite"], lags["sqlite"] = _http_on_sqlite(workdir, sizes, say, lambda: [s.wait_ready("postgres") for s in pair])
        if reason:
            say(f"PostgreSQL skipped: {reason}")
            loads["postgres"] = lags["postgres"] = scale = {"skipped": reason}
        else:
            loads["postgres"], lags["postgres"], scale = _postgres(pair, workdir, sizes, quick, say)
    loads["target"] = SERVICE_TARGET
    loads["targets"] = SERVICE_TARGETS
    loads["checks"] = _verdict(loads["sqlite"])
    loads["met"] = all(loads["checks"].values())
    return loads, lags, scale


SECTIONS = ("replay", "commands", "loading", "service", "memory", "startup", "folding", "stats")


def run(
    quick: bool = False,
    *,
    postgres: bool = True,
    workdir: Path | None = None,
    say: Callable[[str], None] = lambda _: None,
    only: Collection[str] = (),
) -> dict[str, Any]:
    """Every section, or those named in `only` (SECTIONS; "service" holds the stream lag and
    PostgreSQL's scale-out too)."""
    unknown = set(only) - set(SECTIONS)
    if unknown:
        raise ValueError(f"no bench section {', '.join(sorted(unknown))}: the sections are {', '.join(SECTIONS)}")
    sizes = QUICK if quick else FULL

    def wanted(section: str) -> bool:
        return not only or section in only

    with tempfile.TemporaryDirectory(prefix="combat-bench-", dir=workdir) as tmp:
        where = Path(tmp)
        result: dict[str, Any] = {"machine": machine(), "quick": quick}
        if wanted("replay"):
            say(f"replay: {sizes.replay_events:,} events")
            result["replay"] = replay.run(where, sizes.replay_events, sizes.replay_repeat)
        if wanted("commands"):
            say(f"command latency: {sizes.command_samples:,} attacks")
            result["commands"] = commands.run(where, sizes.command_fight, sizes.command_samples)
        if wanted("loading"):
            say(f"loading: {sizes.load_small:,} and {sizes.load_large:,} events")
            result["loading"] = loading.run(where, sizes.load_small, sizes.load_large, sizes.load_repeat)
        if wanted("service"):
            result["service"], result["lag"], result["scaling"] = _services(where, sizes, postgres, quick, say)
        if wanted("memory"):
            say(f"memory: {sizes.memory_encounters} cached encounters")
            result["memory"] = memory.run(where, sizes.memory_events, sizes.memory_encounters)
            say(f"memory: {sizes.touched_few:,} then {sizes.touched_many:,} encounters read")
            result["memory"]["touched"] = memory.run_touched(where, sizes.touched_few, sizes.touched_many)
        if wanted("startup"):
            say(f"start-up: {sizes.startup_runs} runs of combat --help and combat do")
            result["startup"] = startup.run(where, sizes.startup_runs)
        if wanted("folding"):
            say("folding each ruleset's demo fight")
            result["folding"] = folding.run(where, sizes.fold_repeat, sizes.fold_times)
        if wanted("stats"):
            say(
                f"statistics projection: rebuild from {sizes.stats_events:,} events; {sizes.stats_commands:,} commands "
                f"x {sizes.stats_rounds} rounds without a follower, with it on a thread, and in a process (two intervals)"
            )
            result["stats"] = stats_projection.run(where, sizes.stats_events, sizes.stats_commands, sizes.stats_rounds)
    return result
