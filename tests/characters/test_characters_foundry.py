"""Importing Foundry VTT dnd5e characters: the numbers Foundry shows on its sheet come out of
the imported sheet, and what the sheet cannot hold is listed, never dropped.

Fixtures under tests/characters/data/foundry/ (NOTICE.md there says where each comes from)."""

from __future__ import annotations

import copy
import json

import msgspec
import pytest
from click.testing import CliRunner

from combat.characters.foundry import import_actor
from combat.characters.sheet import save_bonus, skill_bonus, spell_attack_bonus, spell_save_dc
from combat.cli.characters import import_command
from combat.kernel.errors import RuleError
from tests.characters.foundry_actors import DATA, attacks_by_name, foundry_actor

# --- a dnd5e 4.x Fighter 5 ------------------------------------------------------------------------


def test_a_fighter_in_chain_mail_with_a_shield_and_the_defense_style_has_ac_19():
    """Foundry's "default" calculation: chain mail's armor.value 16, heavy so no Dexterity,
    + the equipped shield's 2, + ac.bonus 1 from the Defense feat's transferred effect. The
    unequipped leather armour counts for nothing and is said so."""
    sheet, notes = import_actor(foundry_actor("fighter-4x"))
    assert sheet.ac == 19
    assert "item 'Leather Armor' (light armour): not equipped, not counted in AC" in notes


def test_a_fighter_whose_hit_points_max_is_null_gets_them_from_the_hit_points_advancement():
    """hp.max null: Foundry sums the class's Hit Points advancement, each level + Con (+2):
    "max" 10, "avg" 6, "avg" 6, a rolled 7, "avg" 6 -> 12 + 8 + 8 + 9 + 8 = 45."""
    sheet, _ = import_actor(foundry_actor("fighter-4x"))
    assert sheet.max_hp == 45
    assert sheet.hit_dice == "5d10"
    assert (sheet.level, sheet.classes, sheet.subclass, sheet.species) == (5, {"Fighter": 5}, "Champion", "Human")


def test_a_fighters_saves_and_attacks_use_the_proficiency_bonus_of_level_5():
    """Proficiency +3 (Foundry: floor((5 + 7) / 4)). Str 16 (+3): Strength save +6, Dex save +1.
    Longsword, martial, proficient through traits.weaponProf "mar": +6, 1d8+3, two-handed 1d10+3.
    Javelin +1 (mgc, magicalBonus 1): +7 and 1d6+4, thrown 30/120. Light crossbow, Dex 12 (+1): +4."""
    sheet, _ = import_actor(foundry_actor("fighter-4x"))
    assert save_bonus(sheet, "strength") == 6
    assert save_bonus(sheet, "dexterity") == 1
    assert skill_bonus(sheet, "athletics") == 6
    profiles = attacks_by_name(sheet)
    assert profiles["Longsword"] == (6, "1d8+3")
    assert profiles["Longsword (two-handed)"] == (6, "1d10+3")
    assert profiles["Javelin +1"] == (7, "1d6+4")
    assert profiles["Javelin +1 (thrown)"] == (7, "1d6+4")
    assert profiles["Light Crossbow"] == (4, "1d8+1")
    javelin = next(a for a in sheet.attacks if a.name == "Javelin +1")
    assert (javelin.normal_range, javelin.long_range, javelin.magic) == (30, 120, 1)


def test_second_wind_and_action_surge_become_short_rest_resources():
    """Second Wind's uses.max "1"; Action Surge's "@scale.fighter.action-surge", read from the
    class's ScaleValue advancement at level 5 (1 use from level 2). Both recover on "sr"."""
    sheet, _ = import_actor(foundry_actor("fighter-4x"))
    assert {(r.name, r.uses, r.recovers) for r in sheet.resources} == {("Second Wind", 1, "short"), ("Action Surge", 1, "short")}
    assert sheet.attacks_per_action == 2  # Extra Attack
    assert sheet.features.critical_range == 19  # Improved Critical
    assert sheet.spellcasting is None


