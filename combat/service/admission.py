"""Who may create encounters. On a server reachable only from this machine anyone may (the
quick start needs no setup); on one listening beyond loopback only a holder of the server's
admin token may (`combat serve --admin-token` or COMBAT_ADMIN_TOKEN), unless it is run
`--open` on purpose. Each credential may create so many encounters (`--max-encounters`),
forks included: on an open server the credential is the client's address."""

from __future__ import annotations

import hmac
import ipaddress
from dataclasses import dataclass

from litestar import Request

from combat.service.auth import bearer_token
from combat.service.errors import ApiError

__all__ = ["Admission", "is_loopback"]

ADMIN = "admin"


def is_loopback(host: str) -> bool:
    if host == "localhost":
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


@dataclass(frozen=True)
class Admission:
    admin_token: str | None = None
    open: bool = True  # anyone may create encounters

    def credential(self, request: Request) -> str:
        """The credential a creation counts against; 401 when the admin token is needed and missing."""
        token = bearer_token(request)
        if token is not None and self.admin_token and hmac.compare_digest(token.encode(), self.admin_token.encode()):
            return ADMIN
        if not self.open:
            raise ApiError(
                401,
                "auth/admin-required",
                "creating encounters on this server needs its admin token",
                allowed="Authorization: Bearer <the admin token the server was started with>",
            )
        host = request.client.host if request.client else "unknown"
        return f"open:{host}"
