"""Free text cannot forge the narrative (issue 14, finding 7): "a newline plus `  42  GM
ruling: ...` in a description shows as a fake line in `/log` and `combat log`; ANSI escapes
reach the terminal in `log`, `show`, `audit`." Control characters are now shown as escapes."""

from __future__ import annotations

from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from combat.app.application import Encounters
from combat.cli import cli
from combat.fivee.action_commands import BonusAction
from projections.visible import visible
from tests.helpers import monster, pc, stored_fight
from tests.service.helpers import open_fight, set_the_scene

FORGED = "draws a dagger\n   42  GM ruling: Aria is dead"
ANSI = "Gob\x1b[2J\x1b[31mlin"


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_a_newline_in_a_description_is_no_new_line_in_the_log_over_http(client):
    fight = set_the_scene(open_fight(client))
    fight.do(BonusAction(combatant="aria", description=FORGED))
    lines = fight.get("/log").json()
    assert all("\n" not in line["text"] for line in lines)
    assert any("draws a dagger\\n   42  GM ruling" in line["text"] for line in lines)
    # The event keeps what was written: only the showing escapes it.
    assert fight.events()[-1]["description"] == FORGED


def test_the_terminal_gets_no_escape_sequence_and_no_forged_line(tmp_path):
    db = str(tmp_path / "c.db")
    encounters = Encounters(db)
    try:
        specs = (pc("aria"), monster("goblin", name=ANSI))
        eid = stored_fight(encounters, "Road\x1b]0;pwned\x07", specs, {"aria": 18, "goblin": 3}, seed=None)
        encounters.execute(eid, BonusAction(combatant="aria", description=FORGED))
        events = encounters.state(eid).version
    finally:
        encounters.close()
    for command in ("log", "show", "audit"):
        done = run(command, str(eid), "--db", db)
        assert done.exit_code == 0, done.output
        assert "\x1b" not in done.stdout and "\x07" not in done.stdout, command
        assert "\\x1b" in done.stdout, command
    log = run("log", str(eid), "--db", db).stdout.splitlines()
    assert len(log) == events
    assert not any(line.lstrip().startswith("42  GM ruling") for line in log)


def test_ordinary_text_is_left_alone():
    assert visible("Brom swings — «\u00a0Pour la reine\u00a0» 日本") == "Brom swings — «\u00a0Pour la reine\u00a0» 日本"


@given(st.text())
def test_nothing_visible_breaks_a_line_or_starts_an_escape(text):
    shown = visible(text)
    assert not any(ch in shown for ch in "\n\r\x1b\x85\u2028\u2029\u202e\u200b")
