"""The live stream: server-sent events per encounter.

Each message is one event of the log with the state after it:

    id: 12
    data: {"event": {"seq": 12, "type": "AttackMade", ...}, "state": {...}}

With `?state=false` a message is the event alone (`{"event": {...}}`): a subscriber that
keeps its own state, or reads it with GET when it needs it, spares the server a projection
per event. It starts after `Last-Event-ID` (what a reconnecting EventSource sends) or
`?after=SEQ`, catches up from the store, then follows new events as they are appended by
any process. A comment line every few seconds keeps proxies from closing a quiet stream.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator
from typing import Annotated
from uuid import UUID

import anyio
import msgspec
from litestar import get
from litestar.di import NamedDependency
from litestar.params import HeaderParameter, QueryParameter
from litestar.response import Stream

from combat.app.application import Encounters, fold_records
from combat.app.interchange import to_line
from combat.kernel.errors import RuleError
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState
from combat.service.auth import Grant
from combat.service.dependencies import Service
from combat.service.errors import ApiError, documented
from combat.service.messages import MAX_SEQ
from projections.redaction import Reader, Redaction
from projections.state import state_view

__all__ = ["ROUTES", "follow"]

KEEP_ALIVE = 10.0  # seconds of quiet before a comment line (and a re-read of the store)
BATCH = 200  # records read from the store at a time
RETRY_MS = 1000  # how soon a disconnected EventSource reconnects
TOKEN_RECHECK = 1.0  # seconds between checks that the stream's token still holds
_encoder = msgspec.json.Encoder(order="sorted")


def _message(rec: Recorded, state: EncounterState | None, shown: Redaction) -> bytes:
    line = to_line(shown.record(rec))
    body = (
        b'{"event":' + line + (b',"state":' + _encoder.encode(shown.view(state_view(state))) if state is not None else b"") + b"}"
    )
    return b"id: %d\ndata: %s\n\n" % (rec.seq, body)


def _state_after(encounters: Encounters, encounter_id: UUID, rec: Recorded, state: EncounterState | None) -> EncounterState:
    try:
        return fold_records([rec], state)
    except ValueError:
        # An undo or amendment changed the past: the state comes from the whole log again.
        return encounters.state(encounter_id, at=rec.seq)


def _next_messages(
    encounters: Encounters,
    encounter_id: UUID,
    last: int,
    state: EncounterState | None,
    with_state: bool,
    reader: Reader,
) -> tuple[list[bytes], int, EncounterState | None, bool]:
    """The messages after seq `last` (one batch), the seq and state reached, and whether more wait."""
    batch = list(encounters.records(encounter_id, after=last, upto=last + BATCH))
    shown = Redaction(encounters.state(encounter_id), reader)  # what is revealed by now
    messages = []
    for rec in batch:
        if with_state:
            state = _state_after(encounters, encounter_id, rec, state)
        messages.append(_message(rec, state, shown))
        last = rec.seq
    return messages, last, state, len(batch) == BATCH


async def follow(
    service: Service, encounter_id: UUID, after: int, with_state: bool, reader: Reader, token_hash: str | None = None
) -> AsyncIterator[bytes]:
    """The stream's messages, as `reader` may see them. With `token_hash`, the stream ends once
    that token is revoked or expires (checked at most every TOKEN_RECHECK seconds), and the
    browser's reconnection is refused."""
    waiter = service.hub.subscribe(encounter_id)
    checked = time.monotonic()
    try:
        encounters = service.encounters
        state = None
        if after and with_state:
            state = await anyio.to_thread.run_sync(lambda: encounters.state(encounter_id, at=after))
        last = after
        yield b"retry: %d\n\n" % RETRY_MS
        while not service.hub.closed:
            if token_hash is not None and time.monotonic() - checked >= TOKEN_RECHECK:
                checked = time.monotonic()
                if not await anyio.to_thread.run_sync(service.tokens.still_valid, token_hash):
                    return
            waiter.clear()  # before reading, so an append during the read rings again
            messages, last, state, more = await anyio.to_thread.run_sync(
                _next_messages, encounters, encounter_id, last, state, with_state, reader
            )
            for message in messages:
                yield message
            if not more and not await waiter.wait(KEEP_ALIVE):
                yield b": keep-alive\n\n"
    finally:
        service.hub.unsubscribe(encounter_id, waiter)


def _resume_from(header: str | None, after: int | None) -> int:
    if header is None:
        return after or 0
    text = header.strip()
    if not (text.isascii() and text.isdigit() and len(text) <= 16 and int(text) <= MAX_SEQ):
        raise ApiError(
            400,
            "stream/bad-last-event-id",
            f"Last-Event-ID {header[:40]!r} is not a seq",
            allowed="the id of the last message received (a whole number)",
        )
    return int(text)


@get(
    "/encounters/{encounter_id:str}/stream",
    tags=["encounters"],
    operation_id="stream",
    responses=documented(400, 401, 403, 404, 409),
    media_type="text/event-stream",
)
async def stream(
    grant: NamedDependency[Grant],
    service: NamedDependency[Service],
    after: Annotated[
        int | None, QueryParameter(ge=0, le=MAX_SEQ, description="start after this seq (Last-Event-ID wins)")
    ] = None,
    with_state: Annotated[bool, QueryParameter(name="state", description="send the state after each event")] = True,
    last_event_id: Annotated[str | None, HeaderParameter(name="Last-Event-ID", description="resume after this seq")] = None,
) -> Stream:
    """Server-sent events: every event of the log after a seq, then each new one as it happens,
    each with the state after it. Resumable with Last-Event-ID."""
    start = _resume_from(last_event_id, after)
    version = (await anyio.to_thread.run_sync(lambda: service.encounters.state(grant.encounter_id))).version
    if start > version:
        raise RuleError("stream/after-beyond", f"the log ends at seq {version}, not {start}", allowed=f"0 to {version}")
    return Stream(
        follow(service, grant.encounter_id, start, with_state, grant, grant.token_hash or None),
        media_type="text/event-stream",
        headers={"Cache-Control": "no-cache", "X-Accel-Buffering": "no"},
    )


ROUTES = [stream]
