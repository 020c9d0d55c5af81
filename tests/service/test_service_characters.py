"""Campaigns over HTTP: a GM builds a party in a campaign, fields it by name, and what each
fight does to it is carried back exactly; tokens reach their own campaign only, and a player
their own character."""

from __future__ import annotations

import concurrent.futures
import pathlib
import tempfile

from litestar.testing import TestClient

from combat.app.application import Encounters
from combat.service import create_app
from tests.service.helpers import bearer, open_campaign, open_fight

WIZARD = {
    "name": "Elara",
    "class": "Wizard",
    "level": 5,
    "scores": "STR 8 DEX 14 CON 12 INT 16 WIS 12 CHA 10",
    "weapons": ["Dagger"],
}
FIGHTER = {
    "name": "Brann",
    "class": "Fighter",
    "level": 5,
    "scores": "STR 16 DEX 12 CON 14 INT 10 WIS 12 CHA 8",
    "armor": "Chain Mail",
    "weapons": ["Longsword"],
}


def _begin(fight, *ids: str) -> None:
    fight.do({"type": "add_creature", "creature": "Goblin Warrior", "side": "goblins", "id_prefix": "goblin"})
    fight.do({"type": "begin_combat"})
    for i, cid in enumerate((*ids, "goblin")):
        fight.do({"type": "roll_initiative", "combatant": cid, "faces": [20 - 10 * i]})


def test_a_gm_builds_saves_and_fields_a_character_by_name_and_rests_it(client):
    """`POST .../characters/build` gives the SRD's numbers; `add_character` by name fills in the
    stored sheet; the fight's damage is carried back; "Long Rest ... Regain All HP"."""
    camp = open_campaign(client)
    sheet = camp.build(**WIZARD)
    assert (sheet["max_hp"], sheet["spellcasting"]["slots"]) == (27, [4, 3, 2])
    assert [c["name"] for c in camp.get("/characters").json()["characters"]] == ["Elara"]

    fight = camp.fight()
    reply = fight.do({"type": "add_character", "character": "elara", "side": "party", "player": "Sam"})
    assert [e["type"] for e in reply["events"]] == ["CombatantAdded", "SheetAttached"]
    fight.do({"type": "set_hp", "combatant": "elara", "hp": 9})
    elara = camp.character("Elara")
    assert elara["status"]["hp"] == 9 and elara["fight"] == fight.id

    refused = camp.post("/characters/elara/rest", {"kind": "long"})
    assert refused.status_code == 409 and refused.json()["error"] == "rest/in-fight", refused.text
    assert camp.post("/characters/elara/release", None).status_code == 200
    rested = camp.post("/characters/elara/rest", {"kind": "long"})
    assert rested.status_code == 200, rested.text
    assert rested.json()["healed"] == 18 and "hp" not in rested.json()["character"]["status"]


def test_a_character_is_in_one_live_fight_at_a_time_and_a_refused_join_writes_nothing(client):
    """Item 4 of issue 30: two fights at once lost 4 HP, a refused add_character elsewhere moved
    the pointer (7 HP lost). Now the second join is refused, saying where the character is, and
    the first fight's damage is carried exactly."""
    camp = open_campaign(client)
    camp.build(**FIGHTER)
    first = camp.fight("The goblin ambush")
    first.do({"type": "add_character", "character": "Brann", "side": "party"})
    _begin(first, "brann")
    first.do({"type": "damage", "target": "brann", "amount": 4, "damage_type": "slashing"})

    second = camp.fight("Elsewhere at once")
    before = second.state()["version"]
    error = second.rejects(
        second.send({"type": "add_character", "character": "Brann", "side": "party"}), 409, "character/in-another-fight"
    )
    assert first.id in error["detail"] and second.state()["version"] == before
    # A join refused by the rules (a side of the same id twice) writes nothing to the party either.
    first.rejects(first.send({"type": "add_character", "character": "Brann", "side": "party"}), 409, "combatant/duplicate")
    first.do({"type": "damage", "target": "brann", "amount": 7, "damage_type": "slashing"})
    first.do({"type": "end_combat", "reason": "the goblins flee"})

    brann = camp.character("Brann")
    assert brann["status"]["hp"] == 44 - 4 - 7 and brann.get("fight") is None
    third = camp.fight("The goblins come back")
    third.do({"type": "add_character", "character": "Brann", "side": "party"})
    assert third.state()["combatants"]["brann"]["hp"] == 33


