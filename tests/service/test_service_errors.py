"""Every rejected request gets a 4xx JSON body saying what was wrong and what is allowed,
and appends nothing. That no input at all makes the service fail with a 500 is fuzzed, with
every other check on the document, in tests/service/test_service_openapi.py."""

from __future__ import annotations

import uuid

import pytest

from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack
from combat.kernel.commands import EndTurn
from combat.kernel.errors import OutOfPhase, RuleError
from combat.service.errors import ApiError, status_for
from tests.service.helpers import bearer, open_fight, set_the_scene


@pytest.fixture
def fight(client):
    return set_the_scene(open_fight(client))


def test_a_body_that_is_not_json_is_400(fight):
    version = fight.state()["version"]
    reply = fight.http.post(fight.url("/commands"), content=b'{"command": {"type": "end_tu', headers=bearer(fight.gm))
    error = fight.rejects(reply, 400, "request/malformed")
    assert error["allowed"] == "a JSON object"
    assert fight.state()["version"] == version


def test_a_command_not_of_the_schema_is_422_and_lists_the_command_types(fight):
    version = fight.state()["version"]
    reply = fight.http.post(
        fight.url("/commands"), json={"command": {"type": "fireball", "combatant": "aria"}}, headers=bearer(fight.gm)
    )
    error = fight.rejects(reply, 422, "request/invalid")
    assert "command.type" in error["detail"] and "end_turn" in error["allowed"]
    reply = fight.http.post(
        fight.url("/commands"), json={"command": {"type": "move", "combatant": "aria", "feet": "far"}}, headers=bearer(fight.gm)
    )
    assert "command.feet" in fight.rejects(reply, 422, "request/invalid")["detail"]
    reply = fight.http.post(
        fight.url("/commands"),
        json={"command": {"type": "end_turn", "combatant": "aria"}, "force": True},
        headers=bearer(fight.gm),
    )
    fight.rejects(reply, 422, "request/invalid")
    assert fight.state()["version"] == version


def test_an_id_that_is_not_a_uuid_is_400_and_an_unknown_encounter_is_404(client):
    client_error = client.get("/encounters/goblin-cave")
    assert client_error.status_code == 400 and client_error.json()["error"] == "encounter/bad-id"
    missing = client.post(f"/encounters/{uuid.uuid4()}/commands", json={"command": {"type": "begin_combat"}})
    assert missing.status_code == 404 and missing.json()["error"] == "encounter/unknown"


def test_a_query_parameter_of_the_wrong_form_is_400(fight):
    fight.rejects(fight.get(at="yesterday"), 400, "request/bad-parameter")
    fight.rejects(fight.get(at=0), 400, "request/bad-parameter")
    fight.rejects(fight.get("/events", format="xml"), 400, "request/bad-parameter")


def test_an_unknown_path_is_404_and_a_wrong_method_405(client):
    reply = client.get("/fights")
    assert reply.status_code == 404 and reply.json()["error"] == "path/not-found"
    reply = client.delete("/encounters")
    assert reply.status_code == 405 and reply.json()["error"] == "method/not-allowed"
    assert "POST" in reply.json()["allowed"]


def test_an_unknown_ruleset_or_setting_is_422(client):
    reply = client.post("/encounters", json={"ruleset": "chess", "name": "x"})
    assert reply.status_code == 422 and reply.json()["error"] == "ruleset/unknown"
    assert "srd-2024" in reply.json()["allowed"]
    reply = client.post("/encounters", json={"ruleset": "srd-2024", "name": "x", "settings": {"flanking": True}})
    assert reply.status_code == 422 and reply.json()["error"] == "settings/unknown"
    reply = client.post("/encounters", json={"ruleset": "srd-2024", "name": "   "})
    assert reply.status_code == 422 and reply.json()["error"] == "encounter/bad-name"


def test_a_command_out_of_phase_is_409_and_says_what_the_phase_allows(client):
    fight = open_fight(client)
    error = fight.rejects(fight.send(EndTurn(combatant="aria")), 409, "phase/not-allowed")
    assert "add_combatant" in error["allowed"]
    assert fight.state()["version"] == 1


def test_a_rule_the_fight_refuses_is_409(fight):
    """'You can take only one action on your turn': once the Attack action is spent, another attack is refused."""
    fight.do(Attack(attacker="aria", target="goblin", faces=(2,)))
    version = fight.state()["version"]
    fight.rejects(fight.send(Attack(attacker="aria", target="goblin", faces=(15,))), 409, "economy/action-spent")
    fight.rejects(fight.send(Move(combatant="goblin", feet=5)), 409, "turn/not-yours")
    assert fight.state()["version"] == version


def test_entered_dice_that_cannot_be_are_422(fight):
    version = fight.state()["version"]
    fight.rejects(fight.send(Attack(attacker="aria", target="goblin", faces=(21,))), 422, "dice/bad-face")
    assert fight.state()["version"] == version


def test_a_write_on_a_stale_version_is_409_and_succeeds_when_sent_again_on_the_current_one(fight):
    version = fight.state()["version"]
    fight.do(Move(combatant="aria", feet=5))  # someone else's command lands first
    error = fight.rejects(fight.send(Move(combatant="aria", feet=5), expected_version=version), 409, "version/conflict")
    current = fight.state()["version"]
    assert f"expected_version {current}" in error["allowed"]
    done = fight.do(Move(combatant="aria", feet=5), expected_version=current)
    assert done["version"] == current + 1 and [e["seq"] for e in fight.events()] == list(range(1, current + 2))


def test_the_status_follows_the_stable_code():
    assert status_for(RuleError("encounter/unknown", "")) == 404
    assert status_for(OutOfPhase("attack", "setup", [])) == 409
    assert status_for(RuleError("version/conflict", "")) == 409
    assert status_for(RuleError("command/malformed", "")) == 400
    assert status_for(RuleError("command/invalid", "")) == 422
    assert status_for(RuleError("combatant/invalid", "")) == 422
    assert status_for(RuleError("dice/bad-notation", "")) == 422
    assert status_for(RuleError("economy/action-spent", "")) == 409
    assert status_for(ApiError(403, "auth/read-only", "")) == 403
