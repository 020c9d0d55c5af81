"""declared-d10: to-hit rolls, Advantage and Disadvantage, called and long shots, cover, sneak attacks."""

from __future__ import annotations

import pytest

from combat.kernel.commands import EndTurn
from combat.kernel.events import AttackProfile, DiceRolled
from combat.rulesets.declared_d10.actions import D10Sneak, D10StealthChecked
from combat.rulesets.declared_d10.attacks import D10Attack, D10AttackRolled
from combat.rulesets.declared_d10.state import D10Traits
from combat.rulesets.declared_d10.wounds import D10Damage, D10DamageDealt
from tests.helpers import monster, of_type, pc
from tests.rulesets.declared_d10.helpers import BOW, SWORD, d10_table, duel, open_normal_round, play_round

TAMMY_ATTACKS_THE_OGRE = {"tammy": ("attack", "ogre"), "ogre": ("attack", "tammy")}


def tammys_turn(**kw):
    return play_round(duel(**kw), TAMMY_ATTACKS_THE_OGRE, {"party": 8, "monsters": 2})


def attack(t, **kw) -> tuple[D10AttackRolled, DiceRolled]:
    events = t.do(D10Attack(attacker="tammy", target="ogre", **kw))
    [rolled] = of_type(events, D10AttackRolled)
    return rolled, of_type(events, DiceRolled)[0]


def test_a_to_hit_roll_is_a_d20_plus_the_skill_bonus_against_the_targets_ac():
    """'A to hit roll is made with a d20 + the bonus of the applicable skill (i.e., a melee
    weapon attack is d20+melee skill bonus ...)' against the target: 7 + 5 meets AC 12."""
    t = tammys_turn()
    rolled, roll = attack(t, faces=(7,), damage_faces=(4,))
    assert (roll.notation, rolled.total, rolled.against, rolled.target_number, rolled.hit) == ("1d20+5", 12, "AC", 12, True)
    assert t["ogre"].hp == 16


def test_a_spell_attack_is_a_d20_plus_the_casting_skill_against_the_spell_dc():
    """'Each player and creature ... rolls a to hit roll against the target or spell DC ... a
    spell casting is d20+casting skill bonus'."""
    bolt = AttackProfile(name="Fire Bolt", bonus=4, damage="1d10", damage_type="fire", kind="ranged")
    t = open_normal_round(
        d10_table(
            pc("larry", attacks=(bolt,)), monster("ogre", ac=18, max_hp=20), traits={"larry": D10Traits(spells=("Fire Bolt",))}
        )
    )
    play_round(t, {"larry": ("cast", "ogre"), "ogre": ("parry_dodge", None)}, {"party": 5, "monsters": 1})
    [rolled] = of_type(t.do(D10Attack(attacker="larry", target="ogre", vs_dc=13, faces=(9,), damage_faces=(6,))), D10AttackRolled)
    assert (rolled.total, rolled.against, rolled.target_number, rolled.hit) == (13, "DC", 13, True)


@pytest.mark.parametrize(
    "options, notation, mode",
    [
        ({"advantage": ("flanking the ogre",)}, "2d20kh1+5", "advantage"),
        ({"disadvantage": ("a boat deck in a storm",)}, "2d20kl1+5", "disadvantage"),
        ({"cinematic": "leaps from the balcony"}, "3d20kh1+5", "cinematic"),
        ({"advantage": ("high ground",), "disadvantage": ("exhausted",)}, "1d20+5", "normal"),
        ({"cinematic": "swings on the chandelier", "disadvantage": ("exhausted",)}, "2d20kh1+5", "advantage"),
    ],
    ids=["advantage", "disadvantage", "cinematic", "advantage-and-disadvantage-cancel", "cinematic-less-disadvantage"],
)
def test_advantage_disadvantage_and_cinematic_advantage_roll_two_or_three_d20s(options, notation, mode):
    """'The GM can determine that a player or creature has Advantage or Disadvantage or Cinematic
    Advantage on a to hit roll and that roll is made with two or three d20's'. The reading:
    Cinematic is three d20 keep the highest; each is a step and Disadvantage cancels one."""
    t = tammys_turn()
    faces = {"1d20+5": (10,), "2d20kh1+5": (3, 10), "2d20kl1+5": (10, 18), "3d20kh1+5": (2, 10, 4)}[notation]
    rolled, roll = attack(t, faces=faces, damage_faces=(1,), **options)
    assert (roll.notation, rolled.roll_mode, rolled.natural, rolled.total) == (notation, mode, 10, 15)


