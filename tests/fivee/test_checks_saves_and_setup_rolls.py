"""Ability checks outside any action, contests, saving throws without a DC, and initiative
rolled in set-up (srd-2024, the variant and a5e)."""

from __future__ import annotations

import pytest

from combat.common.commands import ApplyCondition, SavingThrow
from combat.common.events import SaveMade, SaveRolled
from combat.fivee.ability_checks import AbilityCheck, Contest, ContestDecided
from combat.fivee.check_events import CheckMade
from combat.fivee.gm_edit_commands import JudgeSave
from combat.fivee.initiative import RollInitiative
from combat.fivee.judged_saves import rolled_saves_of
from combat.kernel.commands import AddCombatant, BeginCombat, MarkSurprised
from combat.kernel.decider import fold
from combat.kernel.errors import OutOfPhase
from combat.kernel.events import ConditionSpec, DiceRolled, InitiativeSet, TurnStarted
from tests.helpers import Table, monster, of_type, pc, stored_fight


def _fight(ruleset: str = "srd-2024") -> Table:
    t = Table.as_rolled(ruleset)
    t.add(pc("mozzie"), monster("hag", max_hp=82))
    return t.start({"mozzie": 15, "hag": 10})


def test_an_ability_check_outside_any_action_succeeds_against_a_dc():
    """'An ability check is named for the ability modifier it uses'; 'if a rule refers to a
    Strength (Acrobatics or Athletics) check, you can add your Proficiency Bonus'."""
    t = _fight()
    events = t.do(AbilityCheck(combatant="mozzie", ability="wis", skill="Perception", bonus=4, dc=15, faces=(11,)))
    assert of_type(events, DiceRolled)[0].purpose == "wisdom (perception) check"
    assert of_type(events, CheckMade) == [
        CheckMade(combatant="mozzie", skill="wisdom (perception)", total=15, dc=15, success=True)
    ]
    assert t["mozzie"].economy.action, "a check the GM calls for spends no action"


def test_a_check_without_a_dc_is_recorded_for_the_gm_and_any_phase_before_the_end_allows_it():
    t = Table()
    t.add(pc("mozzie"), monster("hag"))
    [check] = of_type(t.do(AbilityCheck(combatant="hag", ability="charisma", faces=(7,))), CheckMade)
    assert check.dc is None and check.success is None and check.total == 7


def test_unknown_abilities_and_skills_are_refused_with_the_lists():
    t = _fight()
    error = t.rejects(AbilityCheck(combatant="mozzie", ability="luck", faces=(3,)), "check/ability")
    assert "strength" in error.allowed
    error = t.rejects(AbilityCheck(combatant="mozzie", ability="intelligence", skill="engineering", faces=(3,)), "check/skill")
    assert "investigation" in error.allowed


def test_a5e_knows_its_own_skills():
    t = _fight("a5e")
    [check] = of_type(t.do(AbilityCheck(combatant="mozzie", ability="int", skill="engineering", faces=(3,))), CheckMade)
    assert check.skill == "intelligence (engineering)"


def test_a_contest_is_won_by_the_higher_total():
    """'The participant with the higher check total wins the contest' (the hag's Athletics
    against Mozzie's Acrobatics)."""
    t = _fight()
    events = t.do(
        Contest(
            combatant="hag",
            ability="strength",
            skill="athletics",
            bonus=5,
            faces=(9,),
            opponent="mozzie",
            opponent_ability="dexterity",
            opponent_skill="acrobatics",
            opponent_bonus=6,
            opponent_faces=(7,),
        )
    )
    assert [c.total for c in of_type(events, CheckMade)] == [14, 13]
    assert of_type(events, ContestDecided) == [
        ContestDecided(combatant="hag", opponent="mozzie", total=14, opponent_total=13, winner="hag")
    ]


def test_a_tied_contest_changes_nothing():
    """'If the contest results in a tie, the situation remains the same as it was before the contest.'"""
    t = _fight()
    [decided] = of_type(
        t.do(
            Contest(combatant="hag", ability="str", faces=(10,), opponent="mozzie", opponent_ability="dex", opponent_faces=(10,))
        ),
        ContestDecided,
    )
    assert decided.winner is None


