"""JSON Schemas of what the service publishes, for tools that follow a fight without Python:
the state projection and one message of the live stream (the log line's is interchange's)."""

from __future__ import annotations

from typing import Any

import msgspec

from combat.app.interchange import event_schema
from combat.service.messages import StateView

__all__ = ["state_schema", "stream_schema"]

_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _state_components() -> tuple[dict[str, Any], dict[str, Any]]:
    """The state projection: one alternative per ruleset (exactly one holds: `ruleset` is a
    constant in each), each with the ruleset's own block typed and no other's."""
    (root,), defs = msgspec.json.schema_components([StateView], ref_template="#/$defs/{name}")
    root = {("oneOf" if key == "anyOf" else key): value for key, value in root.items()}
    for ruleset_id, ref in root["discriminator"]["mapping"].items():
        defs[ref.rpartition("/")[2]]["properties"]["ruleset"] = {"const": ruleset_id}
    return root, defs


def state_schema() -> dict[str, Any]:
    root, defs = _state_components()
    return {"$schema": _DRAFT, "title": "Encounter state projection", **root, "$defs": defs}


def stream_schema() -> dict[str, Any]:
    """`{"event": <log line>, "state": <state after it>}`; the message's SSE `id` is the seq."""
    root, defs = _state_components()
    line = event_schema()
    defs.update(line["$defs"])
    defs["LogLine"] = {"oneOf": line["oneOf"], "description": line["description"]}
    return {
        "$schema": _DRAFT,
        "title": "Live stream message (the data of one server-sent event)",
        "type": "object",
        "properties": {
            "event": {"$ref": "#/$defs/LogLine"},
            "state": {**root, "description": "the state projection after this event; left out with ?state=false"},
        },
        "required": ["event"],
        "$defs": defs,
    }
