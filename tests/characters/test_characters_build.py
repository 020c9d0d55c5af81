"""Character sheets built from the SRD 5.2's numbers: a class, a level, six scores, armour and weapons.

"Hit Points. Your class and Constitution modifier determine your Hit Point maximum at level 1"
(Sorcerer or Wizard: 6 + Con. modifier); "Instead of rolling, you can use the fixed value
shown in the Fixed Hit Points by Class table" (Sorcerer or Wizard: 4 + Con. modifier).
"""

import json

import pytest
from click.testing import CliRunner

from combat.characters import sheet as s
from combat.characters.build import build_sheet, parse_scores, srd_data
from combat.cli import cli
from combat.kernel.errors import RuleError

ELARA = "STR 8 DEX 14 CON 12 INT 16 WIS 12 CHA 10"


def test_a_level_5_wizard_has_the_class_tables_numbers():
    """Wizard: "Hit Point Die D6 per Wizard level", "Saving Throw Proficiencies Intelligence and
    Wisdom", "Intelligence is your spellcasting ability"; the Wizard Features table at level 5:
    Proficiency Bonus +3, spell slots 4 / 3 / 2. HP 6 + 1, then 4 x (4 + 1) = 27; spell save DC
    8 + 3 + 3 = 14, spell attack +6."""
    elara = build_sheet(name="Elara", class_name="Wizard", level=5, scores=ELARA, skills=["Arcana", "history"])
    assert (s.skill_bonus(elara, "arcana"), s.skill_bonus(elara, "history"), s.skill_bonus(elara, "insight")) == (6, 6, 1)
    assert (elara.max_hp, s.proficiency(elara), s.spell_save_dc(elara), s.spell_attack_bonus(elara)) == (27, 3, 14, 6)
    assert elara.spellcasting is not None and elara.spellcasting.slots == (4, 3, 2)
    assert elara.save_proficiencies == ("intelligence", "wisdom")
    assert (elara.hit_dice, elara.ac, elara.speed, elara.size) == ("5d6", 12, 30, "medium")


def test_the_cli_builds_the_same_wizard_and_prints_it_as_json_or_a_summary():
    """`combat characters build --class Wizard --level 5 --scores "..." --name Elara`."""
    args = ["characters", "build", "--class", "Wizard", "--level", "5", "--scores", ELARA, "--name", "Elara"]
    shown = CliRunner().invoke(cli, args)
    assert shown.exit_code == 0, shown.output
    for part in ("HP 27", "Proficiency +3", "save DC 14, attack +6, slots 4/3/2", "INT +6*", "WIS +4*", "CHA +0  "):
        assert part in shown.output
    as_json = CliRunner().invoke(cli, [*args, "--json"])
    assert as_json.exit_code == 0, as_json.output
    sheet = json.loads(as_json.output)
    assert (sheet["max_hp"], sheet["spellcasting"]["slots"], sheet["save_proficiencies"]) == (
        27,
        [4, 3, 2],
        ["intelligence", "wisdom"],
    )


def test_a_level_5_fighter_attacks_twice_with_the_longsword_at_plus_6():
    """ "Extra Attack: You can attack twice instead of once whenever you take the Attack action";
    Longsword "1d8 Slashing, Versatile (1d10)": +3 Strength + 3 proficiency to hit, 1d8+3.
    Chain Mail AC 16, Shield +2. Second Wind 3 uses at level 5 ("You regain one expended use when
    you finish a Short Rest"), Action Surge once ("until you finish a Short or Long Rest")."""
    bron = build_sheet(
        name="Bron",
        class_name="Fighter",
        level=5,
        scores="STR 16 DEX 14 CON 14 INT 10 WIS 12 CHA 8",
        armor="Chain Mail",
        shield=True,
        weapons=["Longsword"],
    )
    longsword, two_handed = s.attack_profiles(bron)
    assert (longsword.bonus, longsword.damage, longsword.damage_type) == (6, "1d8+3", "slashing")
    assert (two_handed.name, two_handed.damage) == ("Longsword (two-handed)", "1d10+3")
    assert (bron.attacks_per_action, bron.ac, bron.max_hp, bron.save_proficiencies) == (2, 18, 44, ("strength", "constitution"))
    assert bron.resources == (
        s.Resource(name="Second Wind", uses=3, recovers="long", short_rest_regains=1),
        s.Resource(name="Action Surge", uses=1, recovers="short"),
    )
    assert bron.features.critical_range == 20


