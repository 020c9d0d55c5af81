"""srd-2024 conditions: their effects on a turn, and durations that end at the start or end of a named creature's turn."""

from combat.common.commands import ApplyCondition, RemoveCondition
from combat.fivee.action_commands import BonusAction, Move, UseReaction
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionEnded, ConditionSpec
from tests.helpers import Table, monster, pc


def _round() -> Table:
    """Aria (18), the goblin (12), Bram (6)."""
    return Table().add(pc("aria"), monster("goblin"), pc("bram")).start({"aria": 18, "goblin": 12, "bram": 6})


def _apply(t: Table, target: str, name: str, **duration) -> None:
    t.do(ApplyCondition(target=target, condition=ConditionSpec(name=name, source="aria", **duration)))


def test_a_condition_ending_at_the_end_of_a_named_creatures_turn_lasts_until_then():
    """A goblin frightened 'until the end of its next turn' stays so through Aria's turn and recovers as its own ends."""
    t = _round()
    _apply(t, "goblin", "frightened", ends="end", ends_on="goblin")
    t.do(EndTurn(combatant="aria"))
    assert t["goblin"].has("frightened")
    events = t.do(EndTurn(combatant="goblin"))
    assert ConditionEnded(target="goblin", condition="frightened", reason="end of Goblin's turn") in events
    assert not t["goblin"].has("frightened")


def test_a_condition_ending_at_the_start_of_a_named_creatures_turn_lasts_until_then():
    """Effects such as 'until the start of your next turn' end when the caster's turn begins."""
    t = _round()
    _apply(t, "goblin", "restrained", ends="start", ends_on="aria")
    for cid in ("aria", "goblin"):
        t.do(EndTurn(combatant=cid))
    assert t["goblin"].has("restrained")
    events = t.do(EndTurn(combatant="bram"))
    assert ConditionEnded(target="goblin", condition="restrained", reason="start of Aria's turn") in events
    assert t.state.turn == "aria" and not t["goblin"].has("restrained")


def test_a_duration_can_run_on_a_third_creatures_turn():
    """Blinded 'until the end of Bram's next turn' lasts through the goblin's own turn."""
    t = _round()
    _apply(t, "goblin", "blinded", ends="end", ends_on="bram")
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="goblin"))
    assert t["goblin"].has("blinded")
    t.do(EndTurn(combatant="bram"))
    assert not t["goblin"].has("blinded")
    assert t.rebuilt() == t.state


def test_a_condition_without_a_duration_lasts_until_the_gm_removes_it():
    """A poison with no stated end lasts until something (here Lesser Restoration) ends it."""
    t = _round()
    _apply(t, "goblin", "poisoned")
    for cid in ("aria", "goblin", "bram", "aria"):
        t.do(EndTurn(combatant=cid))
    assert t["goblin"].has("poisoned")
    t.do(RemoveCondition(target="goblin", condition="poisoned", reason="Lesser Restoration"))
    assert not t["goblin"].has("poisoned")


def test_a_duration_must_name_whose_turn_ends_it():
    """'until the end of ... turn' means nothing without saying whose turn."""
    t = _round()
    error = t.rejects(ApplyCondition(target="goblin", condition=ConditionSpec(name="prone", ends="end")), "condition/duration")
    assert "ends_on" in (error.allowed or "")
    t.rejects(
        ApplyCondition(target="goblin", condition=ConditionSpec(name="prone", ends="end", ends_on="ogre")), "combatant/unknown"
    )


def test_removing_a_condition_the_creature_does_not_have_is_rejected():
    """The GM is told which conditions the creature does have."""
    t = _round()
    _apply(t, "goblin", "prone")
    error = t.rejects(RemoveCondition(target="goblin", condition="grappled"), "condition/absent")
    assert error.allowed == "prone"


def test_a_grappled_creature_cannot_move():
    """Grappled: 'Your Speed is 0 and can't increase.'"""
    t = _round()
    _apply(t, "aria", "grappled")
    t.rejects(Move(combatant="aria", feet=5), "economy/movement")


def test_an_incapacitated_creature_takes_no_bonus_action_or_reaction():
    """Incapacitated: 'You can't take any action, Bonus Action, or Reaction.'"""
    t = _round()
    _apply(t, "aria", "incapacitated")
    t.rejects(BonusAction(combatant="aria", description="Second Wind"), "combatant/incapacitated")
    t.rejects(UseReaction(combatant="aria", description="Shield"), "combatant/incapacitated")
    t.do(EndTurn(combatant="aria"))
    assert t.state.turn == "goblin"


def test_a_creature_freed_at_the_start_of_its_turn_has_its_full_speed():
    """Restrained 'until the start of its next turn': the turn begins free, with Speed 30 to move."""
    t = _round()
    _apply(t, "goblin", "restrained", ends="start", ends_on="goblin")
    t.do(EndTurn(combatant="aria"))
    assert t.state.turn == "goblin" and not t["goblin"].has("restrained")
    t.do(Move(combatant="goblin", feet=30))
    assert t["goblin"].economy.moved == 30


def test_a_condition_timed_by_a_dead_creatures_turn_ends_when_that_turn_would_have_come():
    """Durations 'end at the start or end of a named creature's turn'; a dead creature's turn
    never comes, so what it timed runs out when its place in the order is passed over."""
    from combat.common.commands import ApplyCondition
    from combat.fivee.attack_commands import Attack
    from combat.kernel.commands import EndTurn
    from combat.kernel.events import ConditionEnded, ConditionSpec
    from tests.helpers import Table, monster, of_type, pc

    t = (
        Table()
        .add(pc("aria"), monster("goblin", max_hp=5), monster("orc", max_hp=30))
        .start({"aria": 18, "goblin": 10, "orc": 5})
    )
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="frightened", source="goblin", ends="end", ends_on="goblin")))
    t.do(Attack(attacker="aria", target="goblin", faces=(15, 16), damage_faces=(6,)))  # frightened: Disadvantage
    assert t["goblin"].status == "dead" and t["aria"].has("frightened")
    events = t.do(EndTurn(combatant="aria"))
    [ended] = of_type(events, ConditionEnded)
    assert ended.target == "aria" and ended.condition == "frightened" and "Goblin" in ended.reason
    assert t.state.turn == "orc" and not t["aria"].has("frightened")
