"""Class features from a Foundry VTT dnd5e actor, as data on the sheet: Sneak Attack, Rage
Damage and the Martial Arts die read from the class's ScaleValue advancements, the Unarmed
Strike, Evasion and Uncanny Dodge; a Sorcerer's or Bard's known spells; a hit point bonus
given as a formula. The builder fills the same fields from the SRD 5.2 (the last tests).

Fixtures under tests/characters/data/foundry/ (NOTICE.md there says where each comes from)."""

from __future__ import annotations

import copy

from combat.characters.build import build_sheet
from combat.characters.foundry import import_actor
from tests.characters.foundry_actors import attacks_by_name, foundry_actor


def test_a_rogue_7_has_4d6_sneak_attack_from_the_scale_value_evasion_and_uncanny_dodge():
    """Sneak Attack: the Rogue class's ScaleValue `sneak-attack` (type "dice") at level 7 is
    {number 4, faces 6}: 4d6, as the Rogue table's Sneak Attack column says ("4d6" at 7).
    Evasion (Rogue 7) and Uncanny Dodge (Rogue 5) are feat items, held as flags the engine reads."""
    sheet, notes = import_actor(foundry_actor("rogue-4x"))
    assert (sheet.level, sheet.classes, sheet.subclass) == (7, {"Rogue": 7}, "Thief")
    assert sheet.features.sneak_attack == "4d6"
    assert (sheet.features.evasion, sheet.features.uncanny_dodge) == (True, True)
    assert not any("Sneak Attack" in n or "Evasion" in n or "Uncanny Dodge" in n for n in notes)
    assert attacks_by_name(sheet)["Rapier"] == (7, "1d8+4")  # Dex 18 (+4), proficiency +3
    assert next(a for a in sheet.attacks if a.name == "Rapier").properties == ("finesse",)


def test_a_rogue_below_the_first_step_of_a_dice_scale_has_none():
    """A dice scale's value is the last step at or below the class level: a Rogue 2 still has
    the level 1 step (1d6); with the steps removed, no Sneak Attack and a note says so."""
    actor = foundry_actor("rogue-4x")
    rogue = next(i for i in actor["items"] if i["type"] == "class")
    rogue["system"]["levels"] = 2
    rogue["system"]["advancement"] = [a for a in rogue["system"]["advancement"] if a["type"] == "HitPoints"]
    sheet, notes = import_actor(actor)
    assert sheet.features.sneak_attack is None
    assert "feat 'Sneak Attack': no ScaleValue advancement on the class gives its dice, not mapped" in notes


def test_a_monk_5_strikes_unarmed_with_the_martial_arts_die():
    """dnd5e's 2014 Monk keeps its Martial Arts die in the ScaleValue `die` ({faces 6} at 5:
    the 2014 table's 1d6); the Unarmed Strike item's damage is the custom formula
    "@scale.monk.die", Finesse so Dexterity 16 (+3): +6 to hit, 1d6+3 Bludgeoning."""
    sheet, notes = import_actor(foundry_actor("monk-4x"))
    assert sheet.features.martial_arts == "1d6"
    assert attacks_by_name(sheet)["Unarmed Strike"] == (6, "1d6+3")
    unarmed = next(a for a in sheet.attacks if a.name == "Unarmed Strike")
    assert unarmed.damage_type == "bludgeoning"
    assert not any("Unarmed Strike" in n or "Martial Arts" in n for n in notes)
    assert (sheet.ac, sheet.attacks_per_action) == (15, 2)  # unarmoredMonk: 10 + Dex 3 + Wis 2


def test_an_unarmed_strike_without_martial_arts_deals_1_plus_strength():
    """ "Unarmed Strike ... Damage. You deal Bludgeoning damage equal to 1 plus your Strength
    modifier": Foundry's custom formula "1", the modifier added by the sheet (Str 12: 1+1)."""
    actor = foundry_actor("monk-4x")
    unarmed = next(i for i in actor["items"] if i["name"] == "Unarmed Strike")
    unarmed["system"]["damage"]["base"]["custom"]["formula"] = "1"
    unarmed["system"]["properties"] = []
    sheet, _ = import_actor(actor)
    assert attacks_by_name(sheet)["Unarmed Strike"] == (4, "1+1")


