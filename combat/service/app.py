"""The HTTP service: a Litestar app over `Encounters`, served by uvicorn.

`create_app(encounters)` builds the app (tests drive it in-process); `serve(db, host, port)`
runs it on a socket. The store is the SQLite file `db`, or PostgreSQL when eventsourcing's
PERSISTENCE_MODULE=eventsourcing.postgres and POSTGRES_* settings are in the environment
and no file is given.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence
from typing import Any

from litestar import Litestar
from litestar.config.cors import CORSConfig
from litestar.di import Provide

from combat import web
from combat.app.application import Encounters
from combat.kernel.errors import RuleError
from combat.service import routes, stream
from combat.service.addresses import Listening, table_screen_lines
from combat.service.admission import Admission, is_loopback
from combat.service.checks import check_request
from combat.service.dependencies import DEPENDENCIES, Service
from combat.service.errors import EXCEPTION_HANDLERS
from combat.service.idempotency import REPLAYED
from combat.service.limits import Limits
from combat.service.logging import RequestLog, configure_logging, log
from combat.service.openapi import OPENAPI, StructDefaults, refine
from combat.stats.settings import DEFAULT_FOLLOWER, FOLLOWER_ENV, FOLLOWER_MODES

__all__ = ["create_app", "serve"]


def create_app(
    encounters: Encounters | None = None,
    *,
    db: str | os.PathLike[str] | None = None,
    limits: Limits | None = None,
    admin_token: str | None = None,
    open_creation: bool = True,
    cors_origins: Sequence[str] = (),
    listening: Listening | None = None,
    stats_follower: str = DEFAULT_FOLLOWER,
) -> RequestLog:
    """The service over `encounters` (or a store opened on `db`, closed with the app).
    Without `open_creation` only `admin_token` creates encounters; `cors_origins` are the
    browser origins (pages on other sites) allowed to call it, none by default; `listening` says
    where it listens (the table screen's links name an address the phones reach);
    `stats_follower` where the statistics' follower runs (combat.stats.settings)."""
    if stats_follower not in FOLLOWER_MODES:
        raise RuleError(
            "serve/stats-follower",
            f"no stats follower {stats_follower[:40]!r}",
            allowed=f"one of {', '.join(FOLLOWER_MODES)} (--stats-follower or {FOLLOWER_ENV})",
        )
    limits = limits or Limits()
    owns = encounters is None
    service = Service(
        encounters if encounters is not None else Encounters(db),
        owns_encounters=owns,
        admission=Admission(admin_token=admin_token, open=open_creation),
        max_encounters=limits.max_encounters,
        listening=listening or Listening(),
        stats_follower=stats_follower,
    )
    service.encounters.max_events = limits.max_events
    # Every application's tables are made now, before the first request (combat.store.schema):
    # the campaigns' (the party's), made on first use, raced the requests of this process and of the others.
    # A failure stops the service from starting, saying which table could not be made.
    try:
        service.encounters.campaigns  # noqa: B018
        service.encounters.stats  # noqa: B018  (the statistics tables: combat.stats)
    except BaseException:
        if owns:
            service.encounters.close()
        raise
    app = Litestar(
        route_handlers=[*routes.ROUTES, *stream.ROUTES, *web.ROUTES],  # web: the table screen at /app/
        dependencies={"service": Provide(lambda: service, sync_to_thread=False), **DEPENDENCIES},
        exception_handlers=EXCEPTION_HANDLERS,
        on_startup=[service.start, lambda app: refine(app.openapi_schema)],
        on_shutdown=[service.stop],
        request_max_body_size=limits.max_body,
        cors_config=cors_config(cors_origins),
        before_request=check_request,
        logging_config=None,
        openapi_config=OPENAPI,
        plugins=[StructDefaults()],
        state={"service": service, "limits": limits},  # type: ignore[arg-type]
    )
    return RequestLog(app)  # type: ignore[arg-type]  # Litestar is an ASGI app; its scope types are narrower


def cors_config(origins: Sequence[str]) -> CORSConfig | None:
    """Browsers on these origins may call the service (an overlay, a VTT module, a bot page);
    tokens travel in the Authorization header, never in cookies."""
    if not origins:
        return None
    return CORSConfig(
        # A browser sends its origin without a trailing slash; one typed with it would never match.
        allow_origins=[origin.rstrip("/") for origin in origins],
        allow_methods=["GET", "POST", "DELETE", "OPTIONS"],
        allow_headers=["Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID", "X-Request-Id"],
        expose_headers=[REPLAYED, "X-Request-Id"],
        allow_credentials=False,
        max_age=600,
    )


def serve(
    db: str | None,
    host: str,
    port: int,
    *,
    limits: Limits | None = None,
    admin_token: str | None = None,
    open_creation: bool | None = None,
    cors_origins: Sequence[str] = (),
    announce: Callable[[str], None] | None = None,
    stats_follower: str = DEFAULT_FOLLOWER,
    **uvicorn_options: Any,
) -> None:
    """Run the service. Creating encounters is open on loopback and needs the admin token
    elsewhere, unless `open_creation` says otherwise. `announce` is given the table screen's
    addresses, one line each (the CLI prints them)."""
    import gc

    import uvicorn

    if open_creation is None:
        open_creation = is_loopback(host)
    if not open_creation and not admin_token:
        raise RuleError(
            "serve/admin-token",
            f"on {host} creating encounters needs an admin token",
            allowed="--admin-token TOKEN (or COMBAT_ADMIN_TOKEN), or --open to let anyone create",
        )
    configure_logging()
    if announce is not None:
        for line in table_screen_lines(host, port):
            announce(line)
    app = create_app(
        db=db,
        limits=limits,
        admin_token=admin_token,
        open_creation=open_creation,
        cors_origins=cors_origins,
        listening=Listening(host),
        stats_follower=stats_follower,
    )
    log.info(
        "serving",
        host=host,
        port=port,
        store=app.state["service"].store,
        open_creation=open_creation,
        cors_origins=list(cors_origins),
        stats_follower=stats_follower,
    )
    # Everything made so far (the app, its routes, every ruleset's types) lives as long as the
    # process: the collector's full passes need not walk it again each time.
    gc.collect()
    gc.freeze()
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
