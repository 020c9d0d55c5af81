"""Tokens for the people and tools at the table: players bound to their characters, viewers;
the GM lists them (never their secrets) and revokes them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from typing import Literal
from uuid import UUID

from litestar import Response, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from combat.service.auth import Grant, require_gm
from combat.service.dependencies import Service
from combat.service.errors import ApiError
from combat.service.messages import TokenInfo, TokenIssued, TokenRequest
from combat.service.routes.operation import operation

__all__ = ["ROUTES", "revoked"]

_TAGS = ["access"]


@operation(post, "/encounters/{encounter_id:str}/tokens", "issueToken", (400, 401, 403, 404, 422), tags=_TAGS, status_code=201)
def issue_token(grant: NamedDependency[Grant], data: JSONBody[TokenRequest], service: NamedDependency[Service]) -> TokenIssued:
    """The GM issues a token: a player's (bound to the combatants they command), a viewer's, or a co-GM's.
    The token is shown once; the service keeps only its hash. It may expire (`expires_in` seconds)."""
    require_gm(grant, "issue tokens")
    expires_at = datetime.now(UTC) + timedelta(seconds=data.expires_in) if data.expires_in else None
    token, issued = service.tokens.issue(grant.encounter_id, data.role, data.name, data.combatants, expires_at=expires_at)
    return TokenIssued(
        token=token,
        token_id=issued.token_id,
        encounter_id=issued.encounter_id,
        role=data.role,
        name=issued.name,
        combatants=tuple(sorted(issued.combatants)),
        expires_at=expires_at,
    )


@operation(get, "/encounters/{encounter_id:str}/tokens", "listTokens", (400, 401, 403, 404), tags=_TAGS)
def list_tokens(grant: NamedDependency[Grant], service: NamedDependency[Service]) -> list[TokenInfo]:
    """Every token issued for the encounter, for the GM: ids, roles, names, life; never the secrets."""
    require_gm(grant, "list tokens")
    now = datetime.now(UTC)
    return [
        TokenInfo(
            token_id=row.grant.token_id,
            role=row.grant.role,  # type: ignore[arg-type]
            name=row.grant.name,
            combatants=tuple(sorted(row.grant.combatants)),
            issued_at=row.issued_at,
            expires_at=row.expires_at,
            revoked_at=row.revoked_at,
            active=row.refusal(now) is None,
        )
        for row in service.tokens.store.of_encounter(grant.encounter_id)
    ]


@operation(
    delete,
    "/encounters/{encounter_id:str}/tokens/{token_id:str}",
    "revokeToken",
    (400, 401, 403, 404),
    tags=_TAGS,
    status_code=204,
)
def revoke_token(grant: NamedDependency[Grant], token_id: FromPath[str], service: NamedDependency[Service]) -> Response[None]:
    """Revoke a token by its id: refused from the next request on, on every process."""
    require_gm(grant, "revoke tokens")
    return revoked(service, grant.encounter_id, token_id, "encounter")


def revoked(service: Service, owner: UUID, token_id: str, kind: Literal["encounter", "campaign"]) -> Response[None]:
    """Revoke a token of an encounter or a campaign (204); 404 for one it never issued."""
    if not service.tokens.store.revoke(owner, token_id):
        raise ApiError(
            404,
            "token/unknown",
            f"no token {token_id[:40]!r} in this {kind}",
            allowed=f"a token_id from GET /{kind}s/{{id}}/tokens",
        )
    return Response(None, status_code=204)


ROUTES = [issue_token, list_tokens, revoke_token]
