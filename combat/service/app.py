"""The HTTP service: a Litestar app over `Encounters`, served by uvicorn.

`create_app(encounters)` builds the app (tests drive it in-process); `serve(db, host, port)`
runs it on a socket. The store is the SQLite file `db`, or PostgreSQL when eventsourcing's
PERSISTENCE_MODULE=eventsourcing.postgres and POSTGRES_* settings are in the environment
and no file is given.
"""

from __future__ import annotations

import os
from typing import Any

from litestar import Litestar
from litestar.di import Provide

from combat import web
from combat.app.application import Encounters
from combat.service import routes, stream
from combat.service.dependencies import DEPENDENCIES, Service
from combat.service.errors import EXCEPTION_HANDLERS
from combat.service.logging import RequestLog, configure_logging, log
from combat.service.openapi import OPENAPI, StructDefaults

__all__ = ["create_app", "serve"]

MAX_BODY = 1024 * 1024


def create_app(encounters: Encounters | None = None, *, db: str | os.PathLike[str] | None = None) -> RequestLog:
    """The service over `encounters` (or a store opened on `db`, closed with the app)."""
    owns = encounters is None
    service = Service(encounters if encounters is not None else Encounters(db), owns_encounters=owns)
    app = Litestar(
        route_handlers=[*routes.ROUTES, *stream.ROUTES, *web.ROUTES],  # web: the table screen at /app/
        dependencies={"service": Provide(lambda: service, sync_to_thread=False), **DEPENDENCIES},
        exception_handlers=EXCEPTION_HANDLERS,
        on_startup=[service.start],
        on_shutdown=[service.stop],
        request_max_body_size=MAX_BODY,
        logging_config=None,
        openapi_config=OPENAPI,
        plugins=[StructDefaults()],
        state={"service": service},  # type: ignore[arg-type]
    )
    return RequestLog(app)


def serve(db: str | None, host: str, port: int, **uvicorn_options: Any) -> None:
    import uvicorn

    configure_logging()
    app = create_app(db=db)
    log.info("serving", host=host, port=port, store=app.state["service"].store)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_config=None,
        access_log=False,  # uvicorn's access line has the query string; ours does not
        timeout_graceful_shutdown=2,
        lifespan="on",
        **uvicorn_options,
    )