def test_a_champion_scores_a_critical_hit_on_19_and_at_15_on_18():
    """Champion, level 3, Improved Critical: "can score a Critical Hit on a roll of 19 or 20";
    level 15, Superior Critical: "on a roll of 18-20"."""
    scores = "STR 16 DEX 14 CON 14 INT 10 WIS 12 CHA 8"
    assert (
        build_sheet(name="Bron", class_name="fighter", level=5, scores=scores, subclass="champion").features.critical_range == 19
    )
    assert (
        build_sheet(name="Bron", class_name="Fighter", level=15, scores=scores, subclass="Champion").features.critical_range == 18
    )
    fighter_11 = build_sheet(name="Bron", class_name="Fighter", level=11, scores=scores)
    assert fighter_11.attacks_per_action == 3  # Two Extra Attacks: "attack three times instead of once"


def test_a_level_5_rogue_has_3d6_sneak_attack_and_finesse_with_the_rapier():
    """Rogue Features table, level 5: Sneak Attack 3d6. Rapier "1d8 Piercing, Finesse": "use your
    choice of your Strength or Dexterity modifier" (+3 Dex); Shortbow "1d6 Piercing, Ammunition
    (Range 80/320)". Leather Armor: 11 + Dex modifier."""
    vex = build_sheet(
        name="Vex",
        class_name="Rogue",
        level=5,
        scores="STR 10 DEX 16 CON 12 INT 14 WIS 10 CHA 12",
        armor="leather",
        weapons=["Rapier", "Shortbow"],
    )
    rapier, shortbow = s.attack_profiles(vex)
    assert (rapier.bonus, rapier.damage, vex.attacks[0].properties) == (6, "1d8+3", ("finesse",))
    assert (shortbow.kind, shortbow.bonus, shortbow.damage, shortbow.normal_range, shortbow.long_range) == (
        "ranged",
        6,
        "1d6+3",
        80,
        320,
    )
    assert (vex.features.sneak_attack, vex.attacks_per_action, vex.ac) == ("3d6", 1, 14)


def test_a_barbarian_rages_and_defends_unarmored_with_constitution():
    """Barbarian level 5: Rages 3, Rage Damage +2, "Resistance to Bludgeoning, Piercing, and
    Slashing damage"; Unarmored Defense "10 plus your Dexterity and Constitution modifiers. You
    can use a Shield and still gain this benefit". A Dwarf: "Resistance to Poison damage" and
    "Your Hit Point maximum increases by 1, and it increases by 1 again whenever you gain a level"."""
    grom = build_sheet(
        name="Grom",
        class_name="Barbarian",
        level=5,
        scores="STR 16 DEX 14 CON 16 INT 8 WIS 12 CHA 10",
        species="Dwarf",
        shield=True,
        weapons=["Greataxe"],
    )
    assert grom.ac == 10 + 2 + 3 + 2
    assert grom.max_hp == 12 + 3 + 4 * (7 + 3) + 5
    assert grom.resources == (s.Resource(name="Rage", uses=3, recovers="long", short_rest_regains=1),)
    assert (grom.features.rage_damage, grom.features.rage_resistances) == (2, ("bludgeoning", "piercing", "slashing"))
    assert (grom.resistances, grom.attacks_per_action) == (("poison",), 2)
    # Fast Movement at level 5: "Your speed increases by 10 feet while you aren't wearing Heavy armor."
    assert grom.speed == 40
    in_plate = build_sheet(
        name="Grom", class_name="Barbarian", level=5, scores="STR 16 DEX 14 CON 16 INT 8 WIS 12 CHA 10", armor="plate"
    )
    assert (in_plate.speed, in_plate.ac) == (30, 18)


def test_a_monk_without_a_shield_adds_wisdom_and_moves_faster():
    """Monk Unarmored Defense: "While you aren't wearing armor or wielding a Shield, ... 10 plus
    your Dexterity and Wisdom modifiers"; Martial Arts 1d8, Focus Points 5 and Unarmored Movement
    +10 ft. at level 5."""
    scores = "STR 10 DEX 16 CON 12 INT 10 WIS 14 CHA 8"
    lin = build_sheet(name="Lin", class_name="Monk", level=5, scores=scores)
    assert (lin.ac, lin.speed, lin.features.martial_arts, lin.save_proficiencies) == (15, 40, "1d8", ("strength", "dexterity"))
    assert lin.resources == (s.Resource(name="Focus Points", uses=5, recovers="short"),)
    with_shield = build_sheet(name="Lin", class_name="Monk", level=5, scores=scores, shield=True)
    assert (with_shield.ac, with_shield.speed) == (10 + 3 + 2, 30)


