"""Casting a spell in one command: the SRD 5.2 spells from a caster's sheet or a monster's stat
block, with the slot, the action, the saves, the damage, the conditions and their durations.

Elara is the level 5 Wizard of `combat characters build` (Intelligence 16: spell save DC 14,
spell attack +6, slots 4/3/2)."""

from __future__ import annotations

import pytest

from combat.characters.build import build_sheet
from combat.common.commands import EndConcentration
from combat.common.events import DamageTaken, Healed, SaveMade
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.fivee.casts import CastSpell, SpellCast
from combat.fivee.characters import AddCharacter, character
from combat.fivee.gm_edit_commands import SetHp
from combat.fivee.monsters import AddCreature
from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionEnded
from tests.helpers import Table, member, of_type

FIVE_E = ["srd-2024", "srd-2024-variant", "a5e"]
SPELLS = ("Fire Bolt", "Fireball", "Magic Missile", "Shield", "Hold Person", "Bless", "Cure Wounds", "Ice Storm", "Scorching Ray")
WIZARD = member("Elara", 5, *SPELLS)


def fight(ruleset: str = "srd-2024", goblins: int = 4, *, goblins_first: bool = False) -> Table:
    """Elara (played by Sam) against Goblin Warriors; Elara acts first unless the goblins do."""
    t = Table.as_rolled(ruleset)
    t.do(AddCharacter(character=WIZARD, side="party", player="sam"))
    t.do(AddCreature(creature="Goblin Warrior", count=goblins, side="goblins"))
    first, second = (5, 15) if goblins_first else (15, 5)
    return t.start({"elara": first, ("goblin-warrior" if goblins == 1 else "goblin-warrior-1"): second})


def goblins(n: int = 4) -> tuple[str, ...]:
    return tuple(f"goblin-warrior-{i}" for i in range(1, n + 1))


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_fireball_on_four_goblins_is_one_command(ruleset):
    """Fireball: "Each creature in a 20-foot-radius Sphere ... makes a Dexterity saving throw,
    taking 8d6 Fire damage on a failed save or half as much damage on a successful one", the
    damage "rolled once for all creatures caught in the blast". Each goblin saves with its own
    +2 against Elara's DC 14; 8d6 = 16: the two that fail (10 HP) die, the two that succeed take 8."""
    t = fight(ruleset)
    events = t.do(
        CastSpell(
            caster="elara",
            spell="fireball",
            targets=goblins(),
            save_faces={
                "goblin-warrior-1": (3,),
                "goblin-warrior-2": (12,),
                "goblin-warrior-3": (11,),
                "goblin-warrior-4": (15,),
            },
            damage_faces=((1, 2, 3, 4, 2, 1, 2, 1),),
        )
    )  # the GM enters the goblins' dice
    saves = of_type(events, SaveMade)
    assert [(s.total, s.dc, s.success) for s in saves] == [(5, 14, False), (14, 14, True), (13, 14, False), (17, 14, True)]
    assert [e.amount for e in of_type(events, DamageTaken)] == [16, 8, 16, 8]
    assert [t[g].status for g in goblins()] == ["dead", "active", "dead", "active"]
    assert character(t.state, "elara").slots_spent == (0, 0, 1)
    assert not t["elara"].economy.action
    assert of_type(events, SpellCast)[0].slot == 3
    assert t.rebuilt() == t.state


def test_fireball_with_a_5th_level_slot_rolls_10d6_and_without_a_slot_is_refused():
    """ "The damage increases by 1d6 for each spell slot level above 3": 10d6 at slot 5. Elara
    has two 3rd-level slots: a third Fireball at level 3 is refused, naming the slots left."""
    wizard9 = member("Elara", 9, *SPELLS)
    t = Table()
    t.do(AddCharacter(character=wizard9, side="party"))
    t.do(AddCreature(creature="Goblin Warrior", count=1, side="goblins"))
    t.start({"elara": 15, "goblin-warrior": 5})
    events = t.do(
        CastSpell(
            caster="elara", spell="Fireball", slot_level=5, targets=("goblin-warrior",), save_faces={"goblin-warrior": (20,)}
        )
    )
    assert [e.notation for e in events if getattr(e, "notation", "") == "10d6"] == ["10d6"]

    t = fight(goblins=1)
    for _ in range(2):  # it saves (a 20) and takes half of 8 ones: 4, twice, on two turns of Elara's
        t.do(
            CastSpell(
                caster="elara",
                spell="Fireball",
                targets=("goblin-warrior",),
                save_faces={"goblin-warrior": (20,)},
                damage_faces=((1,) * 8,),
            )
        )
        t.do(EndTurn(combatant="elara"))
        t.do(EndTurn(combatant="goblin-warrior"))
    error = t.rejects(CastSpell(caster="elara", spell="Fireball", targets=("goblin-warrior",)), "spell/no-slot")
    assert "level 3: 0" in error.allowed and "level 1: 4" in error.allowed


