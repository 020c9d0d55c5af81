"""Commands: what the GM and the players ask for; the ruleset decides what happens."""

from __future__ import annotations

from litestar import Request, Response, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from combat.kernel.commands import Command
from combat.service.auth import Grant, check_command, command_type
from combat.service.dependencies import Service, parse_encounter_id
from combat.service.errors import documented
from combat.service.idempotency import IdempotencyKey, command_id_of
from combat.service.logging import annotate
from combat.service.messages import CommandDone, CommandRequest
from combat.service.replies import ReplyState, command_done

__all__ = ["ROUTES"]


@post(
    "/encounters/{encounter_id:str}/commands",
    status_code=200,
    tags=["commands"],
    operation_id="sendCommand",
    responses=documented(400, 401, 403, 404, 409, 422),
)
async def send_command(
    request: Request,
    encounter_id: FromPath[str],
    data: JSONBody[CommandRequest],
    service: NamedDependency[Service],
    idempotency_key: IdempotencyKey = None,
    with_state: ReplyState = False,
) -> Response[CommandDone]:
    """Send one command. The reply holds the events it appended and the new version, and
    with `?state=true` the state after them; a rejected command appends nothing. Without
    `expected_version` the server takes commands one at a time (deciding again if another
    process appended first); with a command id, a repeat returns the first outcome and
    appends nothing."""
    eid = parse_encounter_id(encounter_id)
    annotate(request, encounter=eid)
    command_id = command_id_of(idempotency_key, data.command_id)

    def read() -> tuple[Grant, Command]:
        grant = service.authorize(request, eid)
        command = service.command_of(grant.encounter_id, data.command)
        annotate(request, command=command_type(command))
        check_command(grant, command)
        return grant, command

    grant, outcome = await service.send(read, data.expected_version, command_id)
    return command_done(outcome, grant, with_state=with_state)


ROUTES = [send_command]
