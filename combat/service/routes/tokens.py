"""Tokens for the people and tools at the table: players bound to their characters, viewers."""

from __future__ import annotations

from litestar import post
from litestar.di import NamedDependency
from litestar.params import JSONBody

from combat.service.auth import Grant, require_gm
from combat.service.dependencies import Service
from combat.service.errors import documented
from combat.service.messages import TokenIssued, TokenRequest

__all__ = ["ROUTES"]


@post("/encounters/{encounter_id:str}/tokens", status_code=201, sync_to_thread=True, tags=["access"],
      operation_id="issueToken", responses=documented(400, 401, 403, 404, 422))
def issue_token(grant: NamedDependency[Grant], data: JSONBody[TokenRequest], service: NamedDependency[Service]) -> TokenIssued:
    """The GM issues a token: a player's (bound to the combatants they command), a viewer's, or a co-GM's.
    The token is shown once; the service keeps only its hash."""
    require_gm(grant, "issue tokens")
    token, issued = service.tokens.issue(grant.encounter_id, data.role, data.name, data.combatants)
    return TokenIssued(token=token, encounter_id=issued.encounter_id, role=data.role, name=issued.name,
                       combatants=tuple(sorted(issued.combatants)))


ROUTES = [issue_token]
