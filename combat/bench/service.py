"""4. The service: N concurrent clients over HTTP against real `combat serve` processes and
against the HTTP floors (combat.bench.floors), under one load generator: commands per
second, p50/p99 latency and the server's CPU per command.

Two shapes of load. *Own tables*: each client plays its own encounter, one command at a
time (move, attack, end turn for whoever's turn it is, followed from the `TurnStarted`
events of the replies). *One table*: every client sends to the same encounter at once,
without `expected_version` and without any lock on the client side, so the server takes
them one at a time (each is a point of damage to a creature that cannot drop, valid in any
order). A latency is the time from sending a command to reading its whole reply. Client n
talks to process n mod P (P is 1 on SQLite, 2 on PostgreSQL). A run is bounded by a
duration and a command count and stops by itself; the first `warmup` seconds are not
counted.
"""

from __future__ import annotations

import asyncio
import os
import time
import uuid
from collections.abc import Callable, Coroutine
from dataclasses import dataclass, field
from typing import Any, ParamSpec

import msgspec

from combat.bench.fixtures import SIDES, TARGETS
from combat.bench.http import Connection, HttpError
from combat.bench.timing import percentile

__all__ = ["Table", "open_table", "blank_tables", "run_load", "load"]

_P = ParamSpec("_P")
_INITIATIVE = dict(zip((s.id for s in SIDES), (20, 15, 10, 5)))
STEPS = ("move", "attack", "end_turn")


class _Event(msgspec.Struct):
    type: str
    combatant: str | None = None


class _Reply(msgspec.Struct):
    """All a client needs of a command's reply (msgspec skips the rest unread)."""

    version: int
    events: list[_Event]


_reply = msgspec.json.Decoder(_Reply)


def command_body(step: str, cid: str) -> bytes:
    command: dict[str, Any]
    if step == "move":
        command = {"type": "move", "combatant": cid, "feet": 5}
    elif step == "attack":
        command = {"type": "attack", "attacker": cid, "target": TARGETS[cid]}
    elif step == "damage":  # the GM's, valid whoever's turn it is
        command = {"type": "damage", "target": cid, "amount": 1, "damage_type": "fire"}
    else:
        command = {"type": "end_turn", "combatant": cid}
    return msgspec.json.encode({"command": command})


@dataclass
class Table:
    """One encounter being played: whose turn, which step of it, and its requests prebuilt."""

    id: str
    token: str
    turn: str
    version: int
    step: int = 0
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    requests: dict[tuple[int, str], bytes] = field(default_factory=dict)

    def next_request(self) -> bytes:
        key = (self.step, self.turn)
        request = self.requests.get(key)
        if request is None:
            body = command_body(STEPS[self.step], self.turn)
            request = self.requests[key] = Connection.request_bytes("POST", f"/encounters/{self.id}/commands", body, self.token)
        return request

    def damage_request(self) -> bytes:
        request = self.requests.get((-1, "ogre"))
        if request is None:
            request = self.requests[(-1, "ogre")] = Connection.request_bytes(
                "POST", f"/encounters/{self.id}/commands", command_body("damage", "ogre"), self.token
            )
        return request

    def advance(self, reply: bytes) -> _Reply:
        decoded = _reply.decode(reply)
        self.version = max(self.version, decoded.version)
        for event in decoded.events:
            if event.type == "TurnStarted" and event.combatant:
                self.turn = event.combatant
        self.step = (self.step + 1) % len(STEPS)
        return decoded


async def open_table(connection: Connection, name: str) -> Table:
    """An encounter of four who cannot lose, past initiative: it is Aria's turn."""
    opened = await connection.call("POST", "/encounters", {"ruleset": "srd-2024", "name": name, "seed": 1}, expect=201)
    eid, token = opened["id"], opened["gm_token"]
    path = f"/encounters/{eid}/commands"
    for spec in SIDES:
        await connection.call("POST", path, {"command": {"type": "add_combatant", "combatant": msgspec.to_builtins(spec)}}, token)
    await connection.call("POST", path, {"command": {"type": "begin_combat"}}, token)
    done: dict[str, Any] = {}
    for cid, face in _INITIATIVE.items():
        done = await connection.call(
            "POST", path + "?state=true", {"command": {"type": "roll_initiative", "combatant": cid, "faces": [face]}}, token
        )
    return Table(id=eid, token=token, turn=done["state"]["turn"], version=done["version"])


