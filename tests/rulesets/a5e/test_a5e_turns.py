"""a5e turns: the economy, movement and speeds, the actions, Sprint, Press the Attack, Fall Back, Tumble."""

from __future__ import annotations

from combat.common.commands import ApplyCondition
from combat.common.events import SaveMade
from combat.fivee.action_commands import BonusAction, Move, TakeAction, UseReaction
from combat.fivee.action_events import Moved
from combat.fivee.attack_events import AttackMade
from combat.fivee.check_events import CheckMade
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionApplied, ConditionSpec, DiceRolled
from combat.rulesets.a5e.actions import FreeAction
from combat.rulesets.a5e.attacks import MakeAttack
from combat.rulesets.a5e.maneuvers import AttackPressed, FallBack, PressTheAttack, Tumble, Tumbled
from combat.rulesets.a5e.movement import ExtraMovementSpent, StandUp
from combat.rulesets.a5e.sprint import Sprint, Sprinted
from tests.helpers import monster, of_type, pc, turn_of
from tests.rulesets.a5e.helpers import fight


def attack_roll(events) -> DiceRolled:
    return next(d for d in of_type(events, DiceRolled) if d.purpose == "attack")


# -- the economy ---------------------------------------------------------------------------


def test_a_turn_has_one_action_one_bonus_action_any_free_actions_and_one_reaction_a_round():
    """'Within a single round, you can take an action, a bonus action, and any free actions ...
    during your turn, and one reaction at any time.'"""
    t = fight(pc("aria"), monster("goblin"))
    t.do(TakeAction(combatant="aria", action="dodge"))
    t.rejects(TakeAction(combatant="aria", action="search"), "economy/action-spent")
    t.do(BonusAction(combatant="aria", description="second wind"))
    t.rejects(BonusAction(combatant="aria", description="again"), "economy/bonus-action-spent")
    for words in ("Ready!", "On three!", "Now!"):
        t.do(FreeAction(combatant="aria", description=words))
    t.do(EndTurn(combatant="aria"))
    t.do(UseReaction(combatant="aria", description="parries"))
    t.rejects(UseReaction(combatant="aria", description="parries again"), "economy/reaction-spent")


def test_movement_can_be_split_between_attacks():
    """'If you have two attacks and a Speed of 30 feet, you can move 15 feet, perform an attack,
    move another 15 feet, and then attack a second time.'"""
    t = fight(pc("aria", attacks_per_action=2), monster("goblin", max_hp=30))
    t.do(Move(combatant="aria", feet=15))
    t.do(MakeAttack(attacker="aria", target="goblin", faces=(2,)))
    t.do(Move(combatant="aria", feet=15))
    t.do(MakeAttack(attacker="aria", target="goblin", faces=(3,)))
    t.rejects(Move(combatant="aria", feet=5), "economy/movement")
    t.rejects(MakeAttack(attacker="aria", target="goblin", faces=(3,)), "economy/action-spent")


def test_switching_speeds_subtracts_the_distance_already_moved_from_the_new_speed():
    """'When switching between different movement speeds, you subtract the distance you've
    already moved during your turn from the new speed. If the remainder is 0 or less, you cannot
    use the new speed this turn.'"""
    t = fight(pc("aria"), monster("goblin"), speeds={"aria": {"fly": 60}})
    t.do(Move(combatant="aria", feet=20))
    t.rejects(Move(combatant="aria", feet=45, mode="fly"), "economy/movement")
    t.do(Move(combatant="aria", feet=40, mode="fly"))
    t.rejects(Move(combatant="aria", feet=5), "economy/movement")  # walking: 30 - 60 moved
    t.rejects(Move(combatant="aria", feet=5, mode="fly"), "economy/movement")


def test_climbing_without_a_climb_speed_costs_an_extra_foot_per_foot_and_flying_needs_a_fly_speed():
    """'Climbing and Swimming. You can use your base Speed ... but you must spend 1 extra foot for
    every foot ... Gliding, Hovering, and Burrowing. You must have the appropriate movement speed.'"""
    t = fight(pc("aria"), pc("spider", side="monsters"), speeds={"spider": {"climb": 30}})
    events = t.do(Move(combatant="aria", feet=10, mode="climb"))
    assert of_type(events, ExtraMovementSpent)[0].feet == 10 and t["aria"].economy.moved == 20
    t.rejects(Move(combatant="aria", feet=10, mode="climb"), "economy/movement")
    t.rejects(Move(combatant="aria", feet=5, mode="fly"), "move/no-speed")
    t.do(EndTurn(combatant="aria"))
    events = t.do(Move(combatant="spider", feet=30, mode="climb"))
    assert not of_type(events, ExtraMovementSpent)


