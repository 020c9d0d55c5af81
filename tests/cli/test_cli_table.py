"""The CLI at the table: list the encounters, name one by its name or the start of its id,
remember the current one, and read everything as JSON too."""

from __future__ import annotations

import json

from click.testing import CliRunner

from combat.cli import cli
from tests.helpers import member


def run(*args: str, env: dict[str, str] | None = None):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False, env=env)


def _new(db: str, name: str) -> str:
    return run("new", "--name", name, "--seed", "3", "--db", db).output.strip()


def test_list_shows_each_encounter_with_its_name_ruleset_round_and_last_activity(tmp_path):
    db = str(tmp_path / "t.db")
    ford = _new(db, "Ford")
    run("demo", "--seed", "2", "--db", db)
    listed = json.loads(run("list", "--json", "--db", db).output)
    assert len(listed) == 2
    assert listed[0]["name"] == "Demo: forest ambush" or listed[0]["round"] >= 1  # the demo is the most recent
    by_id = {e["id"]: e for e in listed}
    assert by_id[ford]["name"] == "Ford" and by_id[ford]["ruleset"] == "srd-2024" and by_id[ford]["round"] == 0
    assert by_id[ford]["version"] == 1 and by_id[ford]["last_activity"]
    text = run("list", "--db", db).output
    assert "Ford" in text and ford[:8] in text


def test_an_encounter_is_named_by_a_unique_id_start_or_its_name_and_ambiguity_is_refused(tmp_path):
    db = str(tmp_path / "t.db")
    ford = _new(db, "Ford")
    _new(db, "Bridge")
    assert json.loads(run("show", ford[:6], "--json", "--db", db).output)["name"] == "Ford"
    assert json.loads(run("show", "ford", "--json", "--db", db).output)["name"] == "Ford"  # any case
    _new(db, "Bridge")
    twice = run("show", "Bridge", "--db", db)
    assert twice.exit_code == 2 and "matches 2 encounters" in twice.stderr and "longer id prefix" in twice.stderr
    nowhere = run("show", "Mill", "--db", db)
    assert nowhere.exit_code == 2 and "no encounter 'Mill'" in nowhere.stderr


def test_use_remembers_the_current_encounter_so_commands_can_leave_it_out(tmp_path):
    db = str(tmp_path / "t.db")
    none_yet = run("show", "--db", db)
    assert none_yet.exit_code == 2 and "combat use" in none_yet.stderr
    ford = _new(db, "Ford")
    assert ford in run("use", "Ford", "--db", db).output
    added = run(
        "do",
        '{"type": "add_combatant", "combatant": {"id": "aria", "name": "Aria", "kind": "pc", '
        '"side": "party", "max_hp": 20, "ac": 15}}',
        "--db",
        db,
    )
    assert added.exit_code == 0 and "Aria joins the party side" in added.output
    assert json.loads(run("show", "--json", "--db", db).output)["combatants"]["aria"]["hp"] == 20
    assert "Aria joins" in run("log", "--db", db).output
    run("undo", "--reason", "wrong stat block", "--db", db)
    assert json.loads(run("show", "--json", "--db", db).output)["combatants"] == {}
    run("retract", "3", "--reason", "it was right after all", "--db", db)  # seqs alone: the current encounter
    assert "aria" in json.loads(run("show", "--json", "--db", db).output)["combatants"]
    assert ford in run("use", "--db", db).output
    run("use", "--clear", "--db", db)
    assert run("show", "--db", db).exit_code == 2


def test_every_read_command_speaks_json(tmp_path):
    db = str(tmp_path / "t.db")
    fight = tmp_path / "fight.jsonl"
    run("demo", "--seed", "1", "--db", db, "--export", str(fight))
    eid = json.loads(run("list", "--json", "--db", db).output)[0]["id"]
    assert json.loads(run("show", eid, "--json", "--db", db).output)["phase"] == "ended"
    log = json.loads(run("log", eid, "--json", "--db", db).output)
    assert log[0]["seq"] == 1 and log[0]["type"] == "EncounterCreated" and "set up" in log[0]["line"]
    assert json.loads(run("audit", eid, "--json", "--db", db).output)["entries"]
    assert {r["id"] for r in json.loads(run("rulesets", "--json").output)} >= {"srd-2024", "a5e"}
    steps = json.loads(run("replay", str(fight), "--step", "--json", "--at", "3").output)
    assert [s["seq"] for s in steps] == [1, 2, 3] and all(len(s["state_hash"]) == 64 for s in steps)
    assert json.loads(run("replay", str(fight), "--json").output)["phase"] == "ended"


