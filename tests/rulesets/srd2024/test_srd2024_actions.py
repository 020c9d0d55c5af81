"""srd-2024 actions other than Attack: Dash, Disengage, Dodge, Help, Hide, Influence, Magic, Ready, Search, Study, Utilize.

"The main actions you can take are listed in 'Actions' earlier in 'Playing the Game.'"
"""

from combat.common.commands import ApplyCondition
from combat.common.events import ConcentrationStarted
from combat.fivee.action_commands import Move, TakeAction, UseReaction
from combat.fivee.action_events import ActionTaken
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.fivee.check_events import CheckMade
from combat.fivee.held_open import helps_of
from combat.fivee.until_next_turn import is_dodging, readied_of
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionApplied, ConditionEnded, ConditionSpec, DiceRolled
from tests.helpers import Table, monster, of_type, pc


def _skirmish() -> Table:
    """Aria (15), the goblin (10), Bram (5): the goblin acts between the two characters."""
    t = Table().add(pc("aria"), monster("goblin", max_hp=30), pc("bram"))
    return t.start({"aria": 15, "goblin": 10, "bram": 5})


def _attack(t: Table, attacker: str, target: str, faces: tuple[int, ...], damage=(1,)) -> AttackMade:
    [made] = of_type(t.do(Attack(attacker=attacker, target=target, faces=faces, damage_faces=damage)), AttackMade)
    return made


def test_dash_adds_the_speed_to_the_movement_of_the_turn():
    """Dash: 'you gain extra movement for the current turn. The increase equals your Speed.'"""
    t = _skirmish()
    t.do(Move(combatant="aria", feet=30))
    t.do(TakeAction(combatant="aria", action="dash"))
    assert t["aria"].economy.movement == 60
    t.do(Move(combatant="aria", feet=30))
    t.rejects(Move(combatant="aria", feet=5), "economy/movement")


def test_dash_as_a_bonus_action_keeps_the_action():
    """A feature such as Cunning Action lets Dash, Disengage or Hide be a Bonus Action."""
    t = _skirmish()
    [taken] = of_type(t.do(TakeAction(combatant="aria", action="dash", bonus_action=True)), ActionTaken)
    assert taken.uses == "bonus_action"
    assert t["aria"].economy.action and not t["aria"].economy.bonus_action


def test_dodge_is_not_a_bonus_action():
    """Only features such as Cunning Action turn Dash, Disengage or Hide into a Bonus Action; Dodge stays an action."""
    t = _skirmish()
    error = t.rejects(TakeAction(combatant="aria", action="dodge", bonus_action=True), "action/not-bonus")
    assert "dash" in (error.allowed or "")


def test_attacks_against_a_dodging_creature_have_disadvantage_until_its_next_turn():
    """Dodge: 'Until the start of your next turn, any attack roll made against you has Disadvantage.'"""
    t = _skirmish()
    t.do(TakeAction(combatant="aria", action="dodge"))
    t.do(EndTurn(combatant="aria"))
    made = _attack(t, "goblin", "aria", (18, 6))
    assert made.roll_mode == "disadvantage" and made.natural == 6 and not made.hit
    t.do(EndTurn(combatant="goblin"))
    t.do(EndTurn(combatant="bram"))
    assert t.state.turn == "aria" and not is_dodging(t.state, "aria")


def test_a_dodging_creature_whose_speed_is_0_loses_the_benefit():
    """Dodge: 'You lose these benefits if you have the Incapacitated condition or if your Speed is 0.'"""
    t = _skirmish()
    t.do(TakeAction(combatant="aria", action="dodge"))
    t.do(EndTurn(combatant="aria"))
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="grappled", source="goblin")))
    made = _attack(t, "goblin", "aria", (9,))
    assert made.roll_mode == "normal"


def test_help_gives_the_next_ally_attack_against_that_foe_advantage_once():
    """Help: 'giving Advantage to the next attack roll by one of your allies against that enemy.'"""
    t = _skirmish()
    t.do(TakeAction(combatant="aria", action="help", target="goblin"))
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="goblin"))
    t.do(TakeAction(combatant="bram", action="dash", bonus_action=True))
    made = _attack(t, "bram", "goblin", (4, 17), damage=(6,))
    assert made.roll_mode == "advantage" and made.helped_by == "aria" and made.natural == 17 and made.hit
    assert helps_of(t.state) == ()


def test_help_expires_at_the_start_of_the_helpers_next_turn():
    """'This benefit expires at the start of your next turn.'"""
    t = _skirmish()
    t.do(TakeAction(combatant="aria", action="help", target="goblin"))
    for cid in ("aria", "goblin", "bram"):
        t.do(EndTurn(combatant=cid))
    assert t.state.turn == "aria" and helps_of(t.state) == ()


def test_help_names_a_foe_not_an_ally():
    """Help: 'You momentarily distract an enemy' - the target is the foe the ally will attack."""
    t = _skirmish()
    t.rejects(TakeAction(combatant="aria", action="help", target="bram"), "help/target")


def test_hiding_with_a_stealth_check_of_15_makes_the_hider_invisible():
    """Hide: 'you must succeed on a DC 15 Dexterity (Stealth) check ... On a successful check, you have the Invisible condition.'"""
    t = _skirmish()
    events = t.do(TakeAction(combatant="aria", action="hide", bonus=5, faces=(10,)))
    assert of_type(events, CheckMade) == [CheckMade(combatant="aria", skill="stealth", total=15, dc=15, success=True)]
    assert t["aria"].has("invisible")


