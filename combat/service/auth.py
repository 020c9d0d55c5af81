"""Tokens and roles.

A token is 32 random bytes, shown once and stored only as its SHA-256 hash; it is scoped to
one encounter. Roles:

- gm: everything in that encounter.
- player: only commands whose acting combatant (the command's `combatant` or `attacker`
  field) is one bound to the token: declare, act, react, roll their own saves and
  initiative, enter their own dice. Setting up the fight (adding or removing combatants)
  and rulings stay with the GM. The actor recorded in the log is the player's name.
- viewer: read only.

A campaign's tokens (combat.service.routes.campaigns) are kept in the same table, scoped to
the campaign's id, with the roles `campaign-gm` (its characters, its encounters' creation,
its tokens) and `campaign-player` (one character of it, read only). They open no encounter.
"""

from __future__ import annotations

import hashlib
import re
import secrets
from datetime import UTC, datetime
from uuid import UUID

from litestar import Request

from combat.kernel.commands import Command
from combat.service.errors import ApiError
from combat.service.names import usable_name
from combat.store.tokens import Grant, TokenStore

__all__ = [
    "Grant",
    "new_token",
    "hash_token",
    "bearer_token",
    "Tokens",
    "require_gm",
    "check_command",
    "command_type",
    "CAMPAIGN_ROLES",
]

# A campaign's token roles, by the role asked for (`POST /campaigns/{id}/tokens`).
CAMPAIGN_ROLES = {"gm": "campaign-gm", "player": "campaign-player"}
_COMBATANT_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
HOW = "Authorization: Bearer <token> (the gm_token from POST /encounters, or one from POST /encounters/{id}/tokens)"


def new_token() -> str:
    return secrets.token_urlsafe(32)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def bearer_token(request: Request) -> str | None:
    # Read from the ASGI scope: building the request's header map for one header cost more
    # than hashing the token.
    header = next((value for name, value in request.scope["headers"] if name == b"authorization"), b"")
    scheme, _, token = header.decode("latin-1").partition(" ")
    if scheme.lower() == "bearer" and token.strip():
        return token.strip()
    if request.method == "GET":
        # A browser's EventSource cannot send headers; it may pass the token in the URL.
        return request.query_params.get("access_token") or None
    return None