def test_a_barbarian_9_has_rage_damage_3_and_rages_resistances():
    """Rage Damage: the ScaleValue `rage-damage` (type "number") is 3 from level 9, as the
    Barbarian table's column; Rage: "You have Resistance to Bludgeoning, Piercing, and Slashing
    damage", the same resistances the builder gives. Rage's 4 uses come from `@scale.barbarian.rages`."""
    sheet, _ = import_actor(foundry_actor("barbarian-4x"))
    assert sheet.features.rage_damage == 3
    assert sheet.features.rage_resistances == ("bludgeoning", "piercing", "slashing")
    assert [(r.name, r.uses) for r in sheet.resources] == [("Rage", 4)]


def test_a_hit_point_bonus_from_an_effect_counts_each_level():
    """Dwarven Toughness: "Your hit point maximum increases by 1, and it increases by 1 every time
    you gain a level", an effect adding 1 to `hp.bonuses.level`: Barbarian 9 with Con 16 (+3),
    12 + 3 at level 1, then 7 + 3 for 8 levels (average) = 95, + 9 = 104."""
    sheet, notes = import_actor(foundry_actor("barbarian-4x"))
    assert sheet.max_hp == 104
    assert not any("hp.bonuses" in n for n in notes)


def test_a_hit_point_bonus_formula_is_evaluated_as_foundry_does():
    """Draconic Resilience: "Your hit point maximum increases by 1 and increases by 1 again
    whenever you gain another level in this class", an effect adding "@classes.sorcerer.levels"
    to `hp.bonuses.overall`: Sorcerer 5, Con 14 (+2): 6 + 2, then 4 + 2 for 4 levels = 32, + 5 = 37.
    The same formula typed into `hp.bonuses.level` counts once per character level."""
    sheet, _ = import_actor(foundry_actor("sorcerer-4x"))
    assert sheet.max_hp == 37
    actor = foundry_actor("sorcerer-4x")
    feat = next(i for i in actor["items"] if i["name"] == "Draconic Resilience")
    feat["effects"][0]["changes"] = [c for c in feat["effects"][0]["changes"] if "hp" not in c["key"]]
    actor["system"]["attributes"]["hp"]["bonuses"] = {"level": "floor(@abilities.cha.mod / 2)", "overall": "@prof"}
    sheet, notes = import_actor(actor)
    assert sheet.max_hp == 32 + 2 * 5 + 3  # Cha +4: 2 a level; proficiency +3
    assert not any("hit point bonuses" in n for n in notes)


def test_a_sorcerers_known_spells_are_on_the_sheet():
    """A 2014 Sorcerer knows its spells: dnd5e marks them "prepared" and leaves them unprepared
    (`prepared: false`), and casts them all the same. Fire Bolt, Shield, Magic Missile,
    Scorching Ray and Fireball are on the sheet, with the slots of a full caster of level 5."""
    sheet, notes = import_actor(foundry_actor("sorcerer-4x"))
    assert sheet.spellcasting is not None
    assert sheet.spellcasting.spells == ("Fire Bolt", "Shield", "Magic Missile", "Scorching Ray", "Fireball")
    assert (sheet.spellcasting.ability, sheet.spellcasting.slots) == ("charisma", (4, 3, 2))
    assert not any("not prepared" in n for n in notes)


def test_a_bards_known_spells_are_on_the_sheet_and_a_wizards_unprepared_ones_are_not():
    """The same actor as a Bard (spells naming no class: the actor's only caster knows them)
    keeps every spell; as a Wizard, who prepares from a spellbook, the unprepared are left out."""
    for name, kept in (("Bard", 5), ("Wizard", 1)):
        actor = foundry_actor("sorcerer-4x")
        cls = next(i for i in actor["items"] if i["type"] == "class")
        cls["name"], cls["system"]["identifier"] = name, name.lower()
        for spell in (i for i in actor["items"] if i["type"] == "spell"):
            del spell["system"]["sourceClass"]
        sheet, _ = import_actor(copy.deepcopy(actor))
        assert sheet.spellcasting is not None and len(sheet.spellcasting.spells) == kept, name


