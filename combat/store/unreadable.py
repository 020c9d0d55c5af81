"""The error for a stored row that does not decode as a record, naming its seq where the row
still says it. Its own module: the store's package (combat/store/__init__.py) is imported by
every CLI command and stays free of msgspec, which the error's reading of the seq needs."""

from __future__ import annotations

import msgspec

from combat.store import UnreadableRow

__all__ = ["unreadable"]


class _Seq(msgspec.Struct):
    originator_version: int | None = None


def unreadable(state: bytes, encounter_id: object, exc: Exception) -> UnreadableRow:
    """The error for a stored row that does not decode as a record, naming its seq if it can."""
    try:
        seq = msgspec.json.decode(state, type=_Seq).originator_version
    except (msgspec.ValidationError, msgspec.DecodeError):
        seq = None
    return UnreadableRow(encounter_id, seq, str(exc))
