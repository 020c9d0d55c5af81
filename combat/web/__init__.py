"""The table screen: a web app served by `combat serve` at /app/, same origin as the API.

Static files only (HTML, ES modules, CSS, and the vendored libraries under static/vendor with
their licences): the pages talk to the documented HTTP API with the token the GM handed out,
so the browser can do nothing a curl user could not. `ROUTES` is mounted by the service app;
`GET /` sends a browser on to /app/ (the address someone types first).
"""

from __future__ import annotations

from pathlib import Path

from litestar import Response, get
from litestar.response import Redirect
from litestar.static_files import create_static_files_router
from litestar.types import ControllerRouterHandler

__all__ = ["ROUTES", "STATIC"]

STATIC = Path(__file__).parent / "static"

# Tokens travel in the URL fragment (never sent to a server) and then in sessionStorage; no
# page needs a Referer or a third-party resource.
_HEADERS = {"Referrer-Policy": "no-referrer", "X-Content-Type-Options": "nosniff"}


def _no_referrer(response: Response) -> Response:
    response.headers.update(_HEADERS)
    return response


@get("/", include_in_schema=False, sync_to_thread=False, name="home")
def home() -> Redirect:
    return Redirect("/app/", status_code=307)


ROUTES: list[ControllerRouterHandler] = [
    home,
    create_static_files_router(
        path="/app",
        directories=[STATIC],
        html_mode=True,
        include_in_schema=False,
        after_request=_no_referrer,
        name="web",
    ),
]
