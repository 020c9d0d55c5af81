"""Adding monsters by name from the SRD 5.2 bestiary, or from the GM's own stat block.

"For a group of identical creatures, the GM makes a single roll" (initiative).
"""

import msgspec
import pytest

from combat.bestiary import library
from combat.bestiary.validate import problems
from combat.fivee.initiative import RollInitiative
from combat.fivee.monsters import AddCreature, StatBlockAttached, sheet
from combat.kernel.commands import BeginCombat
from combat.kernel.events import CombatantAdded, DiceRolled, InitiativeSet
from tests.helpers import Table, of_type, pc

RULESETS = ("srd-2024", "srd-2024-variant", "a5e")

HOMEBREW = {
    "name": "Bog Hag",
    "size": "medium",
    "type": "fey",
    "cr": "3",
    "ac": 14,
    "hp": 45,
    "hit_dice": "7d8+14",
    "speed": {"walk": 30, "swim": 30},
    "initiative_bonus": 1,
    "saves": {"constitution": 2},
    "attacks": [{"name": "Claw", "bonus": 5, "damage": "2d6+3", "damage_type": "slashing"}],
    "multiattack": {"text": "The hag makes two Claw attacks."},
}


@pytest.mark.parametrize("ruleset", RULESETS)
def test_three_goblin_warriors_by_name_share_one_initiative_roll_and_the_srd_block(ruleset):
    """Goblin Warrior (SRD 5.2): 'AC 15 ... HP 10 (3d6) ... Initiative +2 ... Scimitar. Melee Attack
    Roll: +4, reach 5 ft. 5 (1d6 + 2) Slashing damage'; three of them roll initiative once."""
    t = Table(ruleset).add(pc("aria"))
    events = t.do(AddCreature(creature="goblin WARRIOR", count=3, side="goblins"))
    added = [e.combatant for e in of_type(events, CombatantAdded)]
    assert [c.id for c in added] == ["goblin-warrior-1", "goblin-warrior-2", "goblin-warrior-3"]
    assert {(c.ac, c.max_hp, c.initiative_bonus, c.group, c.size) for c in added} == {(15, 10, 2, "goblin-warrior", "small")}
    scimitar = t["goblin-warrior-1"].attacks[0]
    assert (scimitar.name, scimitar.bonus, scimitar.damage, scimitar.damage_type, scimitar.reach) == (
        "Scimitar",
        4,
        "1d6+2",
        "slashing",
        5,
    )
    shortbow = t["goblin-warrior-1"].attacks[1]
    assert (shortbow.kind, shortbow.normal_range, shortbow.long_range) == ("ranged", 80, 320)
    # the whole stat block is in the log, so replay never needs the bestiary
    assert [e.stat_block.name for e in of_type(events, StatBlockAttached)] == ["Goblin Warrior"] * 3
    if ruleset == "a5e":
        return  # a5e's initiative is an ability check called per participant; the group still shares it
    t.do(BeginCombat())
    rolled = t.do(RollInitiative(combatant="goblin-warrior-2", faces=(11,)))
    [initiative] = of_type(rolled, InitiativeSet)
    assert initiative.combatants == ("goblin-warrior-1", "goblin-warrior-2", "goblin-warrior-3") and initiative.total == 13
    assert len(of_type(rolled, DiceRolled)) == 1


def test_a_name_not_in_the_bestiary_suggests_close_names():
    """A misspelt name is refused with the names it was probably meant to be."""
    t = Table()
    error = t.rejects(AddCreature(creature="Goblin Warior", side="goblins"), "creature/unknown")
    assert "Goblin Warrior" in error.allowed


def test_rolled_hit_points_roll_the_hit_dice_for_each_creature():
    """Goblin Warrior HP 10 (3d6): rolled, each goblin rolls its own 3d6."""
    t = Table()
    events = t.do(AddCreature(creature="Goblin Warrior", count=2, side="goblins", hp="rolled", faces=(1, 2, 3, 6, 6, 6)))
    assert [r.notation for r in of_type(events, DiceRolled)] == ["3d6", "3d6"]
    assert (t["goblin-warrior-1"].max_hp, t["goblin-warrior-2"].max_hp) == (6, 18)


def test_a_second_batch_continues_the_numbering_in_a_group_of_its_own():
    """Late goblins are new ids; a group that has already rolled takes no newcomers."""
    t = Table().add(pc("aria"))
    t.do(AddCreature(creature="Goblin Warrior", count=2, side="goblins"))
    t.do(AddCreature(creature="Goblin Warrior", count=2, side="goblins", group="goblin-reinforcements"))
    assert [c for c in t.state.combatants if c.startswith("goblin")] == [f"goblin-warrior-{n}" for n in range(1, 5)]
    assert t["goblin-warrior-3"].group == "goblin-reinforcements"


@pytest.mark.parametrize("ruleset", RULESETS)
def test_a_homebrew_stat_block_is_added_whole(ruleset):
    """The GM's own block in the bestiary's format: its multiattack text is read into attacks."""
    t = Table(ruleset)
    t.do(AddCreature(creature=HOMEBREW, side="hags"))
    hag = t["bog-hag"]
    assert (hag.ac, hag.max_hp, hag.con_save, hag.attacks[0].damage) == (14, 45, 2, "2d6+3")
    routines = sheet(t.state, "bog-hag").block.multiattack.routines
    assert [[(p.count, p.attacks) for p in r] for r in routines] == [[(2, ("Claw",))]]


def test_a_bad_stat_block_is_refused_field_by_field_and_nothing_is_added():
    """Every problem is named at once; nothing enters the log."""
    bad = {**HOMEBREW, "ac": "fourteen", "wings": 2}
    del bad["hp"]
    error = Table().rejects(AddCreature(creature=bad, side="hags"), "stat-block/invalid")
    for field in ("ac:", "wings:", "hp: missing"):
        assert field in error.message
    worse = {**HOMEBREW, "hp": 0, "attacks": [{"name": "Claw", "bonus": 5, "damage": "2d6+banana", "damage_type": "slashing"}]}
    error = Table().rejects(AddCreature(creature=worse, side="hags"), "stat-block/invalid")
    assert "hp: 0" in error.message and "attacks[0].damage" in error.message


def test_the_packaged_bestiary_holds_the_srd_creatures():
    """331 SRD 5.2 creatures, each one a valid stat block."""
    blocks = library.srd()
    assert len(blocks) == 331
    dragon = library.find("adult red dragon")
    assert (dragon.ac, dragon.hp, dragon.hit_dice, dragon.cr, dragon.legendary_resistance) == (19, 256, "19d12+133", "17", 3)
    assert [a.name for a in dragon.legendary_actions] == ["Commanding Presence", "Fiery Rays", "Pounce"]
    for block in blocks:
        assert problems(msgspec.to_builtins(block)) == [], block.name


def test_an_attack_without_an_open5e_record_is_read_from_its_words():
    """Djinni, Storm Blade: 'Melee Attack Roll: +9, reach 5 feet. 12 (2d6 + 5) Slashing damage plus
    7 (2d6) Lightning damage' - and its Multiattack 'makes three attacks, using Storm Blade or
    Storm Bolt in any combination'."""
    djinni = library.find("djinni")
    blade = djinni.attack("storm blade")
    assert (blade.bonus, blade.reach, blade.damage, blade.damage_type, blade.extra_damage, blade.extra_damage_type) == (
        9,
        5,
        "2d6+5",
        "slashing",
        "2d6",
        "lightning",
    )
    assert [(p.count, p.attacks) for p in djinni.multiattack.routines[0]] == [(3, ("Storm Blade", "Storm Bolt"))]
