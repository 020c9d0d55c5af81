"""The client's command id of a request: the `command_id` body field or the
`Idempotency-Key` header (the name HTTP clients and proxies know). A repeat of an id
returns the first outcome with `Idempotent-Replayed: true` and appends nothing; the same id
with another request is refused, 422 `command-id/reused` (combat.app.command_ids)."""

from __future__ import annotations

from typing import Annotated

from litestar.params import HeaderParameter

from combat.app.command_ids import CLIENT_ID
from combat.service.errors import ApiError

__all__ = ["IdempotencyKey", "command_id_of", "REPLAYED"]

REPLAYED = "Idempotent-Replayed"

IdempotencyKey = Annotated[
    str | None,
    HeaderParameter(
        name="Idempotency-Key",
        required=False,
        pattern=CLIENT_ID.pattern,
        description="the client's id for this request (or the body's command_id): a repeat returns the first "
        "outcome and appends nothing; the same id with another request is refused (422 command-id/reused)",
    ),
]


def command_id_of(header: str | None, body: str | None) -> str | None:
    if header is not None and body is not None and header != body:
        raise ApiError(
            400,
            "command-id/mismatch",
            "the Idempotency-Key header and the body's command_id differ",
            allowed="one of them, or both the same",
        )
    return body if body is not None else header
