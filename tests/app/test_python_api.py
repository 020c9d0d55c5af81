"""The Python API as a notebook or bot uses it: the docs' example runs as written and prints
what the page shows; a store on disk is shared with the CLI; a bad log line is a RuleError."""

from __future__ import annotations

import contextlib
import io
import re

import pytest

from combat.api import RuleError, Table, replay
from tests.helpers import DOCS, REPLAYS

PAGE = DOCS / "python.md"


def test_the_documented_example_runs_and_prints_what_the_page_shows(tmp_path, monkeypatch):
    """'On a hit, you roll damage': 1d8+4 with a 3 is 7, so the 10-HP goblin has 3 left."""
    text = PAGE.read_text()
    example = re.search(r"```python\n(.*?)```", text, re.S).group(1)  # type: ignore[union-attr]
    shown = re.search(r"It prints:\n\n```text\n(.*?)```", text, re.S).group(1)  # type: ignore[union-attr]
    monkeypatch.chdir(tmp_path)
    printed = io.StringIO()
    with contextlib.redirect_stdout(printed):
        exec(compile(example, str(PAGE), "exec"), {})
    assert printed.getvalue() == shown


def test_a_table_in_a_file_is_the_one_the_cli_reads(tmp_path):
    db = tmp_path / "combat.db"
    with Table.new("a5e", "Burning mill", seed=3, db=db) as made:
        made.do('{"type": "set_scene"}')
        encounter = made.id
    with Table.open(str(encounter), db=db) as opened:
        assert opened.view()["name"] == "Burning mill" and opened.state.ruleset == "a5e"
        assert next(line["type"] for line in opened.log()) == "EncounterCreated"
        assert opened.narrative()[0].startswith("Encounter 'Burning mill'")


def test_opening_an_unknown_encounter_or_a_bad_log_is_refused_clearly(tmp_path):
    with pytest.raises(RuleError) as unknown:
        Table.open("00000000-0000-0000-0000-000000000001", db=tmp_path / "x.db")
    assert unknown.value.code == "encounter/unknown"
    bad = tmp_path / "bad.jsonl"
    bad.write_text('{"seq": 1, "type": "Nonsense"}\n')
    with pytest.raises(RuleError) as unreadable:
        replay(bad)
    assert unreadable.value.code == "log/bad-line"


def test_undo_gives_back_what_the_last_command_did():
    """An undone attack gives back the HP it took."""
    with Table.new(seed=1) as table:
        table.do(
            {
                "type": "add_combatant",
                "combatant": {"id": "aria", "name": "Aria", "kind": "pc", "side": "party", "max_hp": 20, "ac": 15},
            }
        )
        table.do(
            {
                "type": "add_combatant",
                "combatant": {"id": "orc", "name": "Orc", "kind": "monster", "side": "orcs", "max_hp": 15, "ac": 13},
            }
        )
        table.do({"type": "begin_combat"})
        table.do({"type": "roll_initiative"})  # the service rolls for both
        table.do({"type": "damage", "target": "orc", "damage_type": "fire", "amount": 6})
        assert table.view()["combatants"]["orc"]["hp"] == 9
        undone = table.undo("it was the other orc")
        assert undone[-1]["type"] == "EventsRetracted" and table.view()["combatants"]["orc"]["hp"] == 15
        assert len(table.log(after=undone[-1]["seq"] - 1)) == 1


def test_replay_reads_lines_and_stops_at_a_seq():
    log = sorted(REPLAYS.glob("srd-2024-*.jsonl"))[0]
    replayed = replay(log.read_bytes().splitlines())
    assert replayed.view(at=1)["phase"] == "setup" and replayed.view()["phase"] == "ended"
