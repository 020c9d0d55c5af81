"""Abilities named the way a table names them (`dex`, `DEX`, `Dexterity`), and the bonus a
save or check adds when the GM leaves it out: the creature's own, from its stat block.

SRD 5.2, Ability Scores and Modifiers: "Strength, Dexterity, Constitution, Intelligence,
Wisdom, Charisma"; Saving Throw: "d20 + ability modifier + Proficiency Bonus if proficient"
(a stat block's Saves line adds them up). Every die is entered."""

from __future__ import annotations

import pytest

from combat.common.commands import ApplyCondition, SavingThrow
from combat.common.events import SaveMade, SaveRolled
from combat.fivee.ability_checks import AbilityCheck, Contest
from combat.fivee.check_events import CheckMade
from combat.fivee.gm_edit_commands import JudgeSave
from combat.fivee.judged_saves import rolled_saves_of
from combat.fivee.monsters import AddCreature
from combat.kernel.events import CombatantSpec, ConditionSpec, DiceRolled
from tests.fivee.helpers import fight
from tests.helpers import Table, monster, of_type, pc

FIVE_E = ("srd-2024", "srd-2024-variant", "a5e")
SIX = "strength, dexterity, constitution, intelligence, wisdom, charisma"
DEX_SPELLINGS = ("dex", "DEX", "Dexterity", "dexterity", " Dex ")
STR_SPELLINGS = ("str", "STR", "Strength", "strength")


def _table(ruleset: str = "srd-2024", *specs: CombatantSpec) -> Table:
    """The fight under way, initiative in the order given (20, 19...): Mozzie and the hag unless told."""
    return fight(ruleset, *(specs or (pc("mozzie"), monster("hag", max_hp=82))))


def _goblin(ruleset: str = "srd-2024") -> Table:
    t = _table(ruleset)
    t.do(AddCreature(creature="Goblin Warrior", side="monsters"))
    return t


# -- the conditions see the ability whatever its spelling ---------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
@pytest.mark.parametrize("condition", ["paralyzed", "stunned", "petrified", "unconscious"])
@pytest.mark.parametrize("spelling", DEX_SPELLINGS + STR_SPELLINGS)
def test_a_paralyzed_stunned_petrified_or_unconscious_creature_fails_a_dex_or_str_save_however_it_is_spelt(
    ruleset, condition, spelling
):
    """Paralyzed, Petrified, Stunned, Unconscious: "You automatically fail Strength and
    Dexterity saving throws." `dex` is a Dexterity saving throw."""
    t = _table(ruleset)
    t.do(ApplyCondition(target="mozzie", condition=ConditionSpec(name=condition)))
    [save] = of_type(t.do(SavingThrow(combatant="mozzie", ability=spelling, dc=10)), SaveMade)
    assert save.ability == ("dexterity" if spelling.strip().lower().startswith("d") else "strength")
    assert save.success is False and "automatically fails" in save.reason


@pytest.mark.parametrize("ruleset", FIVE_E)
@pytest.mark.parametrize("spelling", DEX_SPELLINGS)
def test_a_restrained_creature_has_disadvantage_on_a_dex_save_however_it_is_spelt(ruleset, spelling):
    """Restrained: "You have Disadvantage on Dexterity saving throws." Faces 5 and 18: the 5."""
    t = _table(ruleset)
    t.do(ApplyCondition(target="mozzie", condition=ConditionSpec(name="restrained")))
    events = t.do(SavingThrow(combatant="mozzie", ability=spelling, dc=10, faces=(5, 18)))
    assert of_type(events, DiceRolled)[0].notation.startswith("2d20kl1")
    [save] = of_type(events, SaveMade)
    assert (save.ability, save.total, save.success) == ("dexterity", 5, False)


def test_a_save_rolled_without_a_dc_records_the_full_name_and_judge_save_finds_it_by_any_spelling():
    t = _table()
    [rolled] = of_type(t.do(SavingThrow(combatant="mozzie", ability="WIS", faces=(12,))), SaveRolled)
    assert rolled.ability == "wisdom"
    [save] = of_type(t.do(JudgeSave(combatant="mozzie", ability="Wis", dc=12)), SaveMade)
    assert (save.ability, save.success) == ("wisdom", True)
    assert rolled_saves_of(t.state) == ()