def test_a_name_with_an_escape_sequence_or_a_newline_prints_escaped_in_every_table_and_line(tmp_path):
    """Issue 25, finding 7: `combat list` printed control characters and ANSI escapes raw.
    A name someone typed is shown as escapes everywhere the CLI prints it, and brackets in
    it are text, not rich markup."""
    db = str(tmp_path / "t.db")
    raw = "a\x1b[31mred\nb"
    shown = "a\\x1b[31mred\\nb"
    eid = run("new", "--name", raw, "--seed", "3", "--db", db).output.strip()
    fighter = json.dumps({"id": "x", "name": raw + " [bold]loud[/bold]", "kind": "pc", "side": raw, "max_hp": 9, "ac": 12})
    other = json.dumps({"id": "y", "name": "Goblin", "kind": "monster", "side": "goblins", "max_hp": 7, "ac": 15})
    outputs = {
        "do": run("do", eid, f'{{"type": "add_combatant", "combatant": {fighter}}}', "--db", db).output,
        "do 2": run("do", eid, f'{{"type": "add_combatant", "combatant": {other}}}', "--db", db).output,
        "use": run("use", eid, "--db", db).output,
        "list": run("list", "--db", db).output,
        "show": run("show", "--db", db).output,
        "log": run("log", "--db", db).output,
        "audit": run("audit", "--db", db).output,
    }
    for command, output in outputs.items():
        assert "\x1b" not in output and "red\nb" not in output, command
    for command in ("use", "list", "log", "audit"):
        assert shown in outputs[command], (command, outputs[command])
    assert shown + " [bold]loud[/bold]" in outputs["show"]


def test_show_names_each_combatant_by_id_with_its_slots_left_and_a_dying_ones_death_saves(tmp_path):
    """Issue 33: `combat show` had no ids, though every command names combatants by id, and no
    slots or death saves. Elara (Wizard 5: slots 4 / 3 / 2) casts Magic Missile with a 1st-level
    slot, leaving 3 of 4; Aria drops to 0 and fails one Death Saving Throw ("Roll 1d20. If the
    roll is 10 or higher, you succeed. Otherwise, you fail.")."""
    from combat.app.application import Encounters
    from combat.common.commands import Damage
    from combat.fivee.casts import CastSpell
    from combat.fivee.characters import AddCharacter
    from combat.fivee.dying import DeathSave
    from combat.fivee.initiative import RollInitiative
    from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn
    from tests.helpers import monster, pc

    db = tmp_path / "t.db"
    encounters = Encounters(db)
    eid = encounters.create("srd-2024", "Crypt", seed=3)
    wizard = member("Elara", 5, "Magic Missile")
    encounters.execute(eid, AddCharacter(character=wizard, side="party"))
    encounters.execute(eid, AddCombatant(combatant=pc("aria")))
    encounters.execute(eid, AddCombatant(combatant=monster("bugbear-chief", max_hp=27)))
    encounters.execute(eid, BeginCombat())
    for cid, face in (("elara", 20), ("aria", 15), ("bugbear-chief", 2)):
        encounters.execute(eid, RollInitiative(combatant=cid, faces=(face,)))
    targets = ("bugbear-chief",) * 3
    encounters.execute(eid, CastSpell(caster="elara", spell="Magic Missile", targets=targets, damage_faces=((1,), (1,), (1,))))
    encounters.execute(eid, Damage(target="aria", amount=encounters.state(eid).combatants["aria"].hp, damage_type="slashing"))
    encounters.execute(eid, EndTurn(combatant="elara"))
    encounters.execute(eid, DeathSave(combatant="aria", faces=(4,)))
    encounters.close()

    board = run("show", str(eid), "--db", str(db)).output
    rows = _rows(board)
    assert list(rows) == ["elara", "aria", "bugbear-chief"]  # in initiative order, ids whole
    assert rows["aria"]["combatant"] == "Aria" and rows["aria"]["HP"] == "0/20"
    assert rows["elara"]["slots left"] == "1st 3/4, 2nd 3/3, 3rd 2/2"
    assert rows["aria"]["death saves"] == "0 successes, 1 failure"
    assert rows["bugbear-chief"]["slots left"] == rows["bugbear-chief"]["death saves"] == ""
    fresh = run("show", _new(str(db), "Empty"), "--db", str(db)).output
    assert "slots left" not in fresh and "death saves" not in fresh  # the columns come with what they show


def _rows(board: str) -> dict[str, dict[str, str]]:
    """The board's rows by id, each cell's wrapped lines joined."""
    lines = board.splitlines()
    header_lines = [line for line in lines if line.startswith("┃")]
    names = [" ".join(part) for part in zip(*([c.strip() for c in line.split("┃")[1:-1]] for line in header_lines))]
    names = [" ".join(n.split()) for n in names]
    rows: dict[str, dict[str, str]] = {}
    current: dict[str, str] = {}
    for line in lines:
        if not line.startswith("│"):
            continue
        cells = [c.strip() for c in line.split("│")[1:-1]]
        if cells[names.index("id")]:
            current = rows[cells[names.index("id")]] = dict.fromkeys(names, "")
        for name, cell in zip(names, cells):
            current[name] = " ".join(filter(None, [current[name], cell]))
    return rows
