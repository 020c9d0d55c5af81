"""The canonical bytes a hash covers: a Struct's fields that differ from their defaults, all
the way down, keys sorted. A field added later with a default leaves the bytes of what was
written before it unchanged, so old hashes still match (combat.app.chain, the party's
chain in combat.campaigns.records)."""

from __future__ import annotations

import functools
from typing import Any

import msgspec

from combat.kernel.defaults import defaults_of

__all__ = ["plain", "canonical_json"]

_encoder = msgspec.json.Encoder(order="sorted")
_LEAVES = frozenset({str, int, float, bool, type(None)})  # kept as they are: no need to look inside


@functools.cache
def _fields(cls: type) -> tuple[tuple[str, bool, Any], ...]:
    """Each field of a Struct class: its name, whether it has a default, and that default."""
    defaults = defaults_of(cls)
    return tuple((name, name in defaults, defaults.get(name)) for name in cls.__struct_fields__)  # type: ignore[attr-defined]


def plain(value: Any) -> Any:
    """A Struct as a dict of the fields that differ from their defaults, all the way down."""
    if isinstance(value, msgspec.Struct):
        out = {}
        for name, has_default, default in _fields(type(value)):
            item = getattr(value, name)
            if has_default and item == default:
                continue
            out[name] = item if type(item) in _LEAVES else plain(item)
        return out
    if isinstance(value, (tuple, list)):
        return [plain(v) for v in value]
    if isinstance(value, dict):
        return {k: plain(v) for k, v in value.items()}
    return value


def canonical_json(value: Any) -> bytes:
    """`value` made `plain`, as JSON with its keys sorted."""
    return _encoder.encode(plain(value))
