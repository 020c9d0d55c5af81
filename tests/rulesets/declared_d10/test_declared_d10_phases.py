"""declared-d10: the phase machine (the helpers the declared-d10 scenarios share are in helpers.py)."""

from __future__ import annotations

from click.testing import CliRunner

from combat.cli import cli
from combat.kernel.commands import BeginCombat
from combat.kernel.events import PhaseChanged
from combat.rulesets.declared_d10.initiative import D10RollGroupInitiative
from tests.helpers import monster, of_type, pc
from tests.rulesets.declared_d10.helpers import d10_table, open_normal_round, play_round


def test_the_diagram_shows_a_declare_phase_before_initiative_every_round():
    """'Before Initiative is rolled for the round, each player declares their action'."""
    result = CliRunner().invoke(cli, ["diagram", "declared-d10"])
    assert result.exit_code == 0
    assert "opening --> declare: d10_roll_surprise | d10_start_normal_round" in result.output
    assert "declare --> initiative: d10_close_declarations" in result.output
    assert "turns --> declare: round_over" in result.output


def test_a_round_goes_declare_then_initiative_then_turns_and_back_to_declare():
    """'Everyone declares what they are going to do ... Initiative is rolled ... Each group takes
    their actions in order.' Then 'you start at the top of a normal round and go again'."""
    t = open_normal_round(d10_table(pc("tammy"), monster("ogre")))
    t.rejects(D10RollGroupInitiative(group="party", faces=(5,)), "phase/not-allowed")
    play_round(t, {"tammy": ("parry_dodge", None), "ogre": ("parry_dodge", None)}, {"party": 5, "monsters": 3})
    from combat.kernel.commands import EndTurn

    t.do(EndTurn(combatant="tammy"))
    events = t.do(EndTurn(combatant="ogre"))
    phases = [(e.previous, e.phase) for e in of_type(t.events, PhaseChanged)]
    assert phases == [
        ("setup", "opening"),
        ("opening", "declare"),
        ("declare", "initiative"),
        ("initiative", "turns"),
        ("turns", "declare"),
    ]
    assert t.state.round == 2 and t.state.phase == "declare"
    assert of_type(events, PhaseChanged)[-1].phase == "declare"
    assert t.rebuilt() == t.state


def test_a_fight_does_not_begin_under_a_setting_the_ruleset_cannot_play():
    """Settings are the table's choices where the text is silent; a typo is caught before round 1."""
    t = d10_table(pc("tammy"), monster("ogre"), settings={"initiative_ties": "whoever_shouts"})
    error = t.rejects(BeginCombat(), "settings/invalid")
    assert "players_first" in (error.allowed or "")