@pytest.mark.parametrize("name", ["bogus", "wisdome", "", "dexterityy"])
def test_an_unknown_ability_is_refused_with_the_six(name):
    t = _table()
    error = t.rejects(SavingThrow(combatant="mozzie", ability=name, dc=10, faces=(10,)), "save/ability")
    assert error.allowed == SIX
    error = t.rejects(AbilityCheck(combatant="mozzie", ability=name, faces=(10,)), "check/ability")
    assert error.allowed == SIX
    error = t.rejects(
        Contest(combatant="mozzie", ability="str", opponent="hag", opponent_ability=name, faces=(10,), opponent_faces=(10,)),
        "check/ability",
    )
    t.do(SavingThrow(combatant="mozzie", ability="wis", faces=(12,)))
    t.rejects(JudgeSave(combatant="mozzie", ability=name, dc=12), "save/ability")


def test_a_contest_reads_both_abilities_in_any_spelling():
    """The hag's Strength (Athletics) against Mozzie's Dexterity (Acrobatics)."""
    t = _table()
    events = t.do(
        Contest(
            combatant="hag",
            ability="STR",
            skill="athletics",
            faces=(14,),
            opponent="mozzie",
            opponent_ability="Dex",
            opponent_skill="acrobatics",
            opponent_faces=(9,),
        )
    )
    assert [c.skill for c in of_type(events, CheckMade)] == ["strength (athletics)", "dexterity (acrobatics)"]


# -- the bonus from the stat block ---------------------------------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_goblin_warriors_dexterity_save_adds_its_plus_2(ruleset):
    """Goblin Warrior: "Dex 15 ... Saves Dex +2". Face 11 + 2 = 13 against DC 13: a success."""
    t = _goblin(ruleset)
    events = t.do(SavingThrow(combatant="goblin-warrior", ability="dex", dc=13, faces=(11,)))
    assert of_type(events, DiceRolled)[0].notation == "1d20+2"
    [save] = of_type(events, SaveMade)
    assert (save.ability, save.total, save.success) == ("dexterity", 13, True)


def test_a_bonus_the_gm_gives_replaces_the_stat_blocks():
    t = _goblin()
    [save] = of_type(t.do(SavingThrow(combatant="goblin-warrior", ability="dex", dc=13, bonus=0, faces=(11,))), SaveMade)
    assert (save.total, save.success) == (11, False)


def test_a_goblin_warriors_wisdom_save_is_minus_1_and_its_checks_use_its_modifiers():
    """Wis 8: "Saves ... Wis -1"; a Dexterity (Stealth) check with no Skills line entry: Dex 15, +2."""
    t = _goblin()
    [save] = of_type(t.do(SavingThrow(combatant="goblin-warrior", ability="Wisdom", dc=10, faces=(10,))), SaveMade)
    assert save.total == 9
    [check] = of_type(t.do(AbilityCheck(combatant="goblin-warrior", ability="dex", skill="stealth", faces=(10,))), CheckMade)
    assert check.total == 12


def test_a_homebrew_block_without_saves_reads_its_scores_and_its_skills_line():
    """A block that lists no saves: the ability modifier of its score (Con 16: +3); a skill it
    lists (Perception +5) adds that, another check the modifier (Wis 12: +1)."""
    t = _table()
    block = {
        "name": "Cave Bear",
        "ac": 12,
        "hp": 42,
        "abilities": {"constitution": 16, "wisdom": 12},
        "skills": {"perception": 5},
    }
    t.do(AddCreature(creature=block, side="monsters"))
    [save] = of_type(t.do(SavingThrow(combatant="cave-bear", ability="con", dc=13, faces=(10,))), SaveMade)
    assert (save.total, save.success) == (13, True)
    [seen] = of_type(t.do(AbilityCheck(combatant="cave-bear", ability="wis", skill="Perception", faces=(10,))), CheckMade)
    assert seen.total == 15
    [plain] = of_type(t.do(AbilityCheck(combatant="cave-bear", ability="wis", faces=(10,))), CheckMade)
    assert plain.total == 11


def test_a_combatant_entered_by_hand_adds_its_con_save_to_constitution_and_nothing_else():
    t = _table()
    [con] = of_type(t.do(SavingThrow(combatant="mozzie", ability="CON", dc=12, faces=(10,))), SaveMade)
    [dex] = of_type(t.do(SavingThrow(combatant="mozzie", ability="dex", dc=12, faces=(10,))), SaveMade)
    assert (con.total, dex.total) == (12, 10)


def test_a_player_rolls_their_own_save_with_the_sheets_bonus_but_may_not_set_one():
    t = _table("srd-2024", pc("mozzie", player="ann"), monster("hag"))
    [save] = of_type(t.do(SavingThrow(combatant="mozzie", ability="con", faces=(10,)), actor="ann"), SaveRolled)
    assert save.total == 12
    t.rejects(SavingThrow(combatant="mozzie", ability="con", bonus=5, faces=(10,)), "command/gm-field", actor="ann")
    t.rejects(AbilityCheck(combatant="mozzie", ability="dex", bonus=5, faces=(10,)), "command/gm-field", actor="ann")
