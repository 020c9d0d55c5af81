"""A target's save with its modifiers (combat/fivee/save_modifiers.py): Advantage from its
traits (Magic Resistance from its stat block, Gnomish Cunning and Dwarven Resilience from its
species) or from the GM with a reason, cover from the GM, and Legendary Resistance turning a
failure into a success before the effect lands; and `save_effect` rolls no damage no one takes.

Elara is a level 9 Wizard (Intelligence 16: spell save DC 15)."""

from __future__ import annotations

import pytest

from combat.characters.build import build_sheet
from combat.common.events import DamageTaken, SaveMade
from combat.fivee.casts import CastSpell
from combat.fivee.characters import AddCharacter
from combat.fivee.legendary_resistance import LegendaryResistanceUsed
from combat.fivee.monsters import AddCreature, sheet
from combat.fivee.reactions import PassReaction
from combat.fivee.save_effects import SaveEffect
from combat.fivee.save_modifiers import SaveModifiers
from combat.kernel.events import ConditionApplied, ConditionSpec, DiceRolled
from tests.helpers import Table, against, member, of_type

SPELLS = ("Hold Monster", "Hold Person", "Fireball")
ELARA = member("Elara", 9, *SPELLS)
DRAGON = "adult-red-dragon"


def _table(*creatures: str, characters: tuple = ()) -> Table:
    t = Table()
    t.do(AddCharacter(character=ELARA, side="party", player="sam"))
    for sheet_ in characters:
        t.do(AddCharacter(character=sheet_, side="party"))
    for name in creatures:
        t.do(AddCreature(creature=name, side="foes"))
    others = [c for c in t.state.combatants if c != "elara"]
    return t.start({"elara": 20, **{cid: 1 + i for i, cid in enumerate(others)}})  # Elara's turn first


def _save_rolls(events: list) -> list[str]:
    return [e.notation for e in of_type(events, DiceRolled) if e.purpose.endswith("save")]


def _hold_monster(t: Table, face: int, *, legendary_resistance: bool = False) -> list:
    """Elara casts Hold Monster on the dragon, whose Wisdom save's d20 shows `face`; with
    `legendary_resistance` the GM chooses its Legendary Resistance in the command."""
    chosen = {DRAGON: SaveModifiers(legendary_resistance=True)} if legendary_resistance else {}
    return t.do(
        CastSpell(caster="elara", spell="Hold Monster", targets=(DRAGON,), save_faces={DRAGON: (face,)}, save_modifiers=chosen)
    )


def test_legendary_resistance_chosen_in_the_command_keeps_hold_monster_paralysis_off():
    """Legendary Resistance: "If the dragon fails a saving throw, it can choose to succeed
    instead." The dragon (Wisdom save +7) rolls a 2 against Hold Monster's DC 15: 9, a failure;
    the GM chooses its Legendary Resistance in the command, so the save succeeds before the
    spell's effect lands: no Paralyzed, one use of its 3 spent. Without the choice the same
    roll paralyses it."""
    t = _table("Adult Red Dragon")
    events = _hold_monster(t, 2, legendary_resistance=True)
    [save] = of_type(events, SaveMade)
    assert (save.total, save.dc, save.success) == (9, 15, False)
    [used] = of_type(events, LegendaryResistanceUsed)
    assert (used.ability, used.dc, used.left) == ("wisdom", 15, 2)
    assert not of_type(events, ConditionApplied) and not t[DRAGON].has("paralyzed")
    assert sheet(t.state, DRAGON).resistance_left == 2
    assert t.rebuilt() == t.state

    t = _table("Adult Red Dragon")
    _hold_monster(t, 2)
    assert t[DRAGON].has("paralyzed") and sheet(t.state, DRAGON).resistance_left == 3