def test_a_prone_creature_can_only_crawl_until_it_stands_up_with_half_its_movement():
    """'Your only movement option is to crawl (every 1 foot of movement while crawling costs 1
    extra foot) until you stand up. Standing up requires half your movement.'"""
    t = fight(pc("aria"), monster("goblin"))
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="prone")))
    t.rejects(Move(combatant="aria", feet=5), "move/prone")
    t.do(Move(combatant="aria", feet=5, mode="crawl"))
    assert t["aria"].economy.moved == 10
    t.do(StandUp(combatant="aria"))
    assert not t["aria"].has("prone") and t["aria"].economy.moved == 25
    t.rejects(Move(combatant="aria", feet=10), "economy/movement")
    t.do(Move(combatant="aria", feet=5))


def test_difficult_terrain_costs_an_extra_foot_on_top_of_crawling():
    """Difficult Terrain costs 1 extra foot per foot (the text leaves terrain to the Narrator;
    the engine adds it to crawling's own extra foot)."""
    t = fight(pc("aria"), monster("goblin"))
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="prone")))
    [extra] = of_type(t.do(Move(combatant="aria", feet=5, mode="crawl", difficult_terrain=5)), ExtraMovementSpent)
    assert extra.feet == 10 and "Difficult Terrain" in extra.reason and t["aria"].economy.moved == 15
    t.rejects(Move(combatant="aria", feet=5, mode="crawl", difficult_terrain=9), "move/difficult-terrain")


# -- actions -------------------------------------------------------------------------------


def test_dash_moves_your_speed_again_and_dodge_needs_a_speed_above_zero():
    """'When you take the Dash action, you can use your action to move your speed'; 'You cannot
    take the Dodge action when your Speed is reduced to 0.'"""
    t = fight(pc("aria"), pc("bron"), monster("goblin"))
    t.do(TakeAction(combatant="aria", action="dash"))
    t.do(Move(combatant="aria", feet=60))
    t.do(EndTurn(combatant="aria"))
    t.do(ApplyCondition(target="bron", condition=ConditionSpec(name="grappled")))
    t.rejects(TakeAction(combatant="bron", action="dodge"), "action/speed-zero")


def test_casting_a_spell_with_concentration_starts_concentrating():
    """'Many spells have a casting time of an action.' Cast a Spell is an a5e action."""
    t = fight(pc("tomas"), monster("goblin"))
    t.do(TakeAction(combatant="tomas", action="Cast a Spell", detail="bless", concentration=True))
    assert t["tomas"].concentration == "bless" and not t["tomas"].economy.action


def test_the_a5e_actions_are_named_as_in_the_text():
    """Attack, Cast a Spell, Dash, Disengage, Dodge, Help, Hide, Ready, Search, Use an Object ..."""
    t = fight(pc("aria"), monster("goblin"))
    t.rejects(TakeAction(combatant="aria", action="influence"), "action/unknown")
    t.rejects(TakeAction(combatant="aria", action="sprint"), "action/own-command")
    t.do(TakeAction(combatant="aria", action="use-an-object", detail="drinks a potion"))
    assert not t["aria"].economy.action


def test_help_gives_the_ally_advantage_on_its_next_attack_against_the_target():
    """'If your ally attacks the target before your next turn, its next attack roll against the
    target is made with advantage.'"""
    t = fight(pc("bron"), pc("aria", attacks_per_action=2), monster("goblin", max_hp=30))
    t.do(TakeAction(combatant="bron", action="help", target="goblin"))
    t.do(EndTurn(combatant="bron"))
    first = of_type(t.do(MakeAttack(attacker="aria", target="goblin", faces=(3, 12), damage_faces=(2,))), AttackMade)[0]
    second = of_type(t.do(MakeAttack(attacker="aria", target="goblin", faces=(3,))), AttackMade)[0]
    assert (first.roll_mode, first.helped_by, second.roll_mode) == ("advantage", "bron", "normal")


