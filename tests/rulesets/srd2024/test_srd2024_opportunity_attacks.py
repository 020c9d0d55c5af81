"""srd-2024 opportunity attacks: a reaction when a foe leaves your reach.

"You can make an Opportunity Attack when an entity that you can see leaves your reach. To
make the attack, take a Reaction to make one melee attack with a weapon or an Unarmed Strike
against that entity."
"""

from combat.common.commands import ApplyCondition
from combat.fivee.action_commands import Move, TakeAction, UseReaction
from combat.fivee.action_events import Moved
from combat.fivee.attack_commands import OpportunityAttack
from combat.fivee.attack_events import AttackMade
from combat.fivee.held_open import opportunities_of
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionSpec
from tests.helpers import SCIMITAR, SHORTBOW, Table, monster, of_type, pc


def _melee() -> Table:
    """Aria (18) stands between a goblin with a scimitar and a shortbow (10) and an archer (5); Bram acts last."""
    t = Table().add(
        pc("aria"),
        monster("goblin", attacks=(SHORTBOW, SCIMITAR)),
        monster("archer", attacks=(SHORTBOW,)),
        pc("bram"),
    )
    return t.start({"aria": 18, "goblin": 10, "archer": 5, "bram": 2})


def test_leaving_a_foes_reach_provokes_an_opportunity_attack_with_its_reaction():
    """'If you move heedlessly past your foes, you put yourself in danger by provoking an Opportunity Attack.'"""
    t = _melee()
    events = t.do(Move(combatant="aria", feet=15, leaves_reach_of=("goblin",)))
    assert of_type(events, Moved)[0].provoked == ("goblin",)
    [made] = of_type(t.do(OpportunityAttack(attacker="goblin", target="aria", faces=(13,), damage_faces=(4,))), AttackMade)
    assert made.opportunity and made.uses == "reaction" and made.attack == "Scimitar"
    assert made.hit and t["aria"].hp == 14
    assert not t["goblin"].economy.reaction and opportunities_of(t.state) == ()


def test_a_creature_that_disengaged_provokes_no_opportunity_attack():
    """'You can avoid provoking an Opportunity Attack by taking the Disengage action.'"""
    t = _melee()
    t.do(TakeAction(combatant="aria", action="disengage"))
    events = t.do(Move(combatant="aria", feet=15, leaves_reach_of=("goblin",)))
    assert of_type(events, Moved)[0].provoked == ()
    t.rejects(OpportunityAttack(attacker="goblin", target="aria", faces=(13,), damage_faces=(4,)), "attack/no-opportunity")


def test_a_foe_without_its_reaction_cannot_make_an_opportunity_attack():
    """'take a Reaction': one already spent this round leaves nothing to take."""
    t = _melee()
    t.do(UseReaction(combatant="goblin", description="Parry"))
    t.do(Move(combatant="aria", feet=15, leaves_reach_of=("goblin",)))
    t.rejects(OpportunityAttack(attacker="goblin", target="aria", faces=(13,), damage_faces=(4,)), "economy/reaction-spent")


def test_an_opportunity_attack_is_a_melee_attack_only():
    """'make one melee attack with a weapon or an Unarmed Strike'."""
    t = _melee()
    t.do(Move(combatant="aria", feet=10, leaves_reach_of=("goblin", "archer")))
    error = t.rejects(
        OpportunityAttack(attacker="goblin", target="aria", attack="Shortbow", faces=(13,), damage_faces=(4,)), "attack/unknown"
    )
    assert error.allowed == "Scimitar"
    t.rejects(OpportunityAttack(attacker="archer", target="aria", faces=(13,), damage_faces=(4,)), "attack/none")


def test_no_opportunity_attack_without_leaving_reach():
    """Only 'when an entity that you can see leaves your reach'."""
    t = _melee()
    t.do(Move(combatant="aria", feet=5))
    error = t.rejects(
        OpportunityAttack(attacker="goblin", target="aria", faces=(13,), damage_faces=(4,)), "attack/no-opportunity"
    )
    assert error.allowed == "no opportunity attacks open"


def test_the_chance_for_an_opportunity_attack_passes_when_the_turn_ends():
    """'The attack occurs right before it leaves your reach': it cannot wait for a later turn."""
    t = _melee()
    t.do(Move(combatant="aria", feet=15, leaves_reach_of=("goblin",)))
    t.do(EndTurn(combatant="aria"))
    t.rejects(OpportunityAttack(attacker="goblin", target="aria", faces=(13,), damage_faces=(4,)), "attack/no-opportunity")


def test_an_incapacitated_foe_makes_no_opportunity_attack():
    """Incapacitated: 'You can't take any action, Bonus Action, or Reaction.'"""
    t = _melee()
    t.do(ApplyCondition(target="goblin", condition=ConditionSpec(name="stunned", source="aria")))
    events = t.do(Move(combatant="aria", feet=15, leaves_reach_of=("goblin",)))
    assert of_type(events, Moved)[0].provoked == ()
    t.rejects(OpportunityAttack(attacker="goblin", target="aria", faces=(13,), damage_faces=(4,)), "combatant/incapacitated")


def test_leaving_an_allys_reach_is_not_a_provocation():
    """Opportunity Attacks are made against foes; an ally's reach is not a danger."""
    t = _melee()
    t.rejects(Move(combatant="aria", feet=10, leaves_reach_of=("bram",)), "move/ally")
