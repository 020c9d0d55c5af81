"""Undo, redo, amended rulings, conflicts, forks and the audit: the past changes only by appending."""

from __future__ import annotations

import pytest

from combat.app.history import replay
from combat.common.commands import ApplyCondition, SavingThrow
from combat.common.events import CombatantDowned
from combat.fivee.action_commands import Move, TakeAction
from combat.fivee.action_events import Moved
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.fivee.gm_edit_commands import GrantAction
from combat.kernel.commands import EndTurn
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionSpec, EventsRetracted
from projections.audit import audit
from tests.app.helpers import fight
from tests.helpers import amended_then_overridden, redone


def _seqs_of(outcome, kind):
    return [r.seq for r in outcome.records if isinstance(r.event, kind)]


def test_an_undone_attack_gives_back_the_hp_and_the_action_and_the_audit_keeps_it(encounters):
    """'An undo appends an event that retracts earlier events ... the audit keeps both.'"""
    eid = fight(encounters)
    before = encounters.state(eid)
    hit = encounters.execute(eid, Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(6,)))
    assert encounters.state(eid).combatants["goblin"].hp == 1
    assert encounters.state(eid).combatants["aria"].economy.attacks_left == 1

    undo = encounters.undo_last(eid, reason="the goblin was behind the door")

    state = encounters.state(eid)
    assert state.combatants["goblin"].hp == 10
    assert state.combatants["aria"].economy == before.combatants["aria"].economy
    assert state.retracted == tuple(r.seq for r in hit.records)
    [retraction] = undo.records
    assert isinstance(retraction.event, EventsRetracted) and retraction.event.reason == "the goblin was behind the door"
    report = audit(encounters.records(eid))
    attack_entry = next(e for e in report.entries if e.type == "AttackMade")
    assert not attack_entry.counts and attack_entry.retracted_by == retraction.seq
    assert report.changes[0].touched == retraction.event.seqs and report.changes[0].reason == "the goblin was behind the door"


def test_undoing_the_undo_brings_the_attack_back(encounters):
    eid = fight(encounters)
    attack = Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(6,))
    hit_state, state = redone(encounters, eid, attack, "the ruling stands after all")  # only the first undo stays retracted
    assert state.combatants == hit_state.combatants


def test_a_retraction_names_events_by_seq_and_refuses_what_cannot_be_retracted(encounters):
    eid = fight(encounters)
    outcome = encounters.execute(eid, Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(6,)))
    version = encounters.state(eid).version
    for seqs, code in (([1], "retract/seq"), ([version + 5], "retract/seq"), ([], "retract/nothing")):
        with pytest.raises(RuleError) as caught:
            encounters.retract(eid, seqs, reason="test")
        assert caught.value.code == code
    with pytest.raises(RuleError):
        encounters.retract(eid, [version], reason="   ")
    encounters.retract(eid, [r.seq for r in outcome.records], reason="wrong target")
    with pytest.raises(RuleError) as caught:
        encounters.retract(eid, [outcome.records[0].seq], reason="again")
    assert caught.value.code == "retract/already"
    assert encounters.state(eid).version == version + 1


def test_an_amended_damage_roll_changes_hp_and_reports_what_no_longer_fits(encounters):
    """The GM rules the goblin had half cover after the fact: Aria's 16 no longer hits AC 17,
    the goblin lives, and its skipped turn is listed as a conflict until the GM resolves it."""
    eid = fight(encounters, goblin_hp=7)
    killing = encounters.execute(eid, Attack(attacker="aria", target="goblin", faces=(11,), damage_faces=(6,)))
    assert _seqs_of(killing, CombatantDowned)
    encounters.execute(eid, EndTurn(combatant="aria"))  # the goblin is dead: the orc is next
    assert encounters.state(eid).turn == "orc"
    orc_turn = encounters.state(eid).version

    amended = encounters.amend(
        eid,
        [killing.records[0].seq],
        Attack(attacker="aria", target="goblin", faces=(11,), cover="half"),
        reason="the goblin had half cover",
    )

    state = encounters.state(eid)
    assert state.combatants["goblin"].hp == 7 and state.combatants["goblin"].status == "active"
    corrected = [r.event for r in amended.records if isinstance(r.event, AttackMade)]
    assert corrected[0].total == 16 and corrected[0].target_ac == 17 and not corrected[0].hit
    assert [c.seq for c in state.conflicts] == [orc_turn]
    assert "Goblin is alive now but its turn was skipped" in state.conflicts[0].problem

    amended_then_overridden(encounters, eid, orc_turn, "the goblin played dead and loses its turn")


