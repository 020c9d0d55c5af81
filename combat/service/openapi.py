"""The OpenAPI 3.1 document, served at /schema (Redoc, its script served here too) and
/schema/openapi.json (and .yaml)."""

from __future__ import annotations

from typing import Any, Literal

import msgspec
from litestar._openapi.schema_generation.plugins.struct import StructSchemaPlugin
from litestar.openapi import OpenAPIConfig
from litestar.openapi.plugins import JsonRenderPlugin, RedocRenderPlugin, YamlRenderPlugin
from litestar.openapi.spec import (
    Components,
    OpenAPI,
    OpenAPIMediaType,
    OpenAPIResponse,
    OpenAPIType,
    Operation,
    Parameter,
    Reference,
    Schema,
    SecurityScheme,
)
from litestar.openapi.spec.enums import OpenAPIFormat
from litestar.plugins.core._msgspec import kwarg_definition_from_field
from litestar.types.empty import Empty
from litestar.typing import FieldDefinition

from combat.service.limits import MAX_INT, Limits

__all__ = ["OPENAPI", "StructDefaults", "refine", "JSONL"]

JSONL = "application/x-ndjson"
REDOC = "/app/vendor/redoc/redoc.standalone.js"  # vendored (combat/web/static/vendor/README.md)

DESCRIPTION = """\
An event-sourced combat engine for tabletop role-playing games. Every declaration, dice roll
and ruling of a fight is an event in an append-only log; the state is a fold over it.

Create an encounter (you get its id and the GM's token), issue tokens to players (bound to
their characters) and viewers, send commands, read the state (now or at any seq), the log
and the narrative, and follow the fight live over server-sent events. Every error is
`{"error": code, "detail": ..., "allowed": ...}`. JSON Schemas of the log line, the state
projection and the stream message are at /schemas/events, /schemas/state, /schemas/stream.
"""


class StructDefaults(StructSchemaPlugin):
    """Litestar's own plugin for msgspec Structs, except that it looks up each field default
    in a set, which fails for a Struct default holding a dict (a ruleset's optional state
    block). Same schema, with the defaults compared by identity."""

    def to_openapi_schema(self, field_definition: FieldDefinition, schema_creator: Any) -> Any:
        hints = field_definition.get_type_hints(include_extras=True, resolve_generics=True)
        info: Any = msgspec.inspect.type_info(field_definition.type_)
        properties = {}
        for field in info.fields:
            kwargs: dict[str, Any] = {}
            if kwarg_definition := kwarg_definition_from_field(field)[0]:
                kwargs["kwarg_definition"] = kwarg_definition
            default = field.default
            properties[field.encode_name] = FieldDefinition.from_annotation(
                annotation=hints[field.name],
                name=field.encode_name,
                default=Empty if default is msgspec.NODEFAULT or default is msgspec.UNSET else default,
                **kwargs,
            )
        required = [f.encode_name for f in info.fields if self._is_field_required(field=f)]
        if info.tag_field:
            properties[info.tag_field] = FieldDefinition.from_annotation(Literal[info.tag])
            required.append(info.tag_field)
        schema = schema_creator.create_component_schema(field_definition, required=sorted(required), property_fields=properties)
        if info.forbid_unknown_fields:
            schema.additional_properties = False  # the server refuses unknown fields (a typo is not ignored)
        for field in info.fields:  # bounds on the items of an array of integers (seqs) are lost on the way
            items = getattr(field.type, "item_type", None)
            items = items.type if isinstance(items, msgspec.inspect.Metadata) else items
            prop = (schema.properties or {}).get(field.encode_name)
            if isinstance(items, msgspec.inspect.IntType) and isinstance(prop, Schema) and isinstance(prop.items, Schema):
                prop.items.minimum, prop.items.maximum = items.ge, items.le
        for prop in (schema.properties or {}).values():
            _json_safe_integers(prop)
        return schema


def _json_safe_integers(schema: Any) -> None:
    """Every integer the server reads is within ±2^53 (combat.service.checks): say so where
    the type itself gives no narrower bounds."""
    if not isinstance(schema, Schema):
        return
    if schema.type == OpenAPIType.INTEGER or (isinstance(schema.type, list) and OpenAPIType.INTEGER in schema.type):
        if schema.minimum is None and schema.exclusive_minimum is None:
            schema.minimum = -MAX_INT
        if schema.maximum is None and schema.exclusive_maximum is None:
            schema.maximum = MAX_INT
    for inner in (schema.items, *(schema.one_of or ()), *(schema.any_of or ()), *(schema.prefix_items or ())):
        _json_safe_integers(inner)


def _commands_schema(document: OpenAPI) -> Schema:
    """The `command` of a body: one of every ruleset's commands (an encounter reads those of
    its own ruleset: GET /schemas/commands/{ruleset}). Their schemas are msgspec's, added to
    the components under the names msgspec gives them."""
    from combat.app.catalog import all_command_types

    refs, definitions = msgspec.json.schema_components(all_command_types(), ref_template="#/components/schemas/{name}")
    components = document.components.schemas if document.components and document.components.schemas is not None else {}
    for name, definition in definitions.items():
        components.setdefault(name, _bounded(definition))
    components.setdefault(JSON_VALUE, _JSON_VALUE)  # type: ignore[arg-type]  # a JSON Schema dict, as msgspec's are
    return Schema(
        any_of=list(refs),  # type: ignore[arg-type]
        description=(
            "a command of the encounter's ruleset: GET /rulesets/{id}/commands lists them and "
            "GET /schemas/commands/{ruleset} gives their JSON Schema (two rulesets may each have their own under one type)"
        ),
    )


