"""segments-1e: time in segments - default 1 segment, "no time" activities, minor actions
that add a segment, complex activities that go last, positioning."""

from combat.rulesets.segments_1e.commands import ImmediateAction, MajorAction, MinorAction, MoveTo, RoutineAttack
from combat.rulesets.segments_1e.events import AttackRoutineBegun, ImmediateActionTaken, MajorActionTaken, SegmentTurnStarted
from combat.rulesets.segments_1e.ledger import Routine, Strike
from tests.helpers import of_type
from tests.rulesets.segments_1e.helpers import done, fight, fighter, ledger, mage, orc, rec

BATTLE_AXE = Routine(name="Battle axe", strikes=(Strike(name="battle axe", damage="1d8"),), speed=7)
MORNING_STAR = Routine(name="Morning star", strikes=(Strike(name="morning star", damage="2d4"),), speed=7)


def test_an_action_takes_place_in_the_acting_segment_and_takes_one_segment():
    """'If an action or activity does not have a time component noted ... the action takes 1
    segment to complete': the fighter's swing lands in segment 3, his group's segment."""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0), d6={"party": 4, "orcs": 3})
    [swing] = of_type(t.do(RoutineAttack(attacker="hugo", target="orc", faces=(2,))), AttackRoutineBegun)
    assert swing.segment == 3


def test_a_minor_action_of_one_segment_puts_the_major_action_a_segment_later():
    """'Any minor action that requires 1 segment will add 1 segment to any major action no
    matter when the minor action is executed.'"""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0), d6={"party": 4, "orcs": 3})
    t.do(MinorAction(combatant="hugo", description="drops his shield"))
    [swing] = of_type(t.do(RoutineAttack(attacker="hugo", target="orc", faces=(2,))), AttackRoutineBegun)
    assert swing.segment == 4


def test_an_asterisked_activity_takes_no_time():
    """'[simple*] An asterisk means the activity takes no time (or adds no time to any other
    actions or activities).'"""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0), d6={"party": 4, "orcs": 3})
    t.do(MinorAction(combatant="hugo", description="shouts 'For the king!'", segments=0))
    [swing] = of_type(t.do(RoutineAttack(attacker="hugo", target="orc", faces=(2,))), AttackRoutineBegun)
    assert swing.segment == 3


def test_a_minor_action_before_the_attack_adds_one_to_weapon_speed_for_ties():
    """'if you drop a small shield before attacking with a battle axe, your weapon speed will
    be 8 instead of 7': tied in HIGH, the orc's morning star (7) now strikes first."""
    axe_fighter = fighter(routines=(BATTLE_AXE,), x=0, y=0)
    orc_ = orc(routines=(MORNING_STAR,), x=1, y=0)
    plain = fight(
        axe_fighter, orc_, d6={"party": 3, "orcs": 3}, declared={"hugo": {"action": "melee"}, "orc": {"action": "melee"}}
    )
    assert plain.state.turn == "hugo"
    shield = fight(
        axe_fighter,
        orc_,
        d6={"party": 3, "orcs": 3},
        declared={"hugo": {"action": "melee", "minor_segments": 1}, "orc": {"action": "melee"}},
    )
    [first] = of_type(shield.events, SegmentTurnStarted)
    assert first.combatant == "orc"
    done(shield, "orc")
    [_, second] = of_type(shield.events, SegmentTurnStarted)
    assert (second.combatant, second.slot.speed) == ("hugo", 8)


def test_several_minor_actions_may_be_given_a_delay_by_the_gm_only():
    """'If performing more than one minor action during the same initiative phase, the GM may
    assign a delay.'"""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0), d6={"party": 4, "orcs": 3})
    t.do(MinorAction(combatant="hugo", description="sheathes his sword"))
    t.rejects(MinorAction(combatant="hugo", description="draws a flask", gm_delay=1), "command/gm-field", actor="sam")
    t.do(MinorAction(combatant="hugo", description="draws a flask", gm_delay=2))
    assert rec(t, "hugo").added_segments == 4


def test_a_complex_activity_takes_the_round_and_goes_last():
    """'Complex Activity. [go last] (declared; major, 1 round or more) ... considered to Go
    Last': the mage in the HIGH group binds a wound in segment 10, after the LOW orc."""
    t = fight(
        fighter(x=0, y=0),
        mage(x=0, y=1),
        orc(x=1, y=0),
        d6={"party": 5, "orcs": 2},
        declared={"mira": {"action": "complex", "description": "binds Hugo's wounds"}},
    )
    done(t, "hugo")
    assert (t.state.phase, t.state.turn) == ("low", "orc")
    done(t, "orc")
    assert (t.state.turn, ledger(t).segment) == ("mira", 10)
    [bind] = of_type(t.do(MajorAction(combatant="mira", description="binds Hugo's wounds")), MajorActionTaken)
    assert bind.segment == 10


def test_one_major_action_a_round():
    """'Each round, during combat, a creature has an opportunity to accomplish 1 major task.'"""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0, hp=30), d6={"party": 4, "orcs": 3})
    t.do(RoutineAttack(attacker="hugo", target="orc", faces=(2,)))
    t.rejects(RoutineAttack(attacker="hugo", target="orc", faces=(20,)), "action/major-used")
    t.rejects(MajorAction(combatant="hugo", description="kicks the door"), "action/major-used")


def test_positioning_of_ten_feet_comes_after_the_major_action():
    """'Positioning movement of 10-ft. or less is a minor action but can only be done after a
    major action and cannot be done in melee'."""
    t = fight(fighter(x=0, y=0), orc(x=5, y=0), d6={"party": 4, "orcs": 3}, declared={"hugo": {"action": "other"}})
    t.rejects(MoveTo(combatant="hugo", x=2, y=0, positioning=True), "move/positioning-before-major")
    t.do(MajorAction(combatant="hugo", description="lights a torch"))
    t.rejects(MoveTo(combatant="hugo", x=3, y=0, positioning=True), "move/too-far")
    t.do(MoveTo(combatant="hugo", x=2, y=0, positioning=True))
    assert (rec(t, "hugo").x, rec(t, "hugo").y) == (2, 0)


def test_positioning_is_never_done_in_melee():
    t = fight(fighter(x=0, y=0), orc(x=1, y=0, hp=30), d6={"party": 4, "orcs": 3})
    t.do(RoutineAttack(attacker="hugo", target="orc", faces=(2,)))
    t.rejects(MoveTo(combatant="hugo", x=0, y=2, positioning=True), "move/positioning-in-melee")


def test_movement_beyond_positioning_is_the_major_action():
    """'movement is otherwise normally a major action'."""
    t = fight(fighter(x=0, y=0), orc(x=20, y=0), d6={"party": 4, "orcs": 3})
    t.do(MoveTo(combatant="hugo", x=8, y=0))
    assert rec(t, "hugo").major_used
    t.rejects(RoutineAttack(attacker="hugo", target="orc"), "action/major-used")


def test_an_immediate_action_takes_no_time_and_comes_at_any_moment():
    """'These actions take no time, do not need to be declared, can happen anytime during the
    round (even during fast actions or during another group's initiative)'."""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0), d6={"party": 2, "orcs": 5})
    assert t.state.turn == "orc"
    [taken] = of_type(
        t.do(ImmediateAction(combatant="hugo", description="raises his shield at the war cry")), ImmediateActionTaken
    )
    assert taken.segment == 2 and not rec(t, "hugo").major_used and t.state.turn == "orc"
