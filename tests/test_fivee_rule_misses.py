"""Rules the 5e-family rulesets missed, found by independent testers: each scenario quotes the
text it holds the engine to (SRD 5.2, ConditionDescription.json and Rule.json; a5e's own text
where it differs). Every die is entered."""

from __future__ import annotations

import pytest

from combat.kernel.commands import (
    AbilityCheck,
    AddCombatant,
    ApplyCondition,
    BeginCombat,
    Contest,
    Damage,
    Move,
    RollInitiative,
)
from combat.fivee.standing import StandUp
from combat.kernel.events import CheckMade, CombatantSpec, ConditionSpec, DamageTaken, DiceRolled
from tests.conftest import Table, monster, of_type, pc

FIVE_E = ("srd-2024", "srd-2024-variant", "a5e")


def _fight(ruleset: str = "srd-2024", *specs: CombatantSpec) -> Table:
    """The fight under way at the first combatant's turn, initiative in the order given."""
    t = Table(ruleset, settings={"initiative_reorder": False} if ruleset == "srd-2024-variant" else None)
    t.add(*(specs or (pc("aria"), monster("ogre", max_hp=59))))
    t.do(BeginCombat())
    for i, cid in enumerate(t.state.combatants):
        t.do(RollInitiative(combatant=cid, faces=(20 - i,)))
    return t


# -- Petrified -------------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_petrified_ogre_resists_all_damage(ruleset):
    """Petrified: "Resist Damage. You have Resistance to all damage." 15 bludgeoning: 7."""
    t = _fight(ruleset)
    t.do(ApplyCondition(target="ogre", condition=ConditionSpec(name="petrified", source="medusa")))
    [taken] = of_type(t.do(Damage(target="ogre", amount=15, damage_type="bludgeoning")), DamageTaken)
    assert (taken.rolled, taken.amount) == (15, 7)
    assert t["ogre"].hp == 52


def test_petrified_resistance_does_not_stack_with_a_resistance_of_its_own_and_covers_a_custom_type():
    """"Multiple instances of Resistance or Vulnerability that affect the same damage type
    count as only one instance" (Rule.json, No Stacking): a fire-resistant statue still takes
    half of 20 fire, 10. "All damage" is a custom type's too."""
    t = _fight("srd-2024", pc("aria"), monster("ogre", max_hp=59, resistances=("fire",)))
    t.do(ApplyCondition(target="ogre", condition=ConditionSpec(name="petrified")))
    [fire] = of_type(t.do(Damage(target="ogre", amount=20, damage_type="fire")), DamageTaken)
    [odd] = of_type(t.do(Damage(target="ogre", amount=9, damage_type="soul rot", custom_type=True)), DamageTaken)
    assert (fire.amount, odd.amount) == (10, 4)


# -- Poisoned and Frightened on ability checks -------------------------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
@pytest.mark.parametrize("condition", ["poisoned", "frightened"])
def test_a_poisoned_or_frightened_creature_has_disadvantage_on_its_ability_checks(ruleset, condition):
    """Poisoned: "You have Disadvantage on attack rolls and ability checks." Frightened: "You
    have Disadvantage on ability checks and attack rolls while the source of fear is within
    line of sight." Faces 17 and 4: the 4."""
    t = _fight(ruleset)
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name=condition, source="ogre")))
    events = t.do(AbilityCheck(combatant="aria", ability="str", skill="athletics", dc=10, faces=(17, 4)))
    assert of_type(events, DiceRolled)[0].notation == "2d20kl1+0"
    [check] = of_type(events, CheckMade)
    assert (check.total, check.success) == (4, False)


def test_the_gm_rules_the_source_of_fear_out_of_sight_with_roll_mode():
    """"... while the source of fear is within line of sight": the engine has no line of sight,
    so the GM says so: a `roll_mode` given stands as given."""
    t = _fight()
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="frightened", source="ogre")))
    [check] = of_type(t.do(AbilityCheck(combatant="aria", ability="wis", roll_mode="normal", faces=(17,))), CheckMade)
    assert check.total == 17


def test_a_poisoned_creature_in_a_contest_rolls_with_disadvantage_and_its_opponent_does_not():
    """The ogre grapples: its Athletics against Aria's Acrobatics, Aria Poisoned."""
    t = _fight()
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="poisoned")))
    events = t.do(Contest(combatant="ogre", ability="str", skill="athletics", faces=(9,), bonus=6,
                          opponent="aria", opponent_ability="dex", opponent_skill="acrobatics", opponent_faces=(18, 3)))
    assert [c.total for c in of_type(events, CheckMade)] == [15, 3]


# -- naming the field that makes a name custom ---------------------------------------------------


def test_an_unknown_damage_type_is_refused_naming_damages_own_field_custom_type():
    """`damage` marks a type the ruleset does not know with `custom_type`; `apply_condition`
    marks a condition with `custom`: each refusal names the field its command has."""
    t = _fight()
    error = t.rejects(Damage(target="ogre", amount=3, damage_type="soul rot"), "damage-type/unknown")
    assert "custom_type: true" in error.allowed and "custom:" not in error.allowed
    error = t.rejects(Damage(target="ogre", amount=3, damage_type="fire", custom_type=True), "damage-type/not-custom")
    assert "without custom_type" in error.message
    error = t.rejects(ApplyCondition(target="ogre", condition=ConditionSpec(name="dazed")), "condition/unknown")
    assert "custom: true" in error.allowed


def test_a_stat_blocks_unknown_damage_type_is_refused_without_offering_a_field_it_lacks():
    t = Table()
    error = t.rejects(AddCombatant(combatant=monster("ooze", resistances=("soul rot",))), "damage-type/unknown")
    assert "custom" not in error.allowed


# -- standing up from Prone -------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_prone_fighter_stands_up_for_half_her_speed(ruleset):
    """Prone: "Your only movement options are to crawl or to spend an amount of movement equal
    to half your Speed (round down) to right yourself and thereby end the condition." Speed 35:
    17 ft (a5e: "Standing up requires half your movement")."""
    t = _fight(ruleset, pc("aria", speed=35), monster("ogre", max_hp=59))
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="prone", source="ogre")))
    t.do(StandUp(combatant="aria"))
    assert not t["aria"].has("prone")
    assert t["aria"].economy.moved == 17
    assert t.rebuilt() == t.state


def test_standing_up_is_refused_when_not_prone_or_short_of_movement_or_at_speed_0():
    """"If your Speed is 0, you can't right yourself." Aria (Speed 30) has moved 20 ft: 10 left,
    15 needed."""
    t = _fight()
    error = t.rejects(StandUp(combatant="aria"), "prone/not-prone")
    assert error.allowed == "move"
    t.do(Move(combatant="aria", feet=20))
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="prone")))
    error = t.rejects(StandUp(combatant="aria"), "economy/movement")
    assert "15 ft" in error.message and "10 ft" in error.message
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="grappled")))
    t.rejects(StandUp(combatant="aria"), "prone/speed-zero")
    t.rejects(StandUp(combatant="ogre"), "turn/not-yours")


def test_stand_up_is_a_turn_command_in_the_srd_2024_phase_table():
    t = Table()
    t.add(pc("aria"), monster("ogre"))
    t.rejects(StandUp(combatant="aria"), "phase/not-allowed")
