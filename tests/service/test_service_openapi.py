"""The OpenAPI document matches the server (finding 11 of issue 14): schemathesis generates
requests from it, valid and invalid, and runs every check it has on the replies: no 5xx,
status codes, content types, headers and bodies as documented, invalid data refused, valid
data accepted, auth not ignored, unsupported methods refused.

One check is made exact rather than dropped: "valid data accepted" counts a 422 as a
refusal of valid data, but a body the schema allows can still be refused by the rules (a
combatant id that is empty, faces that do not fit the dice): those are 422s with the rule's
own code. Here a schema-valid body may get such a 422, never one of the schema layer's
(`request/...`, `limits/...`): that would be the document promising what the server refuses."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS
from schemathesis.config._checks import PositiveDataAcceptanceConfig
from schemathesis.openapi.checks import RejectedPositiveData

from combat.app.application import Encounters
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat
from combat.service import create_app
from tests.helpers import monster, pc
from tests.service.helpers import bearer

EXAMPLES = int(__import__("os").environ.get("OPENAPI_EXAMPLES", "150"))
ALL_CHECKS = list(CHECKS.get_all())
RULE_REFUSALS = [*PositiveDataAcceptanceConfig().expected_statuses, "422"]
# A foreign document (a Foundry actor) is free-form JSON: the document cannot bound what nests
# inside it, so the limits every request is held to (integers JSON keeps exact, text length,
# depth) are refusals it may get. Which examples reach them depends on how the app's routes
# are registered (adding a route not in the document shifted them), not on the document.
FREE_FORM = {"POST /characters/import", "POST /campaigns/{campaign_id}/characters/import"}


def schema_valid_bodies_pass_the_schema_layer(ctx, response, case):
    """A body generated as valid is never refused by the layer that reads it."""
    if case.meta is None or not case.meta.generation.mode.is_positive or response.status_code != 422:
        return None
    code = response.json().get("error", "")
    if case.operation.label in FREE_FORM and (code == "request/invalid" or code.startswith("limits/")):
        return None
    if code.startswith(("request/", "limits/")):
        raise RejectedPositiveData(
            operation=case.operation.label,
            message=f"refused by the schema layer: {response.text}",
            status_code=422,
            allowed_statuses=["2xx"],
        )
    return None


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE], ids=str)
def test_every_check_passes_against_the_document(tmp_path, mode):
    """Schema-driven fuzzing of every operation (but the endless stream), with input that fits
    the OpenAPI document and input that does not, as the GM of a fight in its turns."""
    encounters = Encounters(tmp_path / "combat.db")
    app = create_app(encounters)
    eid = encounters.create("srd-2024", "schema check", seed=3)
    for spec in (pc("aria", player="Sam"), monster("goblin")):
        encounters.execute(eid, AddCombatant(combatant=spec))
    encounters.execute(eid, BeginCombat())
    encounters.execute(eid, RollInitiative())
    token, _ = app.state["service"].tokens.issue(eid, "gm")
    schema = schemathesis.openapi.from_asgi("/schema/openapi.json", app).exclude(operation_id="stream")
    schema.config.checks.positive_data_acceptance = PositiveDataAcceptanceConfig(expected_statuses=RULE_REFUSALS)
    strategy = schema.as_strategy(mode, path_parameters={"encounter_id": str(eid)}, headers=bearer(token))

    @given(case=strategy)
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck))
    def conforms(case):
        case.call_and_validate(checks=[*ALL_CHECKS, schema_valid_bodies_pass_the_schema_layer])

    try:
        conforms()
    finally:
        encounters.close()


def test_the_document_says_what_the_findings_found_missing(client):
    """Public operations need no token, unknown fields are refused, seqs have their bounds, an
    encounter id is a UUID, /events also answers in JSON Lines, and errors carry no made-up examples."""
    document = client.get("/schema/openapi.json").json()
    paths = document["paths"]
    for path in ("/health", "/rulesets", "/schemas/events", "/schemas/state", "/schemas/stream"):
        assert paths[path]["get"]["security"] == []
    assert paths["/encounters"]["post"]["security"] == [{}, {"token": []}]
    assert "security" not in paths["/encounters/{encounter_id}"]["get"]  # the document's own: a token
    schemas = document["components"]["schemas"]
    for body in ("CommandRequest", "UndoRequest", "RetractRequest", "TokenRequest", "CreateEncounter"):
        assert schemas[body]["additionalProperties"] is False
    assert schemas["RetractRequest"]["properties"]["seqs"]["items"]["minimum"] == 1
    encounter_id = paths["/encounters/{encounter_id}"]["get"]["parameters"][0]
    assert encounter_id["name"] == "encounter_id" and encounter_id["schema"]["format"] == "uuid"
    assert "application/x-ndjson" in paths["/encounters/{encounter_id}/events"]["get"]["responses"]["200"]["content"]
    error = paths["/encounters/{encounter_id}/commands"]["post"]["responses"]["400"]["content"]["application/json"]
    assert "examples" not in error and "example" not in error
    headers = [p["name"] for p in paths["/encounters/{encounter_id}/commands"]["post"]["parameters"]]
    assert "Idempotency-Key" in headers
