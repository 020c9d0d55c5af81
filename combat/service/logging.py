"""structlog JSON lines: one per request with its id, encounter, command type, outcome and
latency. No secrets: the Authorization header and query strings (a browser's EventSource
sends its token as `access_token`) are never logged, and tracebacks carry no local variables."""

from __future__ import annotations

import asyncio
import atexit
import itertools
import logging
import re
import sys
import threading
import time
import uuid
from collections.abc import Awaitable, Callable, MutableMapping
from datetime import UTC, datetime
from typing import Any, TextIO

import msgspec
import structlog

__all__ = ["configure_logging", "log", "annotate", "RequestLog"]

log = structlog.get_logger("combat.service")

_SCOPE_KEY = "combat.log"
_REQUEST_ID = re.compile(r"^[A-Za-z0-9._-]{1,64}$")

Scope = MutableMapping[str, Any]

# A request's own id when the client sent none: a random prefix per process and a count,
# unique like a fresh UUID without reading the system's randomness for every request.
_ids = itertools.count(1)
_ID_PREFIX = uuid.uuid4().hex[:16]


def _next_id() -> str:
    return f"{_ID_PREFIX}{next(_ids):016x}"


ASGIApp = Callable[[Scope, Callable[[], Awaitable[Any]], Callable[[Any], Awaitable[None]]], Awaitable[None]]


def _processors() -> list[Any]:
    return [
        structlog.contextvars.merge_contextvars,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.ExceptionRenderer(structlog.tracebacks.ExceptionDictTransformer(show_locals=False)),
    ]


class _RequestLines:
    """Where the request line goes once logging is configured: written straight to the
    stream, the same JSON structlog would render. Through structlog's processors it cost
    as much per request as the rules deciding a move. Lines written on an event loop are
    flushed together once per turn of it (one write to the stream for every request the
    turn finished, instead of one each); elsewhere each is flushed at once."""

    def __init__(self) -> None:
        self.stream: TextIO | None = None
        self.lock = threading.Lock()
        self.encode = msgspec.json.Encoder(enc_hook=str).encode
        self._pending: list[str] = []
        self._flush_on: asyncio.AbstractEventLoop | None = None  # the loop a flush is due on
        atexit.register(self.flush)

    def write(self, fields: dict[str, Any]) -> bool:
        stream = self.stream
        if stream is None or not structlog.is_configured():  # reset since: structlog's defaults
            return False
        fields["event"] = "request"
        fields["level"] = "info"
        fields["timestamp"] = datetime.now(UTC).isoformat().replace("+00:00", "Z")
        line = self.encode(fields).decode() + "\n"
        try:
            loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:
            loop = None
        with self.lock:
            self._pending.append(line)
            schedule = loop is not None and self._flush_on is not loop  # a loop closed since never flushes
            if schedule:
                self._flush_on = loop
        if loop is None:
            self.flush()
        elif schedule:
            loop.call_soon(self.flush)
        return True

    def flush(self) -> None:
        with self.lock:
            self._flush_on = None
            lines, self._pending = self._pending, []
            if lines and self.stream is not None:
                self.stream.write("".join(lines))
                self.stream.flush()


_request_lines = _RequestLines()


def configure_logging(stream: TextIO | None = None, level: int = logging.INFO) -> None:
    """JSON lines on `stream` (stderr) for our logger and for uvicorn's own messages."""
    stream = stream or sys.stderr
    _request_lines.stream = stream if level <= logging.INFO else None
    structlog.configure(
        processors=[*_processors(), structlog.processors.JSONRenderer()],
        wrapper_class=structlog.make_filtering_bound_logger(level),
        logger_factory=structlog.PrintLoggerFactory(stream),
        cache_logger_on_first_use=False,
    )
    handler = logging.StreamHandler(stream)
    handler.setFormatter(
        structlog.stdlib.ProcessorFormatter(
            processors=[structlog.stdlib.ProcessorFormatter.remove_processors_meta, structlog.processors.JSONRenderer()],
            foreign_pre_chain=[structlog.stdlib.add_logger_name, *_processors()],
        )
    )
    for name in ("uvicorn", "uvicorn.error", "litestar"):
        logger = logging.getLogger(name)
        logger.handlers = [handler]
        logger.setLevel(level)
        logger.propagate = False


def annotate(request: Any, **fields: Any) -> None:
    """Add fields (encounter, command, outcome) to the request's log line."""
    notes = request.scope.get(_SCOPE_KEY)
    if notes is not None:
        notes.update({k: str(v) for k, v in fields.items() if v is not None})


class RequestLog:
    """ASGI wrapper outside the whole app, so unmatched paths are logged too."""

    def __init__(self, app: ASGIApp):
        self.app = app

    def __getattr__(self, name: str) -> Any:  # the wrapped Litestar app's attributes (state, routes...)
        return getattr(self.app, name)

    async def __call__(self, scope: Scope, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        given = next((value for name, value in scope.get("headers") or () if name == b"x-request-id"), b"").decode("latin-1")
        request_id = given if _REQUEST_ID.match(given) else _next_id()
        notes: dict[str, str] = {}
        scope[_SCOPE_KEY] = notes
        status = 0
        started = time.perf_counter()

        async def send_with_id(message: Any) -> None:
            nonlocal status
            if message["type"] == "http.response.start":
                status = message["status"]
                message["headers"] = [*message.get("headers", []), (b"x-request-id", request_id.encode())]
            await send(message)

        try:
            await self.app(scope, receive, send_with_id)
        finally:
            fields = {
                "request_id": request_id,
                "method": scope.get("method"),
                "path": scope.get("path"),
                "status": status,
                "outcome": notes.pop("outcome", "ok" if 0 < status < 400 else str(status)),
                "latency_ms": round((time.perf_counter() - started) * 1000, 2),
                **notes,
            }
            if not _request_lines.write(fields):
                log.info("request", **fields)
