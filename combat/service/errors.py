"""Every rejected request is a 4xx JSON body `{"error": code, "detail": ..., "allowed": ...}`.

`error` is the stable `area/what` code of the `RuleError` (or of the HTTP layer), `detail`
says what was wrong and `allowed` what would have been accepted. The status follows the code's
kind, declared with the code by the room that raises it (combat/kernel/error_kinds.py):

- 400 the request cannot be read: a body that is not JSON or nests too deep, an encounter
  id that is not a UUID, a query parameter or header of the wrong form
- 401 no token, or a token the service does not know
- 403 a token that may not do this: a viewer sending a command, a player commanding someone
  else's combatant, sending a GM-only command or setting a GM's field (a DC, a bonus, an
  Advantage reason, another creature's dice), a token of another encounter
- 404 no such encounter, or no such path
- 405 the path exists, the method does not
- 409 the fight as it stands refuses the command: out of phase, a version conflict, and every
  other rule rejection (action spent, not your turn, target down...); retrying after the
  state changes may succeed. Also an encounter whose stored log fails its hash chain
  (`log/tampered`, `log/hash-missing`: a row edited or its hash removed; `log/unreadable-row`:
  a row edited out of shape, such as `"hash": null`): nothing of it is served or appended
  until the log is restored from a copy that verifies
- 413 the body is larger than the service takes (`combat serve --max-body`)
- 422 the request is readable but wrong in itself: a body not matching the schema (strictly:
  no strings for numbers or booleans), a command of another ruleset than the encounter's, a text longer than the limit, an unknown ruleset or
  setting, an invalid combatant, dice notation or entered faces, a command id used before
  by another sender, more events than one command may append
- 429 the credential has created as many encounters as the server allows
- 503 the store cannot be reached, or other writers kept it busy; or the encounter's ruleset
  is a plug-in not installed on this server (`ruleset/not-installed`): its log is intact and
  served again once the plug-in is installed

A rejected command appends nothing: the decider raises before anything is stored.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from litestar import Request, Response
from litestar.exceptions import HTTPException, MethodNotAllowedException, NotFoundException, ValidationException
from litestar.openapi import ResponseSpec
from litestar.status_codes import HTTP_500_INTERNAL_SERVER_ERROR

from combat.app.error_registry import kind_of
from combat.kernel.error_kinds import Kind
from combat.kernel.errors import RuleError
from combat.service.error_codes import SERVICE_ERROR_CODES
from combat.service.logging import annotate, log
from combat.service.messages import ErrorBody
from combat.store.log import UNAVAILABLE

__all__ = ["ApiError", "status_for", "status_of_code", "status_of_kind", "EXCEPTION_HANDLERS", "documented", "body_allowed"]

# The status of each kind of rejection (combat/kernel/error_kinds.py): the service keeps no table of codes.
_STATUS = {
    Kind.REFUSED: 409,
    Kind.INVALID: 422,
    Kind.NOT_FOUND: 404,
    Kind.MALFORMED: 400,
    Kind.UNAUTHENTICATED: 401,
    Kind.FORBIDDEN: 403,
    Kind.WRONG_METHOD: 405,
    Kind.TOO_LARGE: 413,
    Kind.TOO_MANY: 429,
    Kind.UNAVAILABLE: 503,
    Kind.INTERNAL: 500,
}


class ApiError(RuleError):
    """A rejection by the HTTP layer itself (tokens, roles, parameters), with its status."""

    def __init__(self, status: int, code: str, message: str, *, allowed: str | None = None):
        super().__init__(code, message, allowed=allowed)
        self.status = status


def status_for(error: RuleError) -> int:
    if isinstance(error, ApiError):
        return error.status
    return status_of_code(error.code)


def status_of_kind(kind: Kind | None) -> int:
    """The status of a rejection of this kind. None, a code no room declares (a plug-in's
    own), is a rule's refusal; so is a passed-on code asked for by its pattern (`http/{status}`):
    the service answers it with the status it carries and never looks it up."""
    return _STATUS.get(kind or Kind.REFUSED, _STATUS[Kind.REFUSED])


def status_of_code(code: str) -> int:
    """The status a rejection with this code gets (the docs' list of codes shows it)."""
    return status_of_kind(kind_of(code, SERVICE_ERROR_CODES))


def _reply(
    request: Request, status: int, code: str, detail: str, allowed: str | None = None, headers: Mapping[str, str] | None = None
) -> Response[ErrorBody]:
    annotate(request, outcome=code)
    return Response(ErrorBody(error=code, detail=detail, allowed=allowed), status_code=status, headers=dict(headers or {}))


# Where the application's hint names the CLI, the HTTP client gets its own.
_HTTP_ALLOWED = {"encounter/unknown": "an id returned by POST /encounters"}


def _on_rule_error(request: Request, exc: RuleError) -> Response[ErrorBody]:
    return _reply(request, status_for(exc), exc.code, exc.message, _HTTP_ALLOWED.get(exc.code, exc.allowed))


def body_allowed(keys: list[str]) -> str:
    """What a body with problems at `keys` (dotted paths) should have held."""
    if any(k == "command" or k.startswith("command.") for k in keys):
        return "command: an object with its type and fields, as GET /rulesets/{id}/commands lists them"
    return "a body as described at /schema/openapi.json"


def _on_validation(request: Request, exc: ValidationException) -> Response[ErrorBody]:
    problems = exc.extra if isinstance(exc.extra, list) else []
    in_body = any(isinstance(p, dict) and p.get("source") == "body" for p in problems)
    detail = "; ".join(f"{p.get('key')}: {p.get('message')}" if isinstance(p, dict) else str(p) for p in problems) or str(
        exc.detail
    )
    if in_body:
        keys = [str(p.get("key")) for p in problems if isinstance(p, dict)]
        return _reply(request, 422, "request/invalid", detail, body_allowed(keys))
    return _reply(request, 400, "request/bad-parameter", detail, "parameters as described at /schema/openapi.json")


def _on_http(request: Request, exc: HTTPException) -> Response[ErrorBody]:
    if isinstance(exc, NotFoundException):
        return _reply(request, 404, "path/not-found", f"no such path: {request.url.path}", "the paths listed at /schema")
    if isinstance(exc, MethodNotAllowedException):
        allowed = next((v for k, v in (exc.headers or {}).items() if k.lower() == "allow"), "")
        return _reply(
            request, 405, "method/not-allowed", f"{request.method} is not allowed here", allowed or None, headers=exc.headers
        )
    if exc.status_code == 413:
        return _reply(
            request,
            413,
            "request/too-large",
            "the body is larger than this service takes",
            f"at most {request.app.state['limits'].max_body} bytes",
        )
    if exc.status_code == 400:
        # Litestar raises a plain 400 when the body is not JSON at all.
        return _reply(request, 400, "request/malformed", str(exc.detail), "a JSON object")
    if exc.status_code >= 500:
        return _on_unexpected(request, exc)
    return _reply(request, exc.status_code, f"http/{exc.status_code}", str(exc.detail), None, headers=exc.headers)


def _on_store_down(request: Request, exc: Exception) -> Response[ErrorBody]:
    log.warning("store unavailable", error=type(exc).__name__)
    return _reply(request, 503, "store/unavailable", "the event store cannot be reached", "retry shortly")


def _on_unexpected(request: Request, exc: Exception) -> Response[ErrorBody]:
    # A bug, never a rejection: log the traceback (without local variables) and say little.
    log.error("unexpected error", exc_info=exc)
    return _reply(request, HTTP_500_INTERNAL_SERVER_ERROR, "server/internal", "the service failed on this request")


EXCEPTION_HANDLERS: dict[Any, Any] = {
    RuleError: _on_rule_error,
    ValidationException: _on_validation,
    HTTPException: _on_http,
    **dict.fromkeys(UNAVAILABLE, _on_store_down),
    Exception: _on_unexpected,
}

_MEANING = {
    400: "the request cannot be read",
    401: "no token, or an unknown one",
    403: "the token may not do this",
    404: "no such encounter",
    409: "the fight as it stands refuses it (phase, version, rules)",
    413: "the body is too large",
    429: "the credential has created as many encounters as this server allows",
    422: "readable but wrong in itself",
    503: "the store cannot be reached, or the encounter's ruleset is not installed on this server",
}


def documented(*statuses: int) -> dict[int, ResponseSpec]:
    """The error responses of a route for the OpenAPI document, all with the same body."""
    return {s: ResponseSpec(ErrorBody, description=_MEANING[s], generate_examples=False) for s in (*statuses, 503)}
