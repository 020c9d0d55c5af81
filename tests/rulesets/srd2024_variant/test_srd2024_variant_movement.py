"""srd-2024-variant movement: special speeds, climbing, swimming, crawling, Difficult Terrain,
moving around other entities, dropping Prone."""

import pytest

from combat.common.commands import ApplyCondition
from combat.fivee.action_commands import Move, TakeAction
from combat.fivee.action_events import Moved
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionApplied, ConditionSpec
from combat.rulesets.srd2024_variant.movement import DropProne, ExtraFeetSpent, StandUpFromProne, Traverse
from combat.rulesets.srd2024_variant.traits import NoteTraits
from combat.rulesets.srd2024_variant.unarmed import UnarmedStrike
from tests.helpers import Table, monster, of_type, pc


def _field(*extra, speeds: dict | None = None) -> Table:
    """Aria (Speed 30) moves first among an ally, a goblin and whatever else stands around."""
    t = Table("srd-2024-variant", settings={"initiative_reorder": False})
    t.add(pc("aria"), pc("bram"), monster("goblin"), *extra)
    t.do(NoteTraits(combatant="aria", strength=3, proficiency=2, speeds=speeds or {}))
    return t.start({"aria": 20, "bram": 10, "goblin": 5, **{s.id: 1 for s in extra}})


def test_switching_speeds_subtracts_the_distance_already_moved():
    """'if you have a Speed of 30 and a Fly Speed of 40, you could fly 10 feet, walk 10 feet,
    and leap into the air to fly 20 feet more.'"""
    t = _field(speeds={"fly": 40})
    t.do(Traverse(combatant="aria", feet=10, mode="fly"))
    t.do(Traverse(combatant="aria", feet=10))
    t.do(Traverse(combatant="aria", feet=20, mode="fly"))
    assert t["aria"].economy.moved == 40
    t.rejects(Traverse(combatant="aria", feet=5), "economy/movement")  # walking: 30 - 40 is below 0


def test_a_creature_without_a_fly_speed_cannot_fly():
    t = _field()
    t.rejects(Move(combatant="aria", feet=10, mode="fly"), "move/no-speed")


def test_a_speed_of_zero_stops_every_special_speed():
    """'if your Speed is reduced to 0 and you have a Climb Speed, your Climb Speed is also reduced to 0.'"""
    t = _field(speeds={"climb": 30})
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="restrained")))
    t.rejects(Traverse(combatant="aria", feet=5, mode="climb"), "economy/movement")


def test_dash_adds_its_extra_movement_to_a_special_speed():
    """Dash adds movement equal to Speed (30): a Fly Speed of 40 then carries 70 ft."""
    t = _field(speeds={"fly": 40})
    t.do(TakeAction(combatant="aria", action="dash"))
    t.do(Traverse(combatant="aria", feet=70, mode="fly"))
    t.rejects(Traverse(combatant="aria", feet=5, mode="fly"), "economy/movement")


@pytest.mark.parametrize(
    ("mode", "difficult", "speeds", "cost"),
    [
        ("climb", False, {}, 20),  # 'each foot of movement costs 1 extra foot'
        ("climb", True, {}, 30),  # '... or 2 extra feet in Difficult Terrain'
        ("climb", False, {"climb": 30}, 10),  # 'You ignore this extra cost if you have a Climb Speed'
        ("climb", True, {"climb": 30}, 20),  # the Difficult Terrain foot still counts
        ("swim", False, {}, 20),
        ("swim", True, {}, 30),  # rough water
        ("swim", False, {"swim": 40}, 10),
        ("crawl", False, {}, 20),
        ("walk", True, {}, 20),  # 'Every foot of movement in Difficult Terrain costs 1 extra foot'
    ],
)
def test_what_ten_feet_of_movement_costs(mode, difficult, speeds, cost):
    t = _field(speeds=speeds)
    events = t.do(Traverse(combatant="aria", feet=10, mode=mode, difficult_terrain=difficult))
    assert of_type(events, Moved)[0].feet == 10
    assert t["aria"].economy.moved == cost
    assert sum(e.feet for e in of_type(events, ExtraFeetSpent)) == cost - 10


