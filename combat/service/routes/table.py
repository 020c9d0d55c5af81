"""Where the table screen's links should point: the addresses the service listens on that a
phone at the table can open. A page on http://127.0.0.1:8000/app/ cannot build a player link
from its own origin (the phone's loopback is the phone), so Share asks here."""

from __future__ import annotations

import msgspec
from litestar import Request, get
from litestar.di import NamedDependency

from combat.service.dependencies import Service

__all__ = ["ROUTES", "TableAddresses", "SERVE_TABLE"]

# How to serve the table beyond this machine (`combat serve --table`: every interface, an admin token).
SERVE_TABLE = "combat serve --table"


class TableAddresses(msgspec.Struct, kw_only=True):
    loopback_only: bool  # only this machine reaches the service: no phone can open a link
    origins: list[str]  # what a phone at the table opens (`http://192.168.1.20:8000`); LAN addresses first found
    serve_table: str  # the command that serves the table beyond this machine


@get("/service/addresses", sync_to_thread=True, tags=["service"], operation_id="tableAddresses")
def table_addresses(request: Request, service: NamedDependency[Service]) -> TableAddresses:
    """The origins the players' phones can open (the LAN addresses when the service listens on
    every interface), or `loopback_only` with the command that serves the table."""
    local, port = request.scope.get("server") or ("127.0.0.1", 0)
    loopback_only, origins = service.listening.reachable(str(local), int(port or 0))
    return TableAddresses(loopback_only=loopback_only, origins=origins, serve_table=SERVE_TABLE)


ROUTES = [table_addresses]
