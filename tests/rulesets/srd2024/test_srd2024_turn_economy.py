"""srd-2024 turn economy: movement, one action, one bonus action, one reaction, one free object interaction.

"On your turn, you can move a distance up to your Speed and take one action. You decide
whether to move first or take your action first."
"""

from combat.common.commands import ApplyCondition
from combat.fivee.action_commands import BonusAction, InteractWithObject, Move, TakeAction, UseReaction
from combat.fivee.action_events import Moved, ReactionTaken
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionSpec
from tests.helpers import Table, monster, of_type, pc


def _duel(**aria) -> Table:
    return Table().add(pc("aria", **aria), monster("goblin", max_hp=30)).start({"aria": 15, "goblin": 5})


def test_a_combatant_moves_up_to_its_speed_split_around_its_action():
    """'if you have a Speed of 30 feet, you could go 10 feet, take an action, and then go 20 feet.'"""
    t = _duel()
    t.do(Move(combatant="aria", feet=10))
    t.do(Attack(attacker="aria", target="goblin", faces=(3,)))
    events = t.do(Move(combatant="aria", feet=20))
    assert of_type(events, Moved) == [Moved(combatant="aria", feet=20)]
    assert t["aria"].economy.moved == 30


def test_moving_beyond_speed_is_rejected_saying_how_far_is_left():
    """'On your turn, you can move a distance equal to your Speed or less.'"""
    t = _duel(speed=25)
    t.do(Move(combatant="aria", feet=20))
    error = t.rejects(Move(combatant="aria", feet=10), "economy/movement")
    assert "5 ft" in error.message and "Dash" in (error.allowed or "")


def test_a_move_of_no_distance_is_rejected():
    """A move is some distance of feet; 'you can decide not to move' by sending none."""
    t = _duel()
    t.rejects(Move(combatant="aria", feet=0), "move/distance")


def test_a_second_action_in_one_turn_is_rejected():
    """'take one action'"""
    t = _duel()
    t.do(TakeAction(combatant="aria", action="dodge"))
    error = t.rejects(TakeAction(combatant="aria", action="dash"), "economy/action-spent")
    assert "bonus action" in (error.allowed or "") and "end_turn" in (error.allowed or "")
    t.rejects(Attack(attacker="aria", target="goblin", faces=(12,), damage_faces=(4,)), "economy/action-spent")


def test_one_bonus_action_per_turn():
    """A Bonus Action is a separate, single resource of the turn."""
    t = _duel()
    t.do(BonusAction(combatant="aria", description="Second Wind"))
    t.rejects(BonusAction(combatant="aria", description="another"), "economy/bonus-action-spent")
    t.do(TakeAction(combatant="aria", action="dodge"))  # the action is still there


def test_one_reaction_per_round_regained_at_the_start_of_your_turn():
    """A creature has one Reaction; it comes back at the start of its turn."""
    t = _duel()
    t.do(EndTurn(combatant="aria"))
    events = t.do(UseReaction(combatant="aria", description="Shield"))
    assert of_type(events, ReactionTaken) == [ReactionTaken(combatant="aria", description="Shield")]
    t.rejects(UseReaction(combatant="aria", description="Shield again"), "economy/reaction-spent")
    t.do(EndTurn(combatant="goblin"))
    assert t.state.turn == "aria" and t["aria"].economy.reaction
    t.do(UseReaction(combatant="aria", description="Shield"))


def test_the_first_object_interaction_is_free():
    """'You can interact with one object or feature of the environment for free, during either your move or action.'"""
    t = _duel()
    t.do(InteractWithObject(combatant="aria", description="opens the door"))
    assert t["aria"].economy.action and not t["aria"].economy.object_interaction


