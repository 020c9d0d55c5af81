"""An encounter: create it, read its state (now or at a seq), its events and its narrative."""

from __future__ import annotations

from typing import Annotated, Any, cast

from litestar import Request, Response, get, post
from litestar.di import NamedDependency
from litestar.params import JSONBody, QueryParameter

from combat.app.interchange import to_line
from combat.kernel.errors import RuleError
from combat.service.auth import Grant
from combat.service.dependencies import Service
from combat.service.errors import ApiError
from combat.service.logging import annotate
from combat.service.messages import MAX_SEQ, CreateEncounter, EncounterOpened, LogLine, StateView
from combat.service.openapi import JSONL
from combat.service.replies import view_of
from combat.service.routes.operation import operation
from projections.redaction import Redaction

__all__ = ["ROUTES"]

_TAGS = ["encounters"]

_NAME_LENGTH = 200


@operation(
    post, "/encounters", "createEncounter", (400, 401, 422, 429), tags=_TAGS, status_code=201, security=[{}, {"token": []}]
)
def create_encounter(request: Request, data: JSONBody[CreateEncounter], service: NamedDependency[Service]) -> EncounterOpened:
    """Create an encounter under a ruleset. The reply holds its id and the GM's token (shown once).
    A server reachable beyond its own machine asks for its admin token here."""
    credential = service.admission.credential(request)
    if not data.name.strip() or len(data.name) > _NAME_LENGTH:
        raise ApiError(422, "encounter/bad-name", "an encounter needs a name", allowed=f"1 to {_NAME_LENGTH} characters")
    with service.quota_slot(credential):
        encounter_id = service.encounters.create(data.ruleset, data.name, seed=data.seed, settings=data.settings)
    annotate(request, encounter=encounter_id)
    return service.opened(encounter_id, credential)


@operation(get, "/encounters/{encounter_id:str}", "getState", (400, 401, 403, 404, 409), tags=_TAGS)
def get_state(
    grant: NamedDependency[Grant],
    service: NamedDependency[Service],
    at: Annotated[int | None, QueryParameter(ge=1, le=MAX_SEQ, description="the state as it was after this seq")] = None,
) -> StateView:
    """The state projection: phase, round, whose turn, every combatant, the initiative order."""
    if at is not None:
        version = service.encounters.state(grant.encounter_id).version
        if at > version:
            raise RuleError("state/at-beyond", f"the log ends at seq {version}", allowed=f"at from 1 to {version}")
    shown = Redaction(service.encounters.state(grant.encounter_id), grant)
    return cast(StateView, shown.view(view_of(service.encounters.state(grant.encounter_id, at=at))))


@operation(get, "/encounters/{encounter_id:str}/events", "getEvents", (400, 401, 403, 404), tags=_TAGS)
def get_events(
    request: Request,
    grant: NamedDependency[Grant],
    service: NamedDependency[Service],
    after: Annotated[int, QueryParameter(ge=0, le=MAX_SEQ, description="only events with a greater seq")] = 0,
    limit: Annotated[int | None, QueryParameter(ge=1, le=MAX_SEQ, description="at most this many events")] = None,
    fmt: Annotated[
        str | None,
        QueryParameter(
            name="format", pattern="^(json|jsonl)$", description="jsonl for JSON Lines (or send Accept: application/x-ndjson)"
        ),
    ] = None,
) -> Response[list[dict[str, Any]]]:
    """The log: JSON (an array of lines) or JSON Lines, each line as in `combat export`."""
    upto = after + limit if limit is not None else None
    shown = Redaction(service.encounters.state(grant.encounter_id), grant)
    lines = [to_line(rec) for rec in shown.records(service.encounters.records(grant.encounter_id, after=after, upto=upto))]
    if fmt == "jsonl" or (fmt is None and JSONL in request.headers.get("accept", "")):
        return Response(b"".join(line + b"\n" for line in lines), media_type=JSONL)  # type: ignore[arg-type]
    return Response(b"[" + b",".join(lines) + b"]", media_type="application/json")  # type: ignore[arg-type]


@operation(get, "/encounters/{encounter_id:str}/log", "getLog", (400, 401, 403, 404), tags=_TAGS)
def get_log(grant: NamedDependency[Grant], service: NamedDependency[Service]) -> list[LogLine]:
    """The narrative: one human line per event."""
    shown = Redaction(service.encounters.state(grant.encounter_id), grant)
    return [LogLine(seq=seq, text=text) for seq, text in shown.narrative(service.encounters.records(grant.encounter_id))]


ROUTES = [create_encounter, get_state, get_events, get_log]