def test_a_temporary_bless_and_the_rope_are_listed_not_applied():
    sheet, notes = import_actor(foundry_actor("fighter-4x"))
    assert "effect 'Bless': changes system.bonuses.abilities.save, not applied (temporary)" in notes
    assert "effect 'Bless': changes system.bonuses.mwak.attack, not applied (temporary)" in notes
    assert "item 'Hempen Rope (50 feet)' (loot): not used in combat" in notes
    assert attacks_by_name(sheet)["Longsword"][0] == 6  # Bless's 1d4 is not in the to-hit


def test_a_disabled_defense_effect_does_not_count():
    """Foundry skips a disabled effect: chain mail 16 + shield 2 = 18."""
    actor = foundry_actor("fighter-4x")
    defense = next(i for i in actor["items"] if i["name"] == "Fighting Style: Defense")
    defense["effects"][0]["disabled"] = True
    sheet, notes = import_actor(actor)
    assert sheet.ac == 18
    assert (
        "effect 'Fighting Style: Defense' (from item 'Fighting Style: Defense'): changes system.attributes.ac.bonus, not applied (disabled)"
        in notes
    )


@pytest.mark.parametrize(
    ("calc", "extra", "ac"),
    [
        ("flat", {"flat": 17}, 17),  # flat: ac.flat and nothing else, not even the shield
        ("natural", {"flat": 13}, 16),  # natural: ac.flat + shield 2 + Defense 1
        ("unarmoredBarb", {}, 16),  # 10 + Dex 1 + Con 2 + shield 2 + Defense 1 (Foundry ignores the armour worn)
        ("custom", {"formula": "12 + @abilities.wis.mod"}, 16),  # 12 + Wis 1 + shield 2 + Defense 1
    ],
)
def test_each_ac_calculation_is_foundrys_formula(calc, extra, ac):
    actor = foundry_actor("fighter-4x")
    actor["system"]["attributes"]["ac"] = {"calc": calc, "flat": None, "formula": "", **extra}
    sheet, _ = import_actor(actor)
    assert sheet.ac == ac


def test_a_magical_armour_bonus_counts_only_on_a_magical_item():
    """Foundry adds armor.magicalBonus when the item has the "mgc" property (magicAvailable)."""
    actor = foundry_actor("fighter-4x")
    mail = next(i for i in actor["items"] if i["name"] == "Chain Mail")
    mail["system"]["armor"]["magicalBonus"] = 1
    sheet, notes = import_actor(actor)
    assert sheet.ac == 19
    assert any("'Chain Mail': magical bonus +1 not applied" in n for n in notes)
    mail["system"]["properties"].append("mgc")
    assert import_actor(actor)[0].ac == 20


# --- a dnd5e 2.x Wizard 5 -------------------------------------------------------------------------


def test_a_wizard_5_has_dc_14_and_slots_4_3_2():
    """Int 17 (+3), proficiency +3: DC 8 + 3 + 3 = 14, spell attack +6. Slots: a full caster of
    level 5 on the Multiclass Spellcaster table, 4/3/2 (spells.spellN hold no override)."""
    sheet, _ = import_actor(foundry_actor("wizard-2x"))
    assert sheet.spellcasting is not None
    assert sheet.spellcasting.ability == "intelligence"
    assert spell_save_dc(sheet) == 14
    assert spell_attack_bonus(sheet) == 6
    assert sheet.spellcasting.slots == (4, 3, 2)


def test_a_wizards_unprepared_spells_are_left_out_and_listed():
    """preparation.mode "prepared" with prepared false: in the spellbook, not castable today.
    Cantrips are always castable whatever their flag says."""
    sheet, notes = import_actor(foundry_actor("wizard-2x"))
    assert sheet.spellcasting is not None
    assert sheet.spellcasting.spells == (
        "Fire Bolt",
        "Mage Hand",
        "Mage Armor",
        "Magic Missile",
        "Shield",
        "Misty Step",
        "Fireball",
    )
    assert "spell 'Identify': in the spellbook but not prepared, left out" in notes
    assert "spell 'Counterspell': in the spellbook but not prepared, left out" in notes


def test_mage_armour_and_a_ring_of_protection_give_ac_16():
    """calc "mage": 13 + Dex 2; the attuned, worn ring's effect adds ac.bonus 1. Its other
    change (saving throws +1) is listed: the sheet has no save bonus."""
    sheet, notes = import_actor(foundry_actor("wizard-2x"))
    assert sheet.ac == 16
    assert (
        "effect 'Ring of Protection' (from item 'Ring of Protection'): changes system.bonuses.abilities.save, not applied"
        in notes
    )