def test_a_second_object_interaction_points_to_the_utilize_action():
    """'If you want to interact with a second object, you need to take the Utilize action.'"""
    t = _duel()
    t.do(InteractWithObject(combatant="aria", description="draws her sword"))
    error = t.rejects(InteractWithObject(combatant="aria", description="picks up the torch"), "economy/object-interaction-spent")
    assert "utilize" in (error.allowed or "")
    t.do(TakeAction(combatant="aria", action="utilize", detail="picks up the torch"))
    assert not t["aria"].economy.action


def test_acting_out_of_turn_is_rejected():
    """'Each participant in the battle takes a turn in Initiative order.'"""
    t = _duel()
    error = t.rejects(Move(combatant="goblin", feet=5), "turn/not-yours")
    assert "Aria" in error.message
    t.rejects(Attack(attacker="goblin", target="aria", faces=(15,), damage_faces=(3,)), "turn/not-yours")
    t.rejects(EndTurn(combatant="goblin"), "turn/not-yours")


def test_extra_attack_lets_several_attacks_share_one_attack_action():
    """Extra Attack: 'you can attack twice instead of once whenever you take the Attack action on your turn.'"""
    t = _duel(attacks_per_action=2)
    first = of_type(t.do(Attack(attacker="aria", target="goblin", faces=(14,), damage_faces=(2,))), AttackMade)
    second = of_type(t.do(Attack(attacker="aria", target="goblin", faces=(16,), damage_faces=(5,))), AttackMade)
    assert [first[0].uses, second[0].uses] == ["action", "attack"]
    assert t["goblin"].hp == 30 - 5 - 8
    t.rejects(Attack(attacker="aria", target="goblin", faces=(16,), damage_faces=(5,)), "economy/action-spent")


def test_movement_can_come_between_the_attacks_of_one_attack_action():
    """'You can break up your move, using some of its movement before and after any action.'"""
    t = _duel(attacks_per_action=2)
    t.do(Attack(attacker="aria", target="goblin", faces=(2,)))
    t.do(Move(combatant="aria", feet=15))
    [attack] = of_type(t.do(Attack(attacker="aria", target="goblin", faces=(2,))), AttackMade)
    assert attack.uses == "attack"


def test_everything_is_refreshed_at_the_start_of_the_next_turn():
    """Every turn brings its own move, action, Bonus Action and free object interaction."""
    t = _duel()
    t.do(Move(combatant="aria", feet=30))
    t.do(TakeAction(combatant="aria", action="dodge"))
    t.do(BonusAction(combatant="aria", description="Second Wind"))
    t.do(InteractWithObject(combatant="aria", description="drinks"))
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="goblin"))
    e = t["aria"].economy
    assert (e.movement, e.moved, e.action, e.bonus_action, e.object_interaction) == (30, 0, True, True, True)


def test_a_restrained_combatant_has_no_movement():
    """Restrained: 'Your Speed is 0.'"""
    t = _duel()
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="restrained", source="net")))
    error = t.rejects(Move(combatant="aria", feet=5), "economy/movement")
    assert "0 ft" in error.message


def test_difficult_terrain_costs_one_extra_foot_per_foot():
    """'Every foot of movement in Difficult Terrain costs 1 extra foot' (a square of it costs 2)."""
    from combat.fivee.action_commands import Move
    from combat.fivee.action_events import Moved
    from tests.helpers import Table, monster, of_type, pc

    t = Table().add(pc("aria", speed=30), monster("goblin")).start({"aria": 15, "goblin": 3})
    [moved] = of_type(t.do(Move(combatant="aria", feet=15, difficult_terrain=10)), Moved)
    assert moved.spent == 25 and t["aria"].economy.moved == 25
    error = t.rejects(Move(combatant="aria", feet=5, difficult_terrain=5), "economy/movement")
    assert "5 ft of movement left, not 10" in error.message
    t.rejects(Move(combatant="aria", feet=5, difficult_terrain=6), "move/difficult-terrain")
    t.do(Move(combatant="aria", feet=5))
    assert t.rebuilt() == t.state