class Tokens:
    """Issues tokens and finds the grant behind one."""

    def __init__(self, store: TokenStore):
        self.store = store

    def issue(
        self,
        encounter_id: UUID,
        role: str,
        name: str = "",
        combatants: tuple[str, ...] = (),
        *,
        expires_at: datetime | None = None,
        created_by: str | None = None,
    ) -> tuple[str, Grant]:
        if role == "gm":
            name = "gm"
        else:
            name = usable_name(name, role, self.store.names(encounter_id))
        if role != "player" and combatants:
            raise ApiError(
                422,
                "token/combatants",
                f"only a player token is bound to combatants, not a {role} token",
                allowed="combatants: [] or role: player",
            )
        if role == "player" and not combatants:
            raise ApiError(
                422,
                "token/combatants",
                "a player token needs the combatants it commands",
                allowed='combatants: the ids of the player\'s characters, e.g. ["aria"]',
            )
        bad = [c for c in combatants if not _COMBATANT_ID.match(c)]
        if bad:
            raise ApiError(
                422,
                "token/combatants",
                f"{bad[0]!r} is not a combatant id",
                allowed="lower-case letters, digits, - and _, e.g. aria",
            )
        token = new_token()
        grant = Grant(
            encounter_id=encounter_id, role=role, name=name, combatants=frozenset(combatants), token_hash=hash_token(token)
        )
        self.store.add(grant.token_hash, grant, expires_at=expires_at, created_by=created_by)
        return token, grant

    def still_valid(self, token_hash: str) -> bool:
        found = self.store.find(token_hash)
        return found is not None and found.refusal(datetime.now(UTC)) is None

    def any_grant(self, request: Request) -> Grant | None:
        """The grant of the request's token, whichever encounter it is for; None without a
        valid one (a read that a token of some encounter may make: its own character's sheet)."""
        token = bearer_token(request)
        found = None if token is None else self.store.find(hash_token(token))
        if found is None or found.refusal(datetime.now(UTC)) is not None:
            return None
        return found.grant

    def issue_campaign(
        self, campaign_id: UUID, role: str, name: str = "", character: str | None = None, *, created_by: str | None = None
    ) -> tuple[str, Grant]:
        """A campaign's token: its GM's, or a player's bound to one of its characters (by name)."""
        if role == "gm":
            name, held = "gm", frozenset[str]()
        else:
            if not character:
                raise ApiError(
                    422,
                    "token/character",
                    "a campaign's player token needs the character it reads",
                    allowed='character: the name of one of the campaign\'s characters, e.g. "Elara"',
                )
            name, held = usable_name(name, role, self.store.names(campaign_id)), frozenset({character})
        token = new_token()
        grant = Grant(
            encounter_id=campaign_id, role=CAMPAIGN_ROLES[role], name=name, combatants=held, token_hash=hash_token(token)
        )
        self.store.add(grant.token_hash, grant, created_by=created_by)
        return token, grant

    def grant_for(self, request: Request, encounter_id: UUID) -> Grant:
        """The grant of the request's token for this encounter (or campaign); else 401 or 403
        saying why. Read from the store each time: a revocation on any process holds at once."""
        grant = self.scope_grant(request, encounter_id, campaign_tokens=False)
        if grant.role in CAMPAIGN_ROLES.values():
            raise ApiError(
                403,
                "auth/campaign-token",
                "a campaign's token opens its campaign's characters, not an encounter",
                allowed="a token issued for this encounter (the gm_token from POST /campaigns/{id}/encounters)",
            )
        return grant

    def scope_grant(self, request: Request, encounter_id: UUID, *, campaign_tokens: bool = True) -> Grant:
        """The grant of the request's token if it was issued for `encounter_id` (an
        encounter's or a campaign's id); else 401 or 403 saying why. Without
        `campaign_tokens`, a campaign's token is returned whatever its id (for the caller to
        refuse by its role, saying so)."""
        token = bearer_token(request)
        if token is None:
            raise ApiError(401, "auth/missing", "this needs a token of the encounter", allowed=HOW)
        found = self.store.find(hash_token(token))
        if found is None:
            raise ApiError(401, "auth/unknown-token", "the token is not one this service issued", allowed=HOW)
        grant = found.grant
        refusal = found.refusal(datetime.now(UTC))
        if refusal is not None:
            raise ApiError(
                401,
                f"auth/{refusal}",
                f"the token was {refusal}",
                allowed="a new token from the GM (POST /encounters/{id}/tokens)",
            )
        if grant.encounter_id != encounter_id and (campaign_tokens or grant.role not in CAMPAIGN_ROLES.values()):
            raise ApiError(
                403, "auth/other-encounter", "the token belongs to another encounter", allowed="a token issued for this encounter"
            )
        return grant


def require_gm(grant: Grant, what: str) -> None:
    if grant.role != "gm":
        raise ApiError(403, "auth/gm-only", f"only the GM may {what}; this is a {grant.role} token", allowed="the GM's token")


def command_type(command: Command) -> str:
    """The command's `type` tag (read from the class: a command may have a field named `trigger`)."""
    return str(type(command).__struct_config__.tag)


def check_command(grant: Grant, command: Command) -> None:
    """May this token send this command? The rules themselves are the decider's."""
    if grant.role == "gm":
        return
    if grant.role != "player":
        raise ApiError(403, "auth/read-only", f"a {grant.role} token only reads", allowed="GET requests")
    trigger = command_type(command)
    yours = ", ".join(sorted(grant.combatants))
    actors = command.actors()  # who may send what is declared on each command class
    if type(command).gm_only or not actors:
        raise ApiError(
            403,
            "auth/gm-command",
            f"'{trigger}' is the GM's to send",
            allowed=f"commands acting as {yours} (move, attack, take_action, end_turn, ...)",
        )
    strangers = sorted(actors - grant.combatants)
    if strangers:
        raise ApiError(
            403,
            "auth/not-your-combatant",
            f"{grant.name} does not command {', '.join(strangers)}",
            allowed=f"commands acting as {yours}",
        )
