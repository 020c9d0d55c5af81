"""The GM's direct edits mid-fight: set_hp, change_stat_block and grant_action (srd-2024)."""

from __future__ import annotations

from uuid import UUID

import pytest

from combat.app.application import Encounters
from combat.common.commands import Damage, StartConcentration
from combat.common.concentration import pending_checks_of
from combat.common.events import CombatantDowned, CombatantRevived, ConcentrationCheckRequired, ConcentrationEnded
from combat.fivee.action_commands import Move, TakeAction
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.fivee.banked_actions import ActionBanked, BankedActionGranted, banked_of
from combat.fivee.gm_edit_commands import ChangeStatBlock, GrantAction, SetHp, StatChanges
from combat.fivee.gm_edit_events import ActionGranted, HitPointsSet, StatBlockChanged
from combat.kernel.commands import EndTurn
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile
from tests.helpers import Table, monster, of_type, pc, stored_fight


def _fight(*extra) -> Table:
    """Aria (initiative 18, two attacks) against a hag (12) and a goblin (5); others at 1."""
    t = Table()
    t.add(pc("aria", attacks_per_action=2, max_hp=30), monster("hag", max_hp=82, ac=17), monster("goblin"), *extra)
    return t.start({"aria": 18, "hag": 12, "goblin": 5, **{s.id: 1 for s in extra}})


# -- set_hp -------------------------------------------------------------------------------


def test_the_gm_sets_hp_and_the_log_keeps_what_they_were():
    """Avrae's `!i hp set`: the HP become the number given; temporary HP are untouched."""
    t = _fight()
    events = t.do(SetHp(combatant="hag", hp=40, reason="the bot said 40"))
    assert events == [HitPointsSet(combatant="hag", hp=40, previous=82, reason="the bot said 40")]
    assert t["hag"].hp == 40 and t.rebuilt() == t.state


def test_setting_a_monster_to_0_hp_kills_it_and_a_character_falls_unconscious():
    """'When a creature drops to 0 Hit Points, it either dies outright or falls unconscious'
    (SRD 5.2): the engine's rule for 0 HP applies as it does to damage, monsters die."""
    t = _fight(pc("bron"))
    t.do(StartConcentration(combatant="aria", effect="Bless"))
    t.do(SetHp(combatant="goblin", hp=0, reason="drops to 0 hit points"))
    assert t["goblin"].status == "dead"
    events = t.do(SetHp(combatant="aria", hp=0))
    assert CombatantDowned(combatant="aria", status="unconscious") in events
    assert of_type(events, ConcentrationEnded)[0].reason == "fell unconscious"
    events = t.do(SetHp(combatant="aria", hp=5, reason="Healing Word, forgotten"))
    assert CombatantRevived(combatant="aria") in events and t["aria"].status == "active"


def test_setting_hp_is_not_damage_so_no_concentration_save_is_owed():
    """'If you take damage while concentrating, you must make a Constitution saving throw';
    a corrected number is not damage."""
    t = _fight()
    t.do(StartConcentration(combatant="aria", effect="Bless"))
    events = t.do(SetHp(combatant="aria", hp=12))
    assert not of_type(events, ConcentrationCheckRequired) and pending_checks_of(t.state) == ()


def test_hp_outside_0_to_the_maximum_or_on_the_dead_is_refused():
    t = _fight()
    error = t.rejects(SetHp(combatant="hag", hp=83), "hp/out-of-range")
    assert error.allowed == "0 to its maximum of 82"
    t.rejects(SetHp(combatant="hag", hp=-1), "hp/out-of-range")
    t.do(Damage(target="goblin", damage_type="fire", amount=7))
    t.rejects(SetHp(combatant="goblin", hp=3), "target/dead")


# -- change_stat_block ----------------------------------------------------------------------


def test_mage_armor_raises_ac_and_the_next_attack_is_judged_against_it():
    """Mage Armor: 'the target's base AC becomes 13 + its Dexterity modifier'. A 15 that hit
    AC 15 misses AC 16."""
    t = _fight()
    events = t.do(ChangeStatBlock(combatant="aria", changes=StatChanges(ac=16), reason="Mage Armor"))
    assert events == [StatBlockChanged(combatant="aria", changes=StatChanges(ac=16), reason="Mage Armor")]
    assert t["aria"].ac == 16
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="hag"))
    [attack] = of_type(t.do(Attack(attacker="goblin", target="aria", faces=(11,))), AttackMade)
    assert attack.total == 15 and attack.target_ac == 16 and not attack.hit


def test_rage_gives_resistance_and_damage_after_it_is_halved():
    """Rage: 'You have Resistance to Bludgeoning, Piercing, and Slashing damage'; 'Resistance
    ... halves the damage (round down)'."""
    t = _fight()
    t.do(
        ChangeStatBlock(combatant="aria", changes=StatChanges(resistances=("bludgeoning", "piercing", "slashing")), reason="Rage")
    )
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="hag"))
    [attack] = of_type(t.do(Attack(attacker="goblin", target="aria", faces=(15,), damage_faces=(5,))), AttackMade)
    assert attack.damage_rolled == 7 and attack.damage == 3 and t["aria"].hp == 27


