"""srd-2024-variant Jumping Δ: Long and High Jumps from the Strength modifier.

"Long Jump (Horizontal). When you make a Long Jump, you leap horizontally a number of feet up
to 5 x your Strength modifier ..., provided you move at least 10 feet immediately before the
jump. When you make a standing Long Jump, you can leap only half that distance."
"High Jump (Vertical). ... a number of feet equal to half those of a Long Jump. When you make
a standing High Jump, you can jump only half that distance (i.e. a quarter of a Long Jump)."
"Either way, each foot you jump costs a foot of movement."
"""

import pytest

from combat.fivee.action_commands import TakeAction
from combat.fivee.check_events import CheckMade
from combat.kernel.events import ConditionApplied
from combat.rulesets.srd2024_variant.jumping import Jump, Jumped, jump_limit
from combat.rulesets.srd2024_variant.movement import Traverse
from combat.rulesets.srd2024_variant.traits import NoteTraits
from tests.helpers import Table, monster, of_type, pc


def _jumper(strength: int = 4) -> Table:
    t = Table("srd-2024-variant", settings={"initiative_reorder": False}).add(pc("aria", speed=40), monster("goblin"))
    t.do(NoteTraits(combatant="aria", strength=strength, proficiency=2))
    return t.start({"aria": 20, "goblin": 5})


@pytest.mark.parametrize(
    ("kind", "running", "feet"),
    [("long", True, 20), ("long", False, 10), ("high", True, 10), ("high", False, 5)],
)
def test_how_far_a_strength_plus_four_jumper_goes(kind, running, feet):
    assert jump_limit(4, kind, running) == feet


def test_a_running_long_jump_needs_ten_feet_of_movement_just_before():
    """5 x Strength +4 = 20 ft after a 10 ft run-up; each foot jumped costs a foot of movement."""
    t = _jumper()
    t.do(Traverse(combatant="aria", feet=10))
    events = t.do(Jump(combatant="aria", kind="long", feet=20))
    assert of_type(events, Jumped) == [Jumped(combatant="aria", kind="long", feet=20, running=True)]
    assert t["aria"].economy.moved == 30


def test_a_standing_long_jump_goes_half_as_far():
    """'When you make a standing Long Jump, you can leap only half that distance.'"""
    t = _jumper()
    error = t.rejects(Jump(combatant="aria", kind="long", feet=15), "jump/too-far")
    assert "10 ft" in error.message and "20 ft after moving 10 ft first" in error.allowed
    t.do(Jump(combatant="aria", kind="long", feet=10))


def test_an_action_between_the_run_and_the_jump_spoils_the_run_up():
    """'provided you move at least 10 feet immediately before the jump'."""
    t = _jumper()
    t.do(Traverse(combatant="aria", feet=10))
    t.do(TakeAction(combatant="aria", action="dodge"))
    t.rejects(Jump(combatant="aria", kind="long", feet=20), "jump/too-far")


def test_a_standing_high_jump_reaches_a_quarter_of_a_long_jump():
    """'a standing High Jump ... a quarter of a Long Jump': 5 ft for Strength +4."""
    t = _jumper()
    t.rejects(Jump(combatant="aria", kind="high", feet=6), "jump/too-far")
    t.do(Jump(combatant="aria", kind="high", feet=5))


def test_a_jump_needs_the_movement_left():
    t = _jumper()
    t.do(Traverse(combatant="aria", feet=30))
    t.rejects(Jump(combatant="aria", kind="long", feet=20), "economy/movement")


def test_landing_in_difficult_terrain_needs_a_dc_ten_acrobatics_check_or_the_jumper_falls_prone():
    """'If you land in Difficult Terrain, you must succeed on a DC 10 Acrobatics (DEX) check or
    have the Prone condition.'"""
    t = _jumper()
    events = t.do(Jump(combatant="aria", kind="long", feet=10, lands_in_difficult_terrain=True, acrobatics_bonus=1, faces=(8,)))
    assert of_type(events, CheckMade)[0].total == 9 and not of_type(events, CheckMade)[0].success
    assert of_type(events, ConditionApplied)[0].condition.name == "prone"


def test_a_good_landing_keeps_the_jumper_on_their_feet():
    t = _jumper()
    t.do(Jump(combatant="aria", kind="long", feet=10, lands_in_difficult_terrain=True, acrobatics_bonus=1, faces=(9,)))
    assert not t["aria"].has("prone")


def test_a_jump_without_a_noted_strength_is_refused():
    t = Table("srd-2024-variant", settings={"initiative_reorder": False}).add(pc("aria"), monster("goblin"))
    t.start({"aria": 20, "goblin": 5})
    t.rejects(Jump(combatant="aria", kind="long", feet=5), "traits/missing")
