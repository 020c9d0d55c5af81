"""Rules the 5e-family rulesets missed, found by independent testers: each scenario quotes the
text it holds the engine to (SRD 5.2, ConditionDescription.json and Rule.json; a5e's own text
where it differs). Every die is entered."""

from __future__ import annotations

import msgspec
import pytest

from combat.common.commands import ApplyCondition, Damage, RemoveCondition, SavingThrow
from combat.common.condition_effects import exhaustion_level, speed_of
from combat.common.events import DamageTaken, SaveMade
from combat.fivee.ability_checks import AbilityCheck, Contest
from combat.fivee.action_commands import Move, TakeAction
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.fivee.check_events import CheckMade
from combat.fivee.dying import CombatantDied
from combat.fivee.standing import StandUp
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn
from combat.kernel.decider import fold
from combat.kernel.events import CombatantSpec, ConditionApplied, ConditionSpec, DiceRolled
from tests.fivee.helpers import fight
from tests.helpers import Table, monster, of_type, pc

FIVE_E = ("srd-2024", "srd-2024-variant", "a5e")


def _fight(ruleset: str = "srd-2024", *specs: CombatantSpec) -> Table:
    """The fight under way at the first combatant's turn, initiative in the order given: Aria
    and an ogre unless told."""
    return fight(ruleset, *(specs or (pc("aria"), monster("ogre", max_hp=59))))


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
    """ "Multiple instances of Resistance or Vulnerability that affect the same damage type
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
    """ "... while the source of fear is within line of sight": the engine has no line of sight,
    so the GM says so: a `roll_mode` given stands as given."""
    t = _fight()
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="frightened", source="ogre")))
    [check] = of_type(t.do(AbilityCheck(combatant="aria", ability="wis", roll_mode="normal", faces=(17,))), CheckMade)
    assert check.total == 17


def test_a_poisoned_creature_in_a_contest_rolls_with_disadvantage_and_its_opponent_does_not():
    """The ogre grapples: its Athletics against Aria's Acrobatics, Aria Poisoned."""
    t = _fight()
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="poisoned")))
    events = t.do(
        Contest(
            combatant="ogre",
            ability="str",
            skill="athletics",
            faces=(9,),
            bonus=6,
            opponent="aria",
            opponent_ability="dex",
            opponent_skill="acrobatics",
            opponent_faces=(18, 3),
        )
    )
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
    """ "If your Speed is 0, you can't right yourself." Aria (Speed 30) has moved 20 ft: 10 left,
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


# -- Exhaustion ------------------------------------------------------------------------------------

EXHAUSTION = ConditionSpec(name="exhaustion", source="forced march")


def _exhausted(t: Table, cid: str, times: int) -> None:
    for _ in range(times):
        t.do(ApplyCondition(target=cid, condition=EXHAUSTION))


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_exhaustion_given_twice_is_level_2_on_one_entry(ruleset):
    """ "This condition is cumulative. Each time you receive it, you gain 1 Exhaustion level."""
    t = _fight(ruleset)
    _exhausted(t, "aria", 2)
    assert [(c.name, c.level) for c in t["aria"].conditions] == [("exhaustion", 2)]
    assert exhaustion_level(t["aria"]) == 2
    assert t.rebuilt() == t.state


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_an_exhausted_fighters_attack_roll_is_reduced_by_twice_her_level(ruleset):
    """ "When you make a D20 Test, the roll is reduced by 2 times your Exhaustion level."
    Level 2, Longsword +5: a 10 totals 11, short of the ogre's AC 15... and 13 misses too."""
    t = _fight(ruleset)
    _exhausted(t, "aria", 2)
    attack = Attack(attacker="aria", target="ogre", faces=(13,), damage_faces=(5,))
    if ruleset == "a5e":
        from combat.rulesets.a5e.attacks import MakeAttack  # a5e attacks with its own command

        attack = MakeAttack(attacker="aria", target="ogre", faces=(13,), damage_faces=(5,))  # type: ignore[assignment]
    events = t.do(attack)
    assert of_type(events, DiceRolled)[0].notation == "1d20+1"
    [made] = of_type(events, AttackMade)
    assert (made.total, made.hit) == (14, False)


