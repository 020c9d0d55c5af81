"""segments-1e: entering first-edition stat blocks."""

import pytest

from combat.kernel.commands import BeginCombat
from combat.rulesets.segments_1e.commands import AddCreature
from tests.rulesets.segments_1e.helpers import CLAW_CLAW_BITE, fighter, stats, table


@pytest.mark.parametrize("ac", [11, -11])
def test_armor_class_stays_on_the_scale_from_10_to_minus_10(ac):
    """'The scale for armor class is -10 to 0 to 10 with 10 being the worst value possible'."""
    table().rejects(AddCreature(creature=stats("orc", ac=ac)), "creature/invalid")


def test_a_creature_needs_hit_points_or_hit_dice_to_roll_them():
    table().rejects(AddCreature(creature=stats("orc", hp=None)), "creature/invalid")


def test_a_creature_with_attacks_needs_an_attack_table():
    err = table().rejects(AddCreature(creature=stats("orc", routines=(CLAW_CLAW_BITE,))), "creature/no-attack-table")
    assert "aac0" in err.allowed


def test_a_class_without_a_table_is_refused():
    """'For character classes without a chart simply pick a chart with the same Attack AC 0':
    the GM gives that as aac0."""
    err = table().rejects(
        AddCreature(creature=stats("bard", character_class="Bard", level=3, routines=(CLAW_CLAW_BITE,))), "creature/class"
    )
    assert "aac0" in err.allowed
    table().do(AddCreature(creature=stats("bard", aac0=20, routines=(CLAW_CLAW_BITE,))))


def test_hit_dice_must_be_readable():
    table().rejects(AddCreature(creature=stats("orc", hit_dice="four"), hp_faces=None), "creature/hit-dice")


def test_a_fight_needs_two_sides():
    table(fighter()).rejects(BeginCombat(), "combat/one-side")


def test_no_dice_are_rolled_for_hit_points_that_were_given():
    table().rejects(AddCreature(creature=stats("orc", hp=6, hit_dice="1"), hp_faces=(4,)), "dice/unused-faces")