def test_a_2024_class_with_a_preparation_formula_prepares_its_spells():
    """dnd5e gives the 2024 classes, who prepare their spells, a preparation formula: a 2024
    Sorcerer's unprepared spell is left out, as a Wizard's is."""
    actor = foundry_actor("sorcerer-4x")
    cls = next(i for i in actor["items"] if i["type"] == "class")
    cls["system"]["spellcasting"]["preparation"]["formula"] = "@scale.sorcerer.prepared"
    sheet, notes = import_actor(actor)
    assert sheet.spellcasting is not None and sheet.spellcasting.spells == ("Fire Bolt",)
    assert "spell 'Fireball': in the spellbook but not prepared, left out" in notes


def test_legendary_and_magic_resistance_feats_are_features():
    """A boon or a homebrew feature named Magic Resistance, or Legendary Resistance with its
    uses a day, is held as data for the saves to read."""
    actor = foundry_actor("rogue-4x")
    evasion = next(i for i in actor["items"] if i["name"] == "Evasion")
    magic, legendary = copy.deepcopy(evasion), copy.deepcopy(evasion)
    magic["name"], legendary["name"] = "Magic Resistance", "Legendary Resistance (3/Day)"
    legendary["system"]["uses"] = {"max": "3", "spent": 0, "recovery": [{"period": "lr", "type": "recoverAll"}]}
    actor["items"] += [magic, legendary]
    sheet, _ = import_actor(actor)
    assert (sheet.features.magic_resistance, sheet.features.legendary_resistance) == (True, 3)
    assert not any(r.name.startswith("Legendary") for r in sheet.resources)


# --- the same fields from the builder ------------------------------------------------------------


def test_the_builder_and_the_importer_give_a_rogue_7_the_same_features():
    """The SRD 5.2 Rogue 7: Sneak Attack 4d6, "Uncanny Dodge" (level 5) and "Evasion" (level 7)."""
    built = build_sheet(name="Vex", class_name="Rogue", level=7, scores="STR 10 DEX 18 CON 14 INT 12 WIS 12 CHA 10")
    imported, _ = import_actor(foundry_actor("rogue-4x"))
    fields = ("sneak_attack", "evasion", "uncanny_dodge", "rage_damage", "martial_arts")
    assert [getattr(built.features, f) for f in fields] == [getattr(imported.features, f) for f in fields]
    assert (
        build_sheet(name="Vex", class_name="Rogue", level=4, scores="DEX 18 STR 10 CON 14 INT 12 WIS 12 CHA 10").features.evasion
        is False
    )


def test_the_builder_and_the_importer_give_a_barbarian_9_the_same_rage():
    built = build_sheet(name="Grom", class_name="Barbarian", level=9, scores="STR 18 DEX 14 CON 16 INT 8 WIS 12 CHA 10")
    imported, _ = import_actor(foundry_actor("barbarian-4x"))
    assert (built.features.rage_damage, built.features.rage_resistances) == (
        imported.features.rage_damage,
        imported.features.rage_resistances,
    )


def test_a_built_monk_has_an_unarmed_strike_with_the_martial_arts_die_and_evasion_at_7():
    """SRD 5.2 Monk: "You can roll 1d6 in place of the normal damage of your Unarmed Strike"
    (1d8 at level 5, 1d8 at 7 per the Martial Arts column) and "You can use your Dexterity
    modifier instead of your Strength modifier for the attack and damage rolls of your Unarmed
    Strikes"; Evasion at level 7. (The imported 2014 Monk's die is the 2014 table's, 1d6 at 5.)"""
    monk = build_sheet(name="Ember", class_name="Monk", level=7, scores="STR 12 DEX 16 CON 13 INT 10 WIS 15 CHA 8")
    assert attacks_by_name(monk)["Unarmed Strike"] == (6, "1d8+3")
    assert (monk.features.martial_arts, monk.features.evasion, monk.features.uncanny_dodge) == ("1d8", True, False)
    strong = build_sheet(name="Ox", class_name="Monk", level=1, scores="STR 16 DEX 12 CON 13 INT 10 WIS 15 CHA 8")
    assert attacks_by_name(strong)["Unarmed Strike"] == (5, "1d6+3")  # Strength the better