def test_a_failed_stealth_check_leaves_the_hider_in_plain_sight():
    """Hide: only 'On a successful check, you have the Invisible condition.'"""
    t = _skirmish()
    events = t.do(TakeAction(combatant="aria", action="hide", bonus=5, faces=(9,)))
    assert of_type(events, CheckMade)[0].success is False
    assert of_type(events, ConditionApplied) == [] and not t["aria"].has("invisible")


def test_attacking_from_hiding_has_advantage_and_gives_the_hider_away():
    """'If you are hidden when you make an attack roll, you give away your location when the attack hits or misses.'"""
    t = _skirmish()
    t.do(TakeAction(combatant="aria", action="hide", bonus=5, faces=(12,), bonus_action=True))
    events = t.do(Attack(attacker="aria", target="goblin", faces=(2, 3)))
    [made] = of_type(events, AttackMade)
    assert made.roll_mode == "advantage" and not made.hit
    assert ConditionEnded(target="aria", condition="invisible", reason="attacked from hiding") in events
    assert not t["aria"].has("invisible")


def test_influence_search_and_study_are_ability_checks_against_the_gms_dc():
    """Influence uses Charisma (or Wisdom), Search Wisdom, Study Intelligence."""
    t = _skirmish()
    events = t.do(TakeAction(combatant="aria", action="influence", target="goblin", bonus=3, dc=15, faces=(11,)))
    assert of_type(events, CheckMade) == [CheckMade(combatant="aria", skill="charisma", total=14, dc=15, success=False)]
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="goblin"))
    [check] = of_type(t.do(TakeAction(combatant="bram", action="search", bonus=2, dc=12, faces=(10,))), CheckMade)
    assert (check.skill, check.total, check.success) == ("wisdom", 12, True)


def test_a_study_check_without_a_dc_records_its_total_for_the_gm():
    t = _skirmish()
    [check] = of_type(t.do(TakeAction(combatant="aria", action="study", bonus=1, faces=(13,))), CheckMade)
    assert (check.skill, check.total, check.dc, check.success) == ("intelligence", 14, None, None)


def test_the_magic_action_can_start_concentration():
    """Magic: 'you cast a spell'; a Concentration spell starts Concentration."""
    t = _skirmish()
    events = t.do(TakeAction(combatant="aria", action="magic", detail="Bless", concentration=True))
    assert ConcentrationStarted(combatant="aria", effect="Bless") in events
    assert t["aria"].concentration == "Bless" and not t["aria"].economy.action


def test_utilize_spends_the_action_and_rolls_no_dice():
    """'If you want to interact with a second object, you need to take the Utilize action.'"""
    t = _skirmish()
    t.rejects(TakeAction(combatant="aria", action="utilize", detail="pulls the lever", faces=(12,)), "dice/unused-faces")
    events = t.do(TakeAction(combatant="aria", action="utilize", detail="pulls the lever"))
    assert of_type(events, DiceRolled) == [] and not t["aria"].economy.action


def test_ready_holds_the_reaction_and_a_readied_attack_uses_it():
    """Ready: 'lets you act by using your Reaction before the start of your next turn.'"""
    t = _skirmish()
    t.do(TakeAction(combatant="aria", action="ready", detail="attack the goblin when it comes near"))
    assert readied_of(t.state, "aria") and t["aria"].economy.reaction
    t.do(EndTurn(combatant="aria"))
    t.do(Move(combatant="goblin", feet=10))
    [made] = of_type(t.do(Attack(attacker="aria", target="goblin", readied=True, faces=(15,), damage_faces=(4,))), AttackMade)
    assert made.uses == "reaction" and made.damage == 7
    assert readied_of(t.state, "aria") is None and not t["aria"].economy.reaction
    t.rejects(UseReaction(combatant="aria", description="Shield"), "economy/reaction-spent")


def test_a_readied_attack_needs_a_readied_action():
    """A Reaction attack on another's turn needs a trigger prepared with Ready first."""
    t = _skirmish()
    t.do(EndTurn(combatant="aria"))
    t.rejects(Attack(attacker="aria", target="goblin", readied=True, faces=(15,), damage_faces=(4,)), "attack/not-readied")


def test_a_readied_action_is_lost_at_the_start_of_the_next_turn():
    """Ready: you act with your Reaction 'before the start of your next turn', or not at all."""
    t = _skirmish()
    t.do(TakeAction(combatant="aria", action="ready", detail="attack"))
    for cid in ("aria", "goblin", "bram"):
        t.do(EndTurn(combatant=cid))
    assert t.state.turn == "aria" and readied_of(t.state, "aria") is None


def test_an_unknown_action_is_rejected_with_the_list_of_actions():
    """'The main actions you can take are listed in "Actions"'; Attack has its own command."""
    t = _skirmish()
    error = t.rejects(TakeAction(combatant="aria", action="fly"), "action/unknown")
    assert "dash" in (error.allowed or "") and "utilize" in (error.allowed or "")
    t.rejects(TakeAction(combatant="aria", action="attack"), "action/use-attack")
