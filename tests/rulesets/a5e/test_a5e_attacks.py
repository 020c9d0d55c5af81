"""a5e attacks: critical hits and fumbles, unseen, range, prone, flanking, from above, cover."""

from __future__ import annotations

from combat.common.commands import ApplyCondition
from combat.fivee.action_commands import Move, TakeAction
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionSpec
from combat.rulesets.a5e.attacks import MakeAttack
from combat.rulesets.a5e.maneuvers import PressTheAttack
from combat.rulesets.a5e.sprint import Sprint
from tests.helpers import SHORTBOW, monster, pc
from tests.rulesets.a5e.helpers import attacked, fight_with_settings


def test_a_natural_20_is_a_critical_hit_and_a_natural_1_a_fumble_that_always_misses():
    """'A natural 20 on an attack roll is a critical hit and is always successful. ... rolling a
    natural 1 on an attack roll is considered a critical fumble and always misses.'"""
    t = fight_with_settings(pc("aria", attacks_per_action=2), monster("golem", ac=30, max_hp=40))
    hit, _ = attacked(t.do(MakeAttack(attacker="aria", target="golem", faces=(20,), damage_faces=(3, 6))))
    assert hit.hit and hit.critical and hit.damage == 12  # 2d8+3
    t2 = fight_with_settings(pc("aria", attacks=()), monster("goblin", ac=2))
    t2.rejects(MakeAttack(attacker="aria", target="goblin", faces=(1,)), "attack/none")
    t3 = fight_with_settings(pc("aria"), monster("goblin", ac=2))
    miss, _ = attacked(t3.do(MakeAttack(attacker="aria", target="goblin", faces=(1,))))
    assert not miss.hit and miss.natural == 1


def test_unseen_targets_give_disadvantage_unseen_attackers_advantage_and_both_unseen_disadvantage():
    """'When you attack a target that you cannot see ... you have disadvantage'; 'if your target
    cannot see you, you have advantage'; 'In situations where your target is unseen by you and you
    are unseen by your target ... all attack rolls are made at disadvantage.'"""
    t = fight_with_settings(pc("aria", attacks_per_action=3), monster("goblin", max_hp=50))
    for kw, mode in (
        ({"target_unseen": True}, "disadvantage"),
        ({"attacker_unseen": True}, "advantage"),
        ({"target_unseen": True, "attacker_unseen": True}, "disadvantage"),
    ):
        made, _ = attacked(t.do(MakeAttack(attacker="aria", target="goblin", faces=(4, 5), **kw)))
        assert made.roll_mode == mode, kw


def test_ranged_attacks_beyond_normal_range_or_within_a_hostiles_reach_have_disadvantage():
    """'Attacks made at targets further than the normal range are made at disadvantage, and
    targets beyond long range cannot be targeted.' 'When you make a ranged attack while you are
    within the reach of a hostile creature, you make the attack with disadvantage.'"""
    t = fight_with_settings(pc("lyra", attacks=(SHORTBOW,), attacks_per_action=3), monster("goblin", max_hp=50))
    near, _ = attacked(t.do(MakeAttack(attacker="lyra", target="goblin", distance=80, faces=(12,), damage_faces=(3,))))
    assert near.roll_mode == "normal"
    far, _ = attacked(t.do(MakeAttack(attacker="lyra", target="goblin", distance=200, faces=(12, 4), damage_faces=(3,))))
    assert far.roll_mode == "disadvantage"
    t.rejects(MakeAttack(attacker="lyra", target="goblin", distance=330, faces=(12,)), "attack/out-of-range")
    close, _ = attacked(
        t.do(MakeAttack(attacker="lyra", target="goblin", within_reach_of_hostile=True, faces=(12, 4), damage_faces=(3,)))
    )
    assert close.roll_mode == "disadvantage"


def test_a_melee_attack_must_reach_its_target():
    """'Most creatures have a reach of 5 feet, allowing them to make melee attacks against any
    creature within 5 feet of them.'"""
    t = fight_with_settings(pc("aria"), monster("goblin"))
    t.rejects(MakeAttack(attacker="aria", target="goblin", distance=10, faces=(12,)), "attack/out-of-reach")


def test_a_prone_target_is_easier_to_hit_up_close_and_harder_from_afar():
    """'An attack roll against you is made with advantage if the attacker is within 5 feet.
    Otherwise, the attack roll is made with disadvantage.'"""
    t = fight_with_settings(pc("aria", attacks=(SHORTBOW, *pc("x").attacks)), monster("goblin", max_hp=50))
    t.do(ApplyCondition(target="goblin", condition=ConditionSpec(name="prone")))
    melee, _ = attacked(t.do(MakeAttack(attacker="aria", target="goblin", attack="Longsword", faces=(4, 5))))
    assert melee.roll_mode == "advantage"
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="goblin"))
    ranged, _ = attacked(t.do(MakeAttack(attacker="aria", target="goblin", attack="Shortbow", distance=30, faces=(4, 5))))
    assert ranged.roll_mode == "disadvantage"


def test_flanking_with_an_ally_gives_an_expertise_die_unless_either_is_incapacitated():
    """'When you and an ally are on direct opposite sides of a target, you gain an expertise die
    on your actions against that target. You and your ally cannot flank for one another if either
    of you are incapacitated.'"""
    t = fight_with_settings(pc("aria"), pc("bron"), monster("goblin", max_hp=50))
    _, rolled = attacked(
        t.do(MakeAttack(attacker="aria", target="goblin", flanking_with="bron", faces=(8, 2), damage_faces=(3,)))
    )
    assert rolled.notation == "1d20+5+1d4" and rolled.total == 15
    t.do(EndTurn(combatant="aria"))
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="stunned")))
    t.rejects(MakeAttack(attacker="bron", target="goblin", flanking_with="aria", faces=(8, 2)), "attack/no-flank")
    t.rejects(MakeAttack(attacker="bron", target="goblin", flanking_with="goblin", faces=(8, 2)), "attack/no-flank")


