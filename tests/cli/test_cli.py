"""The command line as a GM uses it: demo, export, replay, schema, diagram, and one-line errors."""

from __future__ import annotations

import json
import re
import socket
import subprocess
import sys

from click.testing import CliRunner

from combat.cli import cli
from combat.service.addresses import table_screen_lines
from tests.helpers import first_answer


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_the_same_seed_plays_the_same_fight_and_replay_shows_its_final_state(tmp_path):
    first = run("demo", "--seed", "5", "--db", str(tmp_path / "a.db"), "--export", str(tmp_path / "x.jsonl"))
    second = run("demo", "--seed", "5", "--db", str(tmp_path / "b.db"))
    assert first.exit_code == 0 and "Combat ends" in first.stdout
    assert first.stdout == second.stdout
    replayed = run("replay", str(tmp_path / "x.jsonl"))
    table = first.stdout[first.stdout.index("┏") :]
    assert table.strip() in replayed.stdout
    state = json.loads(run("replay", str(tmp_path / "x.jsonl"), "--json").stdout)
    assert state["phase"] == "ended"
    for cid, c in state["combatants"].items():
        assert re.search(rf"\b{c['hp']}/{c['max_hp']}\b", table), cid


def test_replay_at_a_seq_shows_the_fight_part_way_through(tmp_path):
    run("demo", "--seed", "2", "--db", str(tmp_path / "a.db"), "--export", str(tmp_path / "x.jsonl"))
    lines = (tmp_path / "x.jsonl").read_text().splitlines()
    first_turn = next(i for i, line in enumerate(lines, 1) if '"TurnStarted"' in line)
    state = json.loads(run("replay", str(tmp_path / "x.jsonl"), "--at", str(first_turn), "--json").stdout)
    assert state["version"] == first_turn and state["phase"] == "turns" and state["round"] == 1
    assert all(c["hp"] == c["max_hp"] for c in state["combatants"].values())


def test_export_writes_the_stored_log_as_json_lines(tmp_path):
    db = str(tmp_path / "a.db")
    new = run("new", "--db", db, "--name", "Bridge", "--seed", "9")
    exported = run("export", new.stdout.strip(), "--db", db)
    [line] = exported.stdout.splitlines()
    assert json.loads(line)["type"] == "EncounterCreated" and json.loads(line)["name"] == "Bridge"
    assert json.loads(line)["seq"] == 1 and json.loads(line)["seed"] == 9


def test_a_gm_can_run_a_fight_command_by_command(tmp_path):
    db = str(tmp_path / "a.db")
    eid = run("new", "--db", db, "--seed", "4").stdout.strip()
    for spec in (
        '{"id": "aria", "name": "Aria", "kind": "pc", "side": "party", "max_hp": 12, "ac": 16}',
        '{"id": "goblin", "name": "Goblin", "kind": "monster", "side": "goblins", "max_hp": 7, "ac": 15}',
    ):
        assert run("do", eid, f'{{"type": "add_combatant", "combatant": {spec}}}', "--db", db).exit_code == 0
    run("do", eid, '{"type": "begin_combat"}', "--db", db)
    out = run("do", eid, '{"type": "roll_initiative", "combatant": "aria", "faces": [18]}', "--db", db).stdout
    assert "Aria rolls 1d20+0 for initiative: [18] = 18 (entered)" in out
    run("do", eid, '{"type": "roll_initiative", "combatant": "goblin", "faces": [3]}', "--db", db)
    shown = run("show", eid, "--db", db, "--json")
    assert json.loads(shown.stdout)["turn"] == "aria"
    log = run("log", eid, "--db", db).stdout
    assert "Round 1 - Aria's turn" in log


def test_errors_print_one_line_and_exit_non_zero(tmp_path):
    db = str(tmp_path / "a.db")
    eid = run("new", "--db", db).stdout.strip()
    result = run("do", eid, '{"type": "end_turn", "combatant": "aria"}', "--db", db)
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert "not allowed in the setup phase" in result.stderr and "add_combatant" in result.stderr
    bad = run("do", eid, '{"type": "fireball"}', "--db", db)
    assert bad.exit_code == 2 and bad.stderr.startswith("error: invalid command")
    unknown = run("show", "not-an-id", "--db", db)
    assert unknown.exit_code == 2 and "no encounter 'not-an-id'" in unknown.stderr and "combat list" in unknown.stderr
    (tmp_path / "bad.jsonl").write_text('{"seq": 1}\n')
    assert run("replay", str(tmp_path / "bad.jsonl")).exit_code == 2


