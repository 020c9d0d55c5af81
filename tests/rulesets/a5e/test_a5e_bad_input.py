"""a5e bad input found by fuzzing (tests/kernel/test_fuzz_deciders.py): each was accepted or
crashed, and is now a RuleError with a stable code that appends nothing."""

import pytest

from combat.common.commands import Damage
from combat.fivee.dying import DeathSave
from combat.kernel.commands import EndTurn, Ruling
from combat.kernel.errors import RuleError
from combat.kernel.events import RulingMade
from combat.rulesets.a5e.actions import FreeAction
from combat.rulesets.a5e.sprint import Sprint
from tests.helpers import Table, monster, pc, stored_fight, turn_of
from tests.rulesets.a5e.helpers import fight


@pytest.mark.parametrize(
    "settings, allowed",
    [
        ({"world_actions_per_round": "one"}, "a whole number, such as the default 1"),
        ({"world_actions_per_round": True}, "a whole number, such as the default 1"),
        ({"recharge_roll_after_use": "no"}, "true or false, such as the default true"),
        ({"surprised_bonus_action": 0}, "true or false, such as the default false"),
    ],
)
def test_a_setting_of_the_wrong_kind_is_refused_when_the_encounter_is_created(settings, allowed):
    """Settings are read as the kind of their default: `"no"` was taken as a yes (a
    non-empty string is true), and `"one"` world actions a round crashed the second world
    action of a round (`used >= "one"` raised TypeError)."""
    with pytest.raises(RuleError) as caught:
        Table("a5e", settings=settings)
    assert caught.value.code == "settings/invalid"
    assert caught.value.allowed == allowed


def test_an_unconscious_character_takes_no_free_action_on_its_turn():
    """'An incapacitated creature cannot take actions, bonus actions, or reactions', nor the free
    actions of a turn such as communicating. An unconscious character's turn still comes round,
    and `{"type": "free_action", "combatant": "lyra", ...}` was accepted there, which the
    history's own check then reported as a conflict on every replay."""
    t = fight(pc("aria"), pc("lyra"), monster("bandit"))
    t.do(Damage(target="lyra", amount=20, damage_type="fire"))
    turn_of(t, "lyra")
    assert t["lyra"].status == "unconscious"
    t.rejects(FreeAction(combatant="lyra", description="casts Healing Word on Lyra"), "combatant/incapacitated")
    t.do(DeathSave(combatant="lyra", faces=(11,)))
    t.do(EndTurn(combatant="lyra"))


def test_a_sprint_that_costs_fatigue_still_stands_when_the_history_is_checked_again(encounters):
    """'Each turn you Sprint after that, you make a Constitution (Athletics) check ... or you
    suffer a level of fatigue': the failed check does not stop this sprint. The fatigue was
    recorded before the sprint, so after any undo the history's check ('You cannot Sprint if
    you are suffering from one or more levels of fatigue') reported this very sprint."""
    eid = stored_fight(encounters, "sprint", (pc("aria"), monster("goblin")), {"aria": 15, "goblin": 5}, seed=3, ruleset="a5e")
    encounters.execute(eid, Ruling(text="the floor is slick with flour"))
    sprint = encounters.execute(eid, Sprint(combatant="aria", con_modifier=0, faces=(1,)))
    assert [type(r.event).__name__ for r in sprint.records][-2:] == ["Sprinted", "ConditionApplied"]
    assert sprint.state.combatants["aria"].has("fatigue")
    ruling = [r.seq for r in encounters.records(eid) if isinstance(r.event, RulingMade)]
    undone = encounters.retract(eid, ruling, reason="no flour after all")
    assert undone.state.conflicts == ()
