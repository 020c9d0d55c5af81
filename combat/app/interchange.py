"""The public interchange format: JSON Lines, one event per line.

`{"seq": n, "type": "...", "at": "<ISO-8601 UTC>", "actor": "...", "command_id": "...", "hash": "...", ...payload}`

`seq` counts from 1 within an encounter; the first line is always `EncounterCreated`.
`hash` chains each event to the one before it (combat.app.chain); lines written before
hashes existed have none, and the last line's hash is the log's head.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from datetime import datetime
from typing import Any
from uuid import UUID

import msgspec

from combat.app.catalog import event_decoder, event_types, load_more
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.records import Recorded

__all__ = ["ENVELOPE", "to_line", "to_jsonl", "from_line", "read_jsonl", "event_schema"]

ENVELOPE = ("seq", "type", "at", "actor", "command_id", "hash")
_encoder = msgspec.json.Encoder()
_NO_ENCOUNTER = UUID(int=0)


def to_line(rec: Recorded) -> bytes:
    payload = msgspec.to_builtins(rec.event)
    line = {
        "seq": rec.seq,
        "type": payload.pop("type"),
        "at": rec.timestamp,
        "actor": rec.actor,
        "command_id": rec.command_id,
        **payload,
    }
    if rec.hash:
        line["hash"] = rec.hash
    return _encoder.encode(line)


def to_jsonl(records: Iterable[Recorded]) -> Iterator[bytes]:
    for rec in records:
        yield to_line(rec) + b"\n"


class _Envelope(msgspec.Struct, frozen=True):
    seq: int
    at: datetime
    actor: str
    command_id: str
    hash: str = ""


# One line is read twice by two typed decoders (each ignores the other's fields): much
# faster than decoding to a dict and converting. The event's decoder is the catalog's, which
# knows every ruleset loaded so far; an event of another loads the rest, once.
_envelope_decoder = msgspec.json.Decoder(_Envelope)


def _event(line: bytes | str) -> Event:
    try:
        return event_decoder().decode(line)
    except msgspec.ValidationError:
        if not load_more():
            raise
    return event_decoder().decode(line)


def from_line(line: bytes | str, *, encounter_id: UUID = _NO_ENCOUNTER, lineno: int = 0) -> Recorded:
    where = f"line {lineno}: " if lineno else ""
    try:
        envelope = _envelope_decoder.decode(line)
        event = _event(line)
    except (msgspec.ValidationError, msgspec.DecodeError) as exc:
        raise RuleError(
            "log/bad-line",
            f"{where}not an event of this format: {exc}",
            allowed="one JSON object per line with seq, type, at, actor, command_id and the event's fields",
        ) from None
    return Recorded(
        originator_id=encounter_id,
        originator_version=envelope.seq,
        timestamp=envelope.at,
        actor=envelope.actor,
        command_id=envelope.command_id,
        event=event,
        hash=envelope.hash,
    )


def read_jsonl(lines: Iterable[bytes | str]) -> list[Recorded]:
    """Read a whole log, checking that seq runs 1, 2, 3... without gaps."""
    records: list[Recorded] = []
    for lineno, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        rec = from_line(line, lineno=lineno)
        if rec.seq != len(records) + 1:
            raise RuleError(
                "log/seq-gap",
                f"line {lineno}: seq {rec.seq} follows seq {len(records)}",
                allowed=f"seq {len(records) + 1}",
            )
        records.append(rec)
    if not records:
        raise RuleError("log/empty", "the log holds no events", allowed="a JSONL export of an encounter")
    return records


def event_schema() -> dict[str, Any]:
    """JSON Schema of one log line: every event type with the envelope fields."""
    types = event_types()
    (_, components) = msgspec.json.schema_components(types, ref_template="#/$defs/{name}")
    envelope = {
        "seq": {"type": "integer", "minimum": 1, "description": "position in the encounter's log, from 1"},
        "at": {"type": "string", "format": "date-time", "description": "when it was appended, UTC"},
        "actor": {"type": "string", "description": "who sent the command: gm or a player's name"},
        "command_id": {"type": "string", "description": "shared by every event one command produced"},
        "hash": {
            "type": "string",
            "description": "sha256 chained to the previous event (docs/trust.md); absent in logs written before hashes",
        },
    }
    for cls in types:
        definition = components[cls.__name__]
        definition["properties"] = {**envelope, **definition["properties"]}
        definition["required"] = ["seq", "at", "actor", "command_id", *definition.get("required", [])]
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": "Combat event log line (JSON Lines)",
        "description": "One line of an encounter's log. `type` names the event; the other fields are its payload.",
        "oneOf": [{"$ref": f"#/$defs/{cls.__name__}"} for cls in types],
        "$defs": components,
    }
