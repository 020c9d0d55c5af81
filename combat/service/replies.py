"""Reply bodies built from the application's results."""

from __future__ import annotations

from typing import Annotated, cast

import msgspec
from litestar import MediaType, Response
from litestar.params import QueryParameter

from combat.app.application import Outcome
from combat.app.interchange import to_line
from combat.kernel.state import EncounterState
from combat.service.idempotency import REPLAYED
from combat.service.messages import CommandDone, StateView
from projections.redaction import Reader, Redaction
from projections.state import state_view

__all__ = ["view_of", "command_done", "ReplyState"]

_encoder = msgspec.json.Encoder()

# Building the whole state into every reply cost about a fifth of a command's server time,
# and most clients only need the events (a table screen follows the stream): it is asked for.
ReplyState = Annotated[
    bool,
    QueryParameter(
        name="state",
        description="true: the reply also holds the state after the command (as GET /encounters/{id} gives it)",
    ),
]


def view_of(state: EncounterState) -> StateView:
    """The state projection exactly as `projections.state` builds it. `StateView` describes
    it for the OpenAPI document, one alternative per ruleset named by `ruleset`; a ruleset's
    own block appears only once it holds something, which the schema allows as it is optional."""
    return cast(StateView, state_view(state))


def command_done(outcome: Outcome, reader: Reader | None = None, with_state: bool = False) -> Response[CommandDone]:
    """`CommandDone` as JSON, encoded here: each event's log line already is JSON, so it is
    spliced in as it is rather than decoded only for the framework to encode it again.
    A player's reply leaves out what the GM has not revealed (projections.redaction)."""
    shown = Redaction(outcome.state, reader) if reader is not None else None
    records = shown.records(outcome.records) if shown is not None else outcome.records
    body = b'{"version":%d,"events":[%s]' % (outcome.state.version, b",".join(to_line(rec) for rec in records))
    if with_state:
        view = view_of(outcome.state)
        body += b',"state":' + _encoder.encode(shown.view(view) if shown is not None else view)
    headers = {REPLAYED: "true"} if outcome.repeated else None
    return Response(body + b"}", media_type=MediaType.JSON, headers=headers)  # type: ignore[arg-type]
