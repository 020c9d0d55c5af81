"""srd-2024 hit points: damage, healing, temporary hit points, and what 0 HP means.

"Combat ends when one side or the other is defeated, which can mean the entities are killed
or knocked out."
"""

from combat.common.commands import Damage, GrantTempHp, Heal
from combat.common.events import CombatantDowned, CombatantRevived, DamageTaken, Healed
from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack
from combat.kernel.commands import EndTurn
from combat.kernel.events import DiceRolled
from tests.helpers import Table, monster, of_type, pc


def _fight() -> Table:
    """Aria (20 HP) and Bram against a goblin (7 HP) and an orc (15 HP)."""
    t = Table().add(pc("aria"), pc("bram"), monster("goblin"), monster("orc", max_hp=15))
    return t.start({"aria": 18, "goblin": 14, "bram": 10, "orc": 6})


def test_damage_the_gm_rolls_lowers_hit_points():
    """Fire damage of 2d6 rolled at the table (4 and 5) takes 9 of the orc's 15 HP."""
    t = _fight()
    events = t.do(Damage(target="orc", notation="2d6", damage_type="fire", faces=(4, 5), source="aria"))
    assert of_type(events, DiceRolled)[0].total == 9
    assert DamageTaken(target="orc", amount=9, damage_type="fire", rolled=9, source="aria") in events
    assert t["orc"].hp == 6


def test_damage_needs_either_an_amount_or_dice_not_both():
    """The GM gives the damage dealt, or the dice to roll for it - one of the two."""
    t = _fight()
    t.rejects(Damage(target="orc", amount=4, notation="1d6", damage_type="fire"), "amount/ambiguous")
    t.rejects(Damage(target="orc", damage_type="fire"), "amount/ambiguous")
    t.rejects(Damage(target="orc", amount=-3, damage_type="fire"), "amount/negative")
    t.rejects(Damage(target="orc", amount=3, damage_type="fire", faces=(3,)), "dice/unused-faces")


def test_hit_points_never_drop_below_0():
    """Damage past 0 Hit Points is not carried as negative Hit Points."""
    t = _fight()
    t.do(Damage(target="orc", amount=40, damage_type="bludgeoning"))
    assert t["orc"].hp == 0


def test_a_monster_at_0_hit_points_dies_and_loses_its_turns():
    """A monster reduced to 0 Hit Points dies."""
    t = _fight()
    events = t.do(Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(4,)))
    assert CombatantDowned(combatant="goblin", status="dead") in events
    assert t["goblin"].status == "dead"
    t.do(EndTurn(combatant="aria"))
    assert t.state.turn == "bram"


def test_a_character_at_0_hit_points_falls_unconscious():
    """A character reduced to 0 Hit Points falls Unconscious instead of dying outright."""
    t = _fight()
    events = t.do(Damage(target="bram", amount=25, damage_type="slashing"))
    assert CombatantDowned(combatant="bram", status="unconscious") in events
    assert t["bram"].hp == 0 and t["bram"].status == "unconscious" and t["bram"].has("unconscious")


def test_an_unconscious_character_keeps_its_turn_but_cannot_move():
    """Unconscious: 'You have the Incapacitated condition', 'Your Speed is 0'; its turn still comes round."""
    t = _fight()
    t.do(Damage(target="bram", amount=20, damage_type="slashing"))
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="goblin"))
    assert t.state.turn == "bram"
    t.rejects(Move(combatant="bram", feet=5), "combatant/incapacitated")


def test_healing_restores_hit_points_but_never_above_the_maximum():
    """Hit points can't exceed the Hit Point maximum."""
    t = _fight()
    t.do(Damage(target="aria", amount=6, damage_type="piercing"))
    events = t.do(Heal(target="aria", notation="2d4+3", faces=(4, 4), source="bram"))
    assert Healed(target="aria", amount=11, source="bram") in events
    assert t["aria"].hp == 20


def test_healing_an_unconscious_character_brings_it_back():
    """Regaining any Hit Points ends the Unconscious condition from 0 HP."""
    t = _fight()
    t.do(Damage(target="bram", amount=20, damage_type="slashing"))
    events = t.do(Heal(target="bram", amount=4, source="aria"))
    assert CombatantRevived(combatant="bram") in events
    assert t["bram"].hp == 4 and t["bram"].status == "active" and not t["bram"].has("unconscious")


def test_the_dead_cannot_be_healed():
    """A dead creature regains no Hit Points and takes no more damage."""
    t = _fight()
    t.do(Damage(target="goblin", amount=7, damage_type="fire"))
    t.rejects(Heal(target="goblin", amount=5), "target/dead")
    t.rejects(GrantTempHp(target="goblin", amount=5), "target/dead")
    t.rejects(Damage(target="goblin", amount=5, damage_type="fire"), "target/dead")


def test_temporary_hit_points_soak_damage_first():
    """Temporary Hit Points are lost first; the rest of the damage carries to Hit Points."""
    t = _fight()
    t.do(GrantTempHp(target="aria", amount=5, source="False Life"))
    t.do(Damage(target="aria", amount=8, damage_type="slashing"))
    assert (t["aria"].temp_hp, t["aria"].hp) == (0, 17)


def test_damage_smaller_than_the_temporary_hit_points_leaves_hit_points_alone():
    """Temporary Hit Points are lost first, so a small hit never reaches Hit Points."""
    t = _fight()
    t.do(GrantTempHp(target="aria", amount=5))
    t.do(Damage(target="aria", amount=3, damage_type="slashing"))
    assert (t["aria"].temp_hp, t["aria"].hp) == (2, 20)


def test_temporary_hit_points_dont_stack_the_higher_number_stays():
    """'Temporary Hit Points can't be added together': keep whichever you choose, here the higher."""
    t = _fight()
    t.do(GrantTempHp(target="aria", amount=8))
    t.do(GrantTempHp(target="aria", amount=5))
    assert t["aria"].temp_hp == 8
    t.do(GrantTempHp(target="aria", amount=10))
    assert t["aria"].temp_hp == 10


def test_temporary_hit_points_must_be_positive():
    """Granting 0 temporary Hit Points grants nothing."""
    t = _fight()
    t.rejects(GrantTempHp(target="aria", amount=0), "amount/not-positive")


def test_damage_to_an_unknown_combatant_is_rejected_listing_who_is_there():
    """The GM is told who is in the fight."""
    t = _fight()
    error = t.rejects(Damage(target="ogre", amount=5, damage_type="fire"), "combatant/unknown")
    assert error.allowed == "aria, bram, goblin, orc"