def test_fire_bolt_by_a_5th_level_caster_rolls_2d10():
    """Fire Bolt: "Make a ranged spell attack ... 1d10 Fire damage"; "The damage increases by
    1d10 when you reach levels 5 (2d10)". A cantrip spends no slot."""
    t = fight(goblins=1)
    events = t.do(
        CastSpell(caster="elara", spell="Fire Bolt", targets=("goblin-warrior",), attack_faces=((12,),), damage_faces=((3, 4),)),
        actor="sam",
    )
    made = of_type(events, AttackMade)[0]
    assert (made.total, made.hit, made.damage, made.attack) == (18, True, 7, "Fire Bolt")
    assert character(t.state, "elara").slots_spent == ()


def test_magic_missiles_darts_are_split_across_targets():
    """Magic Missile: "You create three glowing darts ... A dart deals 1d4 + 1 Force damage to
    its target ... you can direct them to hit one creature or several"; one more dart for each
    slot level above 1."""
    t = fight(goblins=2)
    error = t.rejects(CastSpell(caster="elara", spell="Magic Missile", targets=("goblin-warrior-2",)), "spell/targets")
    assert "3 ids" in error.allowed
    events = t.do(
        CastSpell(
            caster="elara",
            spell="Magic Missile",
            slot_level=2,
            targets=("goblin-warrior-1", "goblin-warrior-1", "goblin-warrior-2", "goblin-warrior-2"),
            damage_faces=((4,), (4,), (1,), (2,)),
        )
    )
    assert [(e.target, e.amount) for e in of_type(events, DamageTaken)] == [
        ("goblin-warrior-1", 5),
        ("goblin-warrior-1", 5),
        ("goblin-warrior-2", 2),
        ("goblin-warrior-2", 3),
    ]
    assert t["goblin-warrior-1"].status == "dead" and t["goblin-warrior-2"].hp == 5
    assert character(t.state, "elara").slots_spent == (0, 1)


def test_cure_wounds_heals_2d8_plus_the_spellcasting_modifier():
    """Cure Wounds: "regains a number of Hit Points equal to 2d8 plus your spellcasting ability modifier"."""
    t = fight(goblins=1)
    t.do(SetHp(combatant="elara", hp=5))
    events = t.do(CastSpell(caster="elara", spell="Cure Wounds", targets=("elara",), damage_faces=((3, 6),)), actor="sam")
    assert of_type(events, Healed)[0].amount == 3 + 6 + 3 and t["elara"].hp == 17


def test_shield_as_a_reaction_raises_ac_until_the_start_of_the_casters_next_turn():
    """Shield: "Until the start of your next turn, you have a +5 bonus to AC", cast as a
    Reaction: a goblin's 14 against AC 12 + 5 misses."""
    t = fight(goblins=1, goblins_first=True)
    t.do(CastSpell(caster="elara", spell="Shield"), actor="sam")
    assert not t["elara"].economy.reaction
    made = of_type(t.do(Attack(attacker="goblin-warrior", target="elara", faces=(10,), damage_faces=(3,))), AttackMade)[0]
    assert (made.total, made.target_ac, made.hit) == (14, 17, False)
    events = t.do(EndTurn(combatant="goblin-warrior"))
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["shield"]
    assert t["elara"].conditions == ()


def bandits(n: int = 2) -> Table:
    """Elara against Bandits (Humanoids, Wisdom 10: +0), Elara first."""
    t = Table()
    t.do(AddCharacter(character=WIZARD, side="party", player="sam"))
    t.do(AddCreature(creature="Bandit", count=n, side="bandits"))
    return t.start({"elara": 15, "bandit-1": 5})


