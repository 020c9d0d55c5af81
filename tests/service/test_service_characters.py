"""The party over HTTP: build a sheet from the SRD, store it, add it to a fight by name, rest it;
a player reads their own character's sheet and nobody else's."""

from __future__ import annotations

import pathlib
import tempfile

from litestar.testing import TestClient

from combat.app.application import Encounters
from combat.service import create_app
from tests.service.helpers import bearer, open_fight

WIZARD = {
    "name": "Elara",
    "class": "Wizard",
    "level": 5,
    "scores": "STR 8 DEX 14 CON 12 INT 16 WIS 12 CHA 10",
    "weapons": ["Dagger"],
}


def test_a_gm_builds_saves_and_fields_a_character_by_name_and_rests_it(client):
    """`POST /characters/build` gives the SRD's numbers; `add_character` by name fills in the
    stored sheet; the fight's damage is still there at the next look, and a Long Rest heals it."""
    built = client.post("/characters/build", json={**WIZARD, "save": True})
    assert built.status_code == 200, built.text
    sheet = built.json()
    assert (sheet["max_hp"], sheet["spellcasting"]["slots"], sheet["save_proficiencies"]) == (
        27,
        [4, 3, 2],
        ["intelligence", "wisdom"],
    )
    assert [c["name"] for c in client.get("/characters").json()] == ["Elara"]

    fight = open_fight(client)
    reply = fight.do({"type": "add_character", "character": "elara", "side": "party", "player": "Sam"}, expected_version=None)
    assert [e["type"] for e in reply["events"]] == ["CombatantAdded", "SheetAttached"]
    fight.do({"type": "set_hp", "combatant": "elara", "hp": 9})
    assert client.get("/characters/Elara").json()["status"]["hp"] == 9

    rested = client.post("/characters/elara/rest", json={"kind": "long"})
    assert rested.status_code == 200, rested.text
    assert rested.json()["healed"] == 18 and "hp" not in rested.json()["character"]["status"]


def test_a_player_reads_their_own_characters_sheet_only():
    """A player token of an encounter reads the sheet of its own character there, not another's;
    beyond loopback, the party needs the admin token."""
    with tempfile.TemporaryDirectory() as home:
        store = Encounters(pathlib.Path(home) / "combat.db")
        try:
            with TestClient(create_app(store)) as local:
                for who in ("Elara", "Brann"):
                    assert local.post("/characters/build", json={**WIZARD, "name": who, "save": True}).status_code == 200
                fight = open_fight(local)
                fight.do({"type": "add_character", "character": "Elara", "side": "party", "player": "Sam"})
                fight.do({"type": "add_character", "character": "Brann", "side": "party", "player": "Ana"})
                sams = fight.token("player", "Sam", ("elara",))
            with TestClient(create_app(store, admin_token="s3cret", open_creation=False)) as remote:
                fight.http = remote
                remote.headers.clear()
                fight.rejects(remote.get("/characters"), 401, "auth/admin-required")
                assert remote.get("/characters/Elara", headers=bearer(sams)).json()["sheet"]["name"] == "Elara"
                fight.rejects(remote.get("/characters/Brann", headers=bearer(sams)), 403, "auth/not-your-character")
                assert remote.get("/characters", headers=bearer("s3cret")).status_code == 200
        finally:
            store.close()


def test_bad_input_is_refused_saying_what_is_allowed(client):
    error = client.post("/characters/build", json={**WIZARD, "class": "Wizzard"}).json()
    assert error["error"].startswith("character/") and "Wizard" in error["allowed"]
    missing = client.get("/characters/Nobody")
    assert missing.status_code == 404 and missing.json()["error"] == "character/unknown"
    bad_rest = client.post("/characters/Nobody/rest", json={"kind": "nap"})
    assert bad_rest.status_code == 422
