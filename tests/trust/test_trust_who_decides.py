"""Who decides which number (issue 14, findings 1 and 2): a player enters the dice their own
combatants roll; DCs, bonuses, multipliers, Advantage reasons and another creature's dice
come from the state or the GM. A player's command that sets one is refused, nothing appended."""

from __future__ import annotations

import pytest

from combat.app.catalog import ALL_COMMAND_TYPES
from combat.common.commands import SavingThrow
from combat.common.events import SaveMade
from combat.fivee.action_commands import TakeAction
from combat.fivee.attack_commands import Attack
from combat.kernel.commands import Command
from combat.rulesets.a5e.attacks import MakeAttack
from combat.rulesets.a5e.surprise import SurpriseCheck
from combat.rulesets.declared_d10.attacks import D10Attack
from combat.rulesets.declared_d10.grapples import D10BreakGrapple, D10Grapple
from combat.rulesets.segments_1e.commands import RoutineAttack
from combat.rulesets.srd2024_variant.unarmed import GrappleStarted, UnarmedStrike
from tests.helpers import DOCS, Table, monster, of_type, pc
from tests.rulesets.declared_d10.helpers import OGRE_GRABS_TAMMY, STRENGTH, duel, play_round
from tests.rulesets.srd2024_variant.helpers import brawl
from tests.service.helpers import open_fight, set_the_scene


def test_a_player_cannot_enter_the_ogres_constitution_save_against_their_grapple():
    """Finding 1: "`unarmed_strike.faces` (variant) is also the target's Constitution save; a
    player set the GM's ogre's save to 1 and grappled it." The save is the orc's roll."""
    t = brawl()
    error = t.rejects(UnarmedStrike(attacker="aria", target="orc", option="grapple", faces=(1,)), "command/gm-field", actor="Sam")
    assert "faces" in error.message and "faces" in error.allowed
    # Without faces the orc's save is rolled from the seed; the GM may enter the orc's die.
    t.do(UnarmedStrike(attacker="aria", target="orc", option="grapple", faces=(1,)))
    assert of_type(t.events, GrappleStarted)


def test_a_player_still_enters_their_own_unarmed_attack_roll():
    """An Unarmed Strike for damage is an attack roll: the striker's own d20."""
    t = brawl()
    assert t.do(UnarmedStrike(attacker="aria", target="orc", faces=(10,)), actor="Sam")


def test_a_player_cannot_enter_the_other_sides_die_of_an_opposed_grapple():
    """Finding 1: `d10_grapple.target_faces` and `d10_break_grapple.grappler_faces` are the
    opponent's roll."""
    t = play_round(duel(traits=STRENGTH), OGRE_GRABS_TAMMY, {"party": 1, "monsters": 9})
    t.rejects(D10Grapple(attacker="ogre", target="tammy", faces=(20,), target_faces=(1,)), "command/gm-field", actor="Ana")
    t.do(D10Grapple(attacker="ogre", target="tammy", faces=(20,), target_faces=(1,)))
    assert D10BreakGrapple(combatant="tammy", faces=(19,), grappler_faces=(3,)).gm_fields_given() == ("grappler_faces",)
    assert D10BreakGrapple(combatant="tammy", faces=(19,)).gm_fields_given() == ()


def _fighting() -> Table:
    return Table().add(pc("aria"), monster("goblin")).start({"aria": 18, "goblin": 3})


@pytest.mark.parametrize(
    "command, fields",
    [
        (SavingThrow(combatant="aria", ability="dexterity", dc=1, bonus=100, faces=(2,)), "dc, bonus"),
        (
            Attack(attacker="aria", target="goblin", roll_bonus="100", advantage=("I say so",), faces=(9,)),
            "advantage, roll_bonus",
        ),
        (TakeAction(combatant="aria", action="hide", bonus=30, dc=1, faces=(2,)), "bonus, dc"),
    ],
    ids=["save-dc-and-bonus", "attack-bonus-and-advantage", "check-bonus-and-dc"],
)
def test_a_player_cannot_pick_the_numbers_that_decide_their_own_roll(command, fields):
    """Finding 2: "`saving_throw` with `dc: 1, bonus: 100` succeeds; `attack` with
    `roll_bonus: "100"` and `advantage: ["I say so"]` hits for 109." Now refused."""
    t = _fighting()
    error = t.rejects(command, "command/gm-field", actor="Sam")
    assert fields in error.message


@pytest.mark.parametrize(
    "command",
    [
        SurpriseCheck(combatant="aria", bonus=1, dc=1),
        MakeAttack(attacker="aria", target="goblin", from_above=True, flanking_with="brom"),
        RoutineAttack(attacker="hugo", target="orc", bonus=10, multipliers=(3,)),
        D10Attack(attacker="tammy", target="ogre", vs_dc=1, cinematic="because"),
    ],
    ids=lambda c: c.trigger(),
)
def test_every_ruleset_declares_its_gm_numbers(command: Command):
    """a5e `surprise_check.dc`, segments-1e `routine_attack.bonus/multipliers`,
    `d10_attack.vs_dc`: each is declared on its command class, where the reference reads it."""
    assert command.gm_fields_given()
    assert set(command.gm_fields_given()) <= set(type(command).gm_fields)


def test_every_declared_gm_field_is_a_field_of_its_command():
    for cls in ALL_COMMAND_TYPES:
        names = set(cls.__struct_fields__)
        assert set(cls.gm_fields) <= names, cls


def test_the_gm_sets_them_and_a_player_leaves_them_out():
    """The GM calls the save ("DC 12 Dexterity") with the player's die; the player's own
    concentration-free attack without claimed bonuses goes through."""
    t = _fighting()
    save = of_type(t.do(SavingThrow(combatant="aria", ability="dexterity", dc=12, bonus=2, faces=(11,))), SaveMade)
    assert save[0].success
    assert t.do(Attack(attacker="aria", target="goblin", faces=(9,), damage_faces=(3,)), actor="Sam")


def test_over_http_a_players_claimed_bonus_is_a_403_and_nothing_is_appended(client):
    fight = set_the_scene(open_fight(client))
    sam = fight.token("player", "Sam", ("aria",))
    version = fight.state()["version"]
    reply = fight.send(Attack(attacker="aria", target="goblin", roll_bonus="100", advantage=("I say so",), faces=(9,)), token=sam)
    error = fight.rejects(reply, 403, "command/gm-field")
    assert "roll_bonus" in error["detail"]
    assert fight.state()["version"] == version


def test_the_trust_page_lists_every_commands_gm_fields():
    """docs/trust.md documents, per command, which fields a player may not set."""

    page = (DOCS / "trust.md").read_text()
    for cls in ALL_COMMAND_TYPES:
        if cls.gm_fields:
            row = next((line for line in page.splitlines() if line.startswith(f"| `{cls.trigger()}` |")), None)
            assert row is not None, cls.trigger()
            assert row.endswith("| " + ", ".join(f"`{f}`" for f in cls.gm_fields) + " |"), row
