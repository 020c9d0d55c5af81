"""declared-d10: one attack and one move a round; Parry/Dodge, Move, Disengage, Use/Ready Item,
Sprint/Flee, and the free attacks they open."""

from __future__ import annotations

from combat.kernel.commands import EndTurn
from combat.kernel.events import CombatEnded
from combat.rulesets.declared_d10.actions import (
    D10Disengage,
    D10DisengageRolled,
    D10FreeAttackOffered,
    D10Move,
    D10ParryDodge,
    D10SprintFlee,
    D10UseItem,
)
from combat.rulesets.declared_d10.attacks import D10Attack, D10AttackRolled, D10FreeAttack
from tests.helpers import of_type
from tests.rulesets.declared_d10.helpers import duel, play_round


def round_of(plans: dict, party: int = 8, monsters: int = 2, **kw):
    return play_round(duel(**kw), plans, {"party": party, "monsters": monsters})


def offers(events) -> list[tuple[str, str, str]]:
    return [(e.attacker, e.target, e.reason) for e in of_type(events, D10FreeAttackOffered)]


def test_a_combatant_gets_one_attack_and_one_move_a_round():
    """'During each round, a player may perform one attack and one move action.' 'You can perform
    this action before, after, or during a move action.'"""
    t = round_of({"tammy": ("attack", "ogre"), "ogre": ("attack", "tammy")})
    t.do(D10Move(combatant="tammy", detail="closes in"))
    t.do(D10Attack(attacker="tammy", target="ogre", faces=(3,)))
    t.rejects(D10Attack(attacker="tammy", target="ogre", faces=(15,)), "economy/attack-spent")
    t.rejects(D10Move(combatant="tammy"), "economy/move-spent")
    t.rejects(D10Attack(attacker="ogre", target="tammy", faces=(15,)), "turn/not-yours")


def test_parry_and_dodge_uses_attack_and_move_and_gives_foes_disadvantage_until_the_next_action():
    """'Parry/Dodge (no attack damage, but Disadvantage added to foe to hit roll until your next
    action ...). This action uses your attack and move actions.'"""
    t = round_of({"tammy": ("parry_dodge", None), "ogre": ("attack", "tammy")})
    t.rejects(D10Attack(attacker="tammy", target="ogre", faces=(15,)), "declaration/mismatch")
    t.do(D10ParryDodge(combatant="tammy"))
    t.rejects(D10ParryDodge(combatant="tammy"), "economy/attack-spent")
    t.do(EndTurn(combatant="tammy"))
    [swing] = of_type(t.do(D10Attack(attacker="ogre", target="tammy", faces=(17, 8), damage_faces=(3,))), D10AttackRolled)
    assert (swing.roll_mode, swing.total) == ("disadvantage", 12)
    t.do(EndTurn(combatant="ogre"))
    # Next round the ogre goes first: Tammy has not acted again, so she still parries.
    play_round(t, {"tammy": ("attack", "ogre"), "ogre": ("attack", "tammy")}, {"party": 1, "monsters": 9})
    [again] = of_type(t.do(D10Attack(attacker="ogre", target="tammy", faces=(17, 8), damage_faces=(3,))), D10AttackRolled)
    assert again.roll_mode == "disadvantage"
    t.do(EndTurn(combatant="ogre"))
    assert "tammy" not in t.state.rules.parrying


def test_a_foe_moving_away_from_a_parrying_combatant_gives_it_a_free_attack():
    """'Parry/Dodge (... if they move away, you get a free attack)'. Free attacks are offered and recorded."""
    t = round_of({"tammy": ("parry_dodge", None), "ogre": ("move", None)})
    t.do(D10ParryDodge(combatant="tammy"))
    t.do(EndTurn(combatant="tammy"))
    events = t.do(D10Move(combatant="ogre", away_from=("tammy",)))
    assert offers(events) == [("tammy", "ogre", "moved away")]
    [free] = of_type(t.do(D10FreeAttack(attacker="tammy", target="ogre", faces=(11,), damage_faces=(4,))), D10AttackRolled)
    assert free.free and free.hit and t["ogre"].hp == 16
    assert t.state.rules.free_attacks == ()
    t.rejects(D10FreeAttack(attacker="tammy", target="ogre", faces=(11,)), "attack/no-free-attack")


