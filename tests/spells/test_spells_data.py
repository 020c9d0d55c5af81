"""The SRD 5.2 spells as data (combat/spells): what a `cast_spell` command will read.
Each test quotes the SRD text the fields were read from."""

from __future__ import annotations

import re

import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from combat.cli import cli
from combat.kernel.errors import RuleError
from combat.service.app import create_app
from combat.spells import library
from tests.helpers import ROOT


def test_fireball_is_a_level_3_dexterity_save_for_8d6_fire_half_on_a_success_and_10d6_at_slot_5():
    """ "Each creature in a 20-foot-radius Sphere centered on that point makes a Dexterity saving
    throw, taking 8d6 Fire damage on a failed save or half as much damage on a successful one."
    "The damage increases by 1d6 for each spell slot level above 3." """
    fireball = library.find("fireball")
    assert (fireball.level, fireball.school, fireball.casting_time, fireball.range) == (3, "evocation", "action", 150)
    assert (fireball.save.ability, fireball.save.half_on_success, fireball.attack) == ("dexterity", True, None)
    assert [(d.dice, d.types) for d in fireball.damage] == [("8d6", ("fire",))]
    assert (fireball.targets.area.shape, fireball.targets.area.size) == ("sphere", 20)
    assert [(d.dice, d.types) for d in fireball.at_slot(5).damage] == [("10d6", ("fire",))]
    assert (fireball.duration.text, fireball.duration.rounds) == ("Instantaneous", 0)
    assert fireball.automation == "full" and fireball.manual == ()


def test_fire_bolt_is_a_ranged_spell_attack_for_1d10_fire_and_2d10_from_character_level_5():
    """ "Make a ranged spell attack against the target. On a hit, the target takes 1d10 Fire
    damage." "The damage increases by 1d10 when you reach levels 5 (2d10), 11 (3d10), and 17 (4d10)." """
    bolt = library.find("Fire Bolt")
    assert (bolt.level, bolt.attack, bolt.save) == (0, "ranged", None)
    assert [(d.dice, d.types) for d in bolt.damage] == [("1d10", ("fire",))]
    assert [(s.character_level, s.damage[0].dice) for s in bolt.cantrip_scaling] == [(5, "2d10"), (11, "3d10"), (17, "4d10")]
    assert bolt.at_character_level(4) is None and bolt.at_character_level(7).damage[0].dice == "2d10"


def test_magic_missile_makes_three_darts_of_1d4_plus_1_force_and_one_more_per_slot_level():
    """ "You create three glowing darts of magical force. ... A dart deals 1d4 + 1 Force damage to
    its target." "The spell creates one more dart for each spell slot level above 1." """
    missile = library.find("MAGIC MISSILE")
    assert (missile.projectiles.kind, missile.projectiles.count) == ("darts", 3)
    assert [(d.dice, d.types) for d in missile.damage] == [("1d4+1", ("force",))]
    assert missile.at_slot(2).projectiles == 4 and missile.at_slot(9).projectiles == 11
    assert (missile.attack, missile.save) == (None, None)


def test_scorching_ray_and_eldritch_blast_make_several_attacks():
    """ "You hurl three fiery rays. ... Make a ranged spell attack for each ray." Eldritch Blast:
    "The spell creates two beams at level 5, three beams at level 11, and four beams at level 17." """
    ray = library.find("scorching ray")
    assert (ray.projectiles.kind, ray.projectiles.count, ray.attack, ray.at_slot(3).projectiles) == ("rays", 3, "ranged", 4)
    blast = library.find("eldritch blast")
    assert (blast.projectiles.kind, blast.projectiles.count) == ("beams", 1)
    assert [(s.character_level, s.projectiles) for s in blast.cantrip_scaling] == [(5, 2), (11, 3), (17, 4)]


