"""The HTTP service: Litestar on uvicorn over the application layer (`combat serve`)."""

from combat.service.app import create_app, serve

__all__ = ["create_app", "serve"]
