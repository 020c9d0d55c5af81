"""The HTTP service: Litestar on uvicorn over the application layer (`combat serve`).

`create_app` and `serve` are loaded on first use, so the CLI can read the service's small
modules (its limits) without loading the web framework."""

from typing import Any

__all__ = ["create_app", "serve"]


def __getattr__(name: str) -> Any:
    if name in __all__:
        from combat.service import app

        return getattr(app, name)
    raise AttributeError(name)
