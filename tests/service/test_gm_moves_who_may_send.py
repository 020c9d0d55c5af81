"""Who may send each GM move: declared on the command class (gm_only, actor_fields) and
enforced for a player's token by the service; a two-step attack over HTTP."""

from __future__ import annotations

import uuid

import pytest

from combat.common.commands import SavingThrow
from combat.fivee.ability_checks import AbilityCheck, Contest
from combat.fivee.attack_commands import Attack, RollDamage
from combat.fivee.gm_edit_commands import ChangeStatBlock, GrantAction, JudgeSave, SetHp, StatChanges
from combat.fivee.initiative import RollInitiative
from combat.fivee.turn_pointer import GotoTurn, PreviousTurn
from combat.kernel.commands import EndTurn
from combat.service.auth import Grant, check_command
from combat.service.errors import ApiError
from tests.service.helpers import open_fight, set_the_scene

ANA = Grant(encounter_id=uuid.uuid4(), role="player", name="ana", combatants=frozenset({"mozzie"}))

THE_GMS = [
    SetHp(combatant="mozzie", hp=10),
    ChangeStatBlock(combatant="mozzie", changes=StatChanges(ac=17)),
    GotoTurn(combatant="mozzie"),
    PreviousTurn(),
    JudgeSave(combatant="mozzie", dc=14, reason="Illusory Appearance"),
]
A_PLAYERS_FOR_THEIR_OWN = [
    GrantAction(combatant="mozzie", kind="action", reason="Action Surge"),
    Attack(attacker="mozzie", target="sea-hag", using="bonus_action", faces=(12,)),
    RollDamage(attacker="mozzie", faces=(3,)),
    AbilityCheck(combatant="mozzie", ability="dexterity", skill="stealth", faces=(9,)),
    SavingThrow(combatant="mozzie", ability="wisdom", faces=(9,)),
    RollInitiative(combatant="mozzie", faces=(15,)),
]


@pytest.mark.parametrize("command", THE_GMS, ids=lambda c: c.trigger())
def test_set_hp_change_stat_block_and_moving_the_turn_are_the_gms_even_for_a_players_own_character(command):
    assert type(command).gm_only
    with pytest.raises(ApiError) as caught:
        check_command(ANA, command)
    assert caught.value.code == "auth/gm-command"


@pytest.mark.parametrize("command", A_PLAYERS_FOR_THEIR_OWN, ids=lambda c: c.trigger())
def test_a_player_sends_these_for_their_own_character(command):
    assert not type(command).gm_only
    check_command(ANA, command)


def test_a_contest_names_two_actors_so_a_player_sends_it_only_when_both_are_theirs():
    """The hag's Athletics against Mozzie's Acrobatics is the GM's to call."""
    contest = Contest(combatant="sea-hag", ability="strength", opponent="mozzie", opponent_ability="dexterity")
    assert contest.actors() == {"sea-hag", "mozzie"}
    with pytest.raises(ApiError) as caught:
        check_command(ANA, contest)
    assert caught.value.code == "auth/not-your-combatant"
    check_command(Grant(encounter_id=ANA.encounter_id, role="gm", name="gm", combatants=frozenset()), contest)


def test_a_player_on_a_phone_enters_the_d20_sees_the_hit_then_enters_the_damage(client):
    """Sam rolls a 15 at the table: the reply says it hit, and only then does Sam roll the
    damage die and enter the 5. Sam cannot set HP; the GM can."""
    fight = set_the_scene(open_fight(client))
    sam = fight.token("player", "Sam", ("aria",))
    first = fight.do(Attack(attacker="aria", target="goblin", faces=(15,)), token=sam)
    assert [e["type"] for e in first["events"]] == ["DiceRolled", "AttackRolled"]
    assert first["events"][-1]["total"] == 20 and first["events"][-1]["damage_dice"] == "1d8+3"
    assert fight.state()["srd_2024"]["pending_damage"][0]["attacker"] == "aria"
    fight.rejects(fight.send(EndTurn(combatant="aria"), token=sam), 409, "turn/pending-damage")
    second = fight.do(RollDamage(attacker="aria", faces=(5,)), token=sam)
    assert [e["type"] for e in second["events"]][:2] == ["DiceRolled", "AttackDamageRolled"]
    assert fight.state()["combatants"]["goblin"]["status"] == "dead"
    fight.rejects(fight.send(SetHp(combatant="aria", hp=1), token=sam), 403, "auth/gm-command")