def test_hiding_beats_passive_perception_and_the_first_attack_from_hiding_has_advantage():
    """'You make a Dexterity (Stealth) check opposed by the passive Perception scores of creatures
    able to observe you.' 'When you are hidden from a target, you gain advantage on your first
    attack roll against it. After your first attack roll ... you are no longer hidden.'"""
    t = fight(pc("lyra"), monster("goblin", max_hp=30))
    t.do(TakeAction(combatant="lyra", action="hide", bonus=6, dc=11, bonus_action=True, faces=(7,)))
    made = of_type(t.do(MakeAttack(attacker="lyra", target="goblin", faces=(4, 15), damage_faces=(2,))), AttackMade)[0]
    assert made.roll_mode == "advantage" and not t["lyra"].has("invisible")


def test_a_readied_attack_is_made_with_the_reaction_when_its_trigger_comes():
    """'When the trigger occurs, you can use your reaction immediately after.'"""
    t = fight(pc("aria"), monster("goblin", max_hp=30))
    t.do(TakeAction(combatant="aria", action="ready", detail="attack the goblin when it comes through the door"))
    t.do(EndTurn(combatant="aria"))
    events = t.do(MakeAttack(attacker="aria", target="goblin", readied=True, faces=(14,), damage_faces=(5,)))
    assert of_type(events, AttackMade)[0].uses == "reaction" and not t["aria"].economy.reaction


def test_search_is_a_check_and_dodge_makes_attackers_roll_with_disadvantage():
    """'The Narrator may call for a Wisdom (Perception) check'; Dodge: 'Until the start of your
    next turn, attacks against you are made with disadvantage if you can see the attacker.'"""
    t = fight(pc("aria"), pc("bron"), monster("goblin"))
    [check] = of_type(t.do(TakeAction(combatant="aria", action="search", bonus=3, dc=15, faces=(13,))), CheckMade)
    assert (check.total, check.success) == (16, True)
    t.do(EndTurn(combatant="aria"))
    t.do(TakeAction(combatant="bron", action="dodge"))
    t.do(EndTurn(combatant="bron"))
    made = of_type(t.do(MakeAttack(attacker="goblin", target="bron", faces=(18, 2))), AttackMade)[0]
    assert made.roll_mode == "disadvantage" and not made.hit


# -- Sprint --------------------------------------------------------------------------------


def test_sprinting_quadruples_speed_and_leaves_nothing_else_for_the_turn():
    """'You may not take any other actions, bonus actions, or reactions other than your move
    Speed for the turn. If you are unencumbered, your Speed is quadrupled for one turn.'"""
    t = fight(pc("aria", con_save=2), monster("goblin"))
    [sprinted] = t.do(Sprint(combatant="aria"))
    assert sprinted == Sprinted(combatant="aria", movement=120)
    t.do(Move(combatant="aria", feet=120))
    t.rejects(MakeAttack(attacker="aria", target="goblin", faces=(10,)), "economy/action-spent")
    t.rejects(BonusAction(combatant="aria", description="second wind"), "economy/bonus-action-spent")
    t.rejects(UseReaction(combatant="aria", description="parry"), "economy/reaction-spent")


def test_an_encumbered_sprinter_triples_its_speed_and_sprinting_comes_before_anything_else():
    """'If you are encumbered or wearing heavy armor, your Speed is tripled for one turn.'"""
    t = fight(pc("aria"), pc("bron"), monster("goblin"))
    t.do(FreeAction(combatant="aria", description="yells"))
    assert t.do(Sprint(combatant="aria", encumbered=True))[0].movement == 90
    t.do(EndTurn(combatant="aria"))
    t.do(BonusAction(combatant="bron", description="second wind"))
    t.rejects(Sprint(combatant="bron"), "sprint/not-alone")


def test_attacks_against_a_sprinter_have_advantage_until_the_start_of_its_next_turn():
    """'Attacks against you are made with advantage until the start of your next turn.'"""
    t = fight(pc("aria"), monster("goblin"))
    t.do(Sprint(combatant="aria"))
    t.do(EndTurn(combatant="aria"))
    events = t.do(MakeAttack(attacker="goblin", target="aria", faces=(3, 16), damage_faces=(2,)))
    assert of_type(events, AttackMade)[0].roll_mode == "advantage"
    t.do(EndTurn(combatant="goblin"))
    assert "aria" not in t.state.rules.sprinting


