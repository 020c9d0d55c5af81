"""Roles and tokens: the GM does everything, a player commands only their own characters,
a viewer only reads; anyone else is turned away with a JSON error saying why."""

from __future__ import annotations

import sqlite3
import uuid

import pytest

from combat.common.commands import ApplyCondition, ConcentrationSave, Damage, SavingThrow
from combat.fivee.action_commands import Move, TakeAction
from combat.fivee.attack_commands import Attack
from combat.fivee.initiative import OrderTie
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn, RemoveCombatant, Ruling
from combat.kernel.events import ConditionSpec
from combat.service.auth import Grant, check_command
from combat.service.errors import ApiError
from tests.helpers import monster
from tests.service.helpers import bearer, open_fight, set_the_scene


@pytest.fixture
def fight(client):
    return set_the_scene(open_fight(client))


def test_a_player_moves_and_attacks_with_their_own_dice_and_the_log_names_the_player(fight):
    """Sam plays Aria: the attack roll is the 12 Sam rolled at the table, entered."""
    sam = fight.token("player", "Sam", ("aria",))
    fight.do(Move(combatant="aria", feet=10), token=sam)
    done = fight.do(Attack(attacker="aria", target="goblin", faces=(12,), damage_faces=(2,)), token=sam)
    rolled = [e for e in done["events"] if e["type"] == "DiceRolled"]
    assert rolled[0]["source"] == "entered" and rolled[0]["dice"][0]["face"] == 12
    assert {e["actor"] for e in done["events"]} == {"Sam"}
    assert fight.state()["combatants"]["goblin"]["hp"] == 2
    fight.do(EndTurn(combatant="aria"), token=sam)
    assert fight.state()["turn"] == "brom"


def test_a_player_rolls_their_save_and_the_gm_calls_it(fight):
    """The DC is the GM's ("make a DC 12 Dexterity save"); the die is the player's, entered
    by the GM or by the player in a command that carries no DC (a concentration save)."""
    sam = fight.token("player", "Sam", ("aria",))
    fight.rejects(
        fight.send(SavingThrow(combatant="aria", ability="dexterity", dc=12, faces=(15,)), token=sam), 403, "command/gm-field"
    )
    done = fight.do(SavingThrow(combatant="aria", ability="dexterity", dc=12, faces=(15,)))
    assert done["events"][-1]["type"] == "SaveMade" and done["events"][-1]["success"]


def test_a_player_cannot_command_another_players_character(fight):
    sam = fight.token("player", "Sam", ("aria",))
    version = fight.state()["version"]
    error = fight.rejects(fight.send(Move(combatant="brom", feet=5), token=sam), 403, "auth/not-your-combatant")
    assert "aria" in error["allowed"]
    fight.rejects(fight.send(Attack(attacker="brom", target="goblin"), token=sam), 403, "auth/not-your-combatant")
    assert fight.state()["version"] == version


@pytest.mark.parametrize(
    "command",
    [
        AddCombatant(combatant=monster("wolf")),
        RemoveCombatant(combatant="aria"),
        BeginCombat(),
        Damage(target="goblin", damage_type="fire", amount=3),
        ApplyCondition(target="goblin", condition=ConditionSpec(name="prone")),
        Ruling(text="the goblin surrenders"),
    ],
    ids=lambda c: type(c).__struct_config__.tag,
)
def test_setting_up_and_ruling_stay_with_the_gm(fight, command):
    sam = fight.token("player", "Sam", ("aria",))
    version = fight.state()["version"]
    fight.rejects(fight.send(command, token=sam), 403, "auth/gm-command")
    assert fight.state()["version"] == version


def test_a_player_may_not_issue_tokens_or_change_the_past(fight):
    sam = fight.token("player", "Sam", ("aria",))
    fight.rejects(
        fight.http.post(fight.url("/tokens"), json={"role": "viewer", "name": "x"}, headers=bearer(sam)), 403, "auth/gm-only"
    )
    fight.rejects(fight.http.post(fight.url("/undo"), json={"reason": "oops"}, headers=bearer(sam)), 403, "auth/gm-only")
    fight.rejects(fight.http.post(fight.url("/fork"), json={"at": 2}, headers=bearer(sam)), 403, "auth/gm-only")


def test_a_viewer_reads_everything_and_sends_nothing(fight):
    overlay = fight.token("viewer", "stream overlay")
    for tail in ("", "/events", "/log", "/audit"):
        assert fight.get(tail, token=overlay).status_code == 200, tail
    version = fight.state()["version"]
    fight.rejects(fight.send(EndTurn(combatant="aria"), token=overlay), 403, "auth/read-only")
    fight.rejects(fight.http.post(fight.url("/undo"), json={"reason": "x"}, headers=bearer(overlay)), 403, "auth/gm-only")
    assert fight.state()["version"] == version


def test_a_co_gm_token_does_what_the_gm_does(fight):
    co_gm = fight.token("gm")
    done = fight.do(TakeAction(combatant="aria", action="dodge"), token=co_gm)
    assert done["events"][-1]["actor"] == "gm"


