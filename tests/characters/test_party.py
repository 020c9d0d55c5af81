"""A party that outlasts an encounter: characters stored by the service, their HP, spent
uses and Hit Point Dice carried from one fight to the next, and the rests that restore them."""

from __future__ import annotations

from uuid import UUID

import pytest

from combat.app.application import Encounters
from combat.common.commands import Damage
from combat.fivee.characters import AddCharacter, character
from combat.fivee.gm_edit_commands import SetHp
from combat.fivee.initiative import RollInitiative
from combat.fivee.resources import UseResource
from combat.kernel.commands import AddCombatant, BeginCombat, EndCombat
from combat.kernel.errors import RuleError
from tests.helpers import left_wounded_in_a_fight, member, monster

WIZARD = member("Elara", weapons=("Dagger",))
FIGHTER = member("Brann", armor="Chain Mail", shield=True, weapons=("Longsword",), subclass="Champion")
ROGUE = member("Vex", armor="Leather", weapons=("Rapier", "Shortbow"))


def _campaign(encounters: Encounters) -> UUID:
    return encounters.campaigns.create("The Sunless Citadel").id


def _fight(encounters: Encounters, name: str, campaign: UUID) -> UUID:
    """The three characters, by name from the campaign, against a goblin."""
    eid = encounters.create("srd-2024", name, seed=3, campaign=campaign)
    for who in ("Elara", "Brann", "Vex"):
        encounters.execute(eid, AddCharacter(character=who, side="party", player="ann"))
    encounters.execute(eid, AddCombatant(combatant=monster("goblin-1", max_hp=40)))
    encounters.execute(eid, BeginCombat())
    for cid, face in (("brann", 20), ("vex", 15), ("elara", 10), ("goblin-1", 5)):
        encounters.execute(eid, RollInitiative(combatant=cid, faces=(face,)))
    return eid


def test_a_party_of_three_plays_two_fights_with_a_long_rest_between(encounters: Encounters):
    """What a character spends in one fight it still lacks in the next; "Long Rest ... Regain
    All HP. You regain all lost Hit Points and all spent Hit Point Dice", and its features."""
    party = encounters.campaigns
    camp = _campaign(encounters)
    for sheet in (WIZARD, FIGHTER, ROGUE):
        party.save(camp, sheet)
    assert [c.name for c in party.roster(camp).characters] == ["Brann", "Elara", "Vex"]

    first = _fight(encounters, "The goblin ambush", camp)
    assert (
        encounters.state(first).combatants["brann"].ac == 18 and character(encounters.state(first), "brann").character == "Brann"
    )
    encounters.execute(first, Damage(target="brann", amount=14, damage_type="slashing"))
    encounters.execute(first, Damage(target="elara", amount=20, damage_type="fire"))
    encounters.execute(first, UseResource(combatant="brann", resource="Second Wind", faces=(1,)), actor="ann")
    encounters.execute(first, EndCombat(reason="the goblin flees"))

    # The next fight, with no rest: Brann at 44 - 14 + 6 = 36, Elara at 7, one Second Wind spent.
    second = _fight(encounters, "The goblin comes back", camp)
    state = encounters.state(second)
    assert (state.combatants["brann"].hp, state.combatants["elara"].hp, state.combatants["vex"].hp) == (36, 7, 38)
    assert character(state, "brann").resources_used == {"Second Wind": 1}
    encounters.execute(second, Damage(target="elara", amount=3, damage_type="fire"))
    encounters.execute(second, EndCombat(reason="the goblin is dead"))

    stored, rest = party.rest(camp, "Elara", "long")
    assert rest.healed == 27 - 4 and stored.status.hp is None  # at her maximum
    stored, _ = party.rest(camp, "Brann", "long")
    assert stored.status.resources_used == {}

    third = _fight(encounters, "A third fight, rested", camp)
    state = encounters.state(third)
    assert (state.combatants["brann"].hp, state.combatants["elara"].hp) == (44, 27)
    # Each change is an event in the character's own log.
    party.carry_over()
    # The follower carries what the fight did so far whenever it runs (here before each
    # join): one StatusCarried or more per fight, as it happened to run.
    kinds = [type(r.event).__name__ for r in party.history(camp, "Elara")]
    kinds = [k for i, k in enumerate(kinds) if not (k == "StatusCarried" and kinds[i - 1] == k)]
    assert kinds == [
        "CharacterSaved",
        "CharacterJoined",
        "StatusCarried",
        "CharacterLeft",
        "CharacterJoined",
        "StatusCarried",
        "CharacterLeft",
        "Rested",
        "CharacterJoined",
    ]


