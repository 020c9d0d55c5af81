"""declared-d10: opposition rolls and timer dice."""

from __future__ import annotations

from types import SimpleNamespace

from combat.kernel.commands import EndTurn
from combat.kernel.events import DiceRolled
from combat.rulesets.declared_d10.opposition import D10OpposedRoll, D10OppositionRolled
from combat.rulesets.declared_d10.state import D10Traits
from combat.rulesets.declared_d10.timers import D10StartTimer, D10TimerFired, D10TimerStarted
from combat.rulesets.declared_d10.wounds import D10Damage
from projections.narrative import Narrator
from tests.helpers import of_type
from tests.rulesets.declared_d10.helpers import duel, play_round

EVERYONE_PARRIES = {"tammy": ("parry_dodge", None), "ogre": ("parry_dodge", None)}


def opposed(t, a_face: int, b_face: int) -> D10OppositionRolled:
    events = t.do(
        D10OpposedRoll(
            what="shutting the door before the ogre gets through",
            a="tammy",
            b="ogre",
            a_bonus=2,
            b_bonus=4,
            a_faces=(a_face,),
            b_faces=(b_face,),
        )
    )
    [rolled] = of_type(events, D10OppositionRolled)
    return rolled


def test_in_an_opposition_roll_the_higher_roll_wins():
    """'Opposition rolls are used for things like shutting the door before the enemy gets through
    and the higher roll wins.'"""
    t = duel()
    rolled = opposed(t, 15, 10)
    assert (rolled.a_total, rolled.b_total, rolled.winner) == (17, 14, "tammy")
    assert opposed(t, 5, 10).winner == "ogre"


def test_a_tied_opposition_roll_is_won_by_neither():
    """Where the text is silent: a tie means what was attempted does not happen."""
    t = duel()
    rolled = opposed(t, 12, 10)
    assert (rolled.a_total, rolled.b_total, rolled.winner) == (14, 14, None)


def test_a_table_can_apply_the_wound_penalty_to_opposed_rolls_too():
    """'-2 penalty to hit (GM determines if this penalty applies to other actions during combat)':
    setting half_hp_penalty_on_all_rolls."""
    for setting, notation in ((False, "1d20+2"), (True, "1d20+2-2")):
        t = duel(settings={"half_hp_penalty_on_all_rolls": setting})
        t.do(D10Damage(targets=("tammy",), amount=10))
        opposed(t, 12, 10)
        assert of_type(t.events, DiceRolled)[-2].notation == notation


def test_a_timer_die_counts_rounds_down_in_the_state_and_the_log_says_when_it_fires():
    """'Timer dice: roll the die determined by the GM and that is the number of rounds until
    something happens like the ceiling collapses'. Rolled 3 in round 1: it fires as round 3 ends."""
    t = duel()
    [started] = of_type(t.do(D10StartTimer(what="the ceiling collapses", die="1d6", faces=(3,))), D10TimerStarted)
    assert (started.timer, started.rounds) == ("timer-1", 3)
    left = []
    fired_in = None
    for _ in range(3):
        play_round(t, EVERYONE_PARRIES, {"party": 5, "monsters": 1})
        t.do(EndTurn(combatant="tammy"))
        events = t.do(EndTurn(combatant="ogre"))
        left.append(t.state.rules.timers[0].rounds_left)
        if of_type(events, D10TimerFired):
            fired_in = t.state.round - 1
    assert left == [2, 1, 0] and fired_in == 3
    assert t.state.rules.timers[0].fired
    [fired] = of_type(t.events, D10TimerFired)
    assert Narrator().line(SimpleNamespace(seq=1, command_id="", event=fired)) == "Timer runs out: the ceiling collapses!"


def test_a_timer_needs_to_say_what_happens():
    """A countdown to nothing helps nobody at the table."""
    t = duel(traits={"tammy": D10Traits()})
    t.rejects(D10StartTimer(what=" ", faces=(3,)), "timer/what")
