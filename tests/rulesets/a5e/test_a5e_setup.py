"""a5e set-up: the scene, surprise, sudden actions and initiative by ability check."""

from __future__ import annotations

import msgspec

from combat.fivee.action_commands import BonusAction, InteractWithObject, Move, TakeAction, UseReaction
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import BeginCombat, EndTurn, MarkSurprised
from combat.kernel.events import DiceRolled, InitiativeSet, PhaseChanged, RoundStarted, SurpriseMarked, TurnStarted
from combat.rulesets.a5e.actions import FreeAction, FreeActionTaken
from combat.rulesets.a5e.attacks import MakeAttack
from combat.rulesets.a5e.initiative import (
    CallInitiativeCheck,
    RollOff,
    RollOffNeeded,
    RollOffTiedAgain,
    SurpriseCheckReused,
    TieRolledOff,
)
from combat.rulesets.a5e.maneuvers import FallBack, PressTheAttack
from combat.rulesets.a5e.scene import SceneSet, SetScene
from combat.rulesets.a5e.surprise import DeclareSuddenAction, SurpriseCheck, SurpriseCheckMade, SurpriseEnded
from tests.helpers import Table, monster, of_type, pc


def a5e(*specs, **settings) -> Table:
    return Table(ruleset="a5e", settings=settings or None).add(*specs)


def roll(t: Table, faces: dict[str, int]) -> None:
    for cid, face in faces.items():
        t.do(RollInitiative(combatant=cid, faces=(face,)))


# -- set the scene -------------------------------------------------------------------------


def test_the_narrator_sets_the_round_length_the_environment_and_where_everyone_is():
    """'The Narrator decides where everyone is located, the appropriate amount of time for each
    round ... In other cases a round might take 10 seconds, 1 minute, or 10 minutes.'"""
    t = a5e(pc("aria"), monster("goblin"))
    [scene] = t.do(SetScene(round_seconds=60, environment="swampy", positions={"aria": "on the causeway"}))
    assert isinstance(scene, SceneSet) and scene.environment is not None and scene.environment.name == "Swampy"
    notes = t.state.rules
    assert notes.round_seconds == 60 and notes.positions == {"aria": "on the causeway"}
    assert [a.name for a in notes.environment.world_actions] == ["Swamp Gas", "Leeches"]
    assert t.rebuilt() == t.state


def test_an_unknown_environment_or_round_length_is_refused():
    """The example environments are cavernous, fiery, forested, frigid, furnished, hazy, rocky, stormy, swampy."""
    t = a5e(pc("aria"), monster("goblin"))
    error = t.rejects(SetScene(environment="volcanic"), "scene/unknown-environment")
    assert "fiery" in (error.allowed or "")
    t.rejects(SetScene(positions={"nobody": "here"}), "combatant/unknown")


def test_the_set_up_goes_scene_then_surprise_then_initiative_and_the_scene_is_set_before_it():
    """'Set-up: 1. Set the Scene. 2. Surprise. 3. Roll Initiative.'"""
    t = a5e(pc("aria"), monster("goblin"))
    t.rejects(SurpriseCheck(combatant="aria"), "phase/not-allowed")
    t.do(SetScene(environment="cavernous"))
    [phase] = t.do(BeginCombat())
    assert phase == PhaseChanged(previous="setup", phase="surprise")
    t.rejects(SetScene(environment="fiery"), "phase/not-allowed")
    t.do(SurpriseCheck(combatant="aria", faces=(12,)))
    t.do(RollInitiative(combatant="aria"))
    assert t.state.phase == "initiative"
    roll(t, {"goblin": 3})
    assert t.state.phase == "turns" and t.state.turn == "aria"


# -- surprise ------------------------------------------------------------------------------


def test_a_participant_whose_check_falls_short_of_the_stealth_is_surprised():
    """'The Narrator calls for appropriate ability checks to determine whether participants are
    aware of each other.' Aria's Perception 9+1 = 10 against the goblin's Stealth 16."""
    t = a5e(pc("aria"), pc("bron"), pc("cora"), monster("goblin"))
    t.do(BeginCombat())
    t.do(SurpriseCheck(combatant="goblin", check="Dexterity (Stealth)", bonus=6, faces=(10,)))
    events = t.do(SurpriseCheck(combatant="aria", bonus=1, dc=16, faces=(9,)))
    assert of_type(events, SurpriseCheckMade)[0].aware is False
    assert of_type(events, SurpriseMarked) == [SurpriseMarked(combatant="aria", surprised=True)]
    events = t.do(SurpriseCheck(combatant="bron", bonus=3, dc=16, faces=(13,)))
    assert of_type(events, SurpriseCheckMade)[0].aware is True and not of_type(events, SurpriseMarked)
    assert t["aria"].surprised and not t["bron"].surprised
    t.rejects(SurpriseCheck(combatant="aria", dc=16, faces=(20,)), "surprise/already-checked")
    t.rejects(SurpriseCheck(combatant="cora", check="luck", faces=(20,)), "check/ability")


