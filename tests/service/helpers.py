"""Helpers for the tests that talk to the service (here, and in tests/web, tests/trust,
tests/app and tests/docs): an encounter driven over HTTP, a live server on a real socket, a
server-sent-events reader, and `combat serve` processes on PostgreSQL. The in-process `client`
fixture is in tests/conftest.py."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import msgspec
import uvicorn

from combat.bench.servers import wait_or_kill
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, Command
from tests.helpers import monster, pc

__all__ = [
    "Fight",
    "open_fight",
    "Campaign",
    "open_campaign",
    "set_the_scene",
    "LiveServer",
    "read_events",
    "bearer",
    "body",
    "free_port",
    "live_client",
    "SMALL_POOL",
    "ServeProcess",
    "serving_two",
]


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


def body(command: Command | dict) -> dict:
    return command if isinstance(command, dict) else msgspec.to_builtins(command)


@dataclass
class Fight:
    """One encounter driven over HTTP, as the GM unless another token is given."""

    http: Any  # TestClient or httpx.Client
    id: str
    gm: str

    def url(self, tail: str = "") -> str:
        return f"/encounters/{self.id}{tail}"

    def send(self, command: Command | dict, token: str | None = None, expected_version: int | None = None) -> Any:
        payload: dict[str, Any] = {"command": body(command)}
        if expected_version is not None:
            payload["expected_version"] = expected_version
        return self.http.post(self.url("/commands"), json=payload, headers=bearer(token or self.gm))

    def do(self, command: Command | dict, token: str | None = None, expected_version: int | None = None) -> dict:
        reply = self.send(command, token, expected_version)
        assert reply.status_code == 200, reply.text
        return reply.json()

    def get(self, tail: str = "", token: str | None = None, **params: Any) -> Any:
        return self.http.get(self.url(tail), headers=bearer(token or self.gm), params=params)

    def state(self, **params: Any) -> dict:
        reply = self.get(**params)
        assert reply.status_code == 200, reply.text
        return reply.json()

    def events(self) -> list[dict]:
        return self.get("/events").json()

    def token(self, role: str, name: str = "", combatants: tuple[str, ...] = ()) -> str:
        reply = self.http.post(
            self.url("/tokens"), json={"role": role, "name": name, "combatants": list(combatants)}, headers=bearer(self.gm)
        )
        assert reply.status_code == 201, reply.text
        return reply.json()["token"]

    def rejects(self, reply: Any, status: int, code: str) -> dict:
        """The request was refused with `status` and `code`, a JSON error, and nothing appended."""
        assert reply.status_code == status, reply.text
        error = reply.json()
        assert error["error"] == code, error
        assert error["detail"]
        return error


def open_fight(http: Any, name: str = "Ambush on the forest road", seed: int = 7, **extra: Any) -> Fight:
    reply = http.post("/encounters", json={"ruleset": "srd-2024", "name": name, "seed": seed, **extra})
    assert reply.status_code == 201, reply.text
    return Fight(http, reply.json()["id"], reply.json()["gm_token"])


@dataclass
class Campaign:
    """One campaign driven over HTTP, as its GM unless another token is given."""

    http: Any
    id: str
    gm: str

    def url(self, tail: str = "") -> str:
        return f"/campaigns/{self.id}{tail}"

    def get(self, tail: str = "", token: str | None = None) -> Any:
        return self.http.get(self.url(tail), headers=bearer(token or self.gm))

    def post(self, tail: str, json: Any, token: str | None = None, **params: Any) -> Any:
        return self.http.post(self.url(tail), json=json, headers=bearer(token or self.gm), params=params)

    def build(self, **sheet: Any) -> dict:
        reply = self.post("/characters/build", {**sheet, "save": True})
        assert reply.status_code == 200, reply.text
        return reply.json()

    def character(self, name: str) -> dict:
        reply = self.get(f"/characters/{name}")
        assert reply.status_code == 200, reply.text
        return reply.json()

    def fight(self, name: str = "Ambush on the forest road", seed: int = 7, **extra: Any) -> Fight:
        reply = self.post("/encounters", {"ruleset": "srd-2024", "name": name, "seed": seed, **extra})
        assert reply.status_code == 201, reply.text
        return Fight(self.http, reply.json()["id"], reply.json()["gm_token"])

    def token(self, role: str, name: str = "", character: str | None = None) -> str:
        reply = self.post("/tokens", {"role": role, "name": name, "character": character})
        assert reply.status_code == 201, reply.text
        return reply.json()["token"]


def open_campaign(http: Any, name: str = "The Sunless Citadel") -> Campaign:
    reply = http.post("/campaigns", json={"name": name})
    assert reply.status_code == 201, reply.text
    return Campaign(http, reply.json()["id"], reply.json()["gm_token"])


def set_the_scene(fight: Fight) -> Fight:
    """Aria (Sam's fighter) and a goblin; Aria won initiative, so it is her turn."""
    fight.do(AddCombatant(combatant=pc("aria", player="Sam", max_hp=30)))
    fight.do(AddCombatant(combatant=monster("goblin", max_hp=7)))
    fight.do(AddCombatant(combatant=pc("brom", player="Ana")))
    fight.do(BeginCombat())
    for cid, face in (("aria", 18), ("brom", 9), ("goblin", 3)):
        fight.do(RollInitiative(combatant=cid, faces=(face,)))
    return fight


class LiveServer:
    """The app on a real socket (uvicorn in a thread), for streams and real HTTP clients."""

    def __init__(self, app: Any, port: int = 0, host: str = "127.0.0.1"):
        self.sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        self.sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        self.sock.bind((host, port))  # a given port: a restarted server at the same address; 0.0.0.0: the table's
        self.url = f"http://127.0.0.1:{self.sock.getsockname()[1]}"
        config = uvicorn.Config(app, log_config=None, access_log=False, lifespan="on", timeout_graceful_shutdown=1)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, kwargs={"sockets": [self.sock]}, daemon=True)

    def __enter__(self) -> LiveServer:
        self.thread.start()
        deadline = time.monotonic() + 10
        while not self.server.started:
            assert time.monotonic() < deadline, "the server did not start"
            time.sleep(0.01)
        return self

    def __exit__(self, *exc: object) -> None:
        self.server.should_exit = True
        self.thread.join(timeout=10)
        self.sock.close()