def test_a_condition_amended_to_stunned_blocks_the_attack_it_came_before_as_it_would_block_one_now(encounters):
    """'Stunned ... Incapacitated': an Incapacitated creature 'can't take any action'. The GM
    wrote down Charmed for the glare that met Aria and amends it to Stunned: her swing that
    followed is listed, and the swing she would make now is refused, both for being Stunned."""
    eid = fight(encounters)
    glare = encounters.execute(eid, ApplyCondition(target="aria", condition=ConditionSpec(name="charmed", source="goblin")))
    swing = encounters.execute(eid, Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(3,)))

    encounters.amend(
        eid,
        [glare.records[0].seq],
        ApplyCondition(target="aria", condition=ConditionSpec(name="stunned", source="goblin")),
        reason="the glare stuns",
    )

    state = encounters.state(eid)
    assert [(c.seq, c.problem) for c in state.conflicts] == [
        (_seqs_of(swing, AttackMade)[0], "Aria is stunned now and could not attack")
    ]
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(3,)))
    assert (refused.value.code, refused.value.message) == ("combatant/incapacitated", "Aria is stunned and cannot attack")


def test_a_dash_amended_to_a_dodge_leaves_the_long_run_after_it_beyond_her_speed_in_the_moves_own_words(encounters):
    """'On your turn, you can move a distance equal to your Speed or less.' Aria (Speed 30)
    Dashed and ran 50 ft; the GM amends the Dash to a Dodge. The run is listed, in the very words
    the same run is refused with once the GM takes it back: one predicate says both."""
    eid = fight(encounters)
    dash = encounters.execute(eid, TakeAction(combatant="aria", action="dash"))
    run = encounters.execute(eid, Move(combatant="aria", feet=50))

    encounters.amend(eid, [dash.records[0].seq], TakeAction(combatant="aria", action="dodge"), reason="she dodged, not dashed")

    state = encounters.state(eid)
    assert [(c.seq, c.problem) for c in state.conflicts] == [(_seqs_of(run, Moved)[0], "Aria has 30 ft of movement left, not 50")]
    encounters.retract(eid, [r.seq for r in run.records], reason="she could not have run that far")
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, Move(combatant="aria", feet=50))
    assert (refused.value.code, refused.value.message) == ("economy/movement", "Aria has 30 ft of movement left, not 50")


def test_an_action_surge_taken_back_leaves_the_second_action_spent_twice_in_the_actions_own_words(encounters):
    """'On your turn, you can ... take one action.' Aria attacked twice, then Action Surge gave
    her a second action and she Dodged with it; the GM takes back the Surge. The Dodge is listed
    in the very words a second action is refused with now."""
    eid = fight(encounters)
    encounters.execute(eid, Attack(attacker="aria", target="orc", faces=(2,)))
    encounters.execute(eid, Attack(attacker="aria", target="orc", faces=(2,)))
    surge = encounters.execute(eid, GrantAction(combatant="aria", kind="action", reason="Action Surge"))
    dodge = encounters.execute(eid, TakeAction(combatant="aria", action="dodge"))

    encounters.retract(eid, [r.seq for r in surge.records], reason="no Action Surge left")

    state = encounters.state(eid)
    assert [(c.seq, c.problem) for c in state.conflicts] == [(dodge.records[0].seq, "Aria has already used its action this turn")]
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, TakeAction(combatant="aria", action="dodge"))
    assert (refused.value.code, refused.value.message) == ("economy/action-spent", "Aria has already used its action this turn")


def test_retracting_a_combatants_arrival_makes_its_later_deeds_conflicts(encounters):
    eid = fight(encounters)
    encounters.execute(eid, Attack(attacker="aria", target="orc", faces=(15,), damage_faces=(3,)))
    added_orc = 4
    encounters.retract(eid, [added_orc], reason="the orc was never there")
    state = encounters.state(eid)
    assert "orc" not in state.combatants
    assert state.conflicts and all("orc" in c.problem for c in state.conflicts)


