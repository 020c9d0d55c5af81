"""The HTTP service's own error codes: tokens, roles, limits, the request's form."""

from __future__ import annotations

from combat.kernel.error_kinds import ErrorCode, declared

__all__ = ["SERVICE_ERROR_CODES"]

SERVICE_ERROR_CODES: tuple[ErrorCode, ...] = declared(
    refused={
        "serve/admin-token": "on … creating encounters needs an admin token",
        "serve/stats-follower": "no stats follower '…'",
        "state/at-beyond": "the log ends at seq …",
        "stream/after-beyond": "the log ends at seq …, not …",
    },
    invalid={
        "character/name-mismatch": "the path names … but the sheet is …",
        "encounter/bad-name": "an encounter needs a name",
        "limits/text": "a text is longer than the limit",
        "request/invalid": "the body does not match the schema",
        "token/bad-name": "… name … is not usable: …",
        "token/character": "a campaign's player token needs the character it reads",
        "token/combatants": "… is not a combatant id",
    },
    not_found={
        "path/not-found": "no such path: …",
    },
    malformed={
        "campaign/bad-id": "'…' is not a campaign id",
        "command-id/mismatch": "the Idempotency-Key header and the body's command_id differ",
        "encounter/bad-id": "'…' is not an encounter id",
        "request/bad-parameter": "…=… is not true or false",
        "request/malformed": "the body is not JSON in UTF-8: …",
        "request/too-deep": "the body nests deeper than … levels",
        "stream/bad-last-event-id": "Last-Event-ID … is not a seq",
    },
    unauthenticated={
        "auth/admin-required": "creating encounters on this server needs its admin token",
        "auth/expired": "the token has expired",
        "auth/missing": "this needs a token of the encounter",
        "auth/revoked": "the token was revoked",
        "auth/unknown-token": "the token is not one this service issued",
    },
    forbidden={
        "auth/campaign-token": "a campaign's token opens its campaign's characters, not an encounter",
        "auth/gm-command": "'…' is the GM's to send",
        "auth/gm-only": "only the GM may …; this is a … token",
        "auth/not-your-character": "this token gives no access to …",
        "auth/not-your-combatant": "… does not command …",
        "auth/other-campaign": "the token belongs to another campaign",
        "auth/other-encounter": "the token belongs to another encounter",
        "auth/read-only": "a … token only reads",
    },
    wrong_method={
        "method/not-allowed": "… is not allowed here",
    },
    too_large={
        "request/too-large": "the body is larger than this service takes",
    },
    too_many={
        "limits/encounters": "this credential has created … encounters",
    },
    unavailable={
        "store/unavailable": "the event store cannot be reached",
    },
    internal={
        "server/internal": "the service failed on this request",
    },
    passed_on={
        "http/{status}": "another HTTP error, with its status",
    },
)