def test_hold_person_paralyses_repeats_its_save_and_ends_with_concentration():
    """Hold Person: "Choose a Humanoid ... must succeed on a Wisdom saving throw or have the
    Paralyzed condition for the duration. At the end of each of its turns, the target repeats
    the save, ending the spell on itself on a success." (Concentration, 1 minute.) A Bandit is
    a Humanoid, Wisdom 10 (+0)."""
    t = bandits()
    t.do(CastSpell(caster="elara", spell="Hold Person", targets=("bandit-1",), save_faces={"bandit-1": (9,)}))
    held = t["bandit-1"].conditions[0]
    assert (held.name, held.concentration, held.save.dc) == ("paralyzed", "elara", 14)
    assert t["elara"].concentration == "Hold Person"
    t.do(EndTurn(combatant="elara"))
    events = t.do(EndTurn(combatant="bandit-1", save_faces=((10,),)))
    assert [s.total for s in of_type(events, SaveMade)] == [10] and t["bandit-1"].has("paralyzed")
    t.do(EndTurn(combatant="bandit-2"))
    events = t.do(EndConcentration(combatant="elara"))
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["paralyzed"]


def test_bless_lasts_ten_rounds_adds_1d4_and_then_ends_by_itself():
    """Bless: "Whenever a target makes an attack roll or a saving throw before the spell ends,
    the target adds 1d4 to the attack roll or save." Duration 1 minute (Concentration): ten
    rounds, so it ends as Elara's turn starts in round 11."""
    t = fight(goblins=1)
    t.do(CastSpell(caster="elara", spell="Bless", targets=("elara",)))
    bless = t["elara"].conditions[0]
    assert (bless.name, bless.roll_bonus, bless.concentration) == ("bless", "1d4", "elara")
    t.do(EndTurn(combatant="elara"))
    events = t.do(Attack(attacker="goblin-warrior", target="elara", faces=(2,), damage_faces=(1,)))
    assert [e.notation for e in events if getattr(e, "purpose", "") == "attack"] == ["1d20+4"]  # the goblin is not blessed
    t.do(EndTurn(combatant="goblin-warrior"))
    # Round 2, Elara's attack (a blessed roll): the d4's face follows the d20's.
    rolled = [
        e
        for e in t.do(
            CastSpell(
                caster="elara", spell="Fire Bolt", targets=("goblin-warrior",), attack_faces=((2, 4),), damage_faces=((1, 1),)
            )
        )
        if getattr(e, "purpose", "") == "attack"
    ]
    assert (rolled[0].notation, rolled[0].total) == ("1d20+6+1d4", 12)


def test_bless_ends_by_itself_after_its_minute():
    """Its duration, 1 minute, is ten rounds: held by concentration all along, Bless still ends
    by itself as Elara's turn starts in round 11, and her concentration with it."""
    t = fight(goblins=1)
    t.do(CastSpell(caster="elara", spell="Bless", targets=("elara",)))
    assert t["elara"].conditions[0].concentration == "elara"
    for _ in range(10):
        t.do(EndTurn(combatant="elara"))
        t.do(EndTurn(combatant="goblin-warrior"))
    assert t.state.round == 11 and t["elara"].conditions == () and t["elara"].concentration is None


def test_a_spell_the_caster_does_not_know_is_refused_with_the_ones_it_does(table):
    t = fight(goblins=1)
    error = t.rejects(
        CastSpell(caster="elara", spell="Lightning Bolt", targets=("goblin-warrior",)), "spell/not-known", actor="sam"
    )
    assert "Fireball" in error.allowed
    t.rejects(CastSpell(caster="elara", spell="Fireballl", targets=("goblin-warrior",)), "spell/not-known", actor="sam")
    t.rejects(
        CastSpell(caster="elara", spell="Fireball", targets=("goblin-warrior",), save_faces={"goblin-warrior": (20,)}),
        "command/gm-field",
        actor="sam",
    )


