"""declared-d10: critical successes, weapon damage and its tiers, damage reduction."""

from __future__ import annotations

import pytest

from combat.kernel.events import AttackProfile, DiceRolled
from combat.rulesets.declared_d10.attacks import D10Attack, D10AttackRolled
from combat.rulesets.declared_d10.state import D10Traits
from combat.rulesets.declared_d10.wounds import D10DamageDealt
from tests.helpers import monster, of_type, pc
from tests.rulesets.declared_d10.helpers import CLUB, SWORD, d10_table, duel, open_normal_round, play_round

TAMMY_ATTACKS_THE_OGRE = {"tammy": ("attack", "ogre"), "ogre": ("attack", "tammy")}
OGRE_ATTACKS_BOB = {"bob": ("parry_dodge", None), "ogre": ("attack", "bob")}


def tammys_turn(**kw):
    return play_round(duel(**kw), TAMMY_ATTACKS_THE_OGRE, {"party": 8, "monsters": 2})


def ogre_swings_at_bob(bob: D10Traits, ogre: D10Traits | None = None):
    """Bob in his maille shirt; the ogre acts first."""
    t = open_normal_round(
        d10_table(
            pc("bob", max_hp=20, ac=12),
            monster("ogre", max_hp=20, attacks=(CLUB,)),
            traits={"bob": bob, "ogre": ogre or D10Traits()},
        )
    )
    return play_round(t, OGRE_ATTACKS_BOB, {"party": 1, "monsters": 9})


def dealt(events) -> D10DamageDealt:
    [event] = of_type(events, D10DamageDealt)
    return event


def test_tammys_critical_hit_doubles_the_5_she_rolls_on_her_d6_to_10():
    """'Tammy rolls a 20 for to hit on a sword strike and gets a critical hit. She rolls a d6 for
    damage and rolls a 5. She doubles the damage to 10 for the critical hit'."""
    t = tammys_turn()
    events = t.do(D10Attack(attacker="tammy", target="ogre", faces=(20,), damage_faces=(5,)))
    [rolled] = of_type(events, D10AttackRolled)
    assert rolled.critical and rolled.hit
    assert (dealt(events).rolled, dealt(events).critical_doubled, dealt(events).amount) == (5, True, 10)
    assert t["ogre"].hp == 10


def test_a_natural_20_hits_even_when_the_bonus_would_not_reach_the_ac():
    """'A roll of 20 on a d20 for to hit is a critical success and always hits even if the roll
    would not have succeeded with bonuses applied.'"""
    t = tammys_turn(ogre={"ac": 30})
    [rolled] = of_type(t.do(D10Attack(attacker="tammy", target="ogre", faces=(20,), damage_faces=(2,))), D10AttackRolled)
    assert (rolled.total, rolled.target_number, rolled.hit) == (25, 30, True)


def test_a_custom_critical_effect_takes_the_place_of_doubling_the_damage():
    """'a GM and the players may decide to apply a custom effect to the critical success instead
    of doubling the damage. The custom effects take the place of doubling damage and are not to
    be stacked with the double damage effect.' 'wounds the target for the normal amount of
    damage and then disarms the target.'"""
    t = tammys_turn()
    events = t.do(D10Attack(attacker="tammy", target="ogre", critical_effect="disarms the ogre", faces=(20,), damage_faces=(5,)))
    [rolled] = of_type(events, D10AttackRolled)
    assert rolled.critical_effect == "disarms the ogre"
    assert (dealt(events).critical_doubled, dealt(events).amount, t["ogre"].hp) == (False, 5, 15)


def test_a_critical_can_forgo_all_damage_for_its_effect():
    """'The attacker that rolled the success forgoes all damage to the target and rushes into a
    successful grapple of the target.'"""
    t = tammys_turn()
    events = t.do(
        D10Attack(
            attacker="tammy", target="ogre", critical_effect="rushes into a grapple", critical_forgoes_damage=True, faces=(20,)
        )
    )
    assert [r.purpose for r in of_type(events, DiceRolled)] == ["to hit"]
    assert of_type(events, D10DamageDealt) == [] and t["ogre"].hp == 20


def test_a_custom_effect_said_before_the_roll_counts_only_on_a_20():
    """The effect is what happens on a critical success; on a plain hit the damage is normal."""
    t = tammys_turn()
    events = t.do(D10Attack(attacker="tammy", target="ogre", critical_effect="disarms the ogre", faces=(15,), damage_faces=(5,)))
    [rolled] = of_type(events, D10AttackRolled)
    assert (rolled.critical, rolled.critical_effect, dealt(events).amount) == (False, None, 5)


