"""The OpenAPI document matches the server (finding 11 of issue 14): schemathesis generates
requests from it, valid and invalid, and runs every check it has on the replies: no 5xx,
status codes, content types, headers and bodies as documented, invalid data refused, valid
data accepted, auth not ignored, unsupported methods refused."""

from __future__ import annotations

import pytest
import schemathesis
from hypothesis import HealthCheck, given, settings
from schemathesis import GenerationMode
from schemathesis.checks import CHECKS

from combat.app.application import Encounters
from combat.kernel.commands import AddCombatant, BeginCombat, RollInitiative
from combat.service import create_app
from tests.conftest import monster, pc
from tests.test_service_fixtures import bearer

EXAMPLES = int(__import__("os").environ.get("OPENAPI_EXAMPLES", "60"))
ALL_CHECKS = list(CHECKS.get_all())


@pytest.mark.parametrize("mode", [GenerationMode.POSITIVE, GenerationMode.NEGATIVE])
def test_every_check_passes_against_the_document(tmp_path, mode):
    encounters = Encounters(tmp_path / "combat.db")
    app = create_app(encounters)
    eid = encounters.create("srd-2024", "schema check", seed=3)
    for spec in (pc("aria", player="Sam"), monster("goblin")):
        encounters.execute(eid, AddCombatant(combatant=spec))
    encounters.execute(eid, BeginCombat())
    encounters.execute(eid, RollInitiative())
    token, _ = app.state["service"].tokens.issue(eid, "gm")
    schema = schemathesis.openapi.from_asgi("/schema/openapi.json", app).exclude(operation_id="stream")
    strategy = schema.as_strategy(mode, path_parameters={"encounter_id": str(eid)}, headers=bearer(token))

    @given(case=strategy)
    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              suppress_health_check=list(HealthCheck))
    def conforms(case):
        case.call_and_validate(checks=ALL_CHECKS)

    try:
        conforms()
    finally:
        encounters.close()