def test_a_fork_starts_from_the_original_at_that_seq_and_leaves_the_original_untouched(encounters):
    eid = fight(encounters)
    fork_at = encounters.state(eid).version
    encounters.execute(eid, Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(6,)))
    original = encounters.state(eid)

    fork = encounters.fork(eid, fork_at, name="what if Aria waits")

    branched = encounters.state(fork)
    at_n = encounters.state(eid, at=fork_at)
    assert branched.combatants == at_n.combatants and branched.turn == at_n.turn and branched.rolls == at_n.rolls
    first = next(iter(encounters.records(fork))).event
    assert first.forked_from == str(eid) and first.forked_at == fork_at
    encounters.execute(fork, EndTurn(combatant="aria"))
    assert encounters.state(fork).turn == "goblin"
    assert encounters.state(eid) == original


def test_a_fork_skips_what_was_undone_before_its_seq(encounters):
    eid = fight(encounters)
    encounters.execute(eid, Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(6,)))
    encounters.undo_last(eid, reason="misclick")
    fork = encounters.fork(eid, encounters.state(eid).version)
    assert encounters.state(fork).combatants == encounters.state(eid).combatants
    assert not any(isinstance(r.event, (AttackMade, EventsRetracted)) for r in encounters.records(fork))


def test_time_travel_gives_the_state_at_any_seq(encounters):
    eid = fight(encounters)
    encounters.execute(eid, Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(6,)))
    records = list(encounters.records(eid))
    for n in range(1, len(records) + 1):
        assert encounters.state(eid, at=n) == replay(records[:n])
    assert encounters.state(eid, at=2).phase == "setup"


def test_the_dice_audit_counts_only_effective_rolls_and_lists_the_undone_ones(encounters):
    """An undone roll is still in the audit's list of rolls, but the fairness counts take each
    die that stands once: three undone 20s do not make Aria's die look loaded."""
    eid = fight(encounters)
    for _ in range(3):
        encounters.execute(eid, Attack(attacker="aria", target="orc", faces=(20,), damage_faces=(1, 1)))
        encounters.undo_last(eid, reason="the table doubts those 20s")
    report = audit(encounters.records(eid))
    aria = next(d for d in report.dice if d.roller == "Aria")
    assert aria.d20s == 1 and aria.entered == 1 and aria.faces[19] == 0 and aria.faces[17] == 1
    undone = [r for r in report.rolls if not r.counts]
    assert [r.faces for r in undone] == [(20,), (1, 1)] * 3
    assert all(r.source == "entered" for r in report.rolls)


def test_the_dice_audit_judges_fairness_only_from_enough_rolls(encounters):
    """Pearson's chi-square needs every face expected 5 times (100 d20s): below that no
    p-value is given; from there on a die that rolls 20 half the time is called unlikely."""
    from projections.audit import MIN_ROLLS_FOR_FAIRNESS

    eid = fight(encounters)
    initiative = next(d for d in audit(encounters.records(eid)).dice if d.roller == "Aria").d20s
    for i in range(MIN_ROLLS_FOR_FAIRNESS - 1 - initiative):
        encounters.execute(eid, SavingThrow(combatant="aria", ability="dex", dc=10, faces=(20 if i % 2 else 1 + i % 19,)))
    few = next(d for d in audit(encounters.records(eid)).dice if d.roller == "Aria")
    assert few.d20s == MIN_ROLLS_FOR_FAIRNESS - 1 and few.p_value is None
    encounters.execute(eid, SavingThrow(combatant="aria", ability="dex", dc=10, faces=(20,)))
    enough = next(d for d in audit(encounters.records(eid)).dice if d.roller == "Aria")
    assert enough.d20s == MIN_ROLLS_FOR_FAIRNESS and enough.p_value is not None and enough.p_value < 0.001


def test_a_fork_outside_the_log_is_refused(encounters):
    eid = fight(encounters)
    for at in (0, -3, encounters.state(eid).version + 1):
        with pytest.raises(RuleError) as caught:
            encounters.fork(eid, at)
        assert caught.value.code == "fork/at"
