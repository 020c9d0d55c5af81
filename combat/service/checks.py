"""What one request may hold, checked before anything else reads it (no token needed to be
refused, and never a 500): its size (Litestar's own limit), how deep its JSON nests, how
long its texts are, that its integers are ones every JSON reader keeps exact, and that its
types are the declared ones, strictly (no "7" for 7, no "true" for true; query numbers in
plain digits).
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
from litestar import Request
from litestar.exceptions import SerializationException

from combat.service.errors import ApiError, body_allowed
from combat.service.limits import MAX_INT, Limits

__all__ = ["check_request", "too_deep", "whole_numbers"]

_WHOLE_NUMBERS = frozenset({"at", "after", "limit"})  # the query parameters that are seqs or counts
_BOOLEANS = frozenset({"state"})
_DIGITS = re.compile(r"^[0-9]{1,16}$")
_BODY_METHODS = frozenset({"POST", "PUT", "PATCH", "DELETE"})


def too_deep(body: bytes, limit: int) -> bool:
    """Do arrays and objects in `body` nest deeper than `limit` (strings skipped)? Read
    without a parser: a parser is what a deep body would crash."""
    if body.count(b"[") + body.count(b"{") <= limit:
        return False  # it cannot nest deeper than it has brackets
    depth = 0
    i, end = 0, len(body)
    while i < end:
        c = body[i]
        if c == 0x22:  # a string: skip to its closing quote
            i += 1
            while i < end and body[i] != 0x22:
                i += 2 if body[i] == 0x5C else 1
        elif c in (0x5B, 0x7B):
            depth += 1
            if depth > limit:
                return True
        elif c in (0x5D, 0x7D):
            depth -= 1
        i += 1
    return False


def _walk(value: Any, limits: Limits, path: str) -> None:
    if isinstance(value, str):
        if len(value) > limits.max_text:
            raise ApiError(
                422,
                "limits/text",
                f"{path or 'the body'} is {len(value)} characters long",
                allowed=f"texts of at most {limits.max_text} characters",
            )
    elif isinstance(value, bool):
        return
    elif isinstance(value, int):
        if not -MAX_INT <= value <= MAX_INT:
            raise ApiError(
                422,
                "request/invalid",
                f"{path}: {value} is beyond the integers JSON keeps exact",
                allowed=f"whole numbers from -{MAX_INT} to {MAX_INT}",
            )
    elif isinstance(value, dict):
        for key, item in value.items():
            _walk(key, limits, path)
            _walk(item, limits, f"{path}.{key}" if path else key)
    elif isinstance(value, list):
        for n, item in enumerate(value):
            _walk(item, limits, f"{path}[{n}]")


def _check_query(request: Request) -> None:
    for name, value in request.query_params.multi_items():
        if name in _WHOLE_NUMBERS and not _DIGITS.match(value):
            raise ApiError(
                400,
                "request/bad-parameter",
                f"{name}={value[:40]!r} is not a whole number",
                allowed=f"{name} in plain digits, e.g. {name}=12",
            )
        if name in _BOOLEANS and value not in ("true", "false"):
            raise ApiError(
                400,
                "request/bad-parameter",
                f"{name}={value[:40]!r} is not true or false",
                allowed=f"{name}=true or {name}=false",
            )


async def check_request(request: Request) -> None:
    """Litestar's before_request hook: refuse what breaks the limits; None lets it through."""
    limits: Limits = request.app.state["limits"]
    _check_query(request)
    if request.method not in _BODY_METHODS:
        return
    body = await request.body()  # kept by the request: the handler reads it from there
    if not body:
        return
    if too_deep(body, limits.max_depth):
        raise ApiError(
            400,
            "request/too-deep",
            f"the body nests deeper than {limits.max_depth} levels",
            allowed=f"JSON nested at most {limits.max_depth} levels deep",
        )
    try:
        # Litestar's own parse of the body, which it keeps: the handler's `data` is read from
        # this one, not from a second parse.
        value = await request.json()
    except (SerializationException, UnicodeDecodeError) as exc:
        reason = exc.__cause__ or exc  # msgspec's own words
        raise ApiError(400, "request/malformed", f"the body is not JSON in UTF-8: {reason}", allowed="a JSON object") from None
    data = request.route_handler.parsed_fn_signature.parameters.get("data")
    if data is not None:
        value = msgspec.to_builtins(_typed(value, data.annotation))
    # Texts and integers as the server reads them: fields a type ignores are only bytes.
    _walk(value, limits, "")


def _typed(value: Any, annotation: Any) -> Any:
    """`value` read strictly as the declared type. Most bodies hold no integer written as
    12.0, and are read as they are; one that does not match is read again with such numbers
    as integers (`whole_numbers`), and refused if it still does not."""
    try:
        return msgspec.convert(value, annotation, strict=True)
    except msgspec.ValidationError:
        pass
    try:
        return msgspec.convert(whole_numbers(value), annotation, strict=True)
    except msgspec.ValidationError as exc:
        where = str(exc).rpartition(" - at `$.")
        raise ApiError(422, "request/invalid", str(exc), allowed=body_allowed([where[2].rstrip("`")])) from None


def whole_numbers(value: Any) -> Any:
    """JSON Schema counts 12.0 as an integer, as the OpenAPI document promises: read it as 12."""
    if isinstance(value, float) and value.is_integer() and abs(value) <= MAX_INT:
        return int(value)
    if isinstance(value, dict):
        return {key: whole_numbers(item) for key, item in value.items()}
    if isinstance(value, list):
        return [whole_numbers(item) for item in value]
    return value
