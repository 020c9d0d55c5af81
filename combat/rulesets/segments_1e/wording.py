"""Small pieces of wording the narration lines share."""

from __future__ import annotations

from typing import Any

__all__ = ["plural", "names"]


def plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def names(n: Any, ids: tuple[str, ...] | list[str]) -> str:
    """The names a narrator knows for `ids`, comma-separated."""
    return ", ".join(n.name(i) for i in ids)