def test_climbing_without_enough_movement_left_is_refused():
    """Climbing 20 ft costs 40 ft of a 30 ft Speed."""
    t = _field()
    error = t.rejects(Traverse(combatant="aria", feet=20, mode="climb"), "economy/movement")
    assert "costs 40 ft" in error.message


def test_an_allys_space_is_open_ground():
    """'you can pass through the space of an ally ... Another entity's space is Difficult
    Terrain for you unless that entity is Tiny or your ally.'"""
    t = _field()
    t.do(Traverse(combatant="aria", feet=15, through=("bram",)))
    assert t["aria"].economy.moved == 15


def test_a_foe_two_sizes_larger_can_be_passed_through_as_difficult_terrain():
    """A Huge foe's 15 ft space costs 15 ft extra to cross."""
    t = _field(monster("troll", size="huge"))
    events = t.do(Traverse(combatant="aria", feet=15, through=("troll",)))
    assert of_type(events, ExtraFeetSpent)[0].reasons == ("another entity's space",)
    assert t["aria"].economy.moved == 30


def test_a_foe_of_about_the_same_size_blocks_the_way():
    """Only 'an ally, an entity that has the Incapacitated condition, a Tiny creature, or a
    creature that is two sizes larger or smaller' can be passed through."""
    t = _field()
    t.rejects(Traverse(combatant="aria", feet=15, through=("goblin",)), "move/blocked")


def test_an_incapacitated_foe_can_be_passed_through():
    t = _field()
    t.do(ApplyCondition(target="goblin", condition=ConditionSpec(name="stunned")))
    t.do(Traverse(combatant="aria", feet=15, through=("goblin",)))
    assert t["aria"].economy.moved == 20


def test_dropping_prone_is_free_but_not_at_speed_zero():
    """'you can give yourself the Prone condition without using an action or any of your
    Speed, but you can't do so if your Speed is 0.'"""
    t = _field()
    events = t.do(DropProne(combatant="aria"))
    assert of_type(events, ConditionApplied)[0].condition.name == "prone"
    assert t["aria"].economy.moved == 0 and t["aria"].economy.action
    t.do(EndTurn(combatant="aria"))
    t.do(ApplyCondition(target="bram", condition=ConditionSpec(name="grappled", source="goblin")))
    t.rejects(DropProne(combatant="bram"), "prone/speed-zero")


def test_a_prone_creature_crawls_or_stands_up_for_half_its_speed():
    t = _field()
    t.do(DropProne(combatant="aria"))
    t.rejects(Traverse(combatant="aria", feet=5), "move/prone")
    t.do(Traverse(combatant="aria", feet=5, mode="crawl"))
    t.do(StandUpFromProne(combatant="aria"))
    assert not t["aria"].has("prone") and t["aria"].economy.moved == 25
    t.rejects(Traverse(combatant="aria", feet=10), "economy/movement")


def test_dragging_a_grappled_creature_costs_an_extra_foot_per_foot():
    """The 2024 grapple rule the text leaves out: dragging doubles the cost unless the
    creature is Tiny or two or more sizes smaller."""
    t = _field(monster("rat", size="tiny"))
    t.do(UnarmedStrike(attacker="aria", target="goblin", option="grapple", faces=(1,)))
    t.do(Traverse(combatant="aria", feet=10, dragging="goblin"))
    assert t["aria"].economy.moved == 20
    t.rejects(Traverse(combatant="aria", feet=5, dragging="bram"), "move/not-grappling")


def test_a_plain_move_is_all_in_difficult_terrain_or_not():
    """The variant's moves cost their terrain as a whole: part of a move in Difficult Terrain is
    refused with the way to say it (split the move), not silently charged as plain ground."""
    from combat.fivee.action_commands import Move
    from combat.rulesets.srd2024_variant.movement import ExtraFeetSpent
    from tests.helpers import of_type

    t = _field()
    t.rejects(Move(combatant="aria", feet=10, difficult_terrain=5), "move/difficult-terrain")
    [extra] = of_type(t.do(Move(combatant="aria", feet=10, difficult_terrain=10)), ExtraFeetSpent)
    assert extra.feet == 10 and t["aria"].economy.moved == 20