def test_linda_shoots_the_wand_from_the_wizards_hand_with_disadvantage():
    """'Linda attempts to shoot the wand out of a wizard's hand. She makes her standard Ranged
    attack roll with Disadvantage on the roll.'"""
    t = open_normal_round(d10_table(pc("linda", attacks=(BOW,)), monster("wizard", ac=11)))
    play_round(t, {"linda": ("attack", "wizard"), "wizard": ("parry_dodge", None)}, {"party": 5, "monsters": 1})
    events = t.do(
        D10Attack(attacker="linda", target="wizard", called_shot="the wand in his hand", faces=(14, 6), damage_faces=(3,))
    )
    [rolled] = of_type(events, D10AttackRolled)
    assert (rolled.roll_mode, rolled.total, rolled.hit) == ("disadvantage", 12, True)
    assert rolled.reasons == ("disadvantage: called shot: the wand in his hand",)


def test_jen_fires_across_the_chasm_at_the_troll_with_disadvantage():
    """'Jen is an accomplished archer and attempts to fire an arrow at a troll that is on the
    other side of a large chasm. The GM determines it is an extreme shot with a bow and Jen is
    given Disadvantage for her to hit roll for the shot'."""
    t = open_normal_round(d10_table(pc("jen", attacks=(BOW,)), monster("troll", ac=13, max_hp=30)))
    play_round(t, {"jen": ("attack", "troll"), "troll": ("parry_dodge", None)}, {"party": 5, "monsters": 1})
    [rolled] = of_type(t.do(D10Attack(attacker="jen", target="troll", long_range=True, faces=(17, 5))), D10AttackRolled)
    assert (rolled.roll_mode, rolled.total, rolled.hit) == ("disadvantage", 11, False)


def test_cover_gives_disadvantage_to_hit_but_a_direct_hit_does_full_damage():
    """'Hiding behind cover provides Disadvantage when attacking a creature under cover ... Direct
    attacks that succeed in hitting a creature under cover provide full damage.'"""
    t = tammys_turn()
    rolled, roll = attack(t, cover=True, faces=(16, 9), damage_faces=(6,))
    assert (roll.notation, rolled.total, rolled.hit) == ("2d20kl1+5", 14, True)
    [dealt] = of_type(t.events, D10DamageDealt)
    assert (dealt.amount, dealt.halved_by_cover) == (6, False)


def test_an_area_effect_from_the_other_side_of_cover_does_half_damage():
    """'A creature under cover also takes half damage from any area effect attacks or conditions
    coming from the other side of their cover.' 7 fire halves to 3 (rounded down)."""
    t = tammys_turn()
    events = t.do(
        D10Damage(targets=("tammy", "ogre"), notation="2d6", faces=(3, 4), damage_type="fire", area=True, behind_cover=("tammy",))
    )
    assert [(e.target, e.amount, e.halved_by_cover) for e in of_type(events, D10DamageDealt)] == [
        ("tammy", 3, True),
        ("ogre", 7, False),
    ]
    assert (t["tammy"].hp, t["ogre"].hp) == (17, 13)
    t.rejects(D10Damage(targets=("tammy",), amount=4, behind_cover=("tammy",)), "damage/cover-not-area")


def test_a_sneak_attack_has_advantage_after_a_successful_stealth_in_the_previous_round():
    """'If an attacker successfully used the Stealth skill in the previous round and attacks an
    unsuspecting target, they gain Advantage to hit.'"""
    t = play_round(
        duel(traits={"tammy": D10Traits(stealth=4)}),
        {"tammy": ("move", None), "ogre": ("parry_dodge", None)},
        {"party": 8, "monsters": 2},
    )
    [sneaked] = of_type(t.do(D10Sneak(combatant="tammy", dc=12, faces=(9,))), D10StealthChecked)
    assert (sneaked.total, sneaked.success) == (13, True)
    t.do(EndTurn(combatant="tammy"))
    t.do(EndTurn(combatant="ogre"))
    play_round(t, TAMMY_ATTACKS_THE_OGRE, {"party": 8, "monsters": 2})
    rolled, roll = attack(t, sneak_attack=True, faces=(4, 11), damage_faces=(2,))
    assert (roll.notation, rolled.roll_mode, rolled.reasons) == ("2d20kh1+5", "advantage", ("advantage: sneak attack",))


def test_no_sneak_attack_without_stealth_in_the_previous_round():
    """The Stealth has to have succeeded in the round before the attack."""
    t = tammys_turn()
    t.rejects(D10Attack(attacker="tammy", target="ogre", sneak_attack=True, faces=(4, 11)), "attack/no-sneak")


def test_a_natural_1_always_misses_and_the_gm_may_add_a_fumble():
    """'A roll of 1 on a d20 for to hit is a critical failure and always misses even if bonuses
    would normally allow the roll to succeed. What happens on a critical failure is determined by
    the GM'."""
    t = tammys_turn(tammy={"attacks": (SWORD.__class__(name="Sword", bonus=15, damage="1d6", damage_type="slashing"),)})
    rolled, _ = attack(t, faces=(1,), fumble_effect="drops her sword and loses next round's attack")
    assert (rolled.total, rolled.target_number, rolled.hit) == (16, 12, False)
    assert rolled.fumble_effect == "drops her sword and loses next round's attack"
    assert t["ogre"].hp == 20
