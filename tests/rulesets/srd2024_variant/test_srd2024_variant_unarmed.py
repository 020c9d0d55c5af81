"""srd-2024-variant Unarmed Strike Δ: damage, grapple or shove, the last two by a Constitution save.

"Whenever you use your Unarmed Strike, choose one of the following options for its effect."
"""

from combat.common.commands import ApplyCondition
from combat.common.events import SaveMade
from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionApplied, ConditionSpec, DiceRolled
from combat.rulesets.srd2024_variant.traits import NoteTraits
from combat.rulesets.srd2024_variant.unarmed import (
    EscapeAttempted,
    EscapeGrapple,
    GrappleEnded,
    GrappleStarted,
    ReleaseGrapple,
    Shoved,
    UnarmedStrike,
    UnarmedStrikeMade,
)
from tests.helpers import monster, of_type, pc
from tests.rulesets.srd2024_variant.helpers import brawl


def test_an_unarmed_strike_hits_with_strength_plus_proficiency_for_one_plus_strength():
    """'Your bonus to the roll equals your Strength modifier plus your Proficiency Bonus. On a
    hit, the target takes Bludgeoning damage equal to 1 plus your Strength modifier.'"""
    t = brawl()
    events = t.do(UnarmedStrike(attacker="aria", target="orc", faces=(10,)))
    [attack] = of_type(events, AttackMade)
    assert of_type(events, DiceRolled)[0].notation == "1d20+5"
    assert attack.total == 15 and attack.hit and attack.damage == 4 and attack.damage_type == "bludgeoning"
    assert t["orc"].hp == 11


def test_a_failed_constitution_save_against_a_grapple_leaves_the_target_grappled():
    """'The target must succeed on a Constitution saving throw, or they [have] the Grappled
    condition.' DC 8 + 3 + 2 = 13; the orc rolls 11 + 1."""
    t = brawl()
    events = t.do(UnarmedStrike(attacker="aria", target="orc", option="grapple", faces=(11,)))
    [save] = of_type(events, SaveMade)
    assert (save.ability, save.dc, save.total, save.success) == ("constitution", 13, 12, False)
    assert of_type(events, GrappleStarted) == [GrappleStarted(grappler="aria", target="orc", dc=13)]
    assert t["orc"].has("grappled") and t["aria"].economy.action is False
    t.do(EndTurn(combatant="aria"))
    t.rejects(Move(combatant="orc", feet=5), "economy/movement")  # Grappled: Speed 0
    assert t.rebuilt() == t.state


def test_a_successful_save_shrugs_off_the_grapple():
    t = brawl()
    events = t.do(UnarmedStrike(attacker="aria", target="orc", option="grapple", faces=(12,)))
    assert of_type(events, UnarmedStrikeMade)[0].saved and not t["orc"].has("grappled")
    assert not t.state.rules.grapples


def test_cover_adds_to_the_save_against_a_grapple():
    """Δ cover: '+2 bonus to AC and Constitution saves', so 11 + 1 + 2 = 14 beats DC 13."""
    t = brawl()
    events = t.do(UnarmedStrike(attacker="aria", target="orc", option="grapple", cover="half", faces=(11,)))
    assert of_type(events, SaveMade)[0].success


def test_a_target_more_than_one_size_larger_cannot_be_grappled_or_shoved():
    """'Grappling is possible only if the target is no more than one size larger than you.'"""
    t = brawl(monster("ogre", size="huge"))
    t.rejects(UnarmedStrike(attacker="aria", target="ogre", option="grapple", faces=(1,)), "unarmed/too-large")
    t.rejects(UnarmedStrike(attacker="aria", target="ogre", option="shove", faces=(1,)), "unarmed/too-large")


def test_one_grapple_per_free_hand():
    """'An entity must have a free hand ... it can grapple only one creature at a time with that part.'"""
    t = brawl(aria={"attacks_per_action": 2})
    t.do(NoteTraits(combatant="aria", strength=3, proficiency=2, hands=1))  # a shield in the other hand
    t.do(UnarmedStrike(attacker="aria", target="orc", option="grapple", faces=(1,)))
    error = t.rejects(UnarmedStrike(attacker="aria", target="goblin", option="grapple", faces=(1,)), "grapple/no-free-hand")
    assert "Orc" in error.message
    t.do(ReleaseGrapple(grappler="aria", target="orc"))
    t.do(UnarmedStrike(attacker="aria", target="goblin", option="grapple", faces=(1,)))
    assert t["goblin"].has("grappled") and not t["orc"].has("grappled")


