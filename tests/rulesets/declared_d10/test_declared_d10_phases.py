"""declared-d10: the phase machine, and the helpers the other declared-d10 scenarios share."""

from __future__ import annotations

from collections.abc import Mapping

from click.testing import CliRunner

from combat.cli import cli
from combat.kernel.commands import BeginCombat
from combat.kernel.events import AttackProfile, CombatantSpec, PhaseChanged
from combat.rulesets.declared_d10.declarations import D10CloseDeclarations, D10Declare
from combat.rulesets.declared_d10.initiative import D10RollGroupInitiative
from combat.rulesets.declared_d10.state import D10Traits
from combat.rulesets.declared_d10.surprise import D10StartNormalRound
from combat.rulesets.declared_d10.traits import D10SetTraits
from tests.conftest import Table, monster, of_type, pc

SWORD = AttackProfile(name="Sword", bonus=5, damage="1d6", damage_type="slashing")
BOW = AttackProfile(name="Longbow", bonus=6, damage="1d8", damage_type="piercing", kind="ranged")
CLUB = AttackProfile(name="Club", bonus=4, damage="1d6", damage_type="bludgeoning")


def d10_table(*specs: CombatantSpec, settings: dict | None = None, traits: Mapping[str, D10Traits] | None = None) -> Table:
    t = Table(ruleset="declared-d10", settings=settings)
    t.add(*specs)
    for cid, tr in (traits or {}).items():
        t.do(D10SetTraits(combatant=cid, traits=tr))
    return t


def open_normal_round(t: Table) -> Table:
    t.do(BeginCombat())
    t.do(D10StartNormalRound())
    return t


def play_round(t: Table, declared: Mapping[str, tuple[str, str | None]], initiative: Mapping[str, int | tuple[int, ...]]) -> Table:
    """Declare (as the GM), lock, and roll each group's d10 with the faces given, in that order."""
    for cid, (action, target) in declared.items():
        t.do(D10Declare(combatant=cid, action=action, target=target))
    t.do(D10CloseDeclarations())
    for group, faces in initiative.items():
        t.do(D10RollGroupInitiative(group=group, faces=faces if isinstance(faces, tuple) else (faces,)))
    return t


def duel(settings: dict | None = None, traits: Mapping[str, D10Traits] | None = None, **kw) -> Table:
    """Tammy (sword) against an ogre (club), a normal round open."""
    tammy = pc("tammy", **{"player": "Ana", "attacks": (SWORD,), **kw.get("tammy", {})})
    ogre = monster("ogre", **{"max_hp": 20, "ac": 12, "attacks": (CLUB,), **kw.get("ogre", {})})
    return open_normal_round(d10_table(tammy, ogre, settings=settings, traits=traits))


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
    assert phases == [("setup", "opening"), ("opening", "declare"), ("declare", "initiative"), ("initiative", "turns"), ("turns", "declare")]
    assert t.state.round == 2 and t.state.phase == "declare"
    assert of_type(events, PhaseChanged)[-1].phase == "declare"
    assert t.rebuilt() == t.state


def test_a_fight_does_not_begin_under_a_setting_the_ruleset_cannot_play():
    """Settings are the table's choices where the text is silent; a typo is caught before round 1."""
    t = d10_table(pc("tammy"), monster("ogre"), settings={"initiative_ties": "whoever_shouts"})
    error = t.rejects(BeginCombat(), "settings/invalid")
    assert "players_first" in (error.allowed or "")
