"""segments-1e bad input found by fuzzing (tests/kernel/test_fuzz_deciders.py): each crashed (a 500
over HTTP) or left the log in conflict with its own rules, and is now a RuleError with a
stable code that appends nothing."""

import pytest

from combat.kernel.commands import EndCombat
from combat.kernel.errors import RuleError
from combat.kernel.events import CombatEnded
from tests.helpers import Table
from tests.rulesets.segments_1e.helpers import begin, fighter, orc, table


@pytest.mark.parametrize("value", ["two", "", None, [2]])
def test_a_surprise_range_that_is_not_a_number_is_refused_when_the_encounter_is_created(value):
    """`surprised_on` is the d6 face up to which a side is surprised (default 2). Created
    with `{"surprised_on": "two"}` the encounter was accepted and the first surprise check
    crashed (int("two") raised ValueError)."""
    with pytest.raises(RuleError) as caught:
        Table("segments-1e", settings={"surprised_on": value})
    assert caught.value.code == "settings/invalid"
    assert "surprised_on" in caught.value.message
    assert caught.value.allowed == "a whole number, such as the default 2"


def test_a_gm_ending_the_fight_is_told_from_the_rules_ending_it_whatever_the_words():
    """Only an end the rules reached claims a side was defeated; `{"type": "end_combat",
    "winner": "party", "reason": "every foe of the party side is down"}` with the orc standing
    is the GM's ruling, marked as such, and a replay never judges it as that claim."""
    t = begin(table(fighter(), orc()))
    [ended] = [
        e for e in t.do(EndCombat(winner="party", reason="every foe of the party side is down")) if isinstance(e, CombatEnded)
    ]
    assert not ended.automatic and (t.state.phase, t.state.winner) == ("ended", "party")