def _sheet_types() -> tuple[type, ...]:
    from combat.characters.sheet import CharacterSheet

    return (CharacterSheet,)


def _msgspec_components(document: OpenAPI, types: tuple[type, ...]) -> None:
    """These types' components as msgspec writes them, in place of Litestar's: Litestar drops
    a bound of 0 (`ge=0`) and puts an optional number's bounds beside its `oneOf`, so a
    client generated from the document would send what the server refuses."""
    _, definitions = msgspec.json.schema_components(types, ref_template="#/components/schemas/{name}")
    components = document.components.schemas if document.components and document.components.schemas is not None else {}
    for name, definition in definitions.items():
        components[name] = _bounded(definition)
    components.setdefault(JSON_VALUE, _JSON_VALUE)  # type: ignore[arg-type]  # a JSON Schema dict, as msgspec's are


# Any JSON value as every request body may hold it (combat.service.checks): integers JSON keeps
# exact, texts within the default limit. The fields a struct does not declare take it: msgspec
# passes them over, but the body's checks still read them.
JSON_VALUE = "JsonValue"
_JSON_VALUE_REF = {"$ref": f"#/components/schemas/{JSON_VALUE}"}
_JSON_VALUE = {
    "description": "any JSON value, its integers within what JSON keeps exact and its texts within the limit",
    "anyOf": [
        {"type": "null"},
        {"type": "boolean"},
        {"type": "number", "minimum": -MAX_INT, "maximum": MAX_INT},
        {"type": "string", "maxLength": Limits().max_text},
        {"type": "array", "items": _JSON_VALUE_REF},
        {"type": "object", "additionalProperties": _JSON_VALUE_REF},
    ],
}


def _bounded(schema: Any) -> Any:
    """msgspec's JSON Schema, with the integer bounds every request is held to (see
    _json_safe_integers), and what a struct's undeclared fields may hold (`JSON_VALUE`)."""
    if isinstance(schema, dict):
        bounded = {key: _bounded(value) for key, value in schema.items()}
        if bounded.get("type") == "integer":
            bounded.setdefault("minimum", -MAX_INT)
            bounded.setdefault("maximum", MAX_INT)
        if bounded.get("type") == "object" and "properties" in bounded:
            bounded.setdefault("additionalProperties", _JSON_VALUE_REF)
        return bounded
    if isinstance(schema, list):
        return [_bounded(item) for item in schema]
    return schema


def refine(document: OpenAPI) -> None:
    """What the route decorators cannot say: which operations need no token, the JSON Lines
    form of the log, that an encounter id is a UUID, and what a body's `command` holds."""
    bodies = document.components.schemas if document.components and document.components.schemas else {}
    _msgspec_components(document, _sheet_types())
    commands = _commands_schema(document)
    for component in bodies.values():
        # Litestar's own components: a struct's undeclared fields are passed over by msgspec,
        # but the body's checks still read them (`JSON_VALUE`).
        if isinstance(component, Schema) and component.properties and component.additional_properties is None:
            component.additional_properties = Reference(ref=f"#/components/schemas/{JSON_VALUE}")
    for name in ("CommandRequest", "AmendRequest"):
        body = bodies.get(name)
        if isinstance(body, Schema) and body.properties and "command" in body.properties:
            body.properties["command"] = commands
    for path, item in (document.paths or {}).items():
        for method in ("get", "post", "delete"):
            operation: Operation | None = getattr(item, method, None)
            if operation is None:
                continue
            if not path.startswith("/encounters"):
                operation.security = []  # the service's own description: open to anyone
            for parameter in operation.parameters or []:
                if isinstance(parameter, Parameter) and parameter.name == "encounter_id" and isinstance(parameter.schema, Schema):
                    parameter.schema.format = OpenAPIFormat.UUID
            if path == "/encounters/{encounter_id}/events" and method == "get" and operation.responses:
                ok = operation.responses["200"]
                if isinstance(ok, OpenAPIResponse) and ok.content:
                    ok.content[JSONL] = OpenAPIMediaType(
                        schema=Schema(type=OpenAPIType.STRING, description="one log line (JSON) per line, as in `combat export`")
                    )


OPENAPI = OpenAPIConfig(
    title="combat-log",
    version="1",
    description=DESCRIPTION,
    path="/schema",
    components=Components(security_schemes={"token": SecurityScheme(type="http", scheme="bearer")}),
    security=[{"token": []}],
    # The page at /schema loads nothing from another host, so it works offline and at a table
    # without the internet: Redoc's script is served by the service (combat/web/static/vendor),
    # without web fonts or a favicon from a CDN. Litestar's other pages (Swagger UI, Elements,
    # RapiDoc) would load theirs from CDNs and are not served.
    render_plugins=[
        RedocRenderPlugin(path=["/", "/redoc"], js_url=REDOC, google_fonts=False, favicon=""),
        JsonRenderPlugin(),
        YamlRenderPlugin(),
    ],
)
