"""A stat block's extra damage that needs Advantage, and the named checks of an attack.

Goblin Warrior (SRD 5.2): "Scimitar. Melee Attack Roll: +4, reach 5 ft. 5 (1d6 + 2) Slashing
damage, plus 2 (1d4) Slashing damage if the attack roll had Advantage."
Prone: "An attack roll against you has Advantage if the attacker is within 5 feet of you."
Advantage/Disadvantage: "If circumstances cause a roll to have both Advantage and
Disadvantage, the roll has neither of them, and you roll one d20."
"""

import pytest

from combat.bestiary import library
from combat.common.commands import ApplyCondition
from combat.common.events import DamageTaken
from combat.fivee.attack_commands import Attack, RollDamage
from combat.fivee.attack_events import AttackMade, AttackRolled
from combat.fivee.attacks import hits, is_critical
from combat.fivee.monsters import AddCreature
from combat.kernel.events import ConditionSpec, DiceRolled
from combat.rulesets.srd2024_variant.reorder import EndReorder, PassSwap
from tests.helpers import Table, of_type, pc

RULESETS = ("srd-2024", "srd-2024-variant")
PRONE = ConditionSpec(name="prone")


def _goblin_turn(ruleset: str = "srd-2024") -> Table:
    """Aria (AC 15, 20 HP) and a Goblin Warrior from the SRD bestiary, on the goblin's turn."""
    t = Table(ruleset).add(pc("aria"))
    t.do(AddCreature(creature="Goblin Warrior", side="goblins"))
    t.start({"goblin-warrior": 20, "aria": 1})
    if ruleset == "srd-2024-variant":
        t.do(PassSwap(combatant="aria"))  # nobody asks to swap places
        t.do(EndReorder())
    return t


def test_the_packaged_goblins_say_their_extra_damage_needs_advantage():
    """The bestiary keeps the clause as data: 'plus 2 (1d4) Slashing damage if the attack roll
    had Advantage' (Scimitar), '... Piercing damage ...' (Shortbow), for the Warrior and the
    Boss; the Adult Red Dragon's Rend ('plus 5 (2d4) Fire damage') adds its fire on every hit."""
    for name in ("Goblin Warrior", "Goblin Boss"):
        block = library.find(name)
        scimitar, shortbow = block.attack("Scimitar"), block.attack("Shortbow")
        assert (scimitar.extra_damage, scimitar.extra_damage_type, scimitar.extra_damage_if) == ("1d4", "slashing", "advantage")
        assert (shortbow.extra_damage, shortbow.extra_damage_type, shortbow.extra_damage_if) == ("1d4", "piercing", "advantage")
    rend = library.find("Adult Red Dragon").attack("Rend")
    assert rend.extra_damage == "2d4" and rend.extra_damage_if is None


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_goblin_warrior_slashing_a_prone_fighter_adds_1d4_slashing(ruleset):
    """Aria is Prone and the goblin within 5 feet: Advantage, so the Scimitar deals 1d6 + 2
    (4 + 2) plus 1d4 (3) Slashing damage: 9 of Aria's 20 HP."""
    t = _goblin_turn(ruleset)
    t.do(ApplyCondition(target="aria", condition=PRONE))
    events = t.do(
        Attack(
            attacker="goblin-warrior", target="aria", attack="Scimitar", faces=(3, 15), damage_faces=(4,), extra_damage_faces=(3,)
        )
    )
    [made] = of_type(events, AttackMade)
    assert (made.roll_mode, made.total, made.hit, made.damage) == ("advantage", 19, True, 6)
    assert [(d.amount, d.damage_type) for d in of_type(events, DamageTaken)] == [(3, "slashing")]
    assert [r.notation for r in of_type(events, DiceRolled)] == ["2d20kh1+4", "1d6+2", "1d4"]
    assert t["aria"].hp == 11