def test_an_exhausted_creatures_saves_and_checks_are_reduced_too():
    """Saving throws and ability checks are D20 Tests. Level 1: a 12 with +2 (con_save) is 12."""
    t = _fight()
    _exhausted(t, "aria", 1)
    [save] = of_type(t.do(SavingThrow(combatant="aria", ability="con", dc=13, faces=(12,))), SaveMade)
    assert (save.total, save.success) == (12, False)
    [check] = of_type(t.do(AbilityCheck(combatant="aria", ability="wis", faces=(12,))), CheckMade)
    assert check.total == 10


def test_an_exhausted_creatures_speed_is_reduced_by_5_ft_a_level_from_its_next_turn():
    """ "Your Speed is reduced by a number of feet equal to 5 times your Exhaustion level."
    Level 3 given on the ogre's turn: Aria's next turn grants 30 - 15 = 15 ft, and a Dash adds 15."""
    t = _fight()
    t.do(EndTurn(combatant="aria"))
    _exhausted(t, "aria", 3)
    t.do(EndTurn(combatant="ogre"))
    assert t.state.turn == "aria" and t["aria"].economy.movement == 15
    t.rejects(Move(combatant="aria", feet=20), "economy/movement")
    t.do(TakeAction(combatant="aria", action="dash"))
    assert t["aria"].economy.movement == 30
    assert t.rebuilt() == t.state


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_creature_dies_at_exhaustion_level_6(ruleset):
    """ "You die if your Exhaustion level is 6." The ogre, at full Hit Points, dies."""
    t = _fight(ruleset)
    _exhausted(t, "ogre", 5)
    assert t["ogre"].status == "active"
    events = t.do(ApplyCondition(target="ogre", condition=EXHAUSTION))
    assert of_type(events, CombatantDied) == [CombatantDied(combatant="ogre", cause="Exhaustion level 6")]
    assert t["ogre"].status == "dead" and t.state.phase == "ended"


def test_the_gm_removes_exhaustion_whole_and_a_level_is_not_given_by_hand():
    """ "Finishing a Long Rest removes 1 of your Exhaustion levels" is outside the fight: the
    GM's remove_condition ends the condition, every level. On her own turn she moves at her
    full Speed again."""
    t = _fight()
    _exhausted(t, "aria", 2)
    t.do(RemoveCondition(target="aria", condition="Exhaustion"))
    assert t["aria"].conditions == () and exhaustion_level(t["aria"]) == 0
    t.rejects(ApplyCondition(target="aria", condition=ConditionSpec(name="exhaustion", level=3)), "condition/level")


def test_exhaustion_recorded_before_it_had_levels_folds_as_it_did():
    """An old log gave Exhaustion twice as two plain entries, with no effect: they still have
    none (no penalty, full Speed), and the next Exhaustion given is level 1."""
    t = _fight()
    old = ConditionApplied(target="aria", condition=EXHAUSTION)
    t.state = fold(t.ruleset, [old, old], t.state)
    assert [c.level for c in t["aria"].conditions] == [msgspec.UNSET, msgspec.UNSET]
    assert exhaustion_level(t["aria"]) == 0 and speed_of(t["aria"]) == 30
    t.do(ApplyCondition(target="aria", condition=EXHAUSTION))
    assert exhaustion_level(t["aria"]) == 1
    assert msgspec.json.encode(old) == msgspec.json.encode(msgspec.json.decode(msgspec.json.encode(old), type=ConditionApplied))
    assert b"level" not in msgspec.json.encode(old)


def test_declared_d10_keeps_exhaustion_as_it_was():
    """declared-d10 takes the shared condition rule but not the 5e 0 HP rules: no levels."""
    from combat.rulesets.declared_d10.surprise import D10StartNormalRound

    t = Table("declared-d10")
    t.add(pc("aria"), monster("ogre"))
    t.do(BeginCombat())
    t.do(D10StartNormalRound())
    t.do(ApplyCondition(target="aria", condition=EXHAUSTION))
    t.do(ApplyCondition(target="aria", condition=EXHAUSTION))
    assert [c.level for c in t["aria"].conditions] == [msgspec.UNSET, msgspec.UNSET]