def test_undo_in_the_fight_flows_to_the_party_and_a_practice_fight_never_does(client):
    """An undone hit is no longer carried; a practice fight of the campaign adds its characters
    by name and carries nothing back; a what-if fork carries nothing either."""
    camp = open_campaign(client)
    camp.build(**FIGHTER)
    fight = camp.fight()
    fight.do({"type": "add_character", "character": "Brann", "side": "party"})
    _begin(fight, "brann")
    hit = fight.do({"type": "damage", "target": "brann", "amount": 10, "damage_type": "slashing"})
    assert camp.character("Brann")["status"]["hp"] == 34
    undone = client.post(f"/encounters/{fight.id}/undo", json={"reason": "the GM misread the die"}, headers=bearer(fight.gm))
    assert undone.status_code == 200, undone.text
    assert "hp" not in camp.character("Brann")["status"], hit
    fight.do({"type": "end_combat", "reason": "done"})

    practice = camp.fight("Sparring in the yard", practice=True)
    practice.do({"type": "add_character", "character": "Brann", "side": "party"})
    _begin(practice, "brann")
    practice.do({"type": "damage", "target": "brann", "amount": 30, "damage_type": "bludgeoning"})
    brann = camp.character("Brann")
    assert "hp" not in brann["status"] and brann.get("fight") is None


def test_tokens_reach_their_own_campaign_and_a_player_their_own_character():
    """Item 2 of issue 30: any GM token read and killed any stored character. A campaign's GM
    token reaches its own characters; another campaign's GM and an encounter's GM are refused;
    a player's campaign token reads its own character and nothing else; beyond loopback the
    admin token is needed to open one."""
    with tempfile.TemporaryDirectory() as home:
        store = Encounters(pathlib.Path(home) / "combat.db")
        try:
            with TestClient(create_app(store, admin_token="s3cret", open_creation=False)) as http:
                http.headers.clear()
                assert http.post("/campaigns", json={"name": "x"}).json()["error"] == "auth/admin-required"
                http.headers["Authorization"] = "Bearer s3cret"
                ours, theirs = open_campaign(http, "Ours"), open_campaign(http, "Theirs")
                http.headers.clear()
                ours.build(**WIZARD)
                ours.build(**FIGHTER)
                fight = ours.fight()
                guest_fight = theirs.fight()
                sams = ours.token("player", "Sam", "Elara")

                assert ours.character("Elara")["sheet"]["name"] == "Elara"
                assert ours.get("/characters/Elara", token=sams).json()["sheet"]["name"] == "Elara"
                fight.rejects(ours.get("/characters/Brann", token=sams), 403, "auth/not-your-character")
                assert [c["name"] for c in ours.get("/characters", token=sams).json()["characters"]] == ["Elara"]
                fight.rejects(ours.post("/characters/Elara/rest", {"kind": "long"}, token=sams), 403, "auth/gm-only")
                sheet = ours.character("Elara")["sheet"]
                for other in (theirs.gm, guest_fight.gm, fight.gm):
                    fight.rejects(ours.get("/characters/Elara", token=other), 403, "auth/other-campaign")
                    # Refused before the name is looked up: no 404 lists the party's names.
                    fight.rejects(ours.get("/characters/Nobody", token=other), 403, "auth/other-campaign")
                    fight.rejects(ours.post("/characters", sheet, token=other), 403, "auth/other-campaign")
                # The old routes are the default campaign's, the admin's alone.
                fight.rejects(http.get("/characters", headers=bearer(ours.gm)), 401, "auth/admin-required")
                fight.rejects(http.get("/characters/Elara", headers=bearer(fight.gm)), 401, "auth/admin-required")
                # Another campaign's encounter does not reach our characters by name.
                guest_fight.rejects(
                    guest_fight.send({"type": "add_character", "character": "Elara", "side": "party"}), 404, "character/unknown"
                )
                # A campaign token opens no encounter.
                fight.rejects(fight.get(token=ours.gm), 403, "auth/campaign-token")
                # Revoked: refused from the next request on.
                listed = ours.get("/tokens").json()
                sam = next(t for t in listed if t["character"] == "Elara")
                assert http.delete(ours.url(f"/tokens/{sam['token_id']}"), headers=bearer(ours.gm)).status_code == 204
                fight.rejects(ours.get("/characters/Elara", token=sams), 401, "auth/revoked")
        finally:
            store.close()