def test_schema_and_diagram_print_documents():
    schema = json.loads(run("schema").stdout)
    assert "AttackMade" in schema["$defs"]
    diagram = run("diagram", "srd-2024").stdout
    assert "stateDiagram-v2" in diagram and "setup --> surprise: begin_combat" in diagram
    assert run("diagram", "chess").exit_code == 2


def test_the_character_schema_prints_as_json_a_tool_can_read():
    """`combat characters schema`: "Print the JSON Schema of a character sheet" (issue 33: its
    line breaks came out as a literal backslash-n, so no JSON reader took it)."""
    from combat.characters.sheet import sheet_schema

    printed = run("characters", "schema").stdout
    assert printed.startswith('{\n  "$defs"')
    assert json.loads(printed) == json.loads(json.dumps(sheet_schema()))


def _small_fight(db: str) -> str:
    eid = run("new", "--db", db, "--seed", "4").stdout.strip()
    for spec in (
        (
            '{"id": "aria", "name": "Aria", "kind": "pc", "side": "party", "max_hp": 12, "ac": 16,'
            ' "attacks": [{"name": "Axe", "bonus": 5, "damage": "1d8+3", "damage_type": "slashing"}]}'
        ),
        '{"id": "goblin", "name": "Goblin", "kind": "monster", "side": "goblins", "max_hp": 9, "ac": 15}',
    ):
        run("do", eid, f'{{"type": "add_combatant", "combatant": {spec}}}', "--db", db)
    run("do", eid, '{"type": "begin_combat"}', "--db", db)
    run("do", eid, '{"type": "roll_initiative", "combatant": "aria", "faces": [18]}', "--db", db)
    run("do", eid, '{"type": "roll_initiative", "combatant": "goblin", "faces": [3]}', "--db", db)
    return eid


def test_a_gm_undoes_redoes_and_amends_from_the_command_line(tmp_path):
    db = str(tmp_path / "a.db")
    eid = _small_fight(db)
    run("do", eid, '{"type": "attack", "attacker": "aria", "target": "goblin", "faces": [12], "damage_faces": [4]}', "--db", db)
    assert json.loads(run("show", eid, "--db", db, "--json").stdout)["combatants"]["goblin"]["hp"] == 2
    undone = run("undo", eid, "--reason", "wrong target", "--db", db)
    assert "Undone: events" in undone.stdout and "(wrong target)" in undone.stdout
    assert json.loads(run("show", eid, "--db", db, "--json").stdout)["combatants"]["goblin"]["hp"] == 9
    run("undo", eid, "--reason", "right target after all", "--db", db)
    state = json.loads(run("show", eid, "--db", db, "--json").stdout)
    assert state["combatants"]["goblin"]["hp"] == 2
    attack_seq = next(
        json.loads(line)["seq"]
        for line in run("export", eid, "--db", db).stdout.splitlines()
        if json.loads(line)["type"] == "AttackMade"
    )
    amended = run(
        "amend",
        eid,
        str(attack_seq),
        "--reason",
        "goblin had half cover",
        "--db",
        db,
        "--command",
        '{"type": "attack", "attacker": "aria", "target": "goblin", "cover": "half", "faces": [12], "damage_faces": [4]}',
    )
    assert "17 vs AC 17, hit" in amended.stdout
    audit = run("audit", eid, "--db", db)
    assert "amendment at seq" in audit.stdout and "goblin had half cover" in audit.stdout
    assert run("undo", eid, "--db", db).exit_code == 2  # a reason is required


