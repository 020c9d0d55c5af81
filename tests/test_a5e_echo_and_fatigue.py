"""a5e: the cavernous environment's Echo on thunder damage, and recovering sprint fatigue."""

from combat.kernel.commands import Damage, EndTurn
from combat.kernel.events import ConditionEnded, DamageTaken, DiceRolled
from combat.rulesets.a5e.sprint import Sprint
from tests.conftest import monster, of_type, pc
from tests.test_a5e_turns import fight, turn_of


def test_echo_adds_a_point_per_die_to_thunder_damage_in_a_cavern():
    """Echo: 'any effect which causes thunder damage does 1 extra point of damage per die rolled.'"""
    t = fight(pc("aria"), monster("ogre", max_hp=59), monster("bat", max_hp=59), environment="cavernous")
    events = t.do(Damage(target="ogre", notation="2d8", faces=(3, 5), damage_type="thunder", source="aria"))
    assert of_type(events, DiceRolled)[0].notation == "2d8+2"
    assert of_type(events, DamageTaken)[0].amount == 10
    # Other damage types, and thunder elsewhere, are as rolled.
    assert of_type(t.do(Damage(target="bat", notation="2d8", faces=(3, 5), damage_type="fire")), DamageTaken)[0].amount == 8


def test_thunder_outside_a_cavern_has_no_echo():
    t = fight(pc("aria"), monster("ogre", max_hp=59))
    assert of_type(t.do(Damage(target="ogre", notation="2d8", faces=(3, 5), damage_type="thunder")), DamageTaken)[0].amount == 8


def test_sprint_fatigue_recovers_a_minute_later():
    """'You recover fatigue suffered from sprinting at a rate of one level per minute': in
    6-second rounds, fatigue suffered in round 1 is gone as round 11 starts."""
    t = fight(pc("aria"), monster("goblin"))
    t.do(Sprint(combatant="aria", con_modifier=0, faces=(1,)))
    assert t["aria"].has("fatigue") and t.state.round == 1
    for _ in range(9):
        turn_of(t, "goblin")
        turn_of(t, "aria")
    assert t.state.round == 10 and t["aria"].has("fatigue")
    turn_of(t, "goblin")
    events = t.do(EndTurn(combatant="goblin"))
    assert t.state.round == 11 and not t["aria"].has("fatigue")
    assert ConditionEnded(target="aria", condition="fatigue", reason="recovered: one level of sprint fatigue a minute") in events
