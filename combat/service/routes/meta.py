"""What the service offers: its rulesets, its health, and the JSON Schemas other tools read."""

from __future__ import annotations

from typing import Annotated, Any

from litestar import get
from litestar.di import NamedDependency
from litestar.params import FromPath, QueryParameter

from combat.app.catalog import command_schema
from combat.app.interchange import event_schema
from combat.rulesets import RULESETS
from combat.service.dependencies import Service
from combat.service.errors import ApiError
from combat.service.messages import Health, RulesetInfo
from combat.service.routes.operation import operation
from combat.service.schemas import View, redacted, state_schema, stream_schema

# Which reader's view: the GM's (full), or a player's and a viewer's (redacted: what a hidden
# combatant keeps back may be left out or null, projections/redaction.py).
ViewParam = Annotated[View, QueryParameter(name="view", description="full (the GM's) or redacted (a player's or viewer's)")]

__all__ = ["ROUTES"]


@operation(get, "/rulesets", "listRulesets", tags=["service"], sync_to_thread=False)
def list_rulesets() -> list[RulesetInfo]:
    """Every ruleset: its settings with their defaults, its phases and the commands each allows."""
    return [
        RulesetInfo(
            id=r.id,
            title=r.title,
            summary=r.summary,
            settings=dict(r.defaults),
            phases=r.phases.phases,
            initial=r.phases.initial,
            commands={phase: r.phases.commands(phase) for phase in r.phases.phases},
        )
        for r in RULESETS.values()
    ]


@operation(get, "/health", "health", tags=["service"])
def health(service: NamedDependency[Service]) -> Health:
    """Up, and the store answers."""
    service.encounters.log.home.recorder.max_notification_id()
    return Health(status="ok", store=service.store)


@operation(get, "/schemas/events", "eventSchema", tags=["schemas"], sync_to_thread=False)
def events_schema(view: ViewParam = "full") -> dict[str, Any]:
    """JSON Schema of one line of the log (GET /encounters/{id}/events, the JSONL export)."""
    return redacted(event_schema()) if view == "redacted" else event_schema()


@operation(get, "/schemas/state", "stateSchema", tags=["schemas"], sync_to_thread=False)
def projection_schema(view: ViewParam = "full") -> dict[str, Any]:
    """JSON Schema of the state projection (GET /encounters/{id}); `?view=redacted` for the
    state a player or viewer reads."""
    return state_schema(view)


@operation(get, "/schemas/character", "characterSchema", tags=["schemas"], sync_to_thread=False)
def character_schema() -> dict[str, Any]:
    """JSON Schema of a character sheet (POST /characters, add_character's `character`)."""
    from combat.characters.sheet import sheet_schema

    return sheet_schema()


@operation(get, "/schemas/stream", "streamSchema", tags=["schemas"], sync_to_thread=False)
def message_schema(view: ViewParam = "full") -> dict[str, Any]:
    """JSON Schema of the `data` of one message of the live stream."""
    return stream_schema(view)


@operation(get, "/schemas/commands/{ruleset_id:str}", "commandSchema", (404,), tags=["schemas"], sync_to_thread=False)
def commands_schema(ruleset_id: FromPath[str]) -> dict[str, Any]:
    """JSON Schema of one command of an encounter of this ruleset (the `command` of a
    POST /encounters/{id}/commands body): rulesets may each have their own command under one
    `type`, such as add_creature."""
    if ruleset_id not in RULESETS:
        raise ApiError(404, "ruleset/unknown", f"no ruleset {ruleset_id!r}", allowed=", ".join(RULESETS))
    return command_schema(ruleset_id)


ROUTES = [list_rulesets, health, events_schema, projection_schema, character_schema, message_schema, commands_schema]