def test_replay_step_shows_each_event_with_its_changes_and_verify_checks_the_expected_state(tmp_path):
    db = str(tmp_path / "a.db")
    eid = _small_fight(db)
    run("do", eid, '{"type": "attack", "attacker": "aria", "target": "goblin", "faces": [12], "damage_faces": [4]}', "--db", db)
    log = tmp_path / "fight.jsonl"
    log.write_text(run("export", eid, "--db", db).stdout)
    stepped = run("replay", str(log), "--step").stdout
    assert re.search(
        r"^\s+\d+  [0-9a-f]{12}  Round 1 - Aria attacks Goblin \(Axe\): 17 vs AC 15, hit, 7 slashing$", stepped, re.M
    )
    assert "combatants.goblin.hp: 9 -> 2" in stepped
    assert run("replay", str(log), "--step").stdout == stepped  # byte-identical: the hashes are stable
    assert run("replay", str(log), "--verify").exit_code == 2  # nothing to compare with yet
    (tmp_path / "fight.expected.json").write_text(run("replay", str(log), "--json").stdout)
    ok = run("replay", str(log), "--verify")
    assert ok.exit_code == 0 and ok.stdout.startswith("ok: fight.jsonl")
    expected = json.loads((tmp_path / "fight.expected.json").read_text())
    expected["combatants"]["goblin"]["hp"] = 9
    (tmp_path / "fight.expected.json").write_text(json.dumps(expected))
    bad = run("replay", str(log), "--verify")
    assert bad.exit_code == 1 and "combatants.goblin.hp: expected 9, got 2" in bad.stderr


def test_a_token_issued_on_the_command_line_opens_the_encounter_over_http(tmp_path):
    from litestar.testing import TestClient

    from combat.service import create_app

    db = str(tmp_path / "a.db")
    eid = _small_fight(db)
    viewer = run("token", eid, "--role", "viewer", "--name", "Overlay", "--db", db).stdout.strip()
    player = run("token", eid, "--role", "player", "--name", "Sam", "--combatant", "aria", "--db", db).stdout.strip()
    assert run("token", eid, "--role", "player", "--name", "Sam", "--db", db).exit_code == 2
    with TestClient(app=create_app(db=db)) as http:
        seen = http.get(f"/encounters/{eid}", headers={"Authorization": f"Bearer {viewer}"})
        assert seen.status_code == 200 and seen.json()["turn"] == "aria"
        refused = http.post(
            f"/encounters/{eid}/commands",
            headers={"Authorization": f"Bearer {viewer}"},
            json={"command": {"type": "end_turn", "combatant": "aria"}},
        )
        assert refused.status_code == 403
        moved = http.post(
            f"/encounters/{eid}/commands",
            headers={"Authorization": f"Bearer {player}"},
            json={"command": {"type": "move", "combatant": "aria", "feet": 10}},
        )
        assert moved.status_code == 200


def test_serve_prints_the_table_screen_address_and_the_root_sends_a_browser_there(tmp_path):
    """`combat serve` says where /app/ is before anything else; GET / redirects there."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    server = subprocess.Popen(
        [
            sys.executable,
            "-c",
            "from combat.cli import main; main()",
            "serve",
            "--port",
            str(port),
            "--db",
            str(tmp_path / "combat.db"),
        ],
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert server.stdout is not None
        assert server.stdout.readline().strip() == f"table screen: http://127.0.0.1:{port}/app/"
        reply = first_answer(f"http://127.0.0.1:{port}/", follow_redirects=False)
        assert reply.status_code in (302, 307) and reply.headers["location"] == "/app/"
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_serve_on_every_interface_names_the_addresses_phones_on_the_network_open():
    assert table_screen_lines("0.0.0.0", 8000, lan=lambda: ["192.168.1.20", "10.0.0.5"]) == [
        "table screen: http://127.0.0.1:8000/app/ (this machine)",
        "table screen: http://192.168.1.20:8000/app/ (on the network: for the players' phones)",
        "table screen: http://10.0.0.5:8000/app/ (on the network: for the players' phones)",
    ]
    assert table_screen_lines("192.168.1.20", 9000) == ["table screen: http://192.168.1.20:9000/app/"]
    assert table_screen_lines("::1", 8000) == ["table screen: http://[::1]:8000/app/"]
    assert table_screen_lines("localhost", 8000) == ["table screen: http://localhost:8000/app/"]