def test_a_mage_from_the_bestiary_casts_its_spells_with_its_blocks_dc_and_uses_a_day():
    """SRD 5.2 Mage: "Spellcasting. The mage casts one of the following spells, using
    Intelligence as the spellcasting ability (spell save DC 14): ... 2/Day Each: Fireball,
    Invisibility". A third Fireball in a day is refused."""
    t = Table()
    t.do(AddCharacter(character=WIZARD, side="party"))
    t.do(AddCreature(creature="Mage", side="villains"))
    t.start({"mage": 20, "elara": 1})
    for _ in range(2):
        events = t.do(
            CastSpell(caster="mage", spell="Fireball", targets=("elara",), save_faces={"elara": (1,)}, damage_faces=((1,) * 8,))
        )
        assert of_type(events, SaveMade)[0].dc == 14 and of_type(events, SpellCast)[0].per_day
        from combat.fivee.gm_edit_commands import GrantAction

        t.do(GrantAction(combatant="mage", kind="action"))
    t.rejects(CastSpell(caster="mage", spell="Fireball", targets=("elara",)), "spell/no-uses")
    assert t["elara"].hp == 27 - 16


def test_ice_storms_two_rolls_are_each_made_once_and_halved_alike():
    """Ice Storm: "2d10 Bludgeoning damage and 4d6 Cold damage on a failed save or half as much
    damage on a successful one": two rolls, each once for all the targets."""
    t = fight(goblins=2)
    wizard7 = build_sheet(
        name="Hex", class_name="Wizard", level=7, scores="STR 8 DEX 14 CON 12 INT 16 WIS 12 CHA 10", spells=SPELLS
    )
    t.do(AddCharacter(character=wizard7, side="party"))
    from combat.fivee.initiative import RollInitiative
    from combat.fivee.turn_pointer import GotoTurn

    t.do(RollInitiative(combatant="hex", faces=(10,)))
    t.do(GotoTurn(combatant="hex"))
    events = t.do(
        CastSpell(
            caster="hex",
            spell="Ice Storm",
            targets=goblins(2),
            save_faces={"goblin-warrior-1": (1,), "goblin-warrior-2": (20,)},
            damage_faces=((1, 1), (1, 1, 1, 1)),
        )
    )
    assert [(e.target, e.amount, e.damage_type) for e in of_type(events, DamageTaken)] == [
        ("goblin-warrior-1", 2, "bludgeoning"),
        ("goblin-warrior-2", 1, "bludgeoning"),
        ("goblin-warrior-1", 4, "cold"),
        ("goblin-warrior-2", 2, "cold"),
    ]


def test_the_command_references_example_casts_as_written():
    from combat.app.catalog import decode_command
    from combat.app.reference import example_of

    t = fight(goblins=2)
    events = t.do(decode_command(example_of(CastSpell), "srd-2024"), actor="sam")
    assert len(of_type(events, SaveMade)) == 2 and of_type(events, SpellCast)[0].spell == "Fireball"


def test_scorching_rays_are_an_attack_each_and_a_miss_leaves_its_damage_unused():
    """Scorching Ray: "You hurl three fiery rays. You can hurl them at one target within range
    or at several. Make a ranged spell attack for each ray. On a hit, the target takes 2d6 Fire
    damage." Two rays at one goblin, one at another; the second ray misses (a 2)."""
    t = fight(goblins=2)
    events = t.do(
        CastSpell(
            caster="elara",
            spell="Scorching Ray",
            targets=("goblin-warrior-1", "goblin-warrior-1", "goblin-warrior-2"),
            attack_faces=((15,), (2,), (14,)),
            damage_faces=((2, 3), (6, 6), (1, 2)),
        ),
        actor="sam",
    )
    assert [(e.target, e.hit, e.damage) for e in of_type(events, AttackMade)] == [
        ("goblin-warrior-1", True, 5),
        ("goblin-warrior-1", False, 0),
        ("goblin-warrior-2", True, 3),
    ]
    t.do(EndTurn(combatant="elara"))
    t.do(EndTurn(combatant="goblin-warrior-1"))
    t.do(EndTurn(combatant="goblin-warrior-2"))  # Elara's next turn: a slot again
    error = t.rejects(
        CastSpell(caster="elara", spell="Scorching Ray", targets=("goblin-warrior-2",) * 3, attack_faces=((15,), (2,), (14,))),
        "spell/damage-faces",
        actor="sam",
    )
    assert "damage_faces" in error.allowed
