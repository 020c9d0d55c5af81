"""Tokens for the people and tools at the table: players bound to their characters, viewers;
the GM lists them (never their secrets) and revokes them."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from litestar import Response, delete, get, post
from litestar.di import NamedDependency
from litestar.params import FromPath, JSONBody

from combat.service.auth import Grant, require_gm
from combat.service.dependencies import Service
from combat.service.errors import ApiError, documented
from combat.service.messages import TokenInfo, TokenIssued, TokenRequest

__all__ = ["ROUTES"]


@post(
    "/encounters/{encounter_id:str}/tokens",
    status_code=201,
    sync_to_thread=True,
    tags=["access"],
    operation_id="issueToken",
    responses=documented(400, 401, 403, 404, 422),
)
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


@get(
    "/encounters/{encounter_id:str}/tokens",
    sync_to_thread=True,
    tags=["access"],
    operation_id="listTokens",
    responses=documented(400, 401, 403, 404),
)
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


@delete(
    "/encounters/{encounter_id:str}/tokens/{token_id:str}",
    status_code=204,
    sync_to_thread=True,
    tags=["access"],
    operation_id="revokeToken",
    responses=documented(400, 401, 403, 404),
)
def revoke_token(grant: NamedDependency[Grant], token_id: FromPath[str], service: NamedDependency[Service]) -> Response[None]:
    """Revoke a token by its id: refused from the next request on, on every process."""
    require_gm(grant, "revoke tokens")
    if not service.tokens.store.revoke(grant.encounter_id, token_id):
        raise ApiError(
            404,
            "token/unknown",
            f"no token {token_id[:40]!r} in this encounter",
            allowed="a token_id from GET /encounters/{id}/tokens",
        )
    return Response(None, status_code=204)


ROUTES = [issue_token, list_tokens, revoke_token]