def test_escaping_a_grapple_takes_the_action_and_a_check_against_the_escape_dc():
    """'A Grappled entity can use their action to make an Athletics (STR) or Acrobatics (DEX)
    check against the grapple's escape DC, ending the condition on themself on a success.'"""
    t = brawl()
    t.do(UnarmedStrike(attacker="aria", target="orc", option="grapple", faces=(1,)))
    t.do(EndTurn(combatant="aria"))
    events = t.do(EscapeGrapple(combatant="orc", skill="athletics", bonus=3, faces=(10,)))
    assert of_type(events, EscapeAttempted)[0].success and of_type(events, GrappleEnded)[0].reason == "escaped"
    assert not t["orc"].has("grappled") and t["orc"].economy.action is False


def test_a_failed_escape_still_spends_the_action():
    t = brawl()
    t.do(UnarmedStrike(attacker="aria", target="orc", option="grapple", faces=(1,)))
    t.do(EndTurn(combatant="aria"))
    t.do(EscapeGrapple(combatant="orc", bonus=3, faces=(9,)))  # 12 < 13
    assert t["orc"].has("grappled")
    t.rejects(EscapeGrapple(combatant="orc", bonus=3, faces=(20,)), "economy/action-spent")


def test_escaping_when_not_grappled_is_refused():
    t = brawl()
    t.rejects(EscapeGrapple(combatant="aria", faces=(20,)), "grapple/not-grappled")


def test_a_grappled_creature_attacks_anyone_but_its_grappler_with_disadvantage():
    """As the 2024 Grappled condition has it (the text is silent): Disadvantage against others."""
    t = brawl(pc("bram"))
    t.do(UnarmedStrike(attacker="aria", target="orc", option="grapple", faces=(1,)))
    t.do(EndTurn(combatant="aria"))
    [attack] = of_type(t.do(Attack(attacker="orc", target="bram", faces=(15, 3))), AttackMade)
    assert attack.roll_mode == "disadvantage" and attack.natural == 3


def test_the_grapple_ends_when_the_grappler_is_incapacitated():
    t = brawl()
    t.do(UnarmedStrike(attacker="aria", target="orc", option="grapple", faces=(1,)))
    events = t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="stunned")))
    assert of_type(events, GrappleEnded)[0].reason == "Aria is incapacitated"
    assert not t["orc"].has("grappled")


def test_a_failed_save_against_a_shove_knocks_the_target_prone():
    """'The target must succeed on a Constitution saving throw, or you either push it 5 feet
    away or cause it to have the Prone condition.'"""
    t = brawl()
    events = t.do(UnarmedStrike(attacker="aria", target="goblin", option="shove", shove="prone", faces=(4,)))
    assert of_type(events, ConditionApplied)[0].condition == ConditionSpec(name="prone", source="aria")


def test_a_shove_can_push_the_target_five_feet_instead():
    t = brawl()
    events = t.do(UnarmedStrike(attacker="aria", target="goblin", option="shove", shove="push", faces=(4,)))
    assert of_type(events, Shoved) == [Shoved(attacker="aria", target="goblin", feet=5)]
    assert not t["goblin"].has("prone")


def test_an_unarmed_strike_is_one_attack_of_the_attack_action():
    """With Extra Attack, Aria grapples with one attack and strikes with the other."""
    t = brawl(aria={"attacks_per_action": 2})
    t.do(UnarmedStrike(attacker="aria", target="orc", option="grapple", faces=(1,)))
    assert t["aria"].economy.attacks_left == 1
    [attack] = of_type(t.do(Attack(attacker="aria", target="orc", faces=(12,), damage_faces=(5,))), AttackMade)
    assert attack.uses == "attack"


def test_without_noted_strength_and_proficiency_the_strike_is_refused():
    """The DC needs both numbers; the engine asks for them rather than guess."""
    t = brawl()
    t.do(EndTurn(combatant="aria"))
    error = t.rejects(UnarmedStrike(attacker="orc", target="aria", option="grapple", faces=(1,)), "traits/missing")
    assert error.allowed == "note_traits for orc with strength and proficiency"
