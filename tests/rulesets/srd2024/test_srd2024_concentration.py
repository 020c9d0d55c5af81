"""srd-2024 concentration: one effect at a time, broken by damage, another effect, incapacitation or death.

"If the effect's creator loses Concentration, the effect ends."
"""

import pytest

from combat.common.commands import ApplyCondition, ConcentrationSave, Damage, EndConcentration, GrantTempHp, StartConcentration
from combat.common.concentration import concentration_dc, pending_checks_of
from combat.common.events import ConcentrationChecked, ConcentrationCheckRequired, ConcentrationEnded, ConcentrationStarted
from combat.fivee.action_commands import TakeAction
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionSpec, DiceRolled
from tests.helpers import Table, monster, of_type, pc


def _blessing() -> Table:
    """Tomas (100 HP, Con save +2) concentrates on Bless; his turn comes first, Aria's last."""
    t = Table().add(pc("tomas", max_hp=100), monster("goblin"), monster("mage", max_hp=30), pc("aria"))
    t.start({"tomas": 15, "goblin": 10, "mage": 5, "aria": 2})
    t.do(TakeAction(combatant="tomas", action="magic", detail="Bless", concentration=True))
    return t


@pytest.mark.parametrize(("damage", "dc"), [(14, 10), (30, 15), (70, 30), (21, 10), (61, 30)])
def test_the_concentration_dc_is_10_or_half_the_damage_at_most_30(damage, dc):
    """'The DC equals 10 or half the damage taken (round down), whichever number is higher, up to a maximum DC of 30.'"""
    assert concentration_dc(damage) == dc


def test_taking_damage_calls_for_a_constitution_save():
    """'If you take damage, you must succeed on a Constitution saving throw to maintain Concentration.'"""
    t = _blessing()
    events = t.do(Damage(target="tomas", amount=30, damage_type="fire"))
    assert of_type(events, ConcentrationCheckRequired) == [ConcentrationCheckRequired(combatant="tomas", dc=15, damage=30)]
    assert [p.dc for p in pending_checks_of(t.state)] == [15]


def test_seventy_damage_calls_for_the_maximum_dc_of_30():
    """Half of 70 is 35, but 'up to a maximum DC of 30'."""
    t = _blessing()
    events = t.do(Damage(target="tomas", amount=70, damage_type="fire"))
    assert of_type(events, ConcentrationCheckRequired)[0].dc == 30


def test_a_successful_save_keeps_concentration():
    """14 damage: 'The DC equals 10 or half the damage taken' - 10; 8 + 2 meets it."""
    t = _blessing()
    t.do(Damage(target="tomas", amount=14, damage_type="fire"))
    events = t.do(ConcentrationSave(combatant="tomas", faces=(8,)))
    assert of_type(events, DiceRolled)[0].notation == "1d20+2"
    assert of_type(events, ConcentrationChecked) == [ConcentrationChecked(combatant="tomas", dc=10, total=10, success=True)]
    assert t["tomas"].concentration == "Bless" and pending_checks_of(t.state) == ()


def test_a_failed_save_ends_the_effect():
    """'If the effect's creator loses Concentration, the effect ends.'"""
    t = _blessing()
    t.do(Damage(target="tomas", amount=30, damage_type="fire"))
    events = t.do(ConcentrationSave(combatant="tomas", faces=(12,)))
    assert of_type(events, ConcentrationChecked)[0].success is False
    assert ConcentrationEnded(combatant="tomas", effect="Bless", reason="failed a DC 15 Constitution save") in events
    assert t["tomas"].concentration is None


def test_the_owed_save_must_be_made_before_the_turn_can_end():
    """The engine's choice: a concentration save owed after damage is made before the turn ends."""
    t = _blessing()
    t.do(Damage(target="tomas", amount=4, damage_type="fire", source="goblin"))
    error = t.rejects(EndTurn(combatant="tomas"), "turn/pending-save")
    assert error.allowed == "concentration_save for tomas"
    t.do(ConcentrationSave(combatant="tomas", faces=(15,)))
    t.do(EndTurn(combatant="tomas"))
    assert t.state.turn == "goblin"


