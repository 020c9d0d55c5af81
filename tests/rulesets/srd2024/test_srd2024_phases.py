"""srd-2024 phases: set-up -> surprise -> initiative -> turns -> ended.

"Combat unfolds in these steps: 1: Establish Positions. 2: Roll Initiative. 3: Take Turns."
"""

from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack
from combat.fivee.initiative import OrderTie, RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndCombat, EndTurn, MarkSurprised, RemoveCombatant, Ruling
from combat.kernel.events import PhaseChanged, RoundStarted, TurnStarted
from tests.helpers import Table, monster, of_type, pc


def _two_sides() -> Table:
    return Table().add(pc("aria", initiative_bonus=2), monster("goblin"))


def test_an_encounter_starts_in_set_up_where_the_gm_places_combatants():
    """'1: Establish Positions. The Game Master determines where all the characters and monsters are.'"""
    t = _two_sides()
    assert t.state.phase == "setup"
    t.do(RemoveCombatant(combatant="goblin", reason="fled before the fight"))
    assert "goblin" not in t.state.combatants


def test_beginning_combat_moves_from_set_up_to_surprise():
    """Positions are established; next the GM decides who is surprised."""
    t = _two_sides()
    events = t.do(BeginCombat())
    assert of_type(events, PhaseChanged) == [PhaseChanged(previous="setup", phase="surprise")]
    assert t.state.phase == "surprise"


def test_combat_cannot_begin_with_only_one_side():
    """'A typical combat encounter is a clash between two sides.'"""
    t = Table().add(pc("aria"), pc("bram"))
    error = t.rejects(BeginCombat(), "combat/one-side")
    assert "add_combatant" in (error.allowed or "")


def test_the_first_initiative_roll_moves_from_surprise_to_initiative():
    """'2: Roll Initiative. Everyone involved in the combat encounter rolls Initiative.'"""
    t = _two_sides()
    t.do(BeginCombat())
    events = t.do(RollInitiative(combatant="aria", faces=(11,)))
    assert of_type(events, PhaseChanged) == [PhaseChanged(previous="surprise", phase="initiative")]
    assert t.state.phase == "initiative" and t.state.round == 0


def test_turns_begin_by_themselves_once_everyone_has_rolled():
    """'3: Take Turns. Each participant in the battle takes a turn in Initiative order.'"""
    t = _two_sides()
    t.do(BeginCombat())
    t.do(RollInitiative(combatant="aria", faces=(11,)))
    events = t.do(RollInitiative(combatant="goblin", faces=(4,)))
    assert PhaseChanged(previous="initiative", phase="turns") in events
    assert of_type(events, RoundStarted) == [RoundStarted(round=1)]
    assert of_type(events, TurnStarted) == [TurnStarted(combatant="aria", round=1)]
    assert t.state.phase == "turns"


def test_a_command_outside_its_phase_is_rejected_naming_the_phase_and_what_it_allows():
    """Attacks belong to the turns phase; in set-up the GM arranges the fight, and may already
    take initiative rolls, edit stat blocks, call for checks and record a ritual cast before the fight."""
    t = _two_sides()
    error = t.rejects(Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(4,)), "phase/not-allowed")
    assert "setup" in error.message
    assert error.allowed is not None
    assert error.allowed.split(", ") == [
        "add_combatant",
        "add_creature",
        "add_character",
        "remove_combatant",
        "treat_as_character",
        "begin_combat",
        "cast_spell",
        "roll_initiative",
        "set_hp",
        "change_stat_block",
        "ability_check",
        "contest",
        "ruling",
    ]


def test_nobody_is_marked_surprised_once_turns_have_begun():
    """Surprise is decided 'by combat starting', so it belongs before initiative."""
    t = _two_sides().start({"aria": 11, "goblin": 4})
    error = t.rejects(MarkSurprised(combatants=("goblin",)), "phase/not-allowed")
    assert "turns" in error.message and "mark_surprised" not in (error.allowed or "")


def test_the_surprise_phase_allows_marking_surprise_rolling_initiative_and_rulings():
    """Before initiative nobody takes turns: no movement yet."""
    t = _two_sides()
    t.do(BeginCombat())
    error = t.rejects(Move(combatant="aria", feet=5), "phase/not-allowed")
    assert "surprise" in error.message
    assert error.allowed.split(", ") == [
        "add_combatant",
        "add_creature",
        "add_character",
        "treat_as_character",
        "mark_surprised",
        "roll_initiative",
        "set_hp",
        "change_stat_block",
        "ability_check",
        "contest",
        "ruling",
        "end_combat",
    ]


def test_a_tie_cannot_be_ordered_before_initiative_is_rolled():
    """There are no ties before anyone has rolled Initiative."""
    t = _two_sides()
    t.rejects(OrderTie(order=("aria", "goblin")), "phase/not-allowed")


def test_combatants_cannot_be_removed_once_the_fight_has_begun():
    """A fallen creature stays in the log; removal is for set-up mistakes."""
    t = _two_sides().start({"aria": 11, "goblin": 4})
    t.rejects(RemoveCombatant(combatant="goblin"), "phase/not-allowed")


def test_after_the_fight_only_rulings_are_allowed():
    """Combat has ended; the GM may still write down rulings for the record."""
    t = _two_sides().start({"aria": 11, "goblin": 4})
    t.do(EndCombat(reason="the goblin surrenders", winner="party"))
    assert t.state.phase == "ended"
    error = t.rejects(EndTurn(combatant="aria"), "phase/not-allowed")
    assert "ended" in error.message and error.allowed == "ruling"
    t.rejects(AddCombatant(combatant=pc("late")), "phase/not-allowed")
    t.do(Ruling(text="the goblin is tied up and questioned"))
    assert t.rebuilt() == t.state
