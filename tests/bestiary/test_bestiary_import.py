"""Bringing the GM's own stat blocks: `combat monsters --import FILE` (Open5e's format) into the
local store, then `add_creature` by name; `combat monsters` and GET /bestiary list and show them."""

import json

import pytest
from click.testing import CliRunner

from combat.bestiary import library
from combat.cli import cli
from combat.fivee.monsters import AddCreature, StatBlockAttached
from tests.helpers import Table, of_type

# A homebrew creature as Open5e publishes creatures: records for the creature, its actions,
# its attacks and its traits, tied together by `parent`.
MARSH_TROLL = [
    {
        "model": "api_v2.creature",
        "pk": "home_marsh-troll",
        "fields": {
            "name": "Marsh Troll",
            "size": "large",
            "type": "giant",
            "armor_class": 13,
            "hit_points": 63,
            "hit_dice": "6d10 + 30",
            "initiative_bonus": 1,
            "walk": 30,
            "swim": 30,
            "challenge_rating": "4.000",
            "saving_throw_constitution": 5,
            "damage_resistances": ["poison"],
            "document": "homebrew",
        },
    },
    {
        "model": "api_v2.creatureaction",
        "pk": "home_marsh-troll_multiattack",
        "fields": {
            "parent": "home_marsh-troll",
            "name": "Multiattack",
            "desc": "The troll makes one Bite attack and two Claw attacks.",
            "action_type": "ACTION",
            "uses_type": None,
            "uses_param": None,
            "order_in_statblock": 1,
        },
    },
    {
        "model": "api_v2.creatureaction",
        "pk": "home_marsh-troll_bite",
        "fields": {
            "parent": "home_marsh-troll",
            "name": "Bite",
            "desc": "Melee Attack Roll: +6, reach 5 ft. 7 (1d6 + 4) Piercing damage.",
            "action_type": "ACTION",
            "uses_type": None,
            "uses_param": None,
            "order_in_statblock": 2,
        },
    },
    {
        "model": "api_v2.creatureactionattack",
        "pk": "home_marsh-troll_bite_attack",
        "fields": {
            "parent": "home_marsh-troll_bite",
            "name": "Bite attack",
            "attack_type": "WEAPON",
            "to_hit_mod": 6,
            "reach": 5,
            "damage_die_count": 1,
            "damage_die_type": "D6",
            "damage_bonus": 4,
            "damage_type": "piercing",
        },
    },
    {
        "model": "api_v2.creatureaction",
        "pk": "home_marsh-troll_claw",
        "fields": {
            "parent": "home_marsh-troll",
            "name": "Claw",
            "desc": "Melee Attack Roll: +6, reach 10 ft. 8 (1d8 + 4) Slashing damage.",
            "action_type": "ACTION",
            "uses_type": None,
            "uses_param": None,
            "order_in_statblock": 3,
        },
    },
    {
        "model": "api_v2.creatureactionattack",
        "pk": "home_marsh-troll_claw_attack",
        "fields": {
            "parent": "home_marsh-troll_claw",
            "name": "Claw attack",
            "attack_type": "WEAPON",
            "to_hit_mod": 6,
            "reach": 10,
            "damage_die_count": 1,
            "damage_die_type": "D8",
            "damage_bonus": 4,
            "damage_type": "slashing",
        },
    },
    {
        "model": "api_v2.creatureaction",
        "pk": "home_marsh-troll_bog-belch",
        "fields": {
            "parent": "home_marsh-troll",
            "name": "Bog Belch",
            "desc": "Constitution Saving Throw: DC 13, each creature in a 15-foot Cone.",
            "action_type": "ACTION",
            "uses_type": "RECHARGE_ON_ROLL",
            "uses_param": 6,
            "order_in_statblock": 4,
        },
    },
    {
        "model": "api_v2.creaturetrait",
        "pk": "home_marsh-troll_regeneration",
        "fields": {
            "parent": "home_marsh-troll",
            "name": "Regeneration",
            "desc": "The troll regains 10 Hit Points at the start of each of its turns.",
        },
    },
]


@pytest.fixture
def store(tmp_path, monkeypatch):
    path = tmp_path / "bestiary.json"
    monkeypatch.setenv(library.STORE_ENV, str(path))
    return path


def _import(tmp_path, records) -> object:
    source = tmp_path / "homebrew.json"
    source.write_text(json.dumps(records))
    return CliRunner().invoke(cli, ["monsters", "--import", str(source)])


def test_an_imported_open5e_creature_is_added_by_name(tmp_path, store):
    """The troll's records become a stat block in the local store; add_creature finds it by name."""
    result = _import(tmp_path, MARSH_TROLL)
    assert result.exit_code == 0, result.output
    assert "Marsh Troll" in result.output and store.exists()
    t = Table()
    events = t.do(AddCreature(creature="marsh troll", side="trolls"))
    troll = t["marsh-troll"]
    assert (troll.ac, troll.max_hp, troll.speed, troll.con_save, troll.resistances) == (13, 63, 30, 5, ("poison",))
    [attached] = of_type(events, StatBlockAttached)
    block = attached.stat_block
    assert [(p.count, p.attacks) for p in block.multiattack.routines[0]] == [(1, ("Bite",)), (2, ("Claw",))]
    assert block.actions[0].recharge == 6 and block.traits[0].name == "Regeneration" and block.source == "homebrew"


def test_a_bad_import_is_refused_field_by_field_and_nothing_is_stored(tmp_path, store):
    """Every bad field is named; the store is not touched."""
    creature = {**MARSH_TROLL[0], "fields": {**MARSH_TROLL[0]["fields"], "armor_class": "thirteen"}}
    del creature["fields"]["hit_points"]
    attack = {**MARSH_TROLL[3], "fields": {**MARSH_TROLL[3]["fields"], "to_hit_mod": "six"}}
    result = _import(tmp_path, [creature, *MARSH_TROLL[1:3], attack, *MARSH_TROLL[4:]])
    assert result.exit_code != 0
    for problem in ("hit_points missing", "armor_class is 'thirteen'", "to_hit_mod is 'six'"):
        assert problem in result.output
    assert not store.exists()


def test_monsters_lists_matches_and_shows_one_block(store):
    """`combat monsters red dragon` lists the red dragons; a whole name shows its stat block."""
    runner = CliRunner()
    listed = runner.invoke(cli, ["monsters", "red", "dragon"])
    assert listed.exit_code == 0 and "Young Red Dragon" in listed.output and "Ancient Red Dragon" in listed.output
    shown = runner.invoke(cli, ["monsters", "goblin", "warrior"])
    assert "AC 15   HP 10 (3d6)" in shown.output and "Scimitar" in shown.output
    unknown = runner.invoke(cli, ["monsters", "goblinn"])
    assert unknown.exit_code != 0 and "Goblin Warrior" in unknown.output


def test_the_service_lists_and_shows_stat_blocks(client, store):
    """GET /bestiary?q= lists; GET /bestiary/{name} shows the block add_creature would use."""
    listed = client.get("/bestiary", params={"q": "goblin"}).json()
    assert {
        "name": "Goblin Warrior",
        "cr": "1/4",
        "size": "small",
        "type": "fey",
        "ac": 15,
        "hp": 10,
        "source": "SRD 5.2",
    } in listed
    block = client.get("/bestiary/adult red dragon").json()
    assert block["legendary_resistance"] == 3 and block["attacks"][0]["extra_damage"] == "2d4"
    missing = client.get("/bestiary/goblin warior")
    assert missing.status_code == 404 and "Goblin Warrior" in missing.json()["allowed"]
