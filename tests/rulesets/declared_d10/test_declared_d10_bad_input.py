"""declared-d10 bad input found by fuzzing (tests/kernel/test_fuzz_deciders.py): each left the log in
conflict with its own rules, and is now a RuleError with a stable code that appends nothing."""

from combat.common.commands import ApplyCondition
from combat.kernel.commands import EndCombat
from combat.kernel.events import CombatEnded, ConditionSpec
from combat.rulesets.declared_d10.wounds import D10Damage
from tests.rulesets.declared_d10.helpers import tammys_turn


def test_the_gm_cannot_mark_a_lasting_wound_on_a_creature_above_one_hp():
    """'One Hit Point: lasting wound'. `{"type": "apply_condition", "target": "tammy",
    "condition": {"name": "lastingly wounded"}}` was accepted at 20 HP, and the history's
    check (a lasting wound needs 1 HP) then reported it on every replay after a change to the past."""
    t = tammys_turn()
    error = t.rejects(
        ApplyCondition(target="tammy", condition=ConditionSpec(name="lastingly wounded")), "condition/lasting-wound"
    )
    assert "20 HP" in error.message
    t.do(D10Damage(targets=("tammy",), amount=19))
    assert t["tammy"].has("lastingly wounded")


def test_a_gm_ending_the_fight_is_told_from_the_rules_ending_it_whatever_the_words():
    """Only an end the rules reached ('every foe ... is dead') claims a side was defeated; the
    GM's end_combat, even in those words with the ogre standing, is the GM's ruling."""
    t = tammys_turn()
    [ended] = [
        e
        for e in t.do(EndCombat(winner="party", reason="every foe of the party side is dead, down or has fled"))
        if isinstance(e, CombatEnded)
    ]
    assert not ended.automatic and (t.state.phase, t.state.winner) == ("ended", "party")
