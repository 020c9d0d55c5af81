"""What one request and one credential may take, with defaults fit for a table; each has a
`combat serve` option. Enforced by `combat.service.checks` (the request) and the
application (events per command, encounters per credential)."""

from __future__ import annotations

from dataclasses import dataclass

__all__ = ["Limits", "MAX_INT"]

MAX_INT = 2**53  # the largest integer every JSON reader keeps exact


@dataclass(frozen=True)
class Limits:
    max_body: int = 64 * 1024  # bytes of one request body
    max_depth: int = 32  # arrays and objects inside one another
    max_text: int = 2000  # characters of one string in a body
    max_events: int = 500  # events one command may append
    max_encounters: int = 1000  # encounters (with their forks) one credential may create
