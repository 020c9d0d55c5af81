"""The table reaches the players (issue 33): the whole party rests in one request with what
came back to each, and the service says which addresses the players' phones can open."""

from __future__ import annotations

from litestar.testing import TestClient

from combat.app.application import Encounters
from combat.service import create_app
from combat.service.addresses import Listening
from tests.helpers import first_answer, left_wounded_in_a_fight
from tests.service.helpers import open_campaign

WIZARD = {"name": "Elara", "class": "Wizard", "level": 5, "scores": "STR 8 DEX 14 CON 12 INT 16 WIS 12 CHA 10",
          "weapons": ["Dagger"], "spells": ["Magic Missile"]}  # fmt: skip
FIGHTER = {"name": "Brann", "class": "Fighter", "level": 5, "scores": "STR 16 DEX 12 CON 14 INT 10 WIS 12 CHA 8",
           "weapons": ["Longsword"]}  # fmt: skip


def test_the_whole_party_takes_a_long_rest_and_hears_what_came_back(client):
    """SRD 5.2, Long Rest: "Regain All HP. You regain all lost Hit Points"; spell slots come
    back. Elara spent a 1st-level slot and 9 HP; Brann is still in a fight, and "a rest is taken
    out of combat": he is named as not resting, and nothing of his changes."""
    camp = open_campaign(client)
    camp.build(**WIZARD)
    camp.build(**FIGHTER)
    first = camp.fight("The crypt")
    first.do({"type": "add_character", "character": "elara", "side": "party"})
    first.do({"type": "add_combatant", "combatant": {"id": "ghoul", "name": "Ghoul", "kind": "monster", "side": "undead",
              "max_hp": 22, "ac": 12}})  # fmt: skip
    first.do({"type": "begin_combat"})
    for cid, face in (("elara", 18), ("ghoul", 2)):
        first.do({"type": "roll_initiative", "combatant": cid, "faces": [face]})
    first.do({"type": "cast_spell", "caster": "elara", "spell": "Magic Missile", "targets": ["ghoul"] * 3,
              "damage_faces": [[1], [1], [1]]})  # fmt: skip
    first.do({"type": "set_hp", "combatant": "elara", "hp": 18})
    first.do({"type": "end_combat"})
    second = camp.fight("The ford")
    second.do({"type": "add_character", "character": "brann", "side": "party"})
    assert camp.character("Elara")["fight"] is None, "end_combat leaves the character free"

    reply = camp.post("/rest", {"kind": "long"})
    assert reply.status_code == 200, reply.text
    by_name = {c["name"]: c for c in reply.json()["characters"]}
    assert by_name["Elara"] | {} == {"name": "Elara", "rested": True, "skipped": None, "healed": 9, "hp": 27, "max_hp": 27,
                                     "slots_back": {"1": 1}, "pact_back": 0, "uses_back": {}}  # fmt: skip
    assert by_name["Brann"]["rested"] is False and by_name["Brann"]["skipped"] == f"in the fight {second.id}"
    assert camp.character("Elara")["status"] == {}
    bad = camp.post("/rest", {"kind": "nap"})
    assert bad.status_code == 422, bad.text


def _addresses(listening: Listening, tmp_path) -> dict:
    encounters = Encounters(tmp_path / "combat.db")
    try:
        with TestClient(create_app(encounters, listening=listening)) as http:
            reply = http.get("/service/addresses")
            assert reply.status_code == 200, reply.text
            return reply.json()
    finally:
        encounters.close()


def test_a_server_on_every_interface_names_its_lan_address_and_one_on_loopback_says_phones_cannot_reach_it(tmp_path):
    """The issue: "Share's player link and its QR code are built from the page's own origin, so
    a GM on http://127.0.0.1:PORT/app/ hands out links to the phone's own loopback"; the service
    now says where a phone reaches it, or that none can and how to serve the table."""
    wide = _addresses(Listening("0.0.0.0", lan=lambda: ["192.168.1.20"]), tmp_path)
    assert wide["loopback_only"] is False and wide["origins"][0].startswith("http://192.168.1.20:")
    narrow = _addresses(Listening("127.0.0.1"), tmp_path)
    assert narrow == {"loopback_only": True, "origins": [], "serve_table": "combat serve --table"}
    named = _addresses(Listening("10.0.0.5"), tmp_path)
    assert named["loopback_only"] is False and named["origins"][0].startswith("http://10.0.0.5:")


def test_the_whole_party_rests_from_the_command_line(tmp_path):
    """`combat characters rest --all --long`: one line a character, what came back; a name and
    --all together are refused, saying what is allowed."""
    from click.testing import CliRunner

    from combat.cli import cli

    db = str(tmp_path / "combat.db")
    run = CliRunner().invoke
    for sheet in (WIZARD, FIGHTER):
        args = ["characters", "build", "--class", sheet["class"], "--level", "5", "--scores", sheet["scores"]]
        built = run(cli, [*args, "--name", sheet["name"], "--save", "--db", db])
        assert built.exit_code == 0, built.output
    left_wounded_in_a_fight(db, "Brann", 20)
    assert run(cli, ["characters", "release", "Brann", "--db", db]).exit_code == 0
    rested = run(cli, ["characters", "rest", "--all", "--long", "--db", db])
    assert rested.exit_code == 0, rested.output
    assert rested.output.splitlines() == ["Brann: +24 HP (44/44)", "Elara: +0 HP (27/27)"]
    both = run(cli, ["characters", "rest", "Brann", "--all", "--long", "--db", db])
    assert both.exit_code != 0 and "NAME, or --all" in both.output, both.output


def test_serve_table_listens_for_the_phones_with_an_admin_token(tmp_path):
    """`combat serve --table`: every interface, so a phone on the LAN reaches it, and an admin
    token (printed once) so that only the GM creates encounters and campaigns."""
    import socket
    import subprocess
    import sys

    import httpx

    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    command = [sys.executable, "-c", "from combat.cli import main; main()", "serve", "--table", "--port", str(port)]
    server = subprocess.Popen(
        [*command, "--db", str(tmp_path / "c.db")], stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True
    )
    try:
        assert server.stdout is not None
        first = server.stdout.readline().strip()
        assert first.startswith("admin token (creates encounters and campaigns; keep it off the table): ")
        token = first.rsplit(" ", 1)[1]
        assert server.stdout.readline().strip() == f"table screen: http://127.0.0.1:{port}/app/ (this machine)"
        reply = first_answer(f"http://127.0.0.1:{port}/service/addresses")
        assert reply.json()["loopback_only"] is False
        assert httpx.post(f"http://127.0.0.1:{port}/campaigns", json={"name": "x"}).status_code == 401
        made = httpx.post(f"http://127.0.0.1:{port}/campaigns", json={"name": "x"}, headers={"Authorization": f"Bearer {token}"})
        assert made.status_code == 201, made.text
    finally:
        server.terminate()
        server.wait(timeout=10)