def test_an_unattuned_ring_gives_nothing():
    actor = foundry_actor("wizard-2x")
    ring = next(i for i in actor["items"] if i["name"] == "Ring of Protection")
    ring["system"]["attunement"] = 1  # required, not attuned (dnd5e 2.x numbers)
    sheet, notes = import_actor(actor)
    assert sheet.ac == 15
    assert (
        "effect 'Ring of Protection' (from item 'Ring of Protection'): changes system.attributes.ac.bonus, not applied (its item is not attuned)"
        in notes
    )


def test_a_wizards_2x_weapons_read_damage_parts_and_property_flags():
    """damage.parts [["1d4 + @mod", "piercing"]], properties {fin: true, thr: true}: the dagger
    is finesse, Dex 14 (+2) beats Str 8, +5 and 1d4+2, thrown 20/60. The quarterstaff's
    versatile "1d8 + @mod"."""
    sheet, _ = import_actor(foundry_actor("wizard-2x"))
    profiles = attacks_by_name(sheet)
    assert profiles["Dagger"] == (5, "1d4+2")
    assert profiles["Dagger (thrown)"] == (5, "1d4+2")
    assert profiles["Quarterstaff (two-handed)"] == (2, "1d8-1")


def test_a_wizards_hit_points_skills_and_leftovers():
    """hp.max 27 is stored in 2.x and taken as it is. Skills value 1 proficient, 2 expertise."""
    sheet, notes = import_actor(foundry_actor("wizard-2x"))
    assert sheet.max_hp == 27
    assert sheet.hit_dice == "5d6"
    assert sheet.species == "High Elf"
    assert sheet.skills == ("arcana", "insight", "investigation")
    assert sheet.expertise == ("history",)
    assert skill_bonus(sheet, "history") == 9
    assert save_bonus(sheet, "intelligence") == 6
    assert [(r.name, r.uses, r.recovers) for r in sheet.resources] == [("Arcane Recovery", 1, "long")]
    assert "item 'Bag of Holding' (backpack): not used in combat" in notes
    assert "feat 'Sculpt Spells': not mapped (the GM applies it)" in notes
    assert "sense darkvision 60 ft.: not mapped" in notes


def test_a_slot_override_wins_and_jack_of_all_trades_is_listed():
    actor = foundry_actor("wizard-2x")
    actor["system"]["spells"]["spell3"]["override"] = 3
    actor["system"]["skills"]["prf"]["value"] = 0.5
    sheet, notes = import_actor(actor)
    assert sheet.spellcasting is not None and sheet.spellcasting.slots == (4, 3, 3)
    assert "skill performance: half proficiency (Jack of All Trades), not mapped" in notes


@pytest.mark.parametrize(
    ("progression", "levels", "slots"),
    [
        ("half", 1, ()),  # a Paladin 1 has no slots: floor(1 / 2) = 0
        ("half", 3, (3,)),  # a single half caster rounds up: ceil(3 / 2) = 2 -> 3 first-level slots
        ("third", 7, (4, 2)),  # ceil(7 / 3) = 3
        ("full", 20, (4, 3, 3, 3, 3, 2, 2, 1, 1)),
    ],
)
def test_slots_follow_foundrys_progression(progression, levels, slots):
    actor = foundry_actor("wizard-2x")
    wizard = next(i for i in actor["items"] if i["type"] == "class")
    wizard["system"].update(levels=levels, spellcasting={"progression": progression, "ability": "int"})
    sheet, _ = import_actor(actor)
    assert sheet.spellcasting is not None and sheet.spellcasting.slots == slots


def test_a_warlocks_pact_slots():
    """Pact Magic: a Warlock 5 has 2 slots of 3rd level."""
    actor = foundry_actor("wizard-2x")
    wizard = next(i for i in actor["items"] if i["type"] == "class")
    wizard["system"].update(spellcasting={"progression": "pact", "ability": "cha"})
    sheet, _ = import_actor(actor)
    assert sheet.spellcasting is not None
    assert (sheet.spellcasting.slots, sheet.spellcasting.pact_slots, sheet.spellcasting.pact_level) == ((), 2, 3)


