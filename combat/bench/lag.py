"""6. Projection lag: from a command's commit until a live stream subscriber has its events.

One client plays a table through one process while a subscriber follows the encounter's
stream (with the state after each event, as a browser overlay would) through the last
process (on PostgreSQL, the other one). Each event carries the time it was stamped just
before its commit; the lag is the moment the subscriber has read it, minus that. The peer
is the commanding client itself: how long after the same stamp its reply arrived.
Commands are sent one at a time, each once the stream has delivered the previous one.
"""

from __future__ import annotations

import asyncio
import contextlib
import time
from datetime import datetime
from typing import Any

import msgspec

from combat.bench.http import Connection, server_sent_events
from combat.bench.service import open_table
from combat.bench.timing import percentile

__all__ = ["measure", "run_lag"]

WAIT_FOR_STREAM = 10.0  # seconds: a message not streamed by then is a failure, not a sample


class _Line(msgspec.Struct):
    seq: int
    at: datetime


class _Message(msgspec.Struct):
    event: _Line


class _Done(msgspec.Struct):
    version: int
    events: list[_Line]


_message = msgspec.json.Decoder(_Message)
_done = msgspec.json.Decoder(_Done)


async def run_lag(command_port: int, stream_port: int, commands: int) -> dict[str, Any]:
    connection = await Connection(command_port).open()
    try:
        table = await open_table(connection, "lag table")
        arrived: dict[int, float] = {}
        progress = asyncio.Condition()

        async def subscribe() -> None:
            path = f"/encounters/{table.id}/stream?after={table.version}"
            async for _, data in server_sent_events(stream_port, path, table.token):
                now = time.time()
                seq = _message.decode(data).event.seq
                async with progress:
                    arrived[seq] = now
                    progress.notify_all()

        async def streamed(seq: int) -> None:
            async with progress:
                await asyncio.wait_for(progress.wait_for(lambda: seq in arrived), WAIT_FOR_STREAM)

        follower = asyncio.create_task(subscribe())
        stream_lags: list[float] = []
        reply_lags: list[float] = []
        try:
            for n in range(commands + 1):
                status, reply = await connection.send(table.next_request())
                replied = time.time()
                if status != 200:
                    raise RuntimeError(f"command refused: {status} {reply[:200]!r}")
                table.advance(reply)
                done = _done.decode(reply)
                await streamed(done.version)
                if n == 0:
                    continue  # the subscription was still being set up
                reply_lags.append(replied - done.events[0].at.timestamp())
                stream_lags += [arrived[line.seq] - line.at.timestamp() for line in done.events]
        finally:
            follower.cancel()
            with contextlib.suppress(asyncio.CancelledError, OSError):
                await follower
    finally:
        await connection.close()
    return {
        "commands": commands,
        "events": len(stream_lags),
        "p50_ms": percentile(stream_lags, 50) * 1000,
        "p99_ms": percentile(stream_lags, 99) * 1000,
        "reply_p50_ms": percentile(reply_lags, 50) * 1000,
        "reply_p99_ms": percentile(reply_lags, 99) * 1000,
        "ratio_p50_to_reply": percentile(stream_lags, 50) / percentile(reply_lags, 50),
    }


def measure(command_port: int, stream_port: int, commands: int) -> dict[str, Any]:
    return asyncio.run(run_lag(command_port, stream_port, commands))
