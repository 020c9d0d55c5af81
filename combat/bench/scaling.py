"""4b. Scale out on PostgreSQL: processes and partitions (docs/scaling.md).

- one process, then two, on one fresh schema, each client on its own encounter, in three
  rounds (one, two, one, two, one, two; half the load's time each): the median of the three
  ratios of two to one, and that round's figures;
- one encounter whose commands go to each process in turn (command i to process i mod 2):
  its rate and latency, and then its log read back: seqs 1..N with none skipped, N the
  version the last reply gave, one stored command for each accepted; beside it the same
  client sending every command to one process (each process then finds its cached state
  stale on every command it takes, and decides again: the price of not routing by encounter);
- two processes on a new store of 1 and 2 partitions (and the pair's own 4): the curve of
  commands/s and p99;
- the CPU each command cost the servers, PostgreSQL and the load client, and from it the
  most two processes could do on this machine's CPUs (`cpu_ceiling`).
"""

from __future__ import annotations

import asyncio
import os
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import msgspec

from combat.bench import servers
from combat.bench.http import Connection, HttpError
from combat.bench.service import open_table
from combat.bench.timing import percentile

__all__ = ["run", "run_alternating", "cpu_ceiling", "curve", "TARGET"]

TARGET = "two processes >= 1.5x one, on different encounters"
CURVE = (1, 2, 4)
DEFAULT = 4  # combat.store.partitions.DEFAULT_PARTITIONS, the count the pair runs on
ROUNDS = 3

Load = Callable[[list[servers.Server], float], dict[str, Any]]  # servers, seconds


class _Line(msgspec.Struct):
    seq: int
    command_id: str


_lines = msgspec.json.Decoder(list[_Line])


async def run_alternating(ports: list[int], seconds: float, warmup: float, max_commands: int) -> dict[str, Any]:
    connections = [await Connection(port).open() for port in ports]
    try:
        table = await open_table(connections[0], "alternating table")
        setup = table.version
        latencies: list[float] = []
        sent_at: list[float] = []
        accepted = 0
        measure_from = time.perf_counter() + warmup
        stop_at = measure_from + seconds
        while len(latencies) < max_commands:
            start = time.perf_counter()
            if start >= stop_at:
                break
            status, reply = await connections[accepted % len(connections)].send(table.next_request())
            elapsed = time.perf_counter() - start
            if status != 200:
                raise HttpError(status, reply)
            table.advance(reply)
            accepted += 1
            if start >= measure_from:
                latencies.append(elapsed)
                sent_at.append(start)
        status, body = await connections[-1].send(
            Connection.request_bytes("GET", f"/encounters/{table.id}/events", token=table.token)
        )
        if status != 200:
            raise HttpError(status, body)
        log = _lines.decode(body)
    finally:
        for connection in connections:
            await connection.close()
    seqs = [line.seq for line in log]
    commands_stored = len({line.command_id for line in log if line.seq > setup})
    span = max(sent_at) - min(sent_at) if len(sent_at) > 1 else float("nan")
    return {
        "processes": len(ports),
        "commands": len(latencies),
        "commands_per_s": (len(latencies) - 1) / span if len(sent_at) > 1 else 0.0,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "events": len(seqs),
        "version": table.version,
        "commands_accepted": accepted,
        "commands_stored": commands_stored,
        "gapless": seqs == list(range(1, table.version + 1)) and commands_stored == accepted,
    }


def cpu_ceiling(one: dict[str, Any], two: dict[str, Any]) -> dict[str, Any]:
    """The most two processes could do on this machine's CPUs at the CPU per command the
    two-process run measured (servers, PostgreSQL and the load client, all on these CPUs;
    the kernel's share of loopback networking is in none of them, so the real ceiling is
    lower), against what one process did."""
    cpus = len(os.sched_getaffinity(0))
    per_command_ms = sum(
        two.get(k, 0.0) for k in ("server_cpu_ms_per_command", "store_cpu_ms_per_command", "client_cpu_ms_per_command")
    )
    rate = 1000 * cpus / per_command_ms if per_command_ms else float("nan")
    return {
        "cpus": cpus,
        "cpu_ms_per_command": per_command_ms,
        "commands_per_s": rate,
        "ratio_to_one": rate / one["commands_per_s"] if one["commands_per_s"] else float("nan"),
    }


def run(
    started: list[servers.Server],
    clients: int,
    seconds: float,
    warmup: float,
    max_commands: int,
    load: Load,
    rounds: int = ROUNDS,
    say: Callable[[str], None] = lambda _: None,
) -> dict[str, Any]:
    """The rounds and the alternating runs, on a pair of servers on a store of DEFAULT partitions."""
    result: dict[str, Any] = {"partitions": DEFAULT, "target": TARGET}
    # One process then two, in turns: the other jobs on a shared machine come and go
    # within seconds, so each ratio is taken between neighbouring runs.
    each = seconds / 2 if rounds > 1 else seconds
    ones, twos = [], []
    for n in range(rounds):
        say(f"scale-out on PostgreSQL, round {n + 1} of {rounds}: one process, then two, {DEFAULT} partitions, {clients} clients")
        ones.append(load(started[:1], each))
        twos.append(load(started, each))
    ratios = [two["commands_per_s"] / one["commands_per_s"] for one, two in zip(ones, twos)]
    middle = sorted(range(rounds), key=lambda i: ratios[i])[rounds // 2]
    result["one"], result["two"] = ones[middle], twos[middle]
    result["rounds"] = [
        {"one": one["commands_per_s"], "two": two["commands_per_s"], "ratio": ratio}
        for one, two, ratio in zip(ones, twos, ratios)
    ]
    result["ratio_two_to_one"] = ratios[middle]
    say("scale-out on PostgreSQL: one encounter, commands alternating between the two processes")
    result["alternating"] = asyncio.run(run_alternating([s.port for s in started], seconds, warmup, max_commands))
    result["one_process_one_encounter"] = asyncio.run(run_alternating([started[0].port], seconds, warmup, max_commands))
    result["ratio_alternating_to_one_process"] = (
        result["alternating"]["commands_per_s"] / result["one_process_one_encounter"]["commands_per_s"]
    )
    result["met"] = result["ratio_two_to_one"] >= 1.5 and result["alternating"]["gapless"]
    result["ceiling"] = cpu_ceiling(result["one"], result["two"])
    result["curve"] = {str(DEFAULT): result["two"]}
    return result


def curve(
    workdir: Path, seconds: float, load: Load, counts: tuple[int, ...] = CURVE, say: Callable[[str], None] = lambda _: None
) -> dict[str, Any]:
    """Two processes on a new store of each other partition count in `counts`."""
    runs: dict[str, Any] = {}
    for count in counts:
        if count == DEFAULT:
            continue
        say(f"scale-out on PostgreSQL: two processes on {count} partition(s)")
        with servers.postgres_servers(workdir, 2, partitions=count) as pair:
            runs[str(count)] = load(pair, seconds)
    return runs
