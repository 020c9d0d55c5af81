"""Features an imported or built sheet holds, used in a fight: an imported Rogue's Sneak Attack,
and Evasion against a Fireball and a dragon's breath. Rulesets: srd-2024, the variant and a5e."""

from __future__ import annotations

import msgspec
import pytest

from combat.characters.foundry import import_actor
from combat.characters.sheet import Features
from combat.common.commands import ApplyCondition
from combat.common.events import DamageTaken, SaveMade
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.fivee.casts import CastSpell
from combat.fivee.characters import AddCharacter, character
from combat.fivee.monsters import AddCreature
from combat.fivee.save_effects import SaveEffect
from combat.kernel.events import ConditionSpec
from tests.characters.foundry_actors import foundry_actor
from tests.helpers import Table, member, monster, of_type

FIVE_E = ["srd-2024", "srd-2024-variant", "a5e"]
VEX, _ = import_actor(foundry_actor("rogue-4x"))  # Rogue 7, Dex 18, Dex save +7
WIZARD = member("Elara", 5, "Fireball")


def _fight(ruleset: str, *sheets) -> Table:
    t = Table.as_rolled(ruleset)
    for sheet in sheets:
        t.do(AddCharacter(character=sheet, side="party", player="ann"))
    t.add(monster("goblin-1", ac=13, max_hp=30))
    return t.start({cid: 20 - i for i, cid in enumerate(t.state.combatants)})


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_rogue_imported_from_foundry_attacks_with_sneak_attack(ruleset):
    """Sneak Attack: "Once per turn, you can deal extra damage to one creature you hit with an
    attack roll ... the attack uses a Finesse or a Ranged weapon." The imported Rogue 7's Rapier
    (+7, 1d8+4) hits a goblin with 4d6 more, the dice its Foundry scale value gives."""
    t = _fight(ruleset, VEX)
    vex = next(cid for cid, c in t.state.combatants.items() if c.name == "Vex Thornwood")
    events = t.do(
        Attack(
            attacker=vex, target="goblin-1", sneak_attack=True, faces=(12,), damage_faces=(5,), extra_damage_faces=(1, 2, 3, 4)
        ),
        actor="ann",
    )
    made = of_type(events, AttackMade)[0]
    assert made.hit and t["goblin-1"].hp == 30 - (5 + 4) - (1 + 2 + 3 + 4)
    assert character(t.state, vex).sneak_attack_used
    assert t.rebuilt() == t.state


def _fireball(ruleset: str, rogue, face: int) -> tuple[Table, list]:
    t = Table.as_rolled(ruleset)
    t.do(AddCharacter(character=WIZARD, side="party", player="sam"))
    t.do(AddCharacter(character=rogue, side="party", player="ann"))
    t.do(AddCreature(creature="Goblin Warrior", count=1, side="goblins"))
    t.start({"elara": 20, "goblin-warrior": 10, "vex": 5})
    events = t.do(
        CastSpell(
            caster="elara",
            spell="Fireball",
            targets=("vex", "goblin-warrior"),
            save_faces={"vex": (face,), "goblin-warrior": (15,)},
            damage_faces=((6, 6, 6, 6, 1, 1, 1, 1),),
        )
    )
    return t, events


ROGUE = msgspec.structs.replace(VEX, name="Vex")


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_an_evasion_rogue_takes_nothing_on_a_successful_dex_save_against_fireball(ruleset):
    """Evasion: "When you're subjected to an effect that allows you to make a Dexterity saving
    throw to take only half damage, you instead take no damage if you succeed on the saving
    throw". Fireball, DC 14, 8d6 = 28: Vex rolls 10 (+7 = 17) and takes 0; the goblin beside
    her, also succeeding, takes half (14) as anyone without Evasion."""
    t, events = _fireball(ruleset, ROGUE, 10)
    assert [(s.combatant, s.success) for s in of_type(events, SaveMade)] == [("vex", True), ("goblin-warrior", True)]
    assert [(d.target, d.amount) for d in of_type(events, DamageTaken)] == [("goblin-warrior", 14)]
    assert t["vex"].hp == t["vex"].max_hp
    assert t.rebuilt() == t.state


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_an_evasion_rogue_takes_half_on_a_failed_dex_save(ruleset):
    """Evasion: "... and only half damage if you fail." Vex rolls 2 (+7 = 9, DC 14): 28 // 2 = 14."""
    _, events = _fireball(ruleset, ROGUE, 2)
    assert [(d.target, d.amount) for d in of_type(events, DamageTaken)] == [("vex", 14), ("goblin-warrior", 14)]


def test_without_evasion_a_rogue_takes_the_whole_fireball_on_a_failure():
    """The same Rogue with no Evasion on the sheet (a Rogue 6) fails and takes all 28."""
    _, events = _fireball("srd-2024", msgspec.structs.replace(ROGUE, features=Features(sneak_attack="3d6")), 2)
    assert [(d.target, d.amount) for d in of_type(events, DamageTaken)] == [("vex", 28), ("goblin-warrior", 14)]


def _vex_before_a_dragon() -> Table:
    t = Table("srd-2024")
    t.do(AddCharacter(character=ROGUE, side="party", player="ann"))
    t.add(monster("dragon", ac=18, max_hp=200))
    return t.start({"vex": 20, "dragon": 10})


def _on_vex(
    t: Table,
    ability: str,
    dc: int,
    damage: str,
    damage_type: str,
    face: int,
    damage_faces: tuple[int, ...],
    half_on_success: bool = False,
) -> list:
    """The dragon's save effect on Vex alone: her d20 shows `face`."""
    effect = SaveEffect(
        source="dragon",
        targets=("vex",),
        ability=ability,
        dc=dc,
        damage=damage,
        damage_type=damage_type,
        faces={"vex": (face,)},
        damage_faces=damage_faces,
        half_on_success=half_on_success,
    )
    return t.do(effect)


def test_an_incapacitated_rogue_has_no_evasion():
    """Evasion: "You can't use this feature if you have the Incapacitated condition." Vex,
    Incapacitated, rolls 20 and succeeds: half the 28, as anyone without Evasion."""
    t = _vex_before_a_dragon()
    t.do(ApplyCondition(target="vex", condition=ConditionSpec(name="incapacitated")))
    events = _on_vex(t, "dex", 15, "8d6", "fire", 20, (6, 6, 6, 6, 1, 1, 1, 1), half_on_success=True)
    assert [d.amount for d in of_type(events, DamageTaken)] == [14]


def test_evasion_does_not_apply_to_a_save_that_is_not_dexterity_or_not_for_half():
    """Only "an effect that allows you to make a Dexterity saving throw to take only half
    damage": a Constitution save for half, or a Dexterity save for nothing-or-all, is as usual."""
    t = _vex_before_a_dragon()
    con = _on_vex(t, "con", 10, "2d6", "poison", 19, (4, 4), half_on_success=True)
    assert [d.amount for d in of_type(con, DamageTaken)] == [4]  # a success: half, Evasion or not
    dex = _on_vex(t, "dex", 20, "2d6", "fire", 2, (3, 3))
    assert [d.amount for d in of_type(dex, DamageTaken)] == [6]  # no half on a success: a failure takes all
