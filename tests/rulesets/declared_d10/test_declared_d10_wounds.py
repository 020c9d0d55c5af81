"""declared-d10: what damage does to a combatant - wound thresholds, minions, subdual."""

from __future__ import annotations

from combat.common.commands import Heal
from combat.common.events import CombatantDowned
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionApplied, DiceRolled
from combat.rulesets.declared_d10.attacks import D10Attack, D10AttackRolled
from combat.rulesets.declared_d10.state import D10Traits
from combat.rulesets.declared_d10.wounds import D10Damage, D10DamageDealt, D10WoundPenalty
from projections.state import state_view
from tests.helpers import monster, of_type, pc
from tests.rulesets.declared_d10.helpers import TAMMY_ATTACKS_THE_OGRE, d10_table, play_round, tammys_turn


def test_at_half_total_hp_a_combatant_takes_minus_2_to_hit_shown_as_a_modifier():
    """'Half Total Hit Points: -2 penalty to hit'. Tammy (20 HP) drops to 10."""
    t = tammys_turn()
    events = t.do(D10Damage(targets=("tammy",), amount=10, source="trap"))
    assert [(e.combatant, e.to_hit) for e in of_type(events, D10WoundPenalty)] == [("tammy", -2)]
    assert state_view(t.state)["d10"]["to_hit"] == {"tammy": -2}
    events = t.do(D10Attack(attacker="tammy", target="ogre", faces=(9,), damage_faces=(2,)))
    [rolled] = of_type(events, D10AttackRolled)
    assert (of_type(events, DiceRolled)[0].notation, rolled.to_hit_modifier, rolled.total, rolled.hit) == (
        "1d20+5-2",
        -2,
        12,
        True,
    )


def test_one_hp_above_half_there_is_no_penalty_and_healing_above_half_lifts_it():
    """'Full Hit Points: no effect'. Reading: the -2 lasts while at half or below."""
    t = tammys_turn()
    assert of_type(t.do(D10Damage(targets=("tammy",), amount=9)), D10WoundPenalty) == []
    t.do(D10Damage(targets=("tammy",), amount=1))
    assert t.state.rules.to_hit == {"tammy": -2}
    events = t.do(Heal(target="tammy", amount=1))
    assert [e.to_hit for e in of_type(events, D10WoundPenalty)] == [0]
    assert t.state.rules.to_hit == {}


def test_damage_that_leaves_one_hp_gives_a_lasting_wound():
    """'One Hit Point: lasting wound'."""
    t = tammys_turn()
    events = t.do(D10Damage(targets=("tammy",), amount=19))
    assert [e.condition.name for e in of_type(events, ConditionApplied)] == ["lastingly wounded"]
    assert t["tammy"].has("lastingly wounded") and t["tammy"].status == "active"


def test_at_zero_hp_a_character_is_dead():
    """'Zero Hit Points: Dead' - characters as well as monsters."""
    t = tammys_turn()
    t.do(D10Attack(attacker="tammy", target="ogre", faces=(2,)))
    t.do(EndTurn(combatant="tammy"))
    t.do(D10Attack(attacker="ogre", target="tammy", faces=(20,), damage_faces=(6,)))
    assert (t["tammy"].hp, t["tammy"].status) == (8, "active")
    events = t.do(D10Damage(targets=("tammy",), amount=8))
    assert [(e.combatant, e.status) for e in of_type(events, CombatantDowned)] == [("tammy", "dead")]


def test_a_minion_dies_on_one_hit_whatever_the_damage():
    """'Minions die on one hit.' No damage is rolled: the hit is enough."""
    t = tammys_turn(ogre={"max_hp": 12}, traits={"ogre": D10Traits(minion=True, dr=5)})
    events = t.do(D10Attack(attacker="tammy", target="ogre", faces=(10,), damage_faces=(1,)))
    assert [r.purpose for r in of_type(events, DiceRolled)] == ["to hit"]
    assert (of_type(events, D10DamageDealt)[0].minion, t["ogre"].hp, t["ogre"].status) == (True, 0, "dead")


def test_a_subdual_attack_is_made_with_disadvantage():
    """'Subdual: A regular to hit with Disadvantage (e.g., Bob attempts to knock out an orc for
    questioning later. He rolls a standard attack roll with Disadvantage'."""
    t = tammys_turn()
    [rolled] = of_type(
        t.do(D10Attack(attacker="tammy", target="ogre", subdual=True, faces=(15, 6), damage_faces=(3,))), D10AttackRolled
    )
    assert (rolled.roll_mode, rolled.total, rolled.subdual) == ("disadvantage", 11, True)


def test_subdual_damage_causes_no_lasting_wound_at_one_hp_and_knocks_out_at_zero():
    """'Subdual damage does not cause a lasting wound if the target falls to 1hp. Once the target
    is reduced to 0hp, they are unconscious.'"""
    t = tammys_turn(ogre={"max_hp": 20, "hp": 5})
    t.do(D10Attack(attacker="tammy", target="ogre", subdual=True, faces=(15, 15), damage_faces=(4,)))
    assert t["ogre"].hp == 1 and not t["ogre"].has("lastingly wounded")
    t.do(EndTurn(combatant="tammy"))
    t.do(EndTurn(combatant="ogre"))
    play_round(t, TAMMY_ATTACKS_THE_OGRE, {"party": 8, "monsters": 2})
    events = t.do(D10Attack(attacker="tammy", target="ogre", subdual=True, faces=(15, 15), damage_faces=(4,)))
    assert [(e.combatant, e.status) for e in of_type(events, CombatantDowned)] == [("ogre", "unconscious")]
    assert t.state.phase == "ended" and t.state.winner == "party"


def test_a_creature_joining_already_at_half_hp_shows_its_penalty():
    """The -2 is shown whenever it applies, also for someone who arrives wounded."""
    wounded = d10_table(pc("tammy", max_hp=20, hp=10), monster("ogre"))
    assert wounded.state.rules.to_hit == {"tammy": -2}