def test_a_check_made_in_the_surprise_step_is_reused_for_initiative():
    """'If any creatures have already made an ability check during the surprise step, they use
    that existing score for initiative.'"""
    t = a5e(pc("aria"), monster("goblin"))
    t.do(BeginCombat())
    t.do(SurpriseCheck(combatant="goblin", check="dexterity (stealth)", bonus=6, faces=(10,)))
    t.rejects(RollInitiative(combatant="goblin", faces=(3,)), "initiative/check-made")
    events = t.do(RollInitiative(combatant="goblin"))
    assert not of_type(events, DiceRolled)
    assert of_type(events, SurpriseCheckReused)[0].total == 16
    assert of_type(events, InitiativeSet) == [InitiativeSet(combatants=("goblin",), total=16)]


def _surprised_aria() -> Table:
    """Aria is surprised and acts first; the goblin was hiding."""
    t = a5e(pc("aria", speed=30), monster("goblin"))
    t.do(BeginCombat())
    t.do(MarkSurprised(combatants=("aria",)))
    roll(t, {"aria": 18, "goblin": 5})
    assert t.state.turn == "aria"
    return t


def test_a_surprised_creature_cannot_move_or_take_an_action_on_its_first_turn():
    """'Surprised creatures are unable to move or take an action on their first turn.'"""
    t = _surprised_aria()
    t.rejects(Move(combatant="aria", feet=5), "surprise/cannot-move")
    t.rejects(Attack(attacker="aria", target="goblin", faces=(15,)), "surprise/cannot-act")
    t.rejects(MakeAttack(attacker="aria", target="goblin", faces=(15,)), "surprise/cannot-act")
    t.rejects(TakeAction(combatant="aria", action="dodge"), "surprise/cannot-act")
    t.rejects(BonusAction(combatant="aria", description="second wind"), "surprise/cannot-act")
    t.rejects(PressTheAttack(combatant="aria", target="goblin"), "surprise/cannot-act")
    # Free actions are not actions.
    assert of_type(t.do(FreeAction(combatant="aria", description="shouts 'Ambush!'")), FreeActionTaken)
    t.do(InteractWithObject(combatant="aria", description="draws her sword"))
    events = t.do(EndTurn(combatant="aria"))
    assert events[0] == SurpriseEnded(combatant="aria") and not t["aria"].surprised


def test_a_table_may_allow_a_surprised_creature_its_bonus_action():
    """Where the text is silent: a bonus action is an action unless the table says otherwise."""
    t = a5e(pc("aria"), monster("goblin"), surprised_bonus_action=True)
    t.do(BeginCombat())
    t.do(MarkSurprised(combatants=("aria",)))
    roll(t, {"aria": 18, "goblin": 5})
    t.do(BonusAction(combatant="aria", description="second wind"))
    assert not t["aria"].economy.bonus_action


def test_a_surprised_creature_cannot_react_until_its_first_turn_is_over():
    """'... and are unable to use a reaction until after their first turn.'"""
    t = a5e(pc("aria"), monster("goblin"))
    t.do(BeginCombat())
    t.do(MarkSurprised(combatants=("goblin",)))
    roll(t, {"aria": 18, "goblin": 5})
    moved = t.do(Move(combatant="aria", feet=10, leaves_reach_of=("goblin",)))
    assert moved[0].provoked == ()  # it cannot take the opportunity
    t.rejects(OpportunityAttack(attacker="goblin", target="aria", faces=(15,)), "surprise/cannot-react")
    t.rejects(UseReaction(combatant="goblin", description="Shield"), "surprise/cannot-react")
    t.do(PressTheAttack(combatant="aria", target="goblin"))
    t.rejects(FallBack(combatant="goblin"), "surprise/cannot-react")
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="goblin"))  # its first turn is over
    assert not t["goblin"].surprised
    t.do(UseReaction(combatant="goblin", description="ducks behind a crate"))
    assert not t["goblin"].economy.reaction


def test_a_sudden_action_lets_the_instigators_roll_initiative_with_advantage():
    """'No one is surprised, but the Narrator may allow the instigating creature or party to
    roll initiative with advantage.'"""
    t = a5e(pc("aria", initiative_bonus=2), pc("bron"), monster("noble", side="court"))
    t.do(BeginCombat())
    t.do(DeclareSuddenAction(instigators=("court",)))
    t.rejects(MarkSurprised(combatants=("bron",)), "surprise/sudden-action")
    t.rejects(SurpriseCheck(combatant="bron", dc=15, faces=(3,)), "surprise/sudden-action")
    [rolled] = of_type(t.do(RollInitiative(combatant="noble", faces=(4, 17))), DiceRolled)
    assert rolled.notation == "2d20kh1+0" and rolled.total == 17
    [rolled] = of_type(t.do(RollInitiative(combatant="aria", faces=(9,))), DiceRolled)
    assert rolled.notation == "1d20+2" and rolled.total == 11


