"""The default of each field of a msgspec Struct class, for telling a value given from one
left out (a command's GM-only fields, an event's canonical bytes)."""

from __future__ import annotations

import functools
from typing import Any

import msgspec

__all__ = ["defaults_of"]


@functools.cache
def defaults_of(cls: type) -> dict[str, Any]:
    """Field name -> default, for the fields of `cls` that have one."""
    found: dict[str, Any] = {}
    for f in msgspec.structs.fields(cls):
        if f.default is not msgspec.NODEFAULT:
            found[f.name] = f.default
        elif f.default_factory is not msgspec.NODEFAULT:
            found[f.name] = f.default_factory()
    return found