def test_each_side_of_a_contest_may_roll_with_advantage():
    """Help: the ally 'has Advantage on the next ability check it makes' for the task; Mozzie's
    better die of 2 and 8 gives 14, short of the hag's 15."""
    t = _fight()
    events = t.do(
        Contest(
            combatant="hag",
            ability="str",
            bonus=3,
            faces=(12,),
            opponent="mozzie",
            opponent_ability="dex",
            opponent_bonus=6,
            opponent_roll_mode="advantage",
            opponent_faces=(2, 8),
        )
    )
    assert [d.notation for d in of_type(events, DiceRolled)] == ["1d20+3", "2d20kh1+6"]
    assert of_type(events, ContestDecided)[0].winner == "hag"


def test_a_contest_needs_two_combatants_and_both_players_consent_as_actors():
    t = _fight()
    t.rejects(Contest(combatant="hag", ability="str", opponent="hag", opponent_ability="str"), "contest/self")
    t.rejects(Contest(combatant="hag", ability="str", opponent="nobody", opponent_ability="str"), "combatant/unknown")
    assert Contest(combatant="hag", ability="str", opponent="mozzie", opponent_ability="dex").actors() == {"hag", "mozzie"}


@pytest.mark.parametrize("ruleset", ["srd-2024", "srd-2024-variant", "a5e"])
def test_a_saving_throw_without_a_dc_is_recorded_and_ruled_on_later(ruleset):
    """The hag's Illusory Appearance: the GM keeps the DC behind the screen."""
    t = _fight(ruleset)
    events = t.do(SavingThrow(combatant="mozzie", ability="wisdom", bonus=1, faces=(13,), reason="see through the illusion"))
    assert of_type(events, SaveRolled) == [
        SaveRolled(combatant="mozzie", ability="wisdom", total=14, natural=13, reason="see through the illusion", awaits_dc=True)
    ]
    assert not of_type(events, SaveMade)
    [made] = of_type(t.do(SavingThrow(combatant="mozzie", ability="wisdom", dc=12, faces=(11,))), SaveMade)
    assert made.total == 11 and not made.success, "with a DC the save is judged at once, as before"
    # The GM reveals the DC: the 14 rolled meets it.
    assert t.do(JudgeSave(combatant="mozzie", dc=14)) == [
        SaveMade(
            combatant="mozzie",
            ability="wisdom",
            dc=14,
            total=14,
            success=True,
            reason="see through the illusion",
            judged_later=True,
        )
    ]
    assert rolled_saves_of(t.state) == () and t.rebuilt() == t.state
    t.rejects(JudgeSave(combatant="mozzie", dc=14), "save/none-to-judge")


@pytest.mark.parametrize("ruleset", ["srd-2024", "srd-2024-variant", "a5e"])
def test_judge_save_picks_the_save_by_ability_and_refuses_what_is_not_waiting(ruleset):
    """Two saves rolled behind the screen; the GM judges the Constitution one first."""
    t = _fight(ruleset)
    t.do(SavingThrow(combatant="hag", ability="constitution", faces=(9,)))
    t.do(SavingThrow(combatant="hag", ability="wisdom", faces=(4,)))
    t.rejects(JudgeSave(combatant="mozzie", dc=10), "save/none-to-judge")
    t.rejects(JudgeSave(combatant="hag", ability="dexterity", dc=10), "save/none-to-judge")
    t.rejects(JudgeSave(combatant="hag", dc=0), "save/dc")
    [con] = of_type(t.do(JudgeSave(combatant="hag", ability="CONSTITUTION", dc=10, reason="Stinking Cloud")), SaveMade)
    assert (con.ability, con.total, con.success, con.reason) == ("constitution", 9, False, "Stinking Cloud")
    [wis] = of_type(t.do(JudgeSave(combatant="hag", dc=4)), SaveMade)
    assert (wis.ability, wis.success) == ("wisdom", True)


def test_a_save_rolled_while_paralyzed_fails_a_strength_or_dexterity_dc_whatever_it_shows():
    """Paralyzed: 'You automatically fail Strength and Dexterity saving throws.'"""
    t = _fight()
    t.do(ApplyCondition(target="hag", condition=ConditionSpec(name="paralyzed")))
    t.do(SavingThrow(combatant="hag", ability="dexterity", faces=(20,)))
    [made] = of_type(t.do(JudgeSave(combatant="hag", dc=5, reason="Lightning Bolt")), SaveMade)
    assert not made.success and made.reason == "Lightning Bolt, automatically fails: paralyzed"


