"""segments-1e: surprise with the first-edition defaults (rules README, 'Defaults where
segmented-1e-rounds.txt is silent')."""

import pytest

from combat.kernel.commands import BeginCombat
from combat.rulesets.segments_1e.commands import CheckSurprise, FreeAttack, MinorAction, MoveTo, RoutineAttack
from combat.rulesets.segments_1e.events import SegmentTurnStarted, SurpriseChecked, SurpriseSettled
from tests.helpers import of_type
from tests.rulesets.segments_1e.helpers import begin, done, fighter, ledger, mage, orc, rec, table


@pytest.mark.parametrize("face, segments", [(1, 1), (2, 2), (3, 0), (6, 0)])
def test_a_side_rolling_1_or_2_on_its_d6_is_surprised_for_that_many_segments(face, segments):
    """'each side rolls d6 once at the start; a 1 means surprised for one segment, a 2 for
    two segments, 3-6 not surprised'."""
    t = table(fighter(), orc())
    t.do(BeginCombat())
    [checked] = of_type(t.do(CheckSurprise(side="orcs", faces=(face,))), SurpriseChecked)
    assert (checked.roll, checked.segments) == (face, segments)


def test_a_creature_that_surprises_on_1_to_3_widens_the_range_for_its_foes():
    """'a creature that "surprises on 1-3" extends that range': the party's 3 is three segments."""
    t = table(fighter(), orc("bugbear", surprises_on=3))
    t.do(BeginCombat())
    [checked] = of_type(t.do(CheckSurprise(side="party", faces=(3,))), SurpriseChecked)
    assert (checked.surprised_on, checked.segments) == (3, 3)


def test_a_dexterity_surprise_bonus_cancels_segments_for_that_individual_only():
    """'a Dexterity surprise bonus cancels surprise segments for that individual'."""
    t = table(fighter(), mage("elf", dex_surprise=1), orc())
    events = begin(t, party=2, orcs=5).events
    [settled] = of_type(events, SurpriseSettled)
    assert settled.segments == {"hugo": 2, "elf": 1}
    assert settled.cancelled == {"elf": 1}
    assert t["hugo"].has("surprised") and t["elf"].has("surprised")


def test_a_dexterity_surprise_bonus_never_creates_surprise():
    """'... but never creates surprise': nobody surprised, so round 1 begins at once."""
    t = begin(table(fighter(), mage("elf", dex_surprise=3), orc()), party=4, orcs=5)
    assert (t.state.phase, t.state.round) == ("declare", 1)
    assert of_type(t.events, SurpriseSettled)[0].window == 0


def test_the_unsurprised_act_in_the_surprise_segments_and_the_surprised_wait():
    """'the side that is not surprised acts in the surprise segments'."""
    t = begin(table(fighter(x=0, y=0), orc(x=1, y=0), orc("orc-2", x=1, y=1)), orcs=2)
    assert (t.state.phase, ledger(t).segment, t.state.turn) == ("surprise_segments", 1, "hugo")
    done(t, "hugo")
    assert (ledger(t).segment, t.state.turn) == (2, "hugo")
    done(t, "hugo")
    assert (t.state.phase, t.state.round) == ("declare", 1)
    actors = {e.combatant for e in of_type(t.events, SegmentTurnStarted)}
    assert actors == {"hugo"}
    assert not t["orc"].has("surprised")


def test_when_both_sides_are_surprised_only_the_difference_is_played():
    """Both surprised: in segment 1 nobody acts; in segment 2 the side surprised for one acts."""
    t = begin(table(fighter(x=0, y=0), orc(x=3, y=0)), party=1, orcs=2)
    assert (ledger(t).segment, t.state.turn) == (2, "hugo")
    assert not t["hugo"].has("surprised") and t["orc"].has("surprised")


def test_only_an_action_that_fits_in_one_segment_is_done_in_each_surprise_segment():
    """'only actions that fit in one segment can be done in each': one attack, then nothing
    that takes time until the next surprise segment (no-time actions are still fine)."""
    t = begin(table(fighter(x=0, y=0), orc(x=1, y=0, hp=20)), orcs=2)
    t.do(RoutineAttack(attacker="hugo", target="orc", faces=(3,)))
    t.rejects(MinorAction(combatant="hugo", description="draws a dagger"), "surprise/segment-used")
    t.rejects(MoveTo(combatant="hugo", x=0, y=1), "surprise/segment-used")
    t.do(MinorAction(combatant="hugo", description="shouts a warning", segments=0))
    done(t, "hugo")
    t.do(RoutineAttack(attacker="hugo", target="orc", faces=(4,)))
    assert rec(t, "hugo").segment_used == 2


def test_a_surprised_creature_cannot_make_a_free_attack():
    """'Creatures with the surprised condition cannot make free attacks.' The fighter steps
    out of melee during the orc's surprise segment."""
    t = begin(table(fighter(x=0, y=0), orc(x=1, y=0)), orcs=1)
    t.do(MoveTo(combatant="hugo", x=0, y=2))
    assert ("orc", "hugo") in ledger(t).openings
    t.rejects(FreeAttack(attacker="orc", target="hugo", faces=(20,)), "free-attack/surprised")
