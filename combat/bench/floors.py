"""The HTTP floors: what the same request costs when the server does nothing but store it.

`python -m combat.bench.floors {litestar,asgi} --db PATH --port N` serves
`POST /encounters/{id}/commands` by decoding the JSON body, inserting one row like a stored
event (the encounter's id, the next seq, a topic and a JSON envelope of the command) into
an SQLite table of eventsourcing's shape in WAL mode, committing, and replying with that
row as the one event appended. `litestar` is a minimal Litestar app (one handler, no
dependencies, no middleware), `asgi` a bare ASGI callable; both run under uvicorn as `combat serve` does, with one connection and no log line. They
commit as `combat serve` does on an SQLite file (combat.store.group_commit): the rows queued
while the event loop runs the requests ready in one turn go in one transaction, committed
on the loop once they have all been read, and each request is answered after it. Written
one commit per request on the loop, every request would wait for every commit; handed to a
worker thread, each would pay two hand-offs between threads, which cost more here than the
insert (the floor would measure the machine's thread wake-ups, not the cheapest server).
`GET /health` says `{"status": "ok", "store": "floor"}`.
"""

from __future__ import annotations

import argparse
import asyncio
import sqlite3
import sys
import time
from collections.abc import Awaitable, Callable
from typing import Any

import msgspec
from litestar import Litestar, MediaType, Response, get, post

from combat.store.group_commit import Gathering

__all__ = ["Floor", "asgi_app", "litestar_app", "main"]

_HEALTH = b'{"status":"ok","store":"floor"}'
_encoder = msgspec.json.Encoder()


def floor_table(path: str, table: str) -> sqlite3.Connection:
    """A connection of its own (autocommit, any thread) to the SQLite file at `path` in WAL
    mode, with `table` shaped as eventsourcing stores events: the floors' bare inserts."""
    connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    connection.execute("PRAGMA journal_mode=WAL")
    connection.execute(
        f"CREATE TABLE IF NOT EXISTS {table} (originator_id TEXT, originator_version INTEGER, "
        "topic TEXT, state BLOB, PRIMARY KEY (originator_id, originator_version))"
    )
    return connection


class Floor:
    """One SQLite file and each encounter's last seq: an insert per command, and a commit
    per turn of the event loop for the inserts queued in it."""

    def __init__(self, db: str):
        self.connection = floor_table(db, "stored_events")
        self.versions: dict[str, int] = {}
        self._queued: list[tuple[tuple[str, int, str, bytes], asyncio.Future[None]]] = []
        self._gathering = Gathering()

    async def store(self, encounter_id: str, body: bytes) -> bytes:
        command = msgspec.json.decode(body)
        seq = self.versions.get(encounter_id, 0) + 1
        self.versions[encounter_id] = seq
        row = _encoder.encode(
            {
                "type": "CommandStored",
                "originator_id": encounter_id,
                "originator_version": seq,
                "at": time.time(),
                "actor": "gm",
                "command": command,
            }
        )
        loop = asyncio.get_running_loop()
        done = loop.create_future()
        if not self._queued:
            loop.call_soon(self._flush)
        self._queued.append(((encounter_id, seq, "floor:Row", row), done))
        await done
        return b'{"version":%d,"events":[%s]}' % (seq, row)

    def _flush(self) -> None:
        if self._gathering.another_turn(len(self._queued)):  # as LoopCommits waits
            asyncio.get_running_loop().call_soon(self._flush)
            return
        queued, self._queued = self._queued, []
        cursor = self.connection.cursor()
        cursor.execute("BEGIN")
        cursor.executemany("INSERT INTO stored_events VALUES (?,?,?,?)", [row for row, _ in queued])
        self.connection.commit()
        for _, done in queued:
            done.set_result(None)


def _encounter_of(path: str) -> str | None:
    parts = path.split("/")
    if len(parts) == 4 and parts[1] == "encounters" and parts[3] == "commands":
        return parts[2]
    return None


def asgi_app(floor: Floor) -> Callable[..., Awaitable[None]]:
    async def app(scope: dict[str, Any], receive: Callable[[], Awaitable[dict]], send: Callable[[dict], Awaitable[None]]) -> None:
        if scope["type"] == "lifespan":
            while True:
                message = await receive()
                await send({"type": message["type"] + ".complete"})
                if message["type"] == "lifespan.shutdown":
                    return
        body = b""
        while True:
            message = await receive()
            body += message.get("body", b"")
            if not message.get("more_body"):
                break
        encounter_id = _encounter_of(scope["path"])
        if scope["method"] == "POST" and encounter_id is not None:
            status, reply = 200, await floor.store(encounter_id, body)
        elif scope["path"] == "/health":
            status, reply = 200, _HEALTH
        else:
            status, reply = 404, b'{"error":"path/not-found"}'
        await send(
            {
                "type": "http.response.start",
                "status": status,
                "headers": [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(reply))],
            }
        )
        await send({"type": "http.response.body", "body": reply})

    return app


def litestar_app(floor: Floor) -> Litestar:
    @post("/encounters/{encounter_id:str}/commands", status_code=200)
    async def command(body: bytes, encounter_id: str) -> Response[bytes]:
        return Response(await floor.store(encounter_id, body), media_type=MediaType.JSON)

    @get("/health", sync_to_thread=False)
    def health() -> Response[bytes]:
        return Response(_HEALTH, media_type=MediaType.JSON)

    return Litestar(route_handlers=[command, health], logging_config=None, openapi_config=None)


def main(argv: list[str] | None = None) -> int:
    import uvicorn

    parser = argparse.ArgumentParser(prog="python -m combat.bench.floors", description=__doc__)
    parser.add_argument("kind", choices=("litestar", "asgi"))
    parser.add_argument("--db", required=True)
    parser.add_argument("--host", default="127.0.0.1")
    parser.add_argument("--port", type=int, required=True)
    args = parser.parse_args(argv)
    floor = Floor(args.db)
    app = litestar_app(floor) if args.kind == "litestar" else asgi_app(floor)
    uvicorn.run(
        app, host=args.host, port=args.port, log_config=None, access_log=False, lifespan="on", timeout_graceful_shutdown=2
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