def test_no_token_or_an_unknown_one_is_401_and_another_encounters_token_is_403(fight, client):
    version = fight.state()["version"]
    fight.rejects(fight.http.get(fight.url()), 401, "auth/missing")
    fight.rejects(
        fight.http.post(fight.url("/commands"), json={"command": {"type": "end_turn", "combatant": "aria"}}), 401, "auth/missing"
    )
    fight.rejects(fight.get(token="not-a-token"), 401, "auth/unknown-token")
    fight.rejects(fight.http.get(fight.url(), headers={"Authorization": "Basic Zm9vOmJhcg=="}), 401, "auth/missing")
    other = open_fight(client, name="another table")
    fight.rejects(fight.get(token=other.gm), 403, "auth/other-encounter")
    fight.rejects(fight.send(EndTurn(combatant="aria"), token=other.gm), 403, "auth/other-encounter")
    assert fight.state()["version"] == version


def test_a_browser_event_source_may_pass_its_token_in_the_url_for_reading_only(fight):
    overlay = fight.token("viewer", "overlay")
    assert fight.http.get(fight.url(), params={"access_token": overlay}).status_code == 200
    reply = fight.http.post(
        fight.url("/commands") + f"?access_token={fight.gm}", json={"command": {"type": "end_turn", "combatant": "aria"}}
    )
    fight.rejects(reply, 401, "auth/missing")


@pytest.mark.parametrize(
    ("request_body", "code"),
    [
        ({"role": "player", "name": "gm", "combatants": ["aria"]}, "token/bad-name"),
        ({"role": "player", "name": "", "combatants": ["aria"]}, "token/bad-name"),
        ({"role": "player", "name": "Sam"}, "token/combatants"),
        ({"role": "viewer", "name": "overlay", "combatants": ["aria"]}, "token/combatants"),
        ({"role": "player", "name": "Sam", "combatants": ["Aria!"]}, "token/combatants"),
        ({"role": "owner", "name": "Sam"}, "request/invalid"),
    ],
)
def test_a_token_request_that_makes_no_sense_is_refused(fight, request_body, code):
    """A player named 'gm' would pass for the GM in the log, so that name is refused."""
    fight.rejects(fight.http.post(fight.url("/tokens"), json=request_body, headers=bearer(fight.gm)), 422, code)


def test_tokens_are_stored_only_as_hashes_and_never_in_the_log(fight, tmp_path):
    sam = fight.token("player", "Sam", ("aria",))
    with sqlite3.connect(tmp_path / "combat.db") as db:
        stored = db.execute("SELECT token_hash, role, name FROM combat_tokens ORDER BY role").fetchall()
        everything = repr(db.execute("SELECT * FROM combat_tokens").fetchall()) + repr(
            db.execute("SELECT * FROM stored_events").fetchall()
        )
    assert [(role, name) for _, role, name in stored] == [("gm", "gm"), ("player", "Sam")]
    assert all(len(token_hash) == 64 for token_hash, _, _ in stored)
    for token in (fight.gm, sam):
        assert token not in everything
    export = fight.get("/events", format="jsonl").text
    assert fight.gm not in export and sam not in export


def test_the_acting_combatant_is_read_from_the_command_fields_that_name_the_actor():
    assert Attack(attacker="aria", target="goblin").actors() == {"aria"}
    assert ConcentrationSave(combatant="brom").actors() == {"brom"}
    assert Damage(target="aria", damage_type="fire", amount=1).actors() == set()
    assert AddCombatant(combatant=monster("wolf")).actors() == set() and AddCombatant.gm_only
    assert OrderTie(order=("aria", "brom")).actors() == {"aria", "brom"}


def test_who_may_send_a_command_is_declared_by_each_rulesets_commands():
    """A player may order a tie of their own characters and mount their own rider, but never
    send the GM's ruling on a changed declaration, even about their own character."""
    from combat.rulesets.declared_d10.declarations import D10RuleOnChange
    from combat.rulesets.srd2024_variant.mounts import Mount

    sam = Grant(encounter_id=uuid.uuid4(), role="player", name="Sam", combatants=frozenset({"aria", "brom"}))
    check_command(sam, OrderTie(order=("brom", "aria")))
    check_command(sam, Mount(rider="aria", mount="thunder"))
    for command in (
        D10RuleOnChange(combatant="aria", allowed=True, ruling="fine"),
        OrderTie(order=("aria", "goblin")),
        Mount(rider="goblin", mount="wolf"),
    ):
        with pytest.raises(ApiError) as caught:
            check_command(sam, command)
        assert caught.value.code in {"auth/gm-command", "auth/not-your-combatant"}


def test_an_unknown_encounter_is_404_before_any_token_check(client):
    reply = client.get(f"/encounters/{uuid.uuid4()}")
    assert reply.status_code == 404 and reply.json()["error"] == "encounter/unknown"
