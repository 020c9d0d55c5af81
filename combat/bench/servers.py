"""Real `combat serve` processes on free loopback ports: one on an SQLite file, or two on one
PostgreSQL schema made fresh for the run (and dropped after it); and the HTTP floors
(combat.bench.floors), each in its own process on its own SQLite file."""

from __future__ import annotations

import asyncio
import os
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

from combat.bench.http import LOOPBACK, Connection

__all__ = [
    "Server",
    "sqlite_and_floors",
    "connect_postgres",
    "postgres_cpu_seconds",
    "postgres_schema",
    "postgres_servers",
    "postgres_settings",
    "postgres_unreachable",
    "stop_all",
    "wait_or_kill",
]

READY_WITHIN = 30.0  # seconds


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind((LOOPBACK, 0))
        return sock.getsockname()[1]


class Server:
    """`combat serve` in its own process; its request log goes to a file."""

    def __init__(self, log: Path, env: dict[str, str], db: Path | None = None, floor: str | None = None):
        self.port = free_port()
        self.log_path = log
        self._log = log.open("wb")
        if floor is not None:
            command = [sys.executable, "-m", "combat.bench.floors", floor, "--port", str(self.port), "--db", str(db)]
        else:
            command = [sys.executable, "-m", "combat.cli", "serve", "--host", LOOPBACK, "--port", str(self.port)]
            if db is not None:
                command += ["--db", str(db)]
        environ = {k: v for k, v in os.environ.items() if k != "COMBAT_DB"}
        self.process = subprocess.Popen(command, env={**environ, **env}, stdout=self._log, stderr=subprocess.STDOUT)
        self._terminated = False

    def wait_ready(self, store: str) -> Server:
        deadline = time.monotonic() + READY_WITHIN
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"combat serve exited early:\n{self.log_path.read_text()[-2000:]}")
            try:
                health = asyncio.run(_health(self.port))
                if health.get("store") == store:
                    return self
            except OSError:
                pass
            time.sleep(0.1)
        raise RuntimeError("combat serve did not come up")

    def cpu_seconds(self) -> float:
        """User and system CPU time the process has used so far (Linux)."""
        with open(f"/proc/{self.process.pid}/stat") as stat:
            fields = stat.read().rpartition(")")[2].split()
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def terminate(self) -> None:
        """Ask it to stop (once: uvicorn takes a second SIGTERM as a forced exit)."""
        if not self._terminated:
            self._terminated = True
            self.process.terminate()

    def stop(self) -> None:
        self.terminate()
        wait_or_kill(self.process)
        self._log.close()


def wait_or_kill(process: subprocess.Popen, timeout: float = 10) -> None:
    """Wait for a process asked to stop; killed if it has not within `timeout` seconds."""
    try:
        process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


async def _health(port: int) -> dict:
    connection = await Connection(port).open()
    try:
        return await connection.call("GET", "/health")
    finally:
        await connection.close()


@contextmanager
def sqlite_and_floors(workdir: Path) -> Iterator[tuple[Server, Server, Server]]:
    """`combat serve` on SQLite and the two floors (`litestar`, `asgi`), each on a fresh file,
    started together and stopped together."""
    started = [Server(workdir / "serve-sqlite.log", {}, db=workdir / "serve.db")]
    try:
        for kind in ("litestar", "asgi"):
            started.append(Server(workdir / f"floor-{kind}.log", {}, db=workdir / f"floor-{kind}.db", floor=kind))
        yield started[0].wait_ready("sqlite"), started[1].wait_ready("floor"), started[2].wait_ready("floor")
    finally:
        stop_all(started)


def postgres_settings() -> dict[str, str]:
    return {
        "POSTGRES_HOST": os.environ.get("POSTGRES_HOST", LOOPBACK),
        "POSTGRES_PORT": os.environ.get("POSTGRES_PORT", "5432"),
        "POSTGRES_USER": os.environ.get("POSTGRES_USER", "postgres"),
        "POSTGRES_PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
        "POSTGRES_DBNAME": os.environ.get("POSTGRES_DBNAME", "test"),
    }