def test_a_failed_save_judged_later_may_be_turned_by_legendary_resistance():
    """Legendary Resistance: 'If the dragon fails a saving throw, it can choose to succeed
    instead': a save whose DC is set after the roll is a saving throw like any other."""
    from combat.fivee.legendary_resistance import LegendaryResistanceUsed, UseLegendaryResistance
    from combat.fivee.monsters import AddCreature

    t = Table()
    t.add(pc("mozzie"))
    t.do(AddCreature(creature="Adult Red Dragon", side="dragon"))
    t.start({"mozzie": 15, "adult-red-dragon": 10})
    t.rejects(UseLegendaryResistance(combatant="adult-red-dragon"), "legendary/no-failed-save")
    t.do(SavingThrow(combatant="adult-red-dragon", ability="wisdom", bonus=7, faces=(5,), reason="Hold Monster"))
    [made] = of_type(t.do(JudgeSave(combatant="adult-red-dragon", dc=15)), SaveMade)
    assert (made.total, made.success) == (12, False)
    [used] = of_type(t.do(UseLegendaryResistance(combatant="adult-red-dragon")), LegendaryResistanceUsed)
    assert (used.ability, used.dc) == ("wisdom", 15)


def test_a_save_rolled_before_judge_save_existed_waits_for_nothing():
    """Old logs fold as they did: their SaveRolled has no `awaits_dc`, and the state keeps nothing."""
    t = _fight()
    before = t.state
    old = SaveRolled(combatant="mozzie", ability="wisdom", total=14, natural=13)
    t.state = fold(t.ruleset, [old], t.state)
    t.events.append(old)
    assert t.state.rules == before.rules
    t.rejects(JudgeSave(combatant="mozzie", dc=10), "save/none-to-judge")


@pytest.mark.parametrize("ruleset", ["srd-2024", "srd-2024-variant"])
def test_initiative_rolled_in_set_up_stands_when_combat_begins(ruleset):
    """Avrae rolls initiative as each character joins; those rolls stand and round 1 begins
    once everyone has rolled."""
    t = Table.as_rolled(ruleset)
    t.do(AddCombatant(combatant=pc("mozzie", initiative_bonus=3)))
    [rolled] = of_type(t.do(RollInitiative(combatant="mozzie", faces=(12,))), InitiativeSet)
    assert rolled.total == 15 and t.state.phase == "setup"
    t.do(AddCombatant(combatant=monster("hag", initiative_bonus=1)))
    t.do(RollInitiative(combatant="hag", faces=(16,)))
    t.do(BeginCombat())
    error = t.rejects(MarkSurprised(combatants=("mozzie",)), "surprise/too-late")
    assert "already rolled" in error.message
    events = t.do(RollInitiative())
    assert not of_type(events, DiceRolled), "nobody rolls again"
    assert t.state.phase == "turns" and of_type(events, TurnStarted) == [TurnStarted(combatant="hag", round=1)]
    assert t["mozzie"].initiative == 15


def test_in_set_up_those_who_did_not_roll_yet_roll_when_combat_begins():
    t = Table()
    t.add(pc("mozzie"), monster("hag"))
    t.do(RollInitiative(combatant="mozzie", faces=(12,)))
    t.do(BeginCombat())
    t.do(RollInitiative(combatant="hag", faces=(4,)))
    assert t.state.phase == "turns" and t.state.turn == "mozzie"


def test_a5e_takes_no_initiative_in_set_up_because_its_surprise_checks_come_first():
    """a5e: initiative checks follow the surprise step, whose checks are reused as initiative."""
    t = Table("a5e")
    t.add(pc("mozzie"), monster("hag"))
    with pytest.raises(OutOfPhase):
        t.do(RollInitiative(combatant="mozzie", faces=(12,)))


def test_amending_the_roll_behind_a_judged_save_makes_the_judgement_a_conflict(encounters):
    """After a change to the past, a save judged against a roll that came out otherwise no
    longer fits: the history reports it, as for any event the rules would not now allow."""
    eid = stored_fight(encounters, "behind the screen", (pc("mozzie"), monster("hag", max_hp=82)), {"mozzie": 15, "hag": 10})
    encounters.execute(eid, SavingThrow(combatant="mozzie", ability="wisdom", bonus=1, faces=(13,)))
    encounters.execute(eid, JudgeSave(combatant="mozzie", dc=14, reason="Illusory Appearance"))
    seq = next(r.seq for r in encounters.records(eid) if isinstance(r.event, SaveRolled))
    outcome = encounters.amend(
        eid, [seq - 1, seq], SavingThrow(combatant="mozzie", ability="wisdom", bonus=1, faces=(3,)), reason="it was a 3"
    )
    [conflict] = outcome.state.conflicts
    assert conflict.type == "SaveMade" and "came to 4, not 14" in conflict.problem
