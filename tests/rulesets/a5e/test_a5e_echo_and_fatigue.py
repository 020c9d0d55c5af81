"""a5e: the cavernous environment's Echo on thunder damage, and recovering sprint fatigue."""

from combat.common.commands import Damage
from combat.common.events import DamageTaken
from combat.fivee.attack_commands import RollDamage
from combat.fivee.attack_events import AttackDamageRolled, AttackMade, AttackRolled, ExtraDamage
from combat.kernel.commands import EndTurn
from combat.kernel.events import AttackProfile, ConditionEnded, DiceRolled
from combat.rulesets.a5e.attacks import MakeAttack
from combat.rulesets.a5e.sprint import Sprint
from tests.helpers import LONGSWORD, monster, of_type, pc, turn_of
from tests.rulesets.a5e.helpers import fight


def test_echo_adds_a_point_per_die_to_thunder_damage_in_a_cavern():
    """Echo: 'any effect which causes thunder damage does 1 extra point of damage per die rolled.'"""
    t = fight(pc("aria"), monster("ogre", max_hp=59), monster("bat", max_hp=59), environment="cavernous")
    events = t.do(Damage(target="ogre", notation="2d8", faces=(3, 5), damage_type="thunder", source="aria"))
    assert of_type(events, DiceRolled)[0].notation == "2d8+2"
    assert of_type(events, DamageTaken)[0].amount == 10
    # Other damage types, and thunder elsewhere, are as rolled.
    assert of_type(t.do(Damage(target="bat", notation="2d8", faces=(3, 5), damage_type="fire")), DamageTaken)[0].amount == 8


def test_thunder_outside_a_cavern_has_no_echo():
    t = fight(pc("aria"), monster("ogre", max_hp=59))
    assert of_type(t.do(Damage(target="ogre", notation="2d8", faces=(3, 5), damage_type="thunder")), DamageTaken)[0].amount == 8


def test_sprint_fatigue_recovers_a_minute_later():
    """'You recover fatigue suffered from sprinting at a rate of one level per minute': in
    6-second rounds, fatigue suffered in round 1 is gone as round 11 starts."""
    t = fight(pc("aria"), monster("goblin"))
    t.do(Sprint(combatant="aria", con_modifier=0, faces=(1,)))
    assert t["aria"].has("fatigue") and t.state.round == 1
    for _ in range(9):
        turn_of(t, "goblin")
        turn_of(t, "aria")
    assert t.state.round == 10 and t["aria"].has("fatigue")
    turn_of(t, "goblin")
    events = t.do(EndTurn(combatant="goblin"))
    assert t.state.round == 11 and not t["aria"].has("fatigue")
    assert ConditionEnded(target="aria", condition="fatigue", reason="recovered: one level of sprint fatigue a minute") in events


THUNDER_MACE = AttackProfile(name="Thunder Mace", bonus=5, damage="1d8+3", damage_type="thunder")


def test_echo_adds_a_point_per_die_to_an_attacks_own_thunder_damage_once():
    """Echo: 'any effect which causes thunder damage does 1 extra point of damage per die
    rolled': a mace dealing thunder damage, a thunder type chosen for a longsword and thunder
    extra damage each roll a point more per die; other damage rolled with them does not."""
    t = fight(
        pc("aria", attacks=(THUNDER_MACE, LONGSWORD), attacks_per_action=3), monster("ogre", max_hp=59), environment="cavernous"
    )
    mace = of_type(
        t.do(MakeAttack(attacker="aria", target="ogre", attack="Thunder Mace", faces=(15,), damage_faces=(4,))), AttackMade
    )[0]
    assert (mace.damage_rolled, mace.damage) == (4 + 3 + 1, 8)
    chosen = t.do(
        MakeAttack(attacker="aria", target="ogre", attack="Longsword", damage_type="thunder", faces=(15,), damage_faces=(4,))
    )
    assert of_type(chosen, DiceRolled)[1].notation == "1d8+3+1" and of_type(chosen, AttackMade)[0].damage == 8
    extra = t.do(
        MakeAttack(
            attacker="aria",
            target="ogre",
            attack="Longsword",
            faces=(15,),
            damage_faces=(4,),
            extra_damage=(ExtraDamage(dice="2d6", damage_type="thunder", faces=(1, 1)),),
        )
    )
    assert of_type(extra, AttackMade)[0].damage == 7  # slashing: as rolled
    assert [(d.amount, d.damage_type) for d in of_type(extra, DamageTaken)] == [(1 + 1 + 2, "thunder")]


def test_echo_on_a_critical_hit_counts_the_doubled_dice_and_in_two_steps_is_added_once():
    """'1 extra point of damage per die rolled': a Critical Hit rolls 2d8, so 2 more; an attack
    whose damage waits for roll_damage carries the point per die in the dice it waits for."""
    t = fight(pc("aria", attacks=(THUNDER_MACE,), attacks_per_action=2), monster("ogre", max_hp=59), environment="cavernous")
    crit = of_type(t.do(MakeAttack(attacker="aria", target="ogre", faces=(20,), damage_faces=(1, 1))), AttackMade)[0]
    assert crit.critical and crit.damage == 1 + 1 + 3 + 2
    [pending] = of_type(t.do(MakeAttack(attacker="aria", target="ogre", faces=(15,))), AttackRolled)
    assert pending.damage_dice == "1d8+3+1"
    rolled = t.do(RollDamage(attacker="aria", faces=(4,)))
    assert of_type(rolled, AttackDamageRolled)[0].damage == 4 + 3 + 1
    assert t["ogre"].hp == 59 - 7 - 8


def test_an_attacks_thunder_damage_outside_a_cavern_has_no_echo():
    t = fight(pc("aria", attacks=(THUNDER_MACE,)), monster("ogre", max_hp=59))
    assert of_type(t.do(MakeAttack(attacker="aria", target="ogre", faces=(15,), damage_faces=(4,))), AttackMade)[0].damage == 7
