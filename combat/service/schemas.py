"""JSON Schemas of what the service publishes, for tools that follow a fight without Python:
the state projection and one message of the live stream (the log line's is interchange's).

Players and viewers read a redacted view (projections/redaction.py): `view="redacted"`
gives its schemas, where what a hidden combatant keeps back is optional or null (the fields
each event type declares in `hidden`, a combatant's sheet numbers) and a hidden
combatant's `health` word stands in for its hit points."""

from __future__ import annotations

import copy
from typing import Any, Literal

import msgspec

from combat.app.catalog import event_types
from combat.app.interchange import event_schema
from combat.kernel.events import SHEET_FIELDS
from combat.rulesets import RULESETS
from combat.service.messages import state_views

__all__ = ["state_schema", "stream_schema", "redacted", "View"]

View = Literal["full", "redacted"]
HEALTH = {
    "enum": ["unhurt", "hurt", "bloodied"],
    "description": "a hidden creature's wounds as the table sees them (bloodied: half its HP or fewer); "
    "only where its hp and max_hp are left out",
}

_DRAFT = "https://json-schema.org/draft/2020-12/schema"


def _state_components() -> tuple[dict[str, Any], dict[str, Any]]:
    """The state projection: one alternative per ruleset (exactly one holds: `ruleset` is a
    constant in each), each with the ruleset's own block typed and no other's."""
    (root,), defs = msgspec.json.schema_components([state_views()], ref_template="#/$defs/{name}")
    root = {("oneOf" if key == "anyOf" else key): value for key, value in root.items()}
    for ruleset_id, ref in root["discriminator"]["mapping"].items():
        defs[ref.rpartition("/")[2]]["properties"]["ruleset"] = {"const": ruleset_id}
    return root, defs


def state_schema(view: View = "full") -> dict[str, Any]:
    root, defs = _state_components()
    schema = {"$schema": _DRAFT, "title": "Encounter state projection", **root, "$defs": defs}
    return redacted(schema) if view == "redacted" else schema


def _relaxed(definition: dict[str, Any], fields: tuple[str, ...]) -> None:
    """These properties may be left out or null (blanked lists are empty, which they allow)."""
    props = definition.get("properties", {})
    for name in fields:
        if name in props and props[name].get("type") != "array":
            props[name] = {"anyOf": [props[name], {"type": "null"}]}
    if "required" in definition:
        definition["required"] = [r for r in definition["required"] if r not in fields]
        if not definition["required"]:
            del definition["required"]


def redacted(schema: dict[str, Any]) -> dict[str, Any]:
    """`schema` (of the state, a stream message or a log line) as a player or viewer reads it."""
    schema = copy.deepcopy(schema)
    defs = schema["$defs"]
    for event_type in event_types():
        if event_type.__name__ in defs:
            _relaxed(defs[event_type.__name__], event_type.hidden.fields())
    # The shared types', then those each ruleset declares of its own (its `views`).
    declared: list[tuple[str, tuple[str, ...]]] = [("Combatant", SHEET_FIELDS), ("CombatantSpec", SHEET_FIELDS)]
    declared += [item for ruleset in RULESETS.values() for item in ruleset.views.hidden_fields.items()]
    for name, fields in declared:
        if name in defs:
            _relaxed(defs[name], fields)
    if "Combatant" in defs:
        defs["Combatant"]["properties"]["health"] = HEALTH
    schema["title"] = schema.get("title", "") + " (as a player or viewer reads it: redacted)"
    return schema


def stream_schema(view: View = "full") -> dict[str, Any]:
    """`{"event": <log line>, "state": <state after it>}`; the message's SSE `id` is the seq."""
    root, defs = _state_components()
    line = event_schema()
    defs.update(line["$defs"])
    defs["LogLine"] = {"oneOf": line["oneOf"], "description": line["description"]}
    schema = {
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
    return redacted(schema) if view == "redacted" else schema