def test_a_lower_hp_maximum_lowers_hp_and_a_new_attack_profile_can_be_used():
    """'Your Hit Point maximum ... your current Hit Points can't exceed it.'"""
    t = _fight()
    claws = AttackProfile(name="Claws", bonus=7, damage="2d8+4", damage_type="slashing")
    t.do(ChangeStatBlock(combatant="hag", changes=StatChanges(max_hp=60, attacks=(claws,))))
    assert t["hag"].max_hp == 60 and t["hag"].hp == 60
    t.do(EndTurn(combatant="aria"))
    [attack] = of_type(t.do(Attack(attacker="hag", target="aria", attack="claws", faces=(10,), damage_faces=(3, 4))), AttackMade)
    assert attack.total == 17 and attack.damage == 11


def test_speed_changed_during_the_creatures_own_turn_changes_the_movement_left():
    """Longstrider: 'The target's Speed increases by 10 feet'; mid-turn the extra 10 ft count now."""
    t = _fight()
    t.do(Move(combatant="aria", feet=30))
    t.do(ChangeStatBlock(combatant="aria", changes=StatChanges(speed=40), reason="Longstrider"))
    t.do(Move(combatant="aria", feet=10))
    t.rejects(Move(combatant="aria", feet=5), "economy/movement")


def test_an_empty_or_impossible_change_is_refused_with_the_fields_that_can_change():
    t = _fight()
    error = t.rejects(ChangeStatBlock(combatant="hag", changes=StatChanges()), "stat-block/no-changes")
    assert "ac" in error.allowed and "resistances" in error.allowed
    t.rejects(ChangeStatBlock(combatant="hag", changes=StatChanges(max_hp=0)), "stat-block/invalid")


def _goblin_then_aria(encounters: Encounters, name: str) -> UUID:
    """A stored fight: the goblin (initiative 18) against Aria (30 HP, initiative 5)."""
    return stored_fight(encounters, name, (pc("aria", max_hp=30), monster("goblin")), {"goblin": 18, "aria": 5}, seed=3)


def test_undoing_a_stat_block_change_makes_the_damage_judged_by_it_a_conflict(encounters: Encounters):
    """'Later events are judged against the new values; re-checks after a change to the past
    see them in order': with Rage undone, the halved blow no longer fits."""
    eid = _goblin_then_aria(encounters, "rage")
    rage = encounters.execute(
        eid, ChangeStatBlock(combatant="aria", changes=StatChanges(resistances=("slashing",)), reason="Rage")
    )
    blow = encounters.execute(eid, Attack(attacker="goblin", target="aria", faces=(15,), damage_faces=(5,)))
    assert encounters.state(eid).combatants["aria"].hp == 27
    assert encounters.state(eid).conflicts == ()
    encounters.retract(eid, [r.seq for r in rage.records], reason="she had not raged yet")
    state = encounters.state(eid)
    [conflict] = state.conflicts
    assert conflict.seq == next(r.seq for r in blow.records if isinstance(r.event, AttackMade))
    assert "would take 7 slashing from 7 rolled, not 3" in conflict.problem


# -- grant_action ---------------------------------------------------------------------------


def test_action_surge_gives_a_second_action_once_the_first_is_spent():
    """Action Surge: 'you can take one additional action' on your turn."""
    t = _fight()
    t.do(Attack(attacker="aria", target="hag", faces=(2,)))
    t.do(Attack(attacker="aria", target="hag", faces=(2,)))
    t.rejects(Attack(attacker="aria", target="hag", faces=(2,)), "economy/action-spent")
    assert t.do(GrantAction(combatant="aria", kind="action", reason="Action Surge")) == [
        ActionGranted(combatant="aria", kind="action", reason="Action Surge")
    ]
    t.do(TakeAction(combatant="aria", action="dash"))
    t.rejects(TakeAction(combatant="aria", action="dodge"), "economy/action-spent")


def test_an_extra_action_is_refused_while_the_creature_still_has_its_own():
    t = _fight()
    error = t.rejects(GrantAction(combatant="aria", kind="action"), "economy/still-has")
    assert "still has its action" in error.message


def test_a_reaction_is_given_back_at_once_on_anyone_s_turn_an_action_is_kept_for_its_turn():
    """Action Surge and Haste give actions 'on your turn' / 'on each of its turns': granted on
    another creature's turn, a bonus action waits for Aria's; a reaction comes back at once."""
    t = _fight()
    t.do(EndTurn(combatant="aria"))
    assert t.do(GrantAction(combatant="aria", kind="bonus_action")) == [ActionBanked(combatant="aria", kind="bonus_action")]
    t.do(Attack(attacker="aria", target="hag", using="reaction", faces=(2,)))
    assert not t["aria"].economy.reaction
    t.do(GrantAction(combatant="aria", kind="reaction", reason="a second reaction (GM's ruling)"))
    assert t["aria"].economy.reaction