def test_sprinting_past_the_constitution_modifier_calls_for_checks_that_grow_harder_then_fatigue():
    """'You may Sprint for a number of turns equal to your Constitution modifier. Each turn you
    Sprint after that, you make a Constitution (Athletics) check (DC 10 + 1 per previous check
    made in the last minute) or you suffer a level of fatigue.' 'You cannot Sprint if you are
    suffering from one or more levels of fatigue.'"""
    t = fight(pc("aria"), monster("goblin"))
    t.do(Sprint(combatant="aria", con_modifier=1))
    for dc, face, fatigued in ((10, 9, False), (11, 9, True)):
        turn_of(t, "goblin")
        turn_of(t, "aria")
        events = t.do(Sprint(combatant="aria", con_modifier=1, faces=(face,)))
        [check] = of_type(events, CheckMade)
        assert (check.dc, check.total, check.success) == (dc, face + 1, not fatigued)
        assert bool(of_type(events, ConditionApplied)) == fatigued
    turn_of(t, "goblin")
    turn_of(t, "aria")
    t.rejects(Sprint(combatant="aria", con_modifier=1, faces=(20,)), "sprint/fatigued")


def test_no_check_is_due_while_sprints_remain_so_no_dice_are_entered():
    """The first turns of sprinting, up to the Constitution modifier, need no check."""
    t = fight(pc("aria"), monster("goblin"))
    t.rejects(Sprint(combatant="aria", con_modifier=2, faces=(12,)), "dice/unused-faces")


# -- Press the Attack and Fall Back --------------------------------------------------------


def test_pressing_the_attack_adds_an_expertise_die_to_melee_attacks_and_exposes_the_presser():
    """'Until the beginning of your next turn, your melee attacks against that creature gain an
    expertise die, and all attacks against you are made with advantage.'"""
    t = fight(pc("aria"), monster("goblin", max_hp=30))
    [pressed] = t.do(PressTheAttack(combatant="aria", target="goblin"))
    assert pressed == AttackPressed(combatant="aria", target="goblin")
    rolled = attack_roll(t.do(MakeAttack(attacker="aria", target="goblin", faces=(10, 3), damage_faces=(4,))))
    assert rolled.notation == "1d20+5+1d4" and rolled.total == 18
    t.do(EndTurn(combatant="aria"))
    events = t.do(MakeAttack(attacker="goblin", target="aria", faces=(2, 14), damage_faces=(3,)))
    assert of_type(events, AttackMade)[0].roll_mode == "advantage"
    t.do(EndTurn(combatant="goblin"))
    assert t.state.rules.presses == ()  # "until the beginning of your next turn"


def test_press_the_attack_comes_before_the_attack_and_one_target_is_pressed_by_one_creature():
    """'Before you take the Attack action ... designate one creature ... which is not currently
    the target of a Press the Attack action.'"""
    t = fight(pc("aria"), pc("bron"), monster("goblin", max_hp=30))
    t.do(MakeAttack(attacker="aria", target="goblin", faces=(2,)))
    t.rejects(PressTheAttack(combatant="aria", target="goblin"), "press/after-attack")
    t.do(EndTurn(combatant="aria"))
    t.do(PressTheAttack(combatant="bron", target="goblin"))
    t.do(EndTurn(combatant="bron"))
    t.do(EndTurn(combatant="goblin"))
    t.rejects(PressTheAttack(combatant="aria", target="goblin"), "press/already-pressed")
    t.rejects(PressTheAttack(combatant="aria", target="bron"), "press/target")


def test_no_expertise_die_from_pressing_on_an_attack_made_at_disadvantage():
    """'You cannot gain expertise dice in this way on attacks made at disadvantage.'"""
    t = fight(pc("aria"), monster("goblin", max_hp=30))
    t.do(PressTheAttack(combatant="aria", target="goblin"))
    rolled = attack_roll(t.do(MakeAttack(attacker="aria", target="goblin", target_unseen=True, faces=(10, 12))))
    assert rolled.notation == "2d20kl1+5"