def test_a_sudden_action_cannot_be_declared_once_someone_is_surprised():
    """'In this case, no one is surprised.'"""
    t = a5e(pc("aria"), monster("noble"))
    t.do(BeginCombat())
    t.do(MarkSurprised(combatants=("aria",)))
    t.rejects(DeclareSuddenAction(instigators=("noble",)), "surprise/sudden-action")


# -- initiative ----------------------------------------------------------------------------


def test_the_narrator_can_call_for_another_ability_check_for_initiative():
    """'The Narrator might determine that one or more participants should instead roll a
    different ability check' - Wisdom (Perception) for spotting a hidden threat."""
    t = a5e(pc("aria"), monster("goblin"))
    t.do(BeginCombat())
    t.rejects(CallInitiativeCheck(combatant="aria", check="charm (lying)", bonus=2), "check/ability")
    [called] = t.do(CallInitiativeCheck(combatant="aria", check="Wisdom (Perception)", bonus=5))
    assert called.situation == "spotting a hidden threat"
    [rolled] = of_type(t.do(RollInitiative(combatant="aria", faces=(11,))), DiceRolled)
    assert rolled.notation == "1d20+5" and rolled.purpose == "initiative (wisdom (perception))"
    assert t["aria"].initiative == 16


def test_tied_participants_each_roll_a_d20_and_the_highest_goes_first():
    """'In the event of a tie, the tied participants each roll a d20 to determine the order
    amongst themselves (the highest roll goes first.)'"""
    t = a5e(pc("aria"), monster("goblin"), monster("wolf"))
    t.do(BeginCombat())
    roll(t, {"aria": 14})
    events = t.do(RollInitiative(combatant="goblin", faces=(14,)))
    assert of_type(events, RollOffNeeded) == [RollOffNeeded(total=14, units=(("aria",), ("goblin",)))]
    t.do(RollInitiative(combatant="wolf", faces=(2,)))
    assert t.state.phase == "initiative" and t.state.round == 0  # round 1 waits for the roll-off
    t.rejects(RollOff(faces=(5,)), "dice/whose-faces")
    events = t.do(RollOff(faces=(6, 18)))
    assert [d.total for d in of_type(events, DiceRolled)] == [6, 18]
    assert of_type(events, TieRolledOff)[0].order == ("goblin", "aria")
    assert of_type(events, RoundStarted) and of_type(events, TurnStarted)[0].combatant == "goblin"
    assert t.rebuilt() == t.state


def test_a_roll_off_that_ties_again_is_rolled_again():
    """Where the text is silent: equal d20s settle nothing, so the tie rolls off again."""
    t = a5e(pc("aria"), monster("goblin"))
    t.do(BeginCombat())
    roll(t, {"aria": 14, "goblin": 14})
    [again] = of_type(t.do(RollOff(faces=(9, 9))), RollOffTiedAgain)
    assert again.ranks == (("aria", "goblin"),) and t.state.round == 0
    t.do(RollOff(total=14, faces=(3, 4)))
    assert t.state.turn == "goblin"
    t.rejects(RollOff(faces=(1, 2)), "phase/not-allowed")


def test_a_roll_off_that_ties_again_rerolls_only_those_still_tied():
    """'the tied participants each roll a d20 to determine the order amongst themselves (the
    highest roll goes first.)': a wolf that rolled 17 in the first roll-off keeps first place;
    only the goblin and Aria, tied again on 9, roll again."""
    t = a5e(pc("aria"), monster("goblin"), monster("wolf"))
    t.do(BeginCombat())
    roll(t, {"aria": 14, "goblin": 14, "wolf": 14})
    [again] = of_type(t.do(RollOff(faces=(9, 9, 17))), RollOffTiedAgain)
    assert again.ranks == (("wolf",), ("aria", "goblin"))
    t.rejects(RollOff(faces=(3, 4, 5)), "dice/whose-faces")
    [settled] = of_type(t.do(RollOff(faces=(3, 4))), TieRolledOff)
    assert settled.order == ("wolf", "goblin", "aria") and settled.rolls == (("aria", 3), ("goblin", 4))
    assert t.state.turn == "wolf" and t.state.rules.roll_offs is msgspec.UNSET
    assert t.rebuilt() == t.state