def test_cure_wounds_heals_2d8_plus_the_modifier_and_2d8_more_per_slot_level():
    """ "A creature you touch regains a number of Hit Points equal to 2d8 plus your spellcasting
    ability modifier." "The healing increases by 2d8 for each spell slot level above 1." """
    cure = library.find("cure wounds")
    assert (cure.healing.dice, cure.healing.plus_modifier, cure.damage, cure.range) == ("2d8", True, (), "touch")
    assert cure.at_slot(2).healing.dice == "4d8" and cure.at_slot(2).healing.plus_modifier
    word = library.find("healing word")
    assert (word.casting_time, word.healing.dice, word.healing.plus_modifier) == ("bonus_action", "2d4", True)


def test_shield_is_a_reaction_for_5_ac_until_the_start_of_your_next_turn():
    """ "Reaction, which you take when you are hit by an attack roll or targeted by the Magic
    Missile spell". "Until the start of your next turn, you have a +5 bonus to AC, including
    against the triggering attack, and you take no damage from Magic Missile." The last clause
    has no field: the GM applies it."""
    shield = library.find("shield")
    assert (shield.casting_time, shield.ac_bonus, shield.range) == ("reaction", 5, "self")
    assert "hit by an attack roll" in shield.reaction_trigger
    assert (shield.duration.text, shield.duration.rounds, shield.duration.ends) == ("1 round", 1, "start_of_your_next_turn")
    assert shield.automation == "partial" and any("Magic Missile" in m for m in shield.manual)
    faith = library.find("shield of faith")
    assert (faith.ac_bonus, faith.concentration, faith.duration.rounds, faith.duration.ends) == (2, True, 100, None)


def test_hold_person_paralyzes_on_a_failed_wisdom_save_repeated_at_the_end_of_each_turn():
    """ "The target must succeed on a Wisdom saving throw or have the Paralyzed condition for the
    duration. At the end of each of its turns, the target repeats the save, ending the spell on
    itself on a success." Concentration, up to 1 minute."""
    hold = library.find("hold person")
    assert (hold.save.ability, hold.save.repeats, hold.condition.name, hold.condition.ends) == (
        "wisdom",
        "end_of_each_turn",
        "paralyzed",
        None,
    )
    assert (hold.concentration, hold.duration.text, hold.duration.rounds) == (True, "1 minute", 10)
    assert (hold.targets.count, hold.targets.per_slot, hold.targets.creature_types) == (1, 1, ("humanoid",))
    assert hold.automation == "full" and hold.review is not None


def test_a_condition_may_end_before_the_spell():
    """Color Spray: "must succeed on a Constitution saving throw or have the Blinded condition
    until the end of your next turn." """
    spray = library.find("color spray")
    assert (spray.condition.name, spray.condition.ends, spray.targets.area.shape) == ("blinded", "end_of_your_next_turn", "cone")


def test_bless_adds_1d4_for_a_minute_and_bane_takes_it_away():
    """Bless: "Whenever a target makes an attack roll or a saving throw before the spell ends, the
    target adds 1d4 to the attack roll or save." Bane: "the target must subtract 1d4"."""
    bless = library.find("bless")
    assert (bless.concentration, bless.duration.rounds, bless.targets.count, bless.attack) == (True, 10, 3, None)
    assert (bless.roll_bonus.dice, bless.roll_bonus.rolls) == ("1d4", ("attack_rolls", "saving_throws"))
    bane = library.find("bane")
    assert (bane.roll_bonus.dice, bane.save.ability) == ("-1d4", "charisma")


def test_several_damage_types_are_a_choice_or_separate_rolls():
    """Chromatic Orb: "Choose Acid, Cold, Fire, Lightning, Poison, or Thunder for the type of orb";
    Flame Strike: "taking 5d6 Fire damage and 5d6 Radiant damage"."""
    orb = library.find("chromatic orb")
    assert [(d.dice, d.types) for d in orb.damage] == [("3d8", ("acid", "cold", "fire", "lightning", "poison", "thunder"))]
    strike = library.find("flame strike")
    assert [(d.dice, d.types) for d in strike.damage] == [("5d6", ("fire",)), ("5d6", ("radiant",))]
    assert [d.dice for d in strike.at_slot(6).damage] == ["6d6", "6d6"]


def test_the_counts_add_up_to_the_339_spells():
    counts = library.counts()
    assert sum(counts.values()) == len(library.srd()) == 339
    assert all(counts[k] > 0 for k in ("full", "partial", "narrative"))
    assert all(s.manual for s in library.srd() if s.automation != "full")