def test_a_short_rest_spends_hit_point_dice_and_brings_back_short_rest_features(encounters: Encounters):
    """ "For each Hit Point Die you spend in this way, roll the die and add your Constitution
    modifier to it"; Action Surge comes back on a Short Rest, Second Wind regains one use."""
    party = encounters.campaigns
    camp = _campaign(encounters)
    party.save(camp, FIGHTER)
    eid = encounters.create("srd-2024", "a skirmish", seed=1, campaign=camp)
    encounters.execute(eid, AddCharacter(character="Brann", side="party"))
    encounters.execute(eid, SetHp(combatant="brann", hp=14))
    party.release(camp, "Brann")  # the fight never began: the GM lets Brann go
    stored, rest = party.rest(camp, "Brann", "short", hit_dice=2, faces=(6, 3))
    assert rest.healed == (6 + 2) + (3 + 2) and stored.status.hp == 14 + 13 and stored.status.hit_dice_spent == 2
    with pytest.raises(RuleError) as caught:
        party.rest(camp, "Brann", "short", hit_dice=4)
    assert caught.value.code == "rest/hit-dice" and caught.value.allowed == "0 to 3"


def test_an_unknown_character_is_refused_with_the_partys_names(encounters: Encounters):
    camp = _campaign(encounters)
    encounters.campaigns.save(camp, WIZARD)
    eid = encounters.create("srd-2024", "x", seed=1, campaign=camp)
    with pytest.raises(RuleError) as caught:
        encounters.execute(eid, AddCharacter(character="Elora", side="party"))
    assert caught.value.code == "character/unknown" and caught.value.allowed == "Elara"
    assert encounters.state(eid).version == 1


def test_the_party_from_the_command_line(tmp_path):
    """`combat characters build --save`, `list`, `rest --short` with entered Hit Point Dice, `show`."""
    from click.testing import CliRunner

    from combat.cli import cli

    db = str(tmp_path / "combat.db")
    run = CliRunner().invoke
    built = run(
        cli,
        [
            "characters",
            "build",
            "--class",
            "Fighter",
            "--level",
            "5",
            "--scores",
            "STR 16 DEX 12 CON 14 INT 10 WIS 12 CHA 8",
            "--weapon",
            "Longsword",
            "--armor",
            "Chain Mail",
            "--name",
            "Brann",
            "--save",
            "--db",
            db,
        ],
    )
    assert built.exit_code == 0, built.output
    assert "HP 44" in built.output and "saved Brann" in built.output
    listed = run(cli, ["characters", "list", "--db", db])
    assert listed.output.strip() == "Brann: HP 44/44"
    left_wounded_in_a_fight(db, "Brann", 20)
    released = run(cli, ["characters", "release", "Brann", "--db", db])
    assert released.exit_code == 0 and released.output.strip() == "Brann: HP 20/44", released.output
    rested = run(cli, ["characters", "rest", "Brann", "--short", "--hit-dice", "1", "--faces", "7", "--db", db])
    assert rested.exit_code == 0, rested.output
    assert "regains 9 HP (Hit Point Dice: 7)" in rested.output and "HP 29/44" in rested.output
    shown = run(cli, ["characters", "show", "brann", "--db", db])
    assert shown.output.startswith("Brann: HP 29/44, spent: 1 Hit Point Dice") and "Longsword: +6 to hit" in shown.output
    refused = run(cli, ["characters", "rest", "Brann", "--db", db])
    assert refused.exit_code == 2 and "--short or --long" in refused.output


def test_the_command_references_examples_play_against_a_party(encounters: Encounters):
    """The reference's add_character and use_resource examples, sent as written."""
    from combat.app.reference import example_of
    from combat.fivee.resources import UseResource

    camp = _campaign(encounters)
    encounters.campaigns.save(camp, WIZARD)
    encounters.campaigns.save(camp, FIGHTER)
    eid = encounters.create("srd-2024", "the reference's examples", seed=2, campaign=camp)
    added = encounters.execute(eid, encounters.read_command(eid, example_of(AddCharacter)))
    assert encounters.state(eid).combatants["elara"].player == "Sam" and len(added.records) == 2
    encounters.execute(eid, AddCharacter(character="Brann", side="party"))
    encounters.execute(eid, AddCombatant(combatant=monster("goblin-1")))
    encounters.execute(eid, BeginCombat())
    for cid, face in (("brann", 20), ("elara", 2), ("goblin-1", 1)):
        encounters.execute(eid, RollInitiative(combatant=cid, faces=(face,)))
    encounters.execute(eid, SetHp(combatant="brann", hp=10))
    encounters.execute(eid, encounters.read_command(eid, example_of(UseResource)))
    assert encounters.state(eid).combatants["brann"].hp == 10 + 6 + 5