# --- the system's own premade: Randal ----------------------------------------------------------


def test_randal_the_premade_fighter_imports_as_foundry_shows_him():
    """dnd5e's premade Randal (Fighter 1): hp.max null and his Hit Points advancement "max":
    10 + Con 2 = 12, the hp.value Foundry stored. AC 16 chain mail + 2 shield + 1 Defense = 19.
    His weapons' `proficient` is null: proficient through traits.weaponProf (sim, mar). His
    walking speed is null: the species item's 30 ft. He has two copies of the Defense feat,
    one carrying the effect: it counts once."""
    sheet, notes = import_actor(foundry_actor("randal-premade"))
    assert (sheet.ac, sheet.max_hp, sheet.speed, sheet.species) == (19, 12, 30, "Variant Human")
    profiles = attacks_by_name(sheet)
    assert profiles["Longsword"] == (5, "1d8+3")
    assert profiles["Longbow"] == (4, "1d8+2")
    assert profiles["Handaxe (thrown)"] == (5, "1d6+3")
    assert [(r.name, r.uses, r.recovers) for r in sheet.resources] == [("Second Wind", 1, "short")]
    assert notes == [
        "item 'Horn' (tool): not used in combat",
        "feat 'Fighting Style: Defense': not mapped (the GM applies it)",
        "feat 'Grappler': not mapped (the GM applies it)",
        "item 'Backpack' (container): not used in combat",
    ]


# --- bad input ----------------------------------------------------------------------------------


def test_an_npc_is_refused_with_where_it_belongs():
    actor = foundry_actor("fighter-4x")
    actor["type"] = "npc"
    with pytest.raises(RuleError) as caught:
        import_actor(actor)
    assert caught.value.code == "foundry/not-a-character"
    assert "character" in (caught.value.allowed or "")


@pytest.mark.parametrize("broken", [[], {"name": "x"}, {"type": "character", "system": {}}])
def test_what_is_not_a_character_actor_is_refused(broken):
    with pytest.raises(RuleError) as caught:
        import_actor(broken)  # type: ignore[arg-type]
    assert caught.value.code in ("foundry/not-an-actor", "foundry/no-abilities")


def test_a_missing_score_is_refused():
    actor = foundry_actor("wizard-2x")
    del actor["system"]["abilities"]["con"]
    with pytest.raises(RuleError, match=r"abilities\.con"):
        import_actor(actor)


def test_importing_does_not_change_the_actor():
    actor = foundry_actor("fighter-4x")
    before = copy.deepcopy(actor)
    import_actor(actor)
    assert actor == before


# --- the command --------------------------------------------------------------------------------


def test_the_import_command_prints_a_summary_then_what_is_not_mapped():
    result = CliRunner().invoke(import_command, [str(DATA / "wizard-2x.json")])
    assert result.exit_code == 0, result.output
    assert "Ilsabet Varn" in result.output
    assert "AC 16" in result.output
    assert "save DC 14" in result.output
    assert "Not mapped:" in result.output
    assert "  spell 'Identify': in the spellbook but not prepared, left out" in result.output


def test_the_import_command_prints_json_with_json_and_the_leftovers_on_stderr():
    """Standard output stays one JSON document (`> sheet.json` works); the list goes to stderr."""
    result = CliRunner().invoke(import_command, [str(DATA / "fighter-4x.json"), "--json"])
    assert result.exit_code == 0, result.output
    sheet = msgspec.json.decode(result.stdout)
    assert (sheet["name"], sheet["ac"], sheet["max_hp"]) == ("Brenna Ironhand", 19, 45)
    assert result.stderr.startswith("Not mapped:\n  effect 'Bless'")
    assert "  item 'Hempen Rope (50 feet)' (loot): not used in combat\n" in result.stderr


def test_the_import_command_refuses_an_npc_in_one_line(tmp_path):
    actor = foundry_actor("fighter-4x")
    actor["type"] = "npc"
    path = tmp_path / "npc.json"
    path.write_text(json.dumps(actor))
    result = CliRunner().invoke(import_command, [str(path)])
    assert result.exit_code == 2
    assert "not a player character" in result.output