def connect_postgres(settings: dict[str, str] | None = None):
    """A connection (autocommit) to the PostgreSQL server `settings` name, `postgres_settings()` by default."""
    import psycopg

    s = settings or postgres_settings()
    return psycopg.connect(
        host=s["POSTGRES_HOST"],
        port=int(s["POSTGRES_PORT"]),
        user=s["POSTGRES_USER"],
        password=s["POSTGRES_PASSWORD"] or None,
        dbname=s["POSTGRES_DBNAME"],
        autocommit=True,
        connect_timeout=3,
    )


def postgres_cpu_seconds() -> float:
    """User and system CPU time used so far by every PostgreSQL process on this machine
    (Linux; the benchmarks only load a server on 127.0.0.1): the cluster's whole cost, its
    background writers included, as another client of it would also be charged here."""
    total = 0
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/comm") as comm:
                if not comm.read().startswith("postgres"):
                    continue
            with open(f"/proc/{pid}/stat") as stat:
                fields = stat.read().rpartition(")")[2].split()
        except OSError:  # gone meanwhile, or not ours to read
            continue
        total += int(fields[11]) + int(fields[12])
    return total / os.sysconf("SC_CLK_TCK")


def postgres_unreachable() -> str | None:
    """Why PostgreSQL cannot be used, or None when it can."""
    s = postgres_settings()
    if s["POSTGRES_HOST"] not in (LOOPBACK, "localhost"):
        return f"PostgreSQL at {s['POSTGRES_HOST']} is not on this machine (benchmarks only load 127.0.0.1)"
    try:
        connect_postgres().close()
    except Exception as exc:  # ImportError without the extra, OperationalError without the server
        return (
            f"PostgreSQL not reachable at {s['POSTGRES_HOST']}:{s['POSTGRES_PORT']}/{s['POSTGRES_DBNAME']}: "
            f"{type(exc).__name__}: {str(exc).strip()[:200]}"
        )
    return None


@contextmanager
def postgres_schema(partitions: int | None = None) -> Iterator[dict[str, str]]:
    """The settings of a fresh schema for the run (dropped after it); a new store, so the
    partition count asked for is the one it gets."""
    schema = f"combat_bench_{uuid.uuid4().hex[:12]}"
    with connect_postgres() as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    env = {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_SCHEMA": schema, **postgres_settings()}
    if partitions is not None:
        env["COMBAT_PARTITIONS"] = str(partitions)
    try:
        yield env
    finally:
        with connect_postgres() as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


def _create_tables(env: dict[str, str]) -> None:
    """The store's tables (its partitions' and the tokens'), made before any server starts,
    so that the servers can start together instead of one after the other."""
    from combat.app.catalog import record_decoder
    from combat.store.partitions import PartitionedLog
    from combat.store.tokens import TokenStore

    log = PartitionedLog(env, records=record_decoder)
    try:
        TokenStore(log.home)
    finally:
        log.close()


@contextmanager
def postgres_servers(
    workdir: Path, processes: int = 2, partitions: int | None = None, *, wait: bool = True
) -> Iterator[list[Server]]:
    """`processes` servers on a fresh schema, started together; `wait=False` hands them over
    still starting (each `wait_ready("postgres")` before use)."""
    with postgres_schema(partitions) as env:
        _create_tables(env)
        servers = [Server(workdir / f"serve-postgres-{n}.log", env) for n in range(processes)]
        try:
            yield [server.wait_ready("postgres") for server in servers] if wait else servers
        finally:
            stop_all(servers)


def stop_all(servers: list[Server]) -> None:
    """Each asked to stop at once, then each waited for: their graceful shutdowns overlap."""
    for server in servers:
        server.terminate()
    for server in servers:
        server.stop()