def test_legendary_resistance_is_not_spent_on_a_save_that_succeeds_and_is_refused_without_it():
    """The choice is the creature's only when it fails: a 15 (22) succeeds and spends nothing.
    A creature without Legendary Resistance is refused it before any die is rolled."""
    t = _table("Adult Red Dragon", "Goblin Warrior")
    events = _hold_monster(t, 15, legendary_resistance=True)
    assert not of_type(events, LegendaryResistanceUsed) and sheet(t.state, DRAGON).resistance_left == 3
    t = _table("Goblin Warrior")
    error = t.rejects(
        SaveEffect(
            source="a trap",
            targets=("goblin-warrior",),
            ability="dex",
            dc=12,
            save_modifiers={"goblin-warrior": SaveModifiers(legendary_resistance=True)},
        ),
        "legendary/no-resistance",
    )
    assert "stat block" in error.allowed
    t.rejects(
        SaveEffect(source="a trap", targets=("goblin-warrior",), ability="dex", dc=12, save_modifiers={"elara": SaveModifiers()}),
        "save/modifiers-target",
    )


def test_magic_resistance_from_the_stat_block_gives_advantage_against_a_spell_not_a_trap():
    """Magic Resistance: "The archmage has Advantage on saving throws against spells and other
    magical effects." Hold Person (DC 15) on the Archmage (Wisdom save +6): 2d20, the higher
    (14) kept: 20, a success, no Paralyzed. A mundane trap's Wisdom save is a plain d20; the GM
    marks a magical one (`magical`) and it has Advantage again."""
    t = _table("Archmage")
    t.do(CastSpell(caster="elara", spell="Hold Person", targets=("archmage",), save_faces={"archmage": (5, 14)}))
    events = t.do(PassReaction(combatant="archmage"))  # it could Counterspell; the spell goes on as it passes
    assert _save_rolls(events) == ["2d20kh1+6"]
    [save] = of_type(events, SaveMade)
    assert save.success and save.total == 20 and "Advantage: Magic Resistance" in save.reason
    assert not t["archmage"].has("paralyzed")

    events = t.do(SaveEffect(source="a whispering idol", targets=("archmage",), ability="wis", dc=15, faces={"archmage": (5,)}))
    assert _save_rolls(events) == ["1d20+6"] and not of_type(events, SaveMade)[0].success
    events = t.do(
        SaveEffect(source="a glyph", targets=("archmage",), ability="wis", dc=15, magical=True, faces={"archmage": (5, 14)})
    )
    assert _save_rolls(events) == ["2d20kh1+6"] and of_type(events, SaveMade)[0].success


def test_species_traits_gnomish_cunning_and_dwarven_resilience():
    """Gnomish Cunning: "You have Advantage on Intelligence, Wisdom, and Charisma saving
    throws." Dwarven Resilience: "You also have Advantage on saving throws you make to avoid or
    end the Poisoned condition." A gnome's Wisdom save has Advantage, its Dexterity save not; a
    dwarf's save against a poison trap's Poisoned has it, against one that knocks Prone not."""
    gnome = build_sheet(
        name="Pip", class_name="Rogue", level=3, scores="STR 8 DEX 16 CON 12 INT 14 WIS 10 CHA 10", species="Gnome"
    )
    dwarf = build_sheet(
        name="Bram", class_name="Fighter", level=3, scores="STR 16 DEX 10 CON 14 INT 8 WIS 12 CHA 10", species="Dwarf"
    )
    t = _table("Goblin Warrior", characters=(gnome, dwarf))
    events = t.do(SaveEffect(source="a dream", targets=("pip",), ability="wis", dc=12, faces={"pip": (3, 12)}))
    assert _save_rolls(events) == ["2d20kh1+0"] and of_type(events, SaveMade)[0].success
    assert "Gnomish Cunning" in of_type(events, SaveMade)[0].reason
    events = t.do(SaveEffect(source="a dart trap", targets=("pip",), ability="dex", dc=12, faces={"pip": (3,)}))
    assert _save_rolls(events) == ["1d20+5"]
    poisoned = ConditionSpec(name="poisoned")
    events = t.do(
        SaveEffect(source="a needle", targets=("bram",), ability="con", dc=13, condition=poisoned, faces={"bram": (4, 11)})
    )
    assert _save_rolls(events) == ["2d20kh1+4"] and not t["bram"].has("poisoned")
    events = t.do(
        SaveEffect(
            source="a trapdoor",
            targets=("bram",),
            ability="con",
            dc=13,
            condition=ConditionSpec(name="prone"),
            faces={"bram": (4,)},
        )
    )
    assert _save_rolls(events) == ["1d20+4"] and t["bram"].has("prone")