def test_the_pressed_creature_can_fall_back_and_deny_the_expertise_die():
    """'You move backwards 5 feet, and your attacker does not gain an expertise die against you
    from using Press the Attack.'"""
    t = fight(pc("aria"), monster("goblin", max_hp=30))
    t.rejects(FallBack(combatant="goblin"), "fall-back/not-pressed")
    t.do(PressTheAttack(combatant="aria", target="goblin"))
    [fell] = t.do(FallBack(combatant="goblin"))
    assert fell.attacker == "aria" and not t["goblin"].economy.reaction
    rolled = attack_roll(t.do(MakeAttack(attacker="aria", target="goblin", faces=(10,), damage_faces=(4,))))
    assert rolled.notation == "1d20+5"
    t.rejects(FallBack(combatant="goblin"), "fall-back/not-pressed")


def test_a_raging_creature_cannot_fall_back():
    """'A creature using the Rage class feature cannot choose to Fall Back.'"""
    t = fight(pc("aria"), pc("grog", side="raiders"))
    t.do(ApplyCondition(target="grog", condition=ConditionSpec(name="raging")))
    t.do(PressTheAttack(combatant="aria", target="grog"))
    t.rejects(FallBack(combatant="grog"), "fall-back/raging")


# -- Tumble --------------------------------------------------------------------------------


def test_tumbling_is_a_dexterity_save_against_the_maneuver_dc_with_an_expertise_die_for_acrobatics():
    """'Make a Dexterity saving throw against the target's combat maneuver DC ... If you have
    proficiency with Acrobatics, you gain an expertise die on the save (or ... 1d6 ... with the
    tumbling specialty.)'"""
    t = fight(pc("lyra"), monster("ogre", max_hp=30))
    events = t.do(Tumble(combatant="lyra", through="ogre", dc=13, save_bonus=4, acrobatics=True, faces=(6, 2)))
    [save] = of_type(events, SaveMade)
    assert (save.total, save.dc, save.success) == (12, 13, False)
    assert of_type(events, Tumbled)[0].success is False and not t["lyra"].economy.action
    events = t.do(
        Tumble(
            combatant="lyra",
            through="ogre",
            dc=13,
            save_bonus=4,
            acrobatics=True,
            tumbling_specialty=True,
            bonus_action=True,
            faces=(6, 5),
        )
    )
    assert of_type(events, DiceRolled)[0].notation == "1d20+4+1d6" and of_type(events, Tumbled)[0].success


def test_size_decides_advantage_on_a_tumble_and_a_creature_can_just_let_you_pass():
    """'If you are smaller than the target, you have advantage. If you are larger ..., you have
    disadvantage (though if you are two or more sizes larger ..., you can move through ...
    without making a save).' 'The creature can choose to just let you pass.'"""
    t = fight(
        pc("pip", size="small"),
        pc("hulk", size="large"),
        pc("bear", size="huge"),
        monster("orc", size="medium"),
        monster("imp", size="tiny"),
    )
    events = t.do(Tumble(combatant="pip", through="orc", dc=12, faces=(3, 15)))
    assert of_type(events, DiceRolled)[0].notation == "2d20kh1+0"
    t.rejects(Tumble(combatant="pip", through="hulk", dc=12, bonus_action=True, faces=(3,)), "tumble/ally")
    turn_of(t, "hulk")
    events = t.do(Tumble(combatant="hulk", through="orc", dc=12, faces=(15, 3)))
    assert of_type(events, DiceRolled)[0].notation == "2d20kl1+0" and not of_type(events, Tumbled)[0].success
    turn_of(t, "bear")
    [tumbled] = t.do(Tumble(combatant="bear", through="orc", dc=12))
    assert tumbled.how == "two or more sizes larger" and tumbled.success
    [tumbled] = t.do(Tumble(combatant="bear", through="imp", dc=12, let_pass=True, bonus_action=True))
    assert tumbled.how == "let through"


def test_moving_out_of_reach_provokes_an_opportunity_attack_unless_disengaged():
    """'You can use your reaction to attempt an opportunity attack when a hostile creature that
    you can see moves out of your reach.' 'The Disengage action can be used to avoid provoking.'"""
    t = fight(pc("aria"), pc("bron"), monster("goblin"))
    [moved] = of_type(t.do(Move(combatant="aria", feet=10, leaves_reach_of=("goblin",))), Moved)
    assert moved.provoked == ("goblin",)
    t.do(EndTurn(combatant="aria"))
    t.do(TakeAction(combatant="bron", action="disengage"))
    [moved] = of_type(t.do(Move(combatant="bron", feet=10, leaves_reach_of=("goblin",))), Moved)
    assert moved.provoked == ()