@pytest.mark.parametrize("ruleset", RULESETS)
def test_without_advantage_the_goblin_warrior_deals_its_scimitar_damage_alone(ruleset):
    """A plain attack roll: 1d6 + 2 (4 + 2) Slashing, no 1d4; a d4 rolled at the table for it
    is left unused, as a GM would."""
    t = _goblin_turn(ruleset)
    events = t.do(
        Attack(
            attacker="goblin-warrior", target="aria", attack="Scimitar", faces=(15,), damage_faces=(4,), extra_damage_faces=(3,)
        )
    )
    [made] = of_type(events, AttackMade)
    assert (made.roll_mode, made.hit, made.damage) == ("normal", True, 6)
    assert of_type(events, DamageTaken) == []
    assert [r.notation for r in of_type(events, DiceRolled)] == ["1d20+4", "1d6+2"]
    assert t["aria"].hp == 14


def test_advantage_cancelled_by_disadvantage_is_no_advantage_for_the_extra_damage():
    """Aria is Prone (Advantage) and the goblin is Poisoned ('Disadvantage on attack rolls'):
    the roll has neither, one d20, and the 1d4 is not rolled (the service rolls the damage)."""
    t = _goblin_turn()
    t.do(ApplyCondition(target="aria", condition=PRONE))
    t.do(ApplyCondition(target="goblin-warrior", condition=ConditionSpec(name="poisoned")))
    events = t.do(Attack(attacker="goblin-warrior", target="aria", attack="Scimitar", faces=(15,), damage_faces=(4,)))
    [made] = of_type(events, AttackMade)
    assert made.roll_mode == "normal" and made.hit
    assert [r.notation for r in of_type(events, DiceRolled)] == ["1d20+4", "1d6+2"]


def test_a_critical_hit_with_advantage_doubles_the_1d4_too():
    """Critical Hits: 'If the attack involves other damage dice ... you also roll those dice
    twice': a natural 20 with Advantage rolls 2d6 + 2 and 2d4."""
    t = _goblin_turn()
    t.do(ApplyCondition(target="aria", condition=PRONE))
    events = t.do(
        Attack(
            attacker="goblin-warrior",
            target="aria",
            attack="Scimitar",
            faces=(20, 2),
            damage_faces=(1, 1),
            extra_damage_faces=(1, 2),
        )
    )
    assert [r.notation for r in of_type(events, DiceRolled)] == ["2d20kh1+4", "2d6+2", "2d4"]
    assert [d.amount for d in of_type(events, DamageTaken)] == [3]
    assert t["aria"].hp == 20 - 4 - 3


def test_damage_left_for_later_keeps_the_1d4_only_when_the_roll_had_advantage():
    """The d20s entered alone: the hit waits for `roll_damage`, which asks for the 1d4 only
    when the attack roll had Advantage."""
    t = _goblin_turn()
    t.do(ApplyCondition(target="aria", condition=PRONE))
    [pending] = of_type(t.do(Attack(attacker="goblin-warrior", target="aria", attack="Scimitar", faces=(15, 2))), AttackRolled)
    assert [(x.dice, x.damage_type) for x in pending.extra_damage] == [("1d4", "slashing")]
    events = t.do(RollDamage(attacker="goblin-warrior", faces=(4,), extra_faces=((3,),)))
    assert t["aria"].hp == 20 - 6 - 3 and [d.amount for d in of_type(events, DamageTaken)][-1] == 3


def test_hits_and_is_critical_read_as_the_rules_do():
    """'An attack roll hits if the roll equals or exceeds the target's Armor Class'; a natural
    20 hits whatever the AC and a natural 1 misses; Improved Critical's 19 is a Critical Hit."""
    aria = Table().add(pc("aria"))["aria"]
    assert hits(natural=10, total=15, ac=15) and not hits(natural=10, total=14, ac=15)
    assert hits(natural=20, total=21, ac=30) and not hits(natural=1, total=30, ac=15)
    assert hits(natural=19, total=20, ac=25, critical_range=19)
    assert is_critical(True, 19, 19, melee=False, target=aria) and not is_critical(True, 19, 20, melee=False, target=aria)
    assert not is_critical(False, 20, 20, melee=True, target=aria)