def test_a_save_with_nothing_owed_is_rejected():
    """A Constitution save is owed only after taking damage."""
    t = _blessing()
    t.rejects(ConcentrationSave(combatant="tomas", faces=(15,)), "concentration/no-check")


def test_damage_soaked_by_temporary_hit_points_still_calls_for_a_save():
    """Damage taken by Temporary Hit Points is still damage taken."""
    t = _blessing()
    t.do(GrantTempHp(target="tomas", amount=10))
    events = t.do(Damage(target="tomas", amount=6, damage_type="fire"))
    assert t["tomas"].hp == 100 and of_type(events, ConcentrationCheckRequired)[0].dc == 10


def test_damage_stopped_by_immunity_calls_for_no_save():
    """'If you take damage' - immunity means no damage is taken, so no save."""
    t = Table().add(pc("tomas", immunities=("poison",)), monster("goblin")).start({"tomas": 15, "goblin": 10})
    t.do(StartConcentration(combatant="tomas", effect="Bless"))
    events = t.do(Damage(target="tomas", amount=9, damage_type="poison"))
    assert of_type(events, ConcentrationCheckRequired) == [] and pending_checks_of(t.state) == ()


def test_starting_another_concentration_effect_ends_the_first():
    """'You lose Concentration on an effect the moment you start casting a spell that requires Concentration.'"""
    t = _blessing()
    t.do(EndTurn(combatant="tomas"))
    t.do(EndTurn(combatant="goblin"))
    t.do(EndTurn(combatant="mage"))
    t.do(EndTurn(combatant="aria"))
    events = t.do(TakeAction(combatant="tomas", action="magic", detail="Spirit Guardians", concentration=True))
    assert [type(e).__name__ for e in events if isinstance(e, (ConcentrationEnded, ConcentrationStarted))] == [
        "ConcentrationEnded",
        "ConcentrationStarted",
    ]
    assert t["tomas"].concentration == "Spirit Guardians"


def test_incapacitation_ends_concentration():
    """'Your Concentration ends if you have the Incapacitated condition.'"""
    t = _blessing()
    events = t.do(ApplyCondition(target="tomas", condition=ConditionSpec(name="stunned", source="mage")))
    assert ConcentrationEnded(combatant="tomas", effect="Bless", reason="stunned") in events
    assert t["tomas"].concentration is None


def test_falling_unconscious_ends_concentration_and_drops_the_owed_save():
    """'Your Concentration ends if you have the Incapacitated condition' - Unconscious includes it."""
    t = _blessing()
    events = t.do(Damage(target="tomas", amount=100, damage_type="fire"))
    assert ConcentrationEnded(combatant="tomas", effect="Bless", reason="fell unconscious") in events
    assert pending_checks_of(t.state) == () and t["tomas"].concentration is None


def test_death_ends_concentration():
    """'Your Concentration ends if ... you die.'"""
    t = _blessing()
    t.do(StartConcentration(combatant="mage", effect="Hold Person"))
    events = t.do(Damage(target="mage", amount=30, damage_type="radiant"))
    assert ConcentrationEnded(combatant="mage", effect="Hold Person", reason="died") in events


def test_concentration_can_be_ended_at_any_time_but_only_if_there_is_some():
    """'The creator can end Concentration at any time (no action required).'"""
    t = _blessing()
    t.do(EndTurn(combatant="tomas"))
    t.do(EndConcentration(combatant="tomas"))
    assert t["tomas"].concentration is None
    t.rejects(EndConcentration(combatant="tomas"), "concentration/none")


def test_an_unconscious_creature_cannot_start_concentrating():
    """An Incapacitated creature's Concentration ends at once, so it cannot begin one."""
    t = _blessing()
    t.do(Damage(target="tomas", amount=100, damage_type="fire"))
    t.rejects(StartConcentration(combatant="tomas", effect="Bless"), "combatant/down")