def test_a_warlock_has_pact_slots_and_a_tiefling_its_legacys_resistance():
    """Warlock Features table, level 5: Spell Slots 2, Slot Level 3rd; "Charisma is the
    spellcasting ability for your Warlock spells". Tiefling, Infernal legacy: "You have
    Resistance to Fire damage"."""
    zed = build_sheet(
        name="Zed",
        class_name="Warlock",
        level=5,
        scores="STR 8 DEX 14 CON 14 INT 10 WIS 12 CHA 16",
        species="Tiefling (Infernal)",
        size="small",
        spells=["Eldritch Blast", "Hex"],
    )
    assert zed.spellcasting == s.Spellcasting(ability="charisma", pact_slots=2, pact_level=3, spells=("Eldritch Blast", "Hex"))
    assert (zed.resistances, zed.size, zed.species) == (("fire",), "small", "Tiefling (Infernal)")


def test_the_proficiency_bonus_the_sheet_derives_is_every_class_tables():
    """ "Proficiency Bonus ... +2 at levels 1-4, +3 at 5-8, +4 at 9-12, +5 at 13-16, +6 at 17-20",
    as each class table's Proficiency Bonus column says."""
    for name, cls in srd_data()["classes"].items():
        for level, row in enumerate(cls["levels"], start=1):
            built = build_sheet(name="X", class_name=name, level=level, scores=ELARA)
            assert s.proficiency(built) == row["proficiency_bonus"], (name, level)


def test_scores_are_read_in_any_order_and_case_with_full_names():
    assert parse_scores("cha 10 Wisdom 12 int 16 CONSTITUTION 12 dex 14 Str 8") == parse_scores(ELARA)


@pytest.mark.parametrize(
    ("scores", "said"),
    [
        ("STR 8 DEX 14", "missing constitution, intelligence, wisdom, charisma"),
        ("STR 31 DEX 14 CON 12 INT 16 WIS 12 CHA 10", "strength 31 is out of range"),
        ("STR 8 STR 9 DEX 14 CON 12 INT 16 WIS 12 CHA 10", "strength is given twice"),
        ("STR 8 LUCK 14 CON 12 INT 16 WIS 12 CHA 10", "'LUCK' is not an ability"),
    ],
)
def test_bad_scores_are_refused_with_what_is_allowed(scores, said):
    with pytest.raises(RuleError) as refused:
        parse_scores(scores)
    assert refused.value.code == "character/bad-scores" and said in refused.value.message and refused.value.allowed


@pytest.mark.parametrize(
    ("kwargs", "code", "allowed"),
    [
        ({"class_name": "Necromancer"}, "character/unknown-class", "Barbarian, Bard, Cleric"),
        ({"species": "Kobold"}, "character/unknown-species", "Dragonborn, Dwarf"),
        ({"armor": "Mithral"}, "character/unknown-armor", "Breastplate, Chain Mail"),
        ({"weapons": ["Lightsaber"]}, "character/unknown-weapon", "Battleaxe, Blowgun"),
        ({"subclass": "Battle Master"}, "character/unknown-subclass", "Evoker"),
        ({"level": 21}, "character/bad-level", "levels 1 to 20"),
        ({"spells": ["Fireball", ""]}, "character/bad-spell", "non-empty"),
        ({"skills": ["Arcana", "Basket Weaving"]}, "character/unknown-skill", "acrobatics, animal handling"),
    ],
)
def test_unknown_names_are_refused_with_the_names_allowed(kwargs, code, allowed):
    with pytest.raises(RuleError) as refused:
        build_sheet(**{"name": "Elara", "class_name": "Wizard", "level": 5, "scores": ELARA, **kwargs})
    assert refused.value.code == code and allowed in (refused.value.allowed or "")


def test_the_cli_refuses_a_bad_input_on_one_line():
    bad_class = CliRunner().invoke(
        cli, ["characters", "build", "--class", "Necromancer", "--level", "5", "--scores", ELARA, "--name", "X"]
    )
    assert (
        bad_class.exit_code == 2
        and "no SRD 5.2 class is called 'Necromancer'" in bad_class.output
        and "Wizard" in bad_class.output
    )
    high = CliRunner().invoke(
        cli,
        [
            "characters",
            "build",
            "--class",
            "Wizard",
            "--level",
            "5",
            "--name",
            "X",
            "--scores",
            "STR 31 DEX 14 CON 12 INT 16 WIS 12 CHA 10",
        ],
    )
    assert high.exit_code == 2 and "strength 31 is out of range (allowed: scores from 1 to 30)" in high.output