def test_cover_and_the_gms_reasons_per_target():
    """Cover: Half, "+2 bonus to AC and Dexterity saving throws"; Three Quarters, "+5". A
    Fireball (DC 15) at two goblins (Dexterity save +2), both rolling 9: the one behind
    three-quarters cover makes 16 and takes half, the other 11 and the whole. The GM gives a
    third Disadvantage with a reason ("blinded by the glare", rolling 18 and 4: 6). Cover on a
    Wisdom save is refused."""
    t = Table()
    t.do(AddCharacter(character=ELARA, side="party"))
    t.do(AddCreature(creature="Goblin Warrior", count=3, side="goblins"))
    t.start({"elara": 20, "goblin-warrior-1": 1})
    g1, g2, g3 = "goblin-warrior-1", "goblin-warrior-2", "goblin-warrior-3"
    events = t.do(
        CastSpell(
            caster="elara",
            spell="Fireball",
            targets=(g1, g2, g3),
            save_faces={g1: (9,), g2: (9,), g3: (18, 4)},
            save_modifiers={g1: SaveModifiers(cover="three-quarters"), g3: SaveModifiers(disadvantage=("blinded by the glare",))},
            damage_faces=((1,) * 8,),
        )
    )
    saves = {s.combatant: (s.total, s.success, s.cover) for s in of_type(events, SaveMade)}
    assert saves == {g1: (16, True, "three-quarters"), g2: (11, False, "none"), g3: (6, False, "none")}
    assert "Disadvantage: blinded by the glare" in of_type(events, SaveMade)[2].reason
    assert [(d.target, d.amount) for d in of_type(events, DamageTaken)] == [(g1, 4), (g2, 8), (g3, 8)]
    t.rejects(
        SaveEffect(source="a glyph", targets=(g1,), ability="wis", dc=12, save_modifiers={g1: SaveModifiers(cover="half")}),
        "save/cover-not-dexterity",
    )


@pytest.mark.parametrize("ruleset", ("srd-2024", "a5e"))
def test_save_effect_rolls_no_damage_when_every_target_succeeds_and_a_success_takes_none(ruleset):
    """ "Many saving throw effects deal half damage ... when the target succeeds": this one does
    not (no `half_on_success`), so when both goblins succeed no one takes any, and no damage die
    is rolled (a recorded session showed a 2d6 rolled for nothing); the damage faces the GM
    entered ahead are left unused, as a missed attack's are. One failure and the 2d6 is rolled."""
    t = against(ELARA, "Goblin Warrior", 2, side="goblins", initiative=(20, 10), table=Table(ruleset), player=None)
    trap = {"source": "a scything blade", "targets": ("goblin-warrior-1", "goblin-warrior-2"), "ability": "dex", "dc": 10}
    blade = {**trap, "damage": "2d6", "damage_type": "slashing", "damage_faces": (3, 3)}
    events = t.do(SaveEffect(**blade, faces={"goblin-warrior-1": (15,), "goblin-warrior-2": (12,)}))  # type: ignore[arg-type]
    assert all(s.success for s in of_type(events, SaveMade))
    assert not [e for e in of_type(events, DiceRolled) if "damage" in e.purpose] and not of_type(events, DamageTaken)
    events = t.do(SaveEffect(**blade, faces={"goblin-warrior-1": (15,), "goblin-warrior-2": (2,)}))  # type: ignore[arg-type]
    assert [(d.target, d.amount) for d in of_type(events, DamageTaken)] == [("goblin-warrior-2", 6)]
