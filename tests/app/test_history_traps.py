"""The history features without traps: part of a command can't be retracted alone, an
amendment can itself be amended, corrected events are told under the round they stand in,
and open conflicts stay in view."""

from __future__ import annotations

import pytest
from click.testing import CliRunner

from combat.app.application import Encounters
from combat.cli import cli
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.kernel.commands import EndTurn
from combat.kernel.errors import RuleError
from combat.kernel.events import TurnStarted
from projections.narrative import narrate
from tests.app.helpers import fight


def test_retracting_only_the_turn_start_of_an_end_turn_is_refused_and_whole_takes_the_command(encounters):
    """Retracting only a TurnStarted left a fight with nobody's turn and no command to move
    it on: a command's events are retracted together, or not at all."""
    eid = fight(encounters)
    ended = encounters.execute(eid, EndTurn(combatant="aria"))
    [goblin_turn] = [r.seq for r in ended.records if isinstance(r.event, TurnStarted)]
    version = encounters.state(eid).version

    with pytest.raises(RuleError) as caught:
        encounters.retract(eid, [goblin_turn], reason="the goblin's turn came too soon")
    assert caught.value.code == "retract/part-of-command"
    assert ", ".join(str(r.seq) for r in ended.records) in caught.value.allowed
    assert encounters.state(eid).version == version  # nothing appended

    outcome = encounters.retract(eid, [goblin_turn], reason="the goblin's turn came too soon", whole=True)
    assert outcome.records[0].event.seqs == tuple(r.seq for r in ended.records)
    assert encounters.state(eid).turn == "aria"


def test_an_amended_ruling_is_amended_again_through_its_corrected_events(encounters):
    """The GM corrects a damage roll to 3, then to 4: the second amendment replaces the first
    one's corrected events, decided where the attack first stood."""
    eid = fight(encounters)
    hit = encounters.execute(eid, Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(6,)))
    encounters.execute(eid, EndTurn(combatant="aria"))
    first = encounters.amend(
        eid,
        [r.seq for r in hit.records],
        Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(3,)),
        reason="it was a 3",
    )
    assert encounters.state(eid).combatants["goblin"].hp == 10 - 6

    amendment_seq = first.records[0].seq  # naming the amendment itself works too
    encounters.amend(
        eid, [amendment_seq], Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(4,)), reason="no, a 4"
    )

    state = encounters.state(eid)
    assert state.combatants["goblin"].hp == 10 - 7
    assert state.turn == "goblin" and not state.conflicts
    attacks = [r for r in encounters.records(eid) if isinstance(r.event, AttackMade) and r.seq not in state.retracted]
    assert [a.event.damage for a in attacks] == [7]


def test_a_ruling_amended_a_round_later_is_told_under_the_round_it_stands_in(encounters):
    """Corrected events take effect where the replaced ones stood, so the narrative tells
    them under round 1 even when the GM corrects them in round 2."""
    eid = fight(encounters, goblin_hp=30)
    hit = encounters.execute(eid, Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(6,)))
    for who in ("aria", "goblin", "orc"):
        encounters.execute(eid, EndTurn(combatant=who))
    assert encounters.state(eid).round == 2
    encounters.amend(
        eid, [hit.records[0].seq], Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(2,)), reason="it was a 2"
    )

    records = list(encounters.records(eid))
    lines = dict(zip((r.seq for r in records), narrate(records)))
    corrected = [seq for seq, line in lines.items() if "in place of" in line]
    assert corrected and all(lines[seq].startswith("Round 1 - ") for seq in corrected)
    assert lines[max(lines)].startswith("Round 1 - ")  # the last corrected event, told in round 1
    assert lines[corrected[0] - 1].startswith("Round 2 - Amended")


def test_open_conflicts_show_in_combat_show_until_overridden(tmp_path):
    """After a changed past, the conflict is listed under the table on every `combat show`
    until the GM resolves it."""
    db = str(tmp_path / "t.db")
    encounters = Encounters(db)
    eid = fight(encounters, goblin_hp=7)
    killing = encounters.execute(eid, Attack(attacker="aria", target="goblin", faces=(11,), damage_faces=(6,)))
    encounters.execute(eid, EndTurn(combatant="aria"))
    orc_turn = encounters.state(eid).version
    encounters.amend(
        eid, [killing.records[0].seq], Attack(attacker="aria", target="goblin", faces=(11,), cover="half"), reason="half cover"
    )
    encounters.close()

    runner = CliRunner()
    shown = runner.invoke(cli, ["show", str(eid), "--db", db], catch_exceptions=False).output
    assert f"conflict at seq {orc_turn}" in shown and "skipped" in shown
    again = runner.invoke(cli, ["show", eid.hex[:8], "--db", db], catch_exceptions=False).output
    assert f"conflict at seq {orc_turn}" in again
    runner.invoke(
        cli, ["override", str(eid), str(orc_turn), "--ruling", "the orc went anyway", "--db", db], catch_exceptions=False
    )
    after = runner.invoke(cli, ["show", str(eid), "--db", db], catch_exceptions=False).output
    assert "conflict at seq" not in after