def test_the_service_only_fields_are_never_taken_from_a_client(client):
    """`stored_as` once read any stored sheet and `status` set what a character carries: the
    service fills them in, and a command that sends either is refused, appending nothing."""
    camp = open_campaign(client)
    camp.build(**WIZARD)
    fight = camp.fight()
    sheet = camp.character("Elara")["sheet"]
    for sent in (
        {"type": "add_character", "character": "Elara", "side": "party", "stored_as": "Elara"},
        {"type": "add_character", "character": sheet, "side": "party", "stored_as": "Elara"},
        {"type": "add_character", "character": sheet, "side": "party", "status": {"hp": 1}},
    ):
        fight.rejects(fight.send(sent), 422, "command/service-field")
    assert fight.state()["version"] == 1
    standalone = open_fight(client)
    standalone.rejects(
        standalone.send({"type": "add_character", "character": "Elara", "side": "party"}), 422, "character/no-campaign"
    )


def test_forty_concurrent_reads_never_fail_and_never_write(client, encounters):
    """Item 5 of issue 30: a read appended StatusCarried, and concurrent readers lost with 409.
    Reads fold the character's log (the service's follower thread carries the fight over); 40
    at once all answer 200, and the campaigns' store holds no more records after them."""
    camp = open_campaign(client)
    camp.build(**FIGHTER)
    fight = camp.fight()
    fight.do({"type": "add_character", "character": "Brann", "side": "party"})
    fight.do({"type": "set_hp", "combatant": "brann", "hp": 30})
    assert camp.character("Brann")["status"]["hp"] == 30
    stored = encounters.campaigns.log.recorder.max_notification_id()
    with concurrent.futures.ThreadPoolExecutor(8) as pool:
        replies = list(pool.map(lambda _: camp.get("/characters/Brann"), range(40)))
    assert [r.status_code for r in replies] == [200] * 40
    assert {r.json()["status"]["hp"] for r in replies} == {30}
    assert encounters.campaigns.log.recorder.max_notification_id() == stored


def test_bad_input_is_refused_saying_what_is_allowed(client):
    camp = open_campaign(client)
    error = camp.post("/characters/build", {**WIZARD, "class": "Wizzard"}).json()
    assert error["error"].startswith("character/") and "Wizard" in error["allowed"]
    missing = camp.get("/characters/Nobody")
    assert missing.status_code == 404 and missing.json()["error"] == "character/unknown"
    bad_rest = camp.post("/characters/Nobody/rest", {"kind": "nap"})
    assert bad_rest.status_code == 422
    assert client.get("/campaigns/not-a-uuid", headers=bearer(camp.gm)).json()["error"] == "campaign/bad-id"
    unknown = client.get("/campaigns/00000000-0000-4000-8000-000000000000", headers=bearer(camp.gm))
    assert unknown.status_code == 404 and unknown.json()["error"] == "campaign/unknown"
    # The default campaign's routes, as before campaigns, for the admin (open on loopback).
    assert client.post("/characters/build", json={**WIZARD, "save": True}).status_code == 200
    assert [c["name"] for c in client.get("/characters").json()] == ["Elara"]
