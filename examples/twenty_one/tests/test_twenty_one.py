"""Twenty-one played through the shipped harness: no store, no server, dice entered."""

from combat_twenty_one import RULESET, Count, Counted, Tally

from combat.kit import BeginCombat, DiceRolled, PhaseChanged
from combat.testing import Table


def test_a_game_is_played_to_the_end_and_whoever_says_21_loses():
    game = Table(RULESET)
    assert game.state.phase == "setup" and game.state.rules == Tally()
    for player, by in [("ann", 3), ("bo", 3), ("ann", 3), ("bo", 3), ("ann", 3), ("bo", 3), ("ann", 2)]:
        game.do(Count(player=player, by=by))
    assert game.do(Count(player="bo", by=1)) == [Counted(player="bo", total=21)]
    assert game.state.phase == "counting" and game.state.rules.said_by[-1] == "bo"
    assert game.rebuilt() == game.state  # the log folds back to what was played
    assert game.rejects(Count(player="ann", by=1), "count/over").allowed == "nothing: the game is over"


def test_a_count_of_more_than_3_or_past_21_is_refused_and_nothing_changes():
    game = Table(RULESET)
    assert game.rejects(Count(player="ann", by=4), "count/invalid").allowed == "1 to 3"
    game.given(Counted(player="bo", total=19))
    assert game.rejects(Count(player="ann", by=3), "count/invalid").allowed == "1 to 2"


def test_a_count_left_to_the_dice_rolls_a_die_no_larger_than_what_is_left():
    game = Table(RULESET)
    moved, rolled, counted = game.do(Count(player="ann", faces=(2,)))  # the first count starts the game
    assert moved == PhaseChanged(previous="setup", phase="counting")
    assert isinstance(rolled, DiceRolled) and (rolled.notation, rolled.total) == ("1d3", 2)
    assert counted == Counted(player="ann", total=2)
    game.given(Counted(player="bo", total=20))
    rolled, counted = game.do(Count(player="ann"))  # no faces: the encounter's seed rolls
    assert (rolled.notation, counted.total) == ("1d1", 21)


def test_begin_combat_is_refused_because_the_phase_table_does_not_name_it():
    game = Table(RULESET)
    assert game.rejects(BeginCombat(), "phase/not-allowed").allowed == "count, ruling"
