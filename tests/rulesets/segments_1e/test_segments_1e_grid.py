"""segments-1e: the battle map - 5-ft squares, center-to-center distance, room to swing."""

import pytest

from combat.rulesets.segments_1e.commands import AddCreature, DescribeBattlefield, MoveTo, RoutineAttack
from combat.rulesets.segments_1e.events import CreatureMoved, FreeAttackOpened
from combat.rulesets.segments_1e.grid import distance_ft
from tests.helpers import of_type
from tests.rulesets.segments_1e.helpers import SHORTBOW, TWO_HANDED, begin, declare, done, fighter, initiative, mage, orc, table


@pytest.mark.parametrize("there, feet", [((1, 0), 5), ((3, 4), 25), ((6, 8), 50), ((1, 1), 7.07)])
def test_distance_is_measured_center_to_center(there, feet):
    """'Distance is measured from "center-to-center"' on 5-ft squares."""
    assert distance_ft((0, 0), there) == pytest.approx(feet, abs=0.01)


def test_a_missile_reaches_only_as_far_as_its_range():
    archer = orc("archer", routines=(SHORTBOW,), x=0, y=0)
    t = begin(table(archer, fighter(x=30, y=1)))
    initiative(declare(t), orcs=6, party=1)
    t.rejects(RoutineAttack(attacker="archer", target="hugo", faces=(20, 20)), "attack/out-of-range")


def test_melee_needs_an_adjacent_square():
    t = begin(table(fighter(x=0, y=0), orc(x=2, y=0)))
    initiative(declare(t), party=6, orcs=1)
    t.rejects(RoutineAttack(attacker="hugo", target="orc", faces=(20,)), "attack/out-of-reach")


def test_no_combat_from_a_square_two_creatures_squeeze_into():
    """'While it is possible for two or more creatures to squeeze into such an area ... combat
    cannot take place while in the same square.'"""
    t = begin(table(fighter(x=0, y=0), mage(x=1, y=1), orc(x=2, y=1)))
    initiative(declare(t, hugo={"action": "move"}), party=6, orcs=1)
    [moved] = of_type(t.do(MoveTo(combatant="hugo", x=1, y=1)), CreatureMoved)
    assert moved.jostled == ("mira",)
    done(t, "hugo")
    t.rejects(RoutineAttack(attacker="mira", target="orc", faces=(20,)), "grid/same-square")


def test_a_foes_square_cannot_be_entered():
    t = begin(table(fighter(x=0, y=0), orc(x=1, y=0)))
    initiative(declare(t), party=6, orcs=1)
    t.rejects(MoveTo(combatant="hugo", x=1, y=0), "grid/occupied")


def test_a_big_weapon_needs_an_open_square_in_restricted_quarters():
    """'Any weapon requiring more than 4-ft. of space to use requires at least one open
    adjacent square.' In a 1-square corridor with the orc ahead and a friend behind, the
    two-handed sword (6 ft) cannot swing; the longsword (3 ft) can."""
    walls = tuple((x, y) for x in range(-1, 3) for y in (-1, 1))
    t = table(fighter(x=0, y=0, routines=(TWO_HANDED,)), mage(x=-1, y=0), orc(x=1, y=0, hp=30))
    t.do(DescribeBattlefield(restricted=True, walls=walls))
    begin(t)
    initiative(declare(t), party=6, orcs=1)
    t.rejects(RoutineAttack(attacker="hugo", target="orc", faces=(20,)), "attack/no-room")

    roomy = table(fighter(x=0, y=0), mage(x=-1, y=0), orc(x=1, y=0, hp=30))
    roomy.do(DescribeBattlefield(restricted=True, walls=walls))
    begin(roomy)
    initiative(declare(roomy), party=6, orcs=1)
    roomy.do(RoutineAttack(attacker="hugo", target="orc", faces=(20,)))


def test_the_same_big_weapon_swings_freely_in_the_open():
    t = table(fighter(x=0, y=0, routines=(TWO_HANDED,)), orc(x=1, y=0, hp=30))
    begin(t)
    initiative(declare(t), party=6, orcs=1)
    t.do(RoutineAttack(attacker="hugo", target="orc", faces=(20,)))


def test_leaving_melee_draws_a_free_attack_from_each_foe_left_behind():
    t = begin(table(fighter(x=0, y=0), orc(x=1, y=0), orc("orc-2", x=1, y=1), orc("orc-3", x=5, y=5)))
    initiative(declare(t, hugo={"action": "flee"}), party=6, orcs=1)
    opened = of_type(t.do(MoveTo(combatant="hugo", x=-3, y=0)), FreeAttackOpened)
    assert {(o.attacker, o.target) for o in opened} == {("orc", "hugo"), ("orc-2", "hugo")}


def test_walls_and_occupied_squares_are_checked_at_set_up():
    t = table(fighter(x=0, y=0))
    t.rejects(AddCreature(creature=orc(x=0, y=0)), "grid/occupied")
    t.do(DescribeBattlefield(walls=((2, 2),)))
    t.rejects(AddCreature(creature=orc(x=2, y=2)), "grid/wall")
