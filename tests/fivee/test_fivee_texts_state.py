"""Rules the texts state that the engine missed (srd-2024, srd-2024-variant, a5e): seeing the
mover or the attacker, conditions and cover on saving throws, effects lasting until the end of
a creature's next turn, and late arrivals joining their group's initiative. Faces entered."""

import pytest

from combat.common.commands import ApplyCondition, SavingThrow
from combat.common.events import SaveMade
from combat.fivee.action_commands import Move, TakeAction
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.fivee.attack_events import AttackMade
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn
from combat.kernel.events import ConditionEnded, ConditionSpec, InitiativeSet
from tests.fivee.helpers import fight
from tests.helpers import Table, monster, of_type, pc, turn_of

FIVE_E = ("srd-2024", "srd-2024-variant", "a5e")


def duel(ruleset: str):
    """Aria (first), then a goblin (second) and a goblin boss."""
    return fight(ruleset, pc("aria"), monster("goblin"), monster("boss", max_hp=20))


# -- seeing --------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_blinded_creature_makes_no_opportunity_attack(ruleset):
    """'You can make an Opportunity Attack when a creature that you can see leaves your reach'
    (a5e: 'a hostile creature that you can see'); Blinded: 'You can't see.'"""
    t = duel(ruleset)
    t.do(ApplyCondition(target="goblin", condition=ConditionSpec(name="blinded")))
    moved = t.do(Move(combatant="aria", feet=10, leaves_reach_of=("goblin", "boss")))
    assert moved[-1].provoked == ("boss",)
    t.rejects(OpportunityAttack(attacker="goblin", target="aria", faces=(15,), damage_faces=(3,)), "attack/no-opportunity")


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_an_invisible_mover_provokes_no_opportunity_attack(ruleset):
    """Invisible: 'You aren't affected by any effect that requires its target to be seen.'"""
    t = duel(ruleset)
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="invisible", source="Invisibility")))
    assert t.do(Move(combatant="aria", feet=10, leaves_reach_of=("goblin",)))[-1].provoked == ()


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_dodge_needs_the_dodger_to_see_the_attacker(ruleset):
    """Dodge: 'attack rolls against you have Disadvantage if you can see the attacker'."""
    t = duel(ruleset)
    t.do(TakeAction(combatant="aria", action="dodge"))
    t.do(EndTurn(combatant="aria"))
    first = of_type(t.do(Attack(attacker="goblin", target="aria", faces=(12, 3), damage_faces=(2,))), AttackMade)[0]
    assert first.roll_mode == "disadvantage"
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="blinded")))
    t.do(EndTurn(combatant="goblin"))
    # Blinded Aria: the boss has Advantage (she can't see) and her Dodge gives nothing.
    second = of_type(t.do(Attack(attacker="boss", target="aria", faces=(3, 12), damage_faces=(2,))), AttackMade)[0]
    assert second.roll_mode == "advantage"


# -- saving throws ---------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
@pytest.mark.parametrize("condition", ["paralyzed", "petrified", "stunned", "unconscious"])
def test_these_conditions_fail_strength_and_dexterity_saves_without_a_roll(ruleset, condition):
    """'You automatically fail Strength and Dexterity saving throws.'"""
    t = duel(ruleset)
    t.do(ApplyCondition(target="goblin", condition=ConditionSpec(name=condition)))
    save = of_type(t.do(SavingThrow(combatant="goblin", ability="dexterity", dc=5)), SaveMade)[0]
    assert not save.success and save.reason == f"automatically fails: {condition}"
    t.rejects(SavingThrow(combatant="goblin", ability="strength", dc=5, faces=(20,)), "dice/unused-faces")
    assert of_type(t.do(SavingThrow(combatant="goblin", ability="wisdom", dc=5, faces=(5,))), SaveMade)[0].success


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_restrained_gives_disadvantage_on_dexterity_saves(ruleset):
    """Restrained: 'You have Disadvantage on Dexterity saving throws.'"""
    t = duel(ruleset)
    t.do(ApplyCondition(target="goblin", condition=ConditionSpec(name="restrained")))
    save = of_type(t.do(SavingThrow(combatant="goblin", ability="dexterity", dc=12, faces=(18, 4))), SaveMade)[0]
    assert save.total == 4 and not save.success
    # Advantage from elsewhere and the Disadvantage cancel: one die.
    save = of_type(
        t.do(SavingThrow(combatant="goblin", ability="dexterity", dc=12, roll_mode="advantage", faces=(13,))), SaveMade
    )[0]
    assert save.success


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_cover_adds_to_dexterity_saves_and_the_event_records_it(ruleset):
    """Cover: Half, '+2 bonus to AC and Dexterity saving throws'; Three Quarters, '+5 bonus'."""
    t = duel(ruleset)
    save = of_type(
        t.do(SavingThrow(combatant="goblin", ability="dexterity", dc=15, bonus=2, cover="three-quarters", faces=(8,))), SaveMade
    )[0]
    assert save.total == 15 and save.success and save.cover == "three-quarters"
    t.rejects(SavingThrow(combatant="goblin", ability="wisdom", dc=15, cover="half", faces=(8,)), "save/cover-not-dexterity")


# -- durations -------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_until_the_end_of_its_next_turn_given_during_its_own_turn_lasts_through_the_next(ruleset):
    """An effect 'until the end of its next turn' that lands during the creature's own turn
    (its own reckless feature, a trap it springs) outlasts this turn and ends with the next;
    `end` alone keeps meaning the next end of its turn, this one."""
    t = duel(ruleset)
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="poisoned", ends="end of next turn", ends_on="aria")))
    assert t["aria"].conditions[0].ends == "end of next turn"
    t.do(EndTurn(combatant="aria"))
    assert t["aria"].has("poisoned")
    turn_of(t, "aria")
    assert t["aria"].conditions[0].ends == "end"
    events = t.do(EndTurn(combatant="aria"))
    assert ConditionEnded(target="aria", condition="poisoned", reason="end of Aria's turn") in events
    # Given during someone else's turn, the end of Aria's next turn is the next end of her turn.
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="poisoned", ends="end of next turn", ends_on="aria")))
    assert t["aria"].conditions[0].ends == "end"
    assert t.rebuilt() == t.state


# -- late arrivals ---------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_late_arrival_joins_its_group_and_shares_its_count(ruleset):
    """'For a group of identical creatures, the GM makes a single roll': a third goblin that
    runs up in round 1 acts on the goblins' count, right after them."""
    t = Table(
        ruleset=ruleset,
        settings={"initiative_reorder": False, "group_initiative": True} if ruleset == "srd-2024-variant" else None,
    )
    t.add(pc("aria"), monster("goblin-1", group="goblins"), monster("goblin-2", group="goblins"))
    t.do(BeginCombat())
    t.do(RollInitiative(combatant="aria", faces=(20,)))
    t.do(RollInitiative(combatant="goblin-1", faces=(12,)))
    count = t["goblin-1"].initiative
    events = t.do(AddCombatant(combatant=monster("goblin-3", group="goblins")))
    assert InitiativeSet(combatants=("goblin-3",), total=count) in events
    order = t.ruleset.turn_order(t.state, True)
    assert order[order.index("goblin-2") + 1] == "goblin-3"
    different = "initiative/group-not-identical" if ruleset == "srd-2024-variant" else "combatant/invalid"
    t.rejects(AddCombatant(combatant=monster("goblin-4", group="goblins", initiative_bonus=3)), different)