def test_haste_granted_on_the_casters_turn_gives_the_target_an_extra_action_on_its_own_turn():
    """Haste: 'the target ... gains an additional action on each of its turns'. Cast on the
    wizard's turn, the grant is kept for Aria's next turn: there, once her own action is
    spent, she has the extra one; unused, it lapses as that turn ends."""
    t = _fight(pc("wizard"))
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="hag"))
    t.do(EndTurn(combatant="goblin"))
    assert t.state.turn == "wizard"
    t.do(GrantAction(combatant="aria", kind="action", reason="Haste"))
    assert banked_of(t.state)[0].kind == "action" and not banked_of(t.state)[0].armed
    t.do(EndTurn(combatant="wizard"))  # round 2: Aria's turn
    assert t.state.turn == "aria" and banked_of(t.state)[0].armed
    events = t.do(Attack(attacker="aria", target="hag", faces=(2,)))  # her action is the Attack action ...
    assert events[-1] == BankedActionGranted(combatant="aria", kind="action", reason="Haste")
    t.do(Attack(attacker="aria", target="hag", faces=(2,)))  # ... its second attack ...
    t.do(TakeAction(combatant="aria", action="dash"))  # ... and the Haste action
    t.rejects(TakeAction(combatant="aria", action="dodge"), "economy/action-spent")
    assert banked_of(t.state) == () and t.rebuilt() == t.state


def test_a_banked_action_unused_lapses_when_its_turn_ends():
    """One additional action on one turn: granted for Aria's turn and not used there, it is gone."""
    t = _fight()
    t.do(EndTurn(combatant="aria"))
    t.do(GrantAction(combatant="aria", kind="action", reason="Action Surge, declared early"))
    for cid in ("hag", "goblin"):
        t.do(EndTurn(combatant=cid))
    assert t.state.turn == "aria" and banked_of(t.state)[0].armed
    t.do(TakeAction(combatant="aria", action="dodge"))  # its own action: the kept one becomes available
    assert t["aria"].economy.action and banked_of(t.state) == ()
    t.do(EndTurn(combatant="aria"))
    assert not of_type(t.do(EndTurn(combatant="hag")), BankedActionGranted)
    t2 = _fight()
    t2.do(EndTurn(combatant="aria"))
    t2.do(GrantAction(combatant="aria", kind="bonus_action", reason="unused"))
    for cid in ("hag", "goblin", "aria"):
        t2.do(EndTurn(combatant=cid))
    assert banked_of(t2.state) == () and t2.state.turn == "hag"


def test_a_grant_for_a_dead_creature_is_refused():
    t = _fight()
    t.do(Damage(target="goblin", amount=7, damage_type="slashing"))
    t.rejects(GrantAction(combatant="goblin", kind="action"), "target/dead")


@pytest.mark.parametrize(
    ("command", "gm_only"),
    [
        (SetHp(combatant="aria", hp=1), True),
        (ChangeStatBlock(combatant="aria", changes=StatChanges(ac=12)), True),
        (GrantAction(combatant="aria", kind="action"), False),
    ],
)
def test_who_may_send_each_edit_is_declared_on_the_command(command, gm_only):
    """set_hp and change_stat_block are the GM's; a player grants their own Action Surge."""
    assert type(command).gm_only is gm_only
    assert command.actors() == frozenset({"aria"})


def test_undoing_the_attack_that_spent_the_action_makes_the_action_surge_a_conflict(encounters: Encounters):
    """An extra action is granted once the creature's own is spent: with that attack undone,
    Ilse still had her action when Action Surge was granted, and the history says so in the
    words grant_action refuses with."""
    eid = stored_fight(encounters, "surge", (pc("ilse"), monster("hag", max_hp=82)), {"ilse": 18, "hag": 5}, seed=3)
    swing = encounters.execute(eid, Attack(attacker="ilse", target="hag", faces=(3,)))
    surge = encounters.execute(eid, GrantAction(combatant="ilse", kind="action", reason="Action Surge"))
    encounters.retract(eid, [r.seq for r in swing.records], reason="she had not swung yet")
    [conflict] = encounters.state(eid).conflicts
    assert conflict.seq == surge.records[0].seq
    assert conflict.problem == "Ilse still has its action; an extra one is granted once that is spent"
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, GrantAction(combatant="ilse", kind="action", reason="Action Surge"))
    assert (refused.value.code, refused.value.message) == ("economy/still-has", conflict.problem)


def test_undoing_a_banked_grant_makes_the_action_it_gave_a_conflict(encounters: Encounters):
    """Undo the Haste granted on the goblin's turn: the extra action Aria took up on hers was
    never kept for her, and the history says so."""
    eid = _goblin_then_aria(encounters, "haste")
    haste = encounters.execute(eid, GrantAction(combatant="aria", kind="action", reason="Haste"))
    encounters.execute(eid, EndTurn(combatant="goblin"))
    dodge = encounters.execute(eid, TakeAction(combatant="aria", action="dodge"))
    taken = next(r.seq for r in dodge.records if isinstance(r.event, BankedActionGranted))
    assert encounters.state(eid).conflicts == ()
    encounters.retract(eid, [r.seq for r in haste.records], reason="the wizard lost concentration first")
    [conflict] = encounters.state(eid).conflicts
    assert conflict.seq == taken and "no extra action was kept for Aria's turn" in conflict.problem
