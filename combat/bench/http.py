"""A bare HTTP/1.1 client on asyncio streams, for load that costs the measuring side little.

An off-the-shelf client spends more CPU per request than the server we measure, on a
machine the two share; this one sends prebuilt bytes on a kept-alive connection and reads
the reply by its Content-Length. Loopback only: it refuses any other host.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

import msgspec

__all__ = ["Connection", "HttpError", "server_sent_events"]

LOOPBACK = "127.0.0.1"


class HttpError(Exception):
    def __init__(self, status: int, body: bytes):
        super().__init__(f"HTTP {status}: {body[:300]!r}")
        self.status = status
        self.body = body


class Connection:
    """One kept-alive connection to a server on 127.0.0.1."""

    def __init__(self, port: int):
        self.port = port
        self._reader: asyncio.StreamReader | None = None
        self._writer: asyncio.StreamWriter | None = None

    async def open(self) -> Connection:
        self._reader, self._writer = await asyncio.open_connection(LOOPBACK, self.port)
        return self

    async def close(self) -> None:
        if self._writer is not None:
            self._writer.close()
            with contextlib.suppress(OSError):
                await self._writer.wait_closed()

    @staticmethod
    def request_bytes(method: str, path: str, body: bytes | None = None, token: str | None = None) -> bytes:
        head = [f"{method} {path} HTTP/1.1", f"Host: {LOOPBACK}"]
        if token:
            head.append(f"Authorization: Bearer {token}")
        if body is not None:
            head += ["Content-Type: application/json", f"Content-Length: {len(body)}"]
        return ("\r\n".join(head) + "\r\n\r\n").encode() + (body or b"")

    async def send(self, request: bytes) -> tuple[int, bytes]:
        """Send a prebuilt request; the reply's status and body."""
        assert self._reader is not None and self._writer is not None, "open() first"
        self._writer.write(request)
        head = await self._reader.readuntil(b"\r\n\r\n")
        status = int(head[9:12])
        length = None
        for line in head.split(b"\r\n")[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None:
            raise HttpError(status, b"reply without Content-Length: " + head)
        return status, await self._reader.readexactly(length)

    async def call(self, method: str, path: str, payload: Any = None, token: str | None = None, expect: int = 200) -> Any:
        body = None if payload is None else msgspec.json.encode(payload)
        status, reply = await self.send(self.request_bytes(method, path, body, token))
        if status != expect:
            raise HttpError(status, reply)
        return msgspec.json.decode(reply)


async def server_sent_events(port: int, path: str, token: str) -> AsyncIterator[tuple[str | None, bytes]]:
    """(id, data) of each message of a text/event-stream, as it arrives (chunked transfer)."""
    reader, writer = await asyncio.open_connection(LOOPBACK, port)
    try:
        writer.write(Connection.request_bytes("GET", path, token=token))
        head = await reader.readuntil(b"\r\n\r\n")
        if head[9:12] != b"200":
            raise HttpError(int(head[9:12]), head)
        chunked = b"transfer-encoding: chunked" in head.lower()
        buffer = b""
        while True:
            if chunked:
                size = int((await reader.readuntil(b"\r\n")).strip(), 16)
                if size == 0:
                    return
                buffer += (await reader.readexactly(size + 2))[:-2]
            else:
                data = await reader.read(65536)
                if not data:
                    return
                buffer += data
            while b"\n\n" in buffer:
                message, buffer = buffer.split(b"\n\n", 1)
                event_id, data_lines = None, []
                for line in message.split(b"\n"):
                    if line.startswith(b"id: "):
                        event_id = line[4:].decode()
                    elif line.startswith(b"data: "):
                        data_lines.append(line[6:])
                if data_lines:
                    yield event_id, b"\n".join(data_lines)
    finally:
        writer.close()