def test_an_unknown_spell_is_refused_with_close_names():
    with pytest.raises(RuleError) as refused:
        library.find("firebal")
    assert refused.value.code == "spell/unknown" and "Fireball" in refused.value.allowed


def test_combat_spells_fire_lists_the_fire_spells_and_a_whole_name_shows_one():
    runner = CliRunner()
    listed = runner.invoke(cli, ["spells", "fire"])
    assert listed.exit_code == 0, listed.output
    for name in (
        "Fire Bolt",
        "Fireball",
        "Burning Hands",
        "Fire Shield",
        "Wall of Fire",
        "Delayed Blast Fireball",
        "Flame Strike",
    ):
        assert name in listed.output
    shown = runner.invoke(cli, ["spells", "fireball"])
    assert "level 3 evocation" in shown.output and "slot 5: 10d6 fire" in shown.output and "half on a success" in shown.output
    cantrips = runner.invoke(cli, ["spells", "--level", "0", "--class", "wizard", "--json"])
    assert '"Fire Bolt"' in cantrips.output and '"Fireball"' not in cantrips.output
    unknown = runner.invoke(cli, ["spells", "fireballl"])
    assert unknown.exit_code != 0 and "Fireball" in unknown.output


def test_the_service_lists_and_shows_spells(encounters):
    with TestClient(create_app(encounters)) as http:  # type: ignore[arg-type]
        listed = http.get("/spells", params={"q": "fire"}).json()
        assert {"Fireball", "Fire Bolt", "Wall of Fire"} <= {s["name"] for s in listed}
        shown = http.get("/spells/Hold Person").json()
        assert shown["condition"] == {"name": "paralyzed"} and shown["save"]["repeats"] == "end_of_each_turn"
        missing = http.get("/spells/firebal")
        assert missing.status_code == 404 and "Fireball" in missing.json()["allowed"]


def test_the_docs_page_quotes_the_counts():
    page = (ROOT / "docs" / "spells.md").read_text()
    said = {k: int(v) for v, k in re.findall(r"\*\*(\d+)\*\* (full|partial|narrative)", page)}
    assert said == library.counts()


def test_the_mage_casts_from_a_list_with_its_save_dc_and_every_listed_spell_is_in_the_library():
    """Mage, Spellcasting: "The mage casts one of the following spells, using Intelligence as the
    spellcasting ability (spell save DC 14): At Will: Detect Magic, Light, Mage Armor, Mage Hand,
    Prestidigitation; 2/Day Each: Fireball, Invisibility; 1/Day Each: Cone of Cold, Fly"."""
    from combat.bestiary import library as bestiary

    mage = bestiary.find("mage")
    casting = mage.spellcasting
    assert (casting.ability, casting.save_dc, casting.attack_bonus) == ("intelligence", 14, None)
    assert casting.at_will == ("Detect Magic", "Light", "Mage Armor", "Mage Hand", "Prestidigitation")
    assert casting.per_day == {"Fireball": 2, "Invisibility": 2, "Cone of Cold": 1, "Fly": 1}
    assert any(a.name == "Spellcasting" for a in mage.actions)  # the text stays for the GM
    red = bestiary.find("adult red dragon").spellcasting
    assert (red.ability, red.save_dc, red.attack_bonus, red.per_day) == ("charisma", 20, 12, {"Fireball": 1})
    casters = [b for b in bestiary.srd() if b.spellcasting]
    named = {n for b in casters for n in (*b.spellcasting.at_will, *b.spellcasting.per_day)}
    assert len(casters) >= 40 and all(library.find(n).name == n for n in named)


def test_a_stat_block_logged_before_spellcasting_existed_still_reads():
    """The block is copied into the log when a creature joins; old logs have no `spellcasting`."""
    import msgspec

    from combat.bestiary import library as bestiary
    from combat.bestiary.model import StatBlock

    old = msgspec.to_builtins(bestiary.find("mage"))
    del old["spellcasting"]
    assert msgspec.convert(old, StatBlock).spellcasting is None