def test_a_spells_critical_success_does_not_double_its_damage_by_itself():
    """'For spells, the effect of a critical success is listed in the spell description.'"""
    bolt = AttackProfile(name="Fire Bolt", bonus=4, damage="1d10", damage_type="fire", kind="ranged")
    t = open_normal_round(
        d10_table(pc("larry", attacks=(bolt,)), monster("ogre", max_hp=20), traits={"larry": D10Traits(spells=("Fire Bolt",))})
    )
    play_round(t, {"larry": ("cast", "ogre"), "ogre": ("parry_dodge", None)}, {"party": 5, "monsters": 1})
    events = t.do(D10Attack(attacker="larry", target="ogre", faces=(20,), damage_faces=(7,)))
    assert (dealt(events).critical_doubled, dealt(events).amount) == (False, 7)


@pytest.mark.parametrize(
    "tier, notation, faces, damage",
    [("masterwork", "2d6kh1", (2, 5), 5), ("shoddy", "2d6kl1", (2, 5), 2), ("common", "1d6", (4,), 4)],
)
def test_with_weapon_tiers_masterwork_rolls_damage_with_advantage_and_shoddy_with_disadvantage(tier, notation, faces, damage):
    """'Masterwork: Rolls DMG dice with ADV; Common: Rolls listed DMG dice for the weapon; Shoddy:
    Rolls DMG dice with DIS' (the optional rule, setting weapon_tiers)."""
    t = tammys_turn(settings={"weapon_tiers": True}, traits={"tammy": D10Traits(weapon_tiers={"Sword": tier})})
    events = t.do(D10Attack(attacker="tammy", target="ogre", faces=(15,), damage_faces=faces))
    assert of_type(events, DiceRolled)[1].notation == notation
    assert dealt(events).amount == damage


def test_weapon_tiers_need_the_optional_rule_and_never_touch_spells():
    """'This rule should only be applied to physical weapons ... Spells, traps, explosives ... would
    not likely deal more or less average damage based on any quality ranking'."""
    plain = tammys_turn(traits={"tammy": D10Traits(weapon_tiers={"Sword": "masterwork"})})
    events = plain.do(D10Attack(attacker="tammy", target="ogre", faces=(15,), damage_faces=(4,)))
    assert of_type(events, DiceRolled)[1].notation == "1d6"
    bolt = AttackProfile(name="Fire Bolt", bonus=4, damage="2d6", damage_type="fire", kind="ranged")
    t = open_normal_round(
        d10_table(
            pc("larry", attacks=(bolt,)),
            monster("ogre", max_hp=20),
            settings={"weapon_tiers": True},
            traits={"larry": D10Traits(spells=("Fire Bolt",))},
        )
    )
    play_round(t, {"larry": ("cast", "ogre"), "ogre": ("parry_dodge", None)}, {"party": 5, "monsters": 1})
    events = t.do(D10Attack(attacker="larry", target="ogre", faces=(15,), damage_faces=(3, 4)))
    assert of_type(events, DiceRolled)[1].notation == "2d6"


def test_a_masterwork_weapon_with_several_damage_dice_keeps_the_better_total():
    """The reading for 'roll two of the listed damage dice and take the highest roll' when the
    listed damage is several dice: roll them twice and keep the better total."""
    maul = SWORD.__class__(name="Maul", bonus=5, damage="2d6", damage_type="bludgeoning")
    t = tammys_turn(
        tammy={"attacks": (maul,)},
        settings={"weapon_tiers": True},
        traits={"tammy": D10Traits(weapon_tiers={"Maul": "masterwork"})},
    )
    events = t.do(D10Attack(attacker="tammy", target="ogre", faces=(15,), damage_faces=(1, 2, 6, 3)))
    assert of_type(events, DiceRolled)[1].notation == "(2d6,2d6)kh1"
    assert dealt(events).amount == 9


def test_bobs_maille_shirt_turns_the_ogres_5_into_3():
    """'Bob is a warrior charging into battle wearing a maille shirt with a DR of 2. An ogre takes
    a swing at Bob and hits him. The Ogre rolls a d6 for damage and rolls a 5. DMG 5 minus DR 2
    means that Bob only takes 3 points of damage from the hit'."""
    t = ogre_swings_at_bob(D10Traits(dr=2))
    events = t.do(D10Attack(attacker="ogre", target="bob", faces=(12,), damage_faces=(5,)))
    assert (dealt(events).rolled, dealt(events).dr, dealt(events).amount) == (5, 2, 3)
    assert t["bob"].hp == 17


def test_a_critical_is_doubled_before_damage_reduction():
    """'Before Damage is applied, it is reduced by the DR': the doubled 10 less DR 2 is 8."""
    t = ogre_swings_at_bob(D10Traits(dr=2))
    events = t.do(D10Attack(attacker="ogre", target="bob", faces=(20,), damage_faces=(5,)))
    assert dealt(events).amount == 8


def test_an_attack_that_disregards_dr_does_its_full_damage():
    """'Some special weapons or some non-damage types of spells may disregard DR and will indicate
    that in their listing'."""
    t = ogre_swings_at_bob(D10Traits(dr=2), D10Traits(ignores_dr=("Club",)))
    events = t.do(D10Attack(attacker="ogre", target="bob", faces=(12,), damage_faces=(5,)))
    assert (dealt(events).dr, dealt(events).amount) == (0, 5)