def read_events(lines: Iterator[str], count: int) -> list[dict]:
    """Read `count` server-sent events from a stream's lines: each as {"id": ..., "data": ...}."""
    messages: list[dict] = []
    current: dict[str, Any] = {}
    for line in lines:
        if line == "":
            if "data" in current:
                messages.append({"id": current.get("id"), "data": msgspec.json.decode(current["data"])})
                if len(messages) == count:
                    return messages
            current = {}
        elif not line.startswith(":"):
            field, _, value = line.partition(":")
            current[field] = value[1:] if value.startswith(" ") else value
    raise AssertionError(f"the stream ended after {len(messages)} of {count} events")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def live_client(server: LiveServer) -> httpx.Client:
    return httpx.Client(base_url=server.url, timeout=10)


# The suite may run several times at once on one server: keep each process to a few connections.
SMALL_POOL = {"POSTGRES_POOL_SIZE": "2", "POSTGRES_MAX_OVERFLOW": "4"}


class ServeProcess:
    """`combat serve` in its own process, configured for PostgreSQL by the environment."""

    def __init__(self, env: dict[str, str], log: Path, args: tuple[str, ...] = ()):
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log_path = log
        self.log = log.open("wb")
        command = [sys.executable, "-m", "combat.cli", "serve", "--port", str(self.port), *args]
        environ = {k: v for k, v in os.environ.items() if k != "COMBAT_DB"}
        self.process = subprocess.Popen(command, env={**environ, **env}, stdout=self.log, stderr=subprocess.STDOUT)

    def wait_ready(self) -> None:
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline:
            assert self.process.poll() is None, f"combat serve exited early:\n{self.log_path.read_text()[-3000:]}"
            try:
                if httpx.get(f"{self.url}/health", timeout=1).json().get("store") == "postgres":
                    return
            except httpx.HTTPError:
                time.sleep(0.1)
        raise AssertionError("combat serve did not come up")

    def stop(self) -> None:
        self.process.terminate()
        wait_or_kill(self.process)
        self.log.close()


def serving_two(env: dict[str, str], logs: Path, args: tuple[str, ...] = ()) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    """Two `combat serve` processes on one store (each given `args`), up until the generator is closed."""
    servers = (ServeProcess(env, logs / "a.log", args), ServeProcess(env, logs / "b.log", args))
    try:
        for server in servers:
            server.wait_ready()
        yield servers
    finally:
        for server in servers:
            server.stop()