def test_attacking_from_above_gives_an_expertise_die_and_two_sources_raise_it_to_a_d6():
    """'If you are at least 5 feet above your target and you aren't grappled or restrained, you
    gain an expertise die on melee attack rolls made against it.'"""
    t = fight_with_settings(pc("aria"), pc("bron"), monster("goblin", max_hp=50))
    _, rolled = attacked(
        t.do(MakeAttack(attacker="aria", target="goblin", from_above=True, flanking_with="bron", faces=(8, 5), damage_faces=(3,)))
    )
    assert rolled.notation == "1d20+5+1d6"
    t.do(EndTurn(combatant="aria"))
    t.do(ApplyCondition(target="bron", condition=ConditionSpec(name="restrained")))
    t.rejects(MakeAttack(attacker="bron", target="goblin", from_above=True, faces=(8, 2)), "attack/above-held")


def test_cover_adds_to_ac_and_total_cover_cannot_be_targeted():
    """'Half cover provides you with a +2 bonus to AC ... Three-quarters cover ... +5 ... Total
    cover ... You cannot be targeted directly by attacks.'"""
    t = fight_with_settings(pc("aria", attacks_per_action=2), monster("goblin", ac=12, max_hp=50))
    half, _ = attacked(t.do(MakeAttack(attacker="aria", target="goblin", cover="half", faces=(9,), damage_faces=(1,))))
    assert half.target_ac == 14 and half.hit
    most, _ = attacked(t.do(MakeAttack(attacker="aria", target="goblin", cover="three-quarters", faces=(11,))))
    assert most.target_ac == 17 and not most.hit
    t.rejects(MakeAttack(attacker="aria", target="goblin", cover="total", faces=(20,)), "attack/total-cover")


def test_the_plain_attack_command_follows_the_a5e_rules_too():
    """Attacks against a creature pressing the attack are made with advantage, whichever command sends them."""
    t = fight_with_settings(pc("aria"), monster("goblin", max_hp=50))
    t.do(PressTheAttack(combatant="aria", target="goblin"))
    t.do(EndTurn(combatant="aria"))
    made, _ = attacked(t.do(Attack(attacker="goblin", target="aria", faces=(3, 9))))
    assert made.roll_mode == "advantage"


def test_an_opportunity_attack_against_a_fleeing_sprinter_has_advantage():
    """'An opportunity attack is a single melee attack against the provoking creature'; a
    sprinter is attacked with advantage until the start of its next turn."""
    t = fight_with_settings(pc("aria"), monster("goblin", max_hp=50))
    t.do(Sprint(combatant="aria"))
    t.do(Move(combatant="aria", feet=40, leaves_reach_of=("goblin",)))
    made, rolled = attacked(t.do(OpportunityAttack(attacker="goblin", target="aria", faces=(2, 11), damage_faces=(4,))))
    assert made.opportunity and made.roll_mode == "advantage" and rolled.total == 15
    t.rejects(OpportunityAttack(attacker="goblin", target="aria", faces=(2, 11)), "economy/reaction-spent")


def test_a_dodger_who_cannot_see_the_attacker_gets_no_disadvantage_from_dodge():
    """Dodge: 'Until the start of your next turn, attacks against you are made with disadvantage
    if you can see the attacker'; unseen: 'if your target cannot see you, you have advantage'.
    An attacker the dodger cannot see, whatever the reason (the Narrator's `attacker_unseen`,
    an Invisible or hidden attacker, a Blinded dodger), attacks with advantage alone."""
    t = fight_with_settings(pc("aria"), monster("goblin"), monster("boss", max_hp=20), monster("sneak", max_hp=20))
    t.do(TakeAction(combatant="aria", action="dodge"))
    t.do(EndTurn(combatant="aria"))
    seen, _ = attacked(t.do(MakeAttack(attacker="goblin", target="aria", faces=(12, 3), damage_faces=(2,))))
    assert seen.roll_mode == "disadvantage"
    t.do(EndTurn(combatant="goblin"))
    unseen, roll = attacked(
        t.do(MakeAttack(attacker="boss", target="aria", attacker_unseen=True, faces=(3, 12), damage_faces=(2,)))
    )
    assert unseen.roll_mode == "advantage" and roll.total == 12 + 4 and unseen.hit
    t.do(EndTurn(combatant="boss"))
    t.do(ApplyCondition(target="sneak", condition=ConditionSpec(name="invisible", source="hide")))
    hidden, _ = attacked(t.do(MakeAttack(attacker="sneak", target="aria", faces=(3, 12), damage_faces=(2,))))
    assert hidden.roll_mode == "advantage"


def test_a_blinded_dodger_gets_nothing_from_dodge_in_a5e():
    """'... with disadvantage if you can see the attacker': a Blinded dodger cannot."""
    t = fight_with_settings(pc("aria"), monster("goblin"))
    t.do(TakeAction(combatant="aria", action="dodge"))
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="blinded")))
    t.do(EndTurn(combatant="aria"))
    made, _ = attacked(t.do(MakeAttack(attacker="goblin", target="aria", faces=(3, 12), damage_faces=(2,))))
    assert made.roll_mode == "advantage"  # "target is blinded", and no Dodge to cancel it
