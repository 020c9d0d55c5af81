"""Records read without their event types: an encounter whose ruleset is not installed.

A plug-in uninstalled leaves its encounters' logs as they were, but no type reads their
events. What can still be read is the envelope (seq, time, actor, command id, hash) and the
event's fields as stored. `combat verify` walks the chain over those (combat.app.chain), so
it needs no ruleset to tell an intact log from a changed one; `combat list` names such an
encounter from its first event (`EncounterCreated` is the kernel's, always readable) and
the envelope of its last.

An event's hash covers its canonical bytes: its fields, keys sorted, with the fields that
hold their default left out (combat.kernel.hashing). Its defaults are its type's, so
without the type the bytes are worked out with every stored field kept: where the event
held no field at its default (the usual case for a plug-in's own events) they are the
canonical bytes and its hash is checked; where it did, the hash does not match them, and
the event is reported as not checkable here, never as changed.
"""

from __future__ import annotations

from collections.abc import Callable
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from combat.app.catalog import event_types, record_decoder
from combat.app.chain import Undecoded
from combat.app.interchange import from_line
from combat.kernel.errors import RuleError
from combat.kernel.records import Recorded
from combat.store.log import decode_record

__all__ = ["Undecoded", "LogEntry", "read_row", "read_line", "known_types"]

_sorted = msgspec.json.Encoder(order="sorted")


LogEntry = Recorded | Undecoded


class _Row(msgspec.Struct):
    """A stored row's envelope (combat.kernel.records.Recorded), its event left as bytes."""

    originator_version: int
    timestamp: datetime
    actor: str
    command_id: str
    event: msgspec.Raw
    hash: str = ""


class _Line(msgspec.Struct):
    """An exported line's envelope (combat.app.interchange)."""

    seq: int
    type: str
    at: datetime
    actor: str
    command_id: str
    hash: str = ""


_ENVELOPE = frozenset(("seq", "type", "at", "actor", "command_id", "hash"))


def known_types() -> frozenset[str]:
    """The event types some installed ruleset reads (every ruleset loaded first)."""
    return frozenset(str(t.__struct_config__.tag) for t in event_types())


def _undecoded(seq: int, kind: str, at: datetime, actor: str, command_id: str, hash_: str, payload: dict[str, Any]) -> Undecoded:
    line = {"seq": seq, "type": kind, "at": at, "actor": actor, "command_id": command_id, **payload}
    return Undecoded(seq=seq, type=kind, timestamp=at, hash=hash_, fields=_sorted.encode(line))


def read_row(state: bytes, encounter_id: UUID, known: frozenset[str]) -> LogEntry:
    """A stored row as its record, or as Undecoded if its event's type is not in `known`;
    UnreadableRow for a row out of shape (an event of a known type that does not decode)."""
    return _or_undecoded(lambda: decode_record(record_decoder(), state, encounter_id), lambda: _row(state, known))


def _row(state: bytes, known: frozenset[str]) -> Undecoded | None:
    try:
        row = msgspec.json.decode(state, type=_Row)
        payload = msgspec.json.decode(row.event)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    kind = payload.pop("type", None) if isinstance(payload, dict) else None
    if not isinstance(kind, str) or kind in known:
        return None
    return _undecoded(row.originator_version, kind, row.timestamp, row.actor, row.command_id, row.hash, payload)


def read_line(line: bytes, lineno: int, known: frozenset[str]) -> LogEntry:
    """An exported line as its record, or as Undecoded if its event's type is not in `known`;
    `log/bad-line` for a line out of shape."""
    return _or_undecoded(lambda: from_line(line, lineno=lineno), lambda: _line(line, known))


def _or_undecoded(decode: Callable[[], LogEntry], undecoded: Callable[[], Undecoded | None]) -> LogEntry:
    """What `decode` reads; if it refuses, what `undecoded` makes of the same input, or the refusal if nothing."""
    try:
        return decode()
    except RuleError:
        entry = undecoded()
        if entry is None:
            raise
        return entry


def _line(line: bytes, known: frozenset[str]) -> Undecoded | None:
    try:
        envelope = msgspec.json.decode(line, type=_Line)
        payload = msgspec.json.decode(line)
    except (msgspec.ValidationError, msgspec.DecodeError):
        return None
    if envelope.type in known or not isinstance(payload, dict):
        return None
    fields = {k: v for k, v in payload.items() if k not in _ENVELOPE}
    return _undecoded(envelope.seq, envelope.type, envelope.at, envelope.actor, envelope.command_id, envelope.hash, fields)