def blank_tables(count: int) -> list[Table]:
    """Tables for a floor server, which keeps no rules: the same requests, to new ids."""
    return [Table(id=str(uuid.uuid4()), token="floor-has-no-tokens-" + "x" * 23, turn="aria", version=0) for _ in range(count)]


async def run_load(
    ports: list[int],
    clients: int,
    seconds: float,
    warmup: float,
    max_commands: int,
    *,
    shared: bool = False,
    floor: bool = False,
    cpu: Callable[[], float] = lambda: 0.0,
    store_cpu: Callable[[], float] | None = None,
) -> dict[str, Any]:
    """`clients` clients, each on its own table or (`shared`) all on one; `floor`: the
    servers are floors, whose tables need no setting up. `cpu` reads the servers' CPU
    seconds so far, `store_cpu` the database server's (PostgreSQL on this machine): each
    sampled when the measuring starts and when the last client is done, as is this
    process's own (the load client's)."""
    count = 1 if shared else clients
    if floor:
        tables = blank_tables(count)
    else:
        setup = [await Connection(port).open() for port in ports]
        try:
            tables = [await open_table(setup[m % len(setup)], f"load table {m}") for m in range(count)]
        finally:
            for connection in setup:
                await connection.close()
    latencies: list[float] = []
    sent_at: list[float] = []
    rejected: dict[int, int] = {}
    measure_from = time.perf_counter() + warmup
    stop_at = measure_from + seconds

    async def client(n: int) -> None:
        connection = await Connection(ports[n % len(ports)]).open()
        table = tables[n % count]
        try:
            while len(latencies) < max_commands:
                start = time.perf_counter()
                if start >= stop_at:
                    return
                status, reply = await connection.send(table.damage_request() if shared else table.next_request())
                elapsed = time.perf_counter() - start
                if status != 200:
                    rejected[status] = rejected.get(status, 0) + 1
                    if status >= 500 or status == 404:
                        raise HttpError(status, reply)
                    continue
                table.advance(reply)
                if start >= measure_from:
                    latencies.append(elapsed)
                    sent_at.append(start)
        finally:
            await connection.close()

    def cpu_now() -> tuple[float, float, float, float]:
        return cpu(), store_cpu() if store_cpu else 0.0, time.process_time(), time.perf_counter()

    async def cpu_at_start() -> tuple[float, float, float, float]:
        await asyncio.sleep(max(0.0, measure_from - time.perf_counter()))
        return cpu_now()

    started = asyncio.create_task(cpu_at_start())
    await asyncio.gather(*(client(n) for n in range(clients)))
    cpu_used, store_used, client_used, wall = (end - start for end, start in zip(cpu_now(), await started))
    per_command = 1000 / len(latencies) if latencies else float("nan")
    span = max(sent_at) - min(sent_at) if len(sent_at) > 1 else float("nan")
    return {
        "clients": clients,
        "encounters": count,
        "processes": len(ports),
        "commands": len(latencies),
        "seconds": span,
        "commands_per_s": (len(latencies) - 1) / span if len(sent_at) > 1 else 0.0,
        "p50_ms": percentile(latencies, 50) * 1000,
        "p99_ms": percentile(latencies, 99) * 1000,
        "server_cpu_ms_per_command": cpu_used * per_command,
        "server_cpu_percent": 100 * cpu_used / wall,
        "client_cpu_ms_per_command": client_used * per_command,
        **(
            {"store_cpu_ms_per_command": store_used * per_command, "store_cpu_percent": 100 * store_used / wall}
            if store_cpu
            else {}
        ),
        "errors": sum(rejected.values()),
        "rejected": {str(k): v for k, v in rejected.items()},
        "events_appended": sum(t.version for t in tables),
    }


def cpus() -> dict[str, int]:
    return {"cpu_count": os.cpu_count() or 0, "usable_cpus": len(os.sched_getaffinity(0))}


def _blocking(run: Callable[_P, Coroutine[Any, Any, dict[str, Any]]]) -> Callable[_P, dict[str, Any]]:
    def blocking(*args: _P.args, **kwargs: _P.kwargs) -> dict[str, Any]:
        """The same, from code outside an event loop (the suite, the scaling runs)."""
        return asyncio.run(run(*args, **kwargs))

    return blocking


load = _blocking(run_load)
