"""How a route is declared: its method, path, operation id and the errors it documents, in
one call, so that the route modules say only what differs from one route to the next."""

from __future__ import annotations

from typing import Any

from litestar.handlers import HTTPRouteHandler

from combat.service.errors import documented

__all__ = ["operation"]


def operation(
    method: type[HTTPRouteHandler],
    path: str,
    operation_id: str,
    errors: tuple[int, ...] = (),
    *,
    tags: list[str],
    status_code: int | None = None,
    sync_to_thread: bool = True,
    **options: Any,
) -> HTTPRouteHandler:
    """`method` (litestar's get, post, put, delete) of `path`, run in a thread unless told not
    to, documenting `errors` (a route that names none documents none)."""
    if errors:
        options["responses"] = documented(*errors)
    if status_code is not None:
        options["status_code"] = status_code
    return method(path, sync_to_thread=sync_to_thread, tags=tags, operation_id=operation_id, **options)
