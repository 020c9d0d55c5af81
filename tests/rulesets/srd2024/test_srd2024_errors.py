"""srd-2024 errors: every refused command says why, with a stable code, and appends nothing."""

import pytest

from combat.common.commands import Damage, Heal, SavingThrow
from combat.common.events import SaveMade
from combat.fivee.action_commands import BonusAction, Move, TakeAction, UseReaction
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.fivee.initiative import OrderTie, RollInitiative
from combat.kernel.commands import BeginCombat, Command, EndTurn, MarkSurprised
from tests.helpers import Table, monster, of_type, pc


def _mid_fight() -> Table:
    """Round 1, Aria's turn; she has already attacked, used her bonus action and moved 30 ft."""
    t = Table().add(pc("aria"), monster("goblin", max_hp=30)).start({"aria": 15, "goblin": 5})
    t.do(Attack(attacker="aria", target="goblin", faces=(2,)))
    t.do(BonusAction(combatant="aria", description="Second Wind"))
    t.do(Move(combatant="aria", feet=30))
    t.do(UseReaction(combatant="aria", description="Shield"))
    return t


REJECTED: list[tuple[str, Command, str]] = [
    ("a d20 face above 20", SavingThrow(combatant="goblin", ability="dexterity", dc=12, faces=(21,)), "dice/bad-face"),
    ("an attack out of turn", Attack(attacker="goblin", target="aria", faces=(12,), damage_faces=(3,)), "turn/not-yours"),
    ("a second action", TakeAction(combatant="aria", action="dodge"), "economy/action-spent"),
    ("a second bonus action", BonusAction(combatant="aria", description="again"), "economy/bonus-action-spent"),
    ("a second reaction", UseReaction(combatant="aria", description="again"), "economy/reaction-spent"),
    ("movement beyond Speed", Move(combatant="aria", feet=5), "economy/movement"),
    ("an unknown attacker", Attack(attacker="ogre", target="aria", faces=(12,)), "combatant/unknown"),
    ("an unknown target", Attack(attacker="aria", target="ogre", faces=(12,)), "combatant/unknown"),
    ("an unknown mover", Move(combatant="ogre", feet=5), "combatant/unknown"),
    ("an unknown healer's target", Heal(target="ogre", amount=3), "combatant/unknown"),
    ("an unknown saver", SavingThrow(combatant="ogre", ability="dexterity", dc=12, faces=(10,)), "combatant/unknown"),
    ("an unknown tie member", OrderTie(order=("ogre",)), "combatant/unknown"),
    ("an unknown late roller", RollInitiative(combatant="ogre", faces=(10,)), "combatant/unknown"),
    ("ending someone else's turn", EndTurn(combatant="goblin"), "turn/not-yours"),
    ("a d6 face of 7", Damage(target="goblin", notation="1d6", damage_type="fire", faces=(7,)), "dice/bad-face"),
    ("a d6 face of 0", Damage(target="goblin", notation="1d6", damage_type="fire", faces=(0,)), "dice/bad-face"),
    ("too many faces", Damage(target="goblin", notation="2d6", damage_type="fire", faces=(3, 4, 5)), "dice/too-many-faces"),
    ("too few faces", Damage(target="goblin", notation="2d6", damage_type="fire", faces=(3,)), "dice/too-few-faces"),
    ("unreadable notation", Damage(target="goblin", notation="two dice", damage_type="fire"), "dice/bad-notation"),
    ("a save with two faces", SavingThrow(combatant="goblin", ability="dexterity", dc=12, faces=(10, 11)), "dice/too-many-faces"),
]


@pytest.mark.parametrize(("what", "command", "code"), REJECTED, ids=[r[0] for r in REJECTED])
def test_a_refused_command_appends_nothing(what, command, code):
    """A refused command says why (a stable code and a message) and leaves the log as it was."""
    t = _mid_fight()
    error = t.rejects(command, code)
    assert error.message


def test_a_bad_damage_face_after_a_hit_throws_away_the_attack_roll_too():
    """Nothing half-done is kept: the hit is not recorded when its damage dice are impossible."""
    t = Table().add(pc("aria"), monster("goblin")).start({"aria": 15, "goblin": 5})
    error = t.rejects(Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(9,)), "dice/bad-face")
    assert "d8" in error.message and error.allowed == "a whole number from 1 to 8"
    assert of_type(t.events, AttackMade) == [] and t["goblin"].hp == 7


def test_an_advantage_roll_needs_two_d20_faces():
    """With Advantage 'roll a second d20': two faces must be entered."""
    t = Table().add(pc("aria"), monster("goblin")).start({"aria": 15, "goblin": 5})
    error = t.rejects(Attack(attacker="aria", target="goblin", advantage=("flanking",), faces=(15,)), "dice/too-few-faces")
    assert "2d20kh1+5" in error.message


def test_a_surprised_combatant_enters_both_initiative_dice():
    """Disadvantage on the surprised combatant's roll means two d20s; a normal roll means one."""
    t = Table().add(pc("aria"), monster("goblin"))
    t.do(BeginCombat())
    t.do(MarkSurprised(combatants=("aria",)))
    t.rejects(RollInitiative(combatant="aria", faces=(12,)), "dice/too-few-faces")
    t.rejects(RollInitiative(combatant="goblin", faces=(12, 3)), "dice/too-many-faces")


def test_a_saving_throw_the_gm_calls_for_is_d20_plus_bonus_against_the_dc():
    """Saving throws: d20 + bonus, success on meeting the DC; Advantage rolls two dice."""
    t = Table().add(pc("aria"), monster("goblin")).start({"aria": 15, "goblin": 5})
    events = t.do(SavingThrow(combatant="goblin", ability="dexterity", dc=13, bonus=2, roll_mode="advantage", faces=(4, 11)))
    assert of_type(events, SaveMade) == [SaveMade(combatant="goblin", ability="dexterity", dc=13, total=13, success=True)]