def test_moving_away_from_a_foe_gives_it_a_free_attack_until_the_end_of_that_turn():
    """'Move (normal movement around the combat area. If you move away from a foe, they get a free attack).'"""
    t = round_of({"tammy": ("move", None), "ogre": ("attack", "tammy")})
    events = t.do(D10Move(combatant="tammy", away_from=("ogre",)))
    assert offers(events) == [("ogre", "tammy", "moved away")]
    t.do(EndTurn(combatant="tammy"))
    assert t.state.rules.free_attacks == ()
    t.rejects(D10FreeAttack(attacker="ogre", target="tammy", faces=(11,)), "attack/no-free-attack")


def test_a_successful_disengage_lets_a_combatant_move_away_without_a_free_attack_but_spends_its_attack():
    """'Disengage (roll a normal to hit and if you succeed, you can move freely about the combat
    area and the foe does not get a free attack, but you have also spent your attack action)'."""
    t = round_of({"tammy": ("disengage", "ogre"), "ogre": ("attack", "tammy")})
    [rolled] = of_type(t.do(D10Disengage(combatant="tammy", foe="ogre", faces=(7,))), D10DisengageRolled)
    assert (rolled.total, rolled.target_number, rolled.success) == (12, 12, True)
    assert offers(t.do(D10Move(combatant="tammy", away_from=("ogre",)))) == []
    assert t.state.rules.spent == ("attack", "move")


def test_a_failed_disengage_leaves_the_foe_its_free_attack():
    """Only a successful Disengage keeps the foe from its free attack."""
    t = round_of({"tammy": ("disengage", "ogre"), "ogre": ("attack", "tammy")})
    [rolled] = of_type(t.do(D10Disengage(combatant="tammy", foe="ogre", faces=(6,))), D10DisengageRolled)
    assert not rolled.success
    t.rejects(D10Disengage(combatant="tammy", foe="ogre", faces=(16,)), "economy/attack-spent")
    assert offers(t.do(D10Move(combatant="tammy", away_from=("ogre",)))) == [("ogre", "tammy", "moved away")]


def test_using_an_item_takes_the_attack_but_not_the_move():
    """'Use/Ready Item (used in place of an attack or parry/dodge ...). You can still move before,
    after, or in the middle of this action, but cannot perform a regular attack action'."""
    t = round_of({"tammy": ("use_item", None), "ogre": ("attack", "tammy")})
    t.do(D10Move(combatant="tammy"))
    t.do(D10UseItem(combatant="tammy", item="a potion from her belt"))
    t.rejects(D10UseItem(combatant="tammy", item="a rope"), "economy/attack-spent")
    assert t.state.rules.spent == ("move", "attack")


def test_fleeing_takes_attack_and_move_gives_the_foe_a_free_attack_and_leaving_ends_the_fight():
    """'Sprint/Flee (... If you are fleeing from the opponent, they get a free attack on you. This
    takes up your attack and move action' and fights go on 'until one side is dead or has fled the
    battlefield'."""
    t = round_of({"tammy": ("attack", "ogre"), "ogre": ("sprint_flee", None)}, party=1, monsters=9)
    t.rejects(D10Attack(attacker="ogre", target="tammy", faces=(15,)), "declaration/mismatch")
    events = t.do(D10SprintFlee(combatant="ogre", flee_from=("tammy",), leaves_battlefield=True))
    assert offers(events) == [("tammy", "ogre", "flees")]
    t.rejects(D10Move(combatant="ogre"), "declaration/mismatch")
    t.do(D10FreeAttack(attacker="tammy", target="ogre", faces=(4,)))
    events = t.do(EndTurn(combatant="ogre"))
    assert t["ogre"].status == "fled"
    assert [e.winner for e in of_type(events, CombatEnded)] == ["party"]
