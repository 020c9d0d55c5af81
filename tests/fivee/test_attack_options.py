"""An attack's `using` and per-attack modifiers, and attacks in two steps when the d20 is
entered at the table (srd-2024, with a5e where its attack command differs)."""

from __future__ import annotations

import msgspec
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from combat.common.events import CombatantDowned, DamageTaken
from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack, OpportunityAttack, RollDamage
from combat.fivee.attack_events import AttackDamageRolled, AttackMade, AttackRolled, ExtraDamage
from combat.fivee.gm_edit_commands import GrantAction
from combat.fivee.held_open import pending_damage_of
from combat.fivee.legendary import LegendaryAction
from combat.fivee.monsters import AddCreature
from combat.kernel.commands import EndTurn
from combat.kernel.errors import RuleError
from combat.kernel.events import DiceRolled
from combat.rulesets.a5e.attacks import MakeAttack
from tests.helpers import Table, monster, of_type, pc, stored_fight


def _fight(ruleset: str = "srd-2024", **hag) -> Table:
    """Aria (Longsword +5, 1d8+3 slashing, initiative 18) against a hag (AC 17, 82 HP, 12)."""
    t = Table(ruleset)
    t.add(pc("aria", max_hp=30), monster("hag", **{"max_hp": 82, "ac": 17, **hag}))
    return t.start({"aria": 18, "hag": 12})


# -- using --------------------------------------------------------------------------------


def test_an_off_hand_attack_uses_the_bonus_action_and_leaves_the_action():
    """Light weapons: 'you can make another attack with a different Light weapon ... as a Bonus Action'."""
    t = _fight()
    [attack] = of_type(t.do(Attack(attacker="aria", target="hag", using="bonus_action", faces=(3,))), AttackMade)
    assert attack.uses == "bonus_action"
    assert t["aria"].economy.action and not t["aria"].economy.bonus_action
    t.rejects(Attack(attacker="aria", target="hag", using="bonus_action", faces=(3,)), "economy/bonus-action-spent")
    t.do(Attack(attacker="aria", target="hag", faces=(3,)))
    assert not t["aria"].economy.action


def test_a_reaction_attack_comes_on_another_creatures_turn():
    """Polearm Master: 'you can take a Reaction to make a melee attack'."""
    t = _fight()
    t.do(EndTurn(combatant="aria"))
    t.rejects(Attack(attacker="aria", target="hag", faces=(3,)), "turn/not-yours")
    [attack] = of_type(t.do(Attack(attacker="aria", target="hag", using="reaction", faces=(3,))), AttackMade)
    assert attack.uses == "reaction" and not t["aria"].economy.reaction
    t.rejects(Attack(attacker="aria", target="hag", using="reaction", faces=(3,)), "economy/reaction-spent")


# -- per-attack modifiers -------------------------------------------------------------------


def test_extra_damage_dice_come_with_their_type_and_meet_the_targets_resistance_to_it():
    """'If the attack involves other damage dice, such as from the Rogue's Sneak Attack feature'
    they are added; a hag resistant to fire halves the fire part only."""
    t = _fight(resistances=("fire",))
    events = t.do(
        Attack(
            attacker="aria",
            target="hag",
            faces=(14,),
            damage_faces=(5,),
            extra_damage=(ExtraDamage(dice="2d6", damage_type="fire", faces=(4, 5)),),
        )
    )
    [attack] = of_type(events, AttackMade)
    [fire] = of_type(events, DamageTaken)
    assert attack.damage == 8 and attack.damage_type == "slashing"
    assert fire.rolled == 9 and fire.amount == 4 and fire.damage_type == "fire"
    assert t["hag"].hp == 82 - 12
    assert [d.notation for d in of_type(events, DiceRolled)] == ["1d20+5", "1d8+3", "2d6"]


def test_a_critical_range_of_19_makes_a_natural_19_a_critical_hit_with_every_die_doubled():
    """Improved Critical: 'can score a Critical Hit on a roll of 19 or 20'; 'Roll the attack's
    damage dice twice ... If the attack involves other damage dice ... you also roll those dice twice.'"""
    t = _fight()
    events = t.do(
        Attack(
            attacker="aria",
            target="hag",
            faces=(19,),
            damage_faces=(1, 2),
            critical_range=19,
            extra_damage=(ExtraDamage(dice="1d6", damage_type="radiant", faces=(3, 4)),),
        )
    )
    [attack] = of_type(events, AttackMade)
    assert attack.critical and attack.hit and attack.damage == 6
    assert [d.notation for d in of_type(events, DiceRolled)] == ["1d20+5", "2d8+3", "2d6"]
    assert of_type(events, DamageTaken)[0].amount == 7


def test_a_natural_19_is_no_critical_hit_without_the_feature():
    t = _fight()
    [attack] = of_type(t.do(Attack(attacker="aria", target="hag", faces=(19,), damage_faces=(4,))), AttackMade)
    assert attack.hit and not attack.critical


def test_a_damage_type_chosen_for_this_attack_replaces_the_profiles():
    """A Chromatic Orb, an elemental weapon: the type is chosen as the attack is made."""
    t = _fight(immunities=("cold",))
    [attack] = of_type(
        t.do(Attack(attacker="aria", target="hag", faces=(14,), damage_faces=(5,), damage_type="cold")), AttackMade
    )
    assert attack.damage_type == "cold" and attack.damage == 0 and attack.damage_rolled == 8


@pytest.mark.parametrize(
    ("change", "code"),
    [
        ({"critical_range": 1}, "attack/critical-range"),
        ({"critical_range": 21}, "attack/critical-range"),
        ({"damage_type": " "}, "attack/damage-type"),
    ],
)
def test_impossible_modifiers_are_refused(change, code):
    t = _fight()
    t.rejects(Attack(attacker="aria", target="hag", faces=(14,), damage_faces=(5,), **change), code)


# -- two steps --------------------------------------------------------------------------------


def test_the_d20_first_then_damage_faces_only_if_it_hit():
    """At the table: the player rolls the d20 and the engine says hit; only then are the damage
    dice rolled and entered (`roll_damage`)."""
    t = _fight()
    events = t.do(Attack(attacker="aria", target="hag", faces=(14,)))
    [pending] = of_type(events, AttackRolled)
    assert not of_type(events, AttackMade) and [d.purpose for d in of_type(events, DiceRolled)] == ["attack"]
    assert pending.total == 19 and pending.damage_dice == "1d8+3" and t["hag"].hp == 82
    assert pending_damage_of(t.state) == (pending,) and not t["aria"].economy.action
    events = t.do(RollDamage(attacker="aria", faces=(6,)))
    assert of_type(events, AttackDamageRolled) == [
        AttackDamageRolled(attacker="aria", target="hag", attack="Longsword", damage=9, damage_rolled=9, damage_type="slashing")
    ]
    assert t["hag"].hp == 73 and pending_damage_of(t.state) == () and t.rebuilt() == t.state


def test_a_miss_needs_no_second_step():
    t = _fight()
    [attack] = of_type(t.do(Attack(attacker="aria", target="hag", faces=(4,))), AttackMade)
    assert not attack.hit and pending_damage_of(t.state) == ()
    t.rejects(RollDamage(attacker="aria", faces=(6,)), "damage/nothing-pending")


def test_the_turn_waits_for_the_damage_and_nobody_attacks_in_between():
    """A pending damage roll is state the turn waits for."""
    t = _fight()
    t.do(Attack(attacker="aria", target="hag", faces=(14,)))
    error = t.rejects(EndTurn(combatant="aria"), "turn/pending-damage")
    assert error.allowed == "roll_damage for aria"
    t.rejects(Attack(attacker="aria", target="hag", faces=(14,)), "attack/damage-pending")
    t.do(RollDamage(attacker="aria"))  # the service may roll the damage after all
    t.do(EndTurn(combatant="aria"))


def test_a_critical_hit_in_two_steps_asks_for_doubled_dice_and_extra_damage_faces():
    t = _fight()
    t.do(Attack(attacker="aria", target="hag", faces=(20,), extra_damage=(ExtraDamage(dice="3d6", damage_type="piercing"),)))
    [pending] = pending_damage_of(t.state)
    assert pending.critical and pending.damage_dice == "2d8+3" and pending.extra_damage[0].dice == "6d6"
    t.rejects(RollDamage(attacker="aria", faces=(1, 2), extra_faces=((1,), (2,))), "dice/extra-faces")
    t.rejects(RollDamage(attacker="aria", faces=(1,), extra_faces=((1, 1, 1, 1, 1, 1),)), "dice/too-few-faces")
    events = t.do(RollDamage(attacker="aria", faces=(1, 2), extra_faces=((1, 1, 1, 1, 1, 1),)))
    assert of_type(events, AttackDamageRolled)[0].damage == 6 and of_type(events, DamageTaken)[0].amount == 6
    assert t["hag"].hp == 70


def test_the_service_rolled_path_stays_one_step():
    t = _fight()
    events = t.do(Attack(attacker="aria", target="hag"))
    assert of_type(events, AttackMade) and not of_type(events, AttackRolled)


def test_damage_rolled_later_can_drop_the_target():
    t = _fight(max_hp=5, hp=5)
    t.do(Attack(attacker="aria", target="hag", faces=(15,)))
    events = t.do(RollDamage(attacker="aria", faces=(4,)))
    assert CombatantDowned(combatant="hag", status="dead") in events


def test_an_opportunity_attack_can_be_rolled_in_two_steps_too():
    """'You can make an Opportunity Attack when a creature that you can see leaves your reach'."""
    t = _fight()
    t.do(Move(combatant="aria", feet=5, leaves_reach_of=("hag",)))
    [pending] = of_type(t.do(OpportunityAttack(attacker="hag", target="aria", faces=(15,))), AttackRolled)
    assert pending.opportunity and pending.uses == "reaction" and not t["hag"].economy.reaction
    t.do(RollDamage(attacker="hag", faces=(2,)))
    assert t["aria"].hp == 26


def test_a5e_make_attack_takes_the_same_options():
    t = _fight("a5e")
    events = t.do(MakeAttack(attacker="aria", target="hag", using="bonus_action", faces=(19,), critical_range=19))
    [pending] = of_type(events, AttackRolled)
    assert pending.critical and pending.uses == "bonus_action" and pending.damage_dice == "2d8+3"
    t.do(RollDamage(attacker="aria", faces=(3, 3)))
    assert t["hag"].hp == 73


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(
    d20=st.integers(1, 20),
    damage=st.lists(st.integers(1, 8), min_size=2, max_size=2),
    extra=st.lists(st.integers(1, 6), min_size=4, max_size=4),
    critical_range=st.integers(18, 20),
)
def test_two_steps_end_where_one_step_ends(d20, damage, extra, critical_range):
    """Entering the damage after the hit changes when the faces are entered, never the outcome:
    the hag's HP, Aria's economy and the dice are those of the same attack entered at once."""
    sneak = ExtraDamage(dice="2d6", damage_type="piercing")
    critical = d20 >= critical_range
    main, more = (tuple(damage), tuple(extra)) if critical else (tuple(damage[:1]), tuple(extra[:2]))
    once, twice = _fight(), _fight()
    once.do(
        Attack(
            attacker="aria",
            target="hag",
            faces=(d20,),
            damage_faces=main,
            critical_range=critical_range,
            extra_damage=(msgspec.structs.replace(sneak, faces=more),),
        )
    )
    twice.do(Attack(attacker="aria", target="hag", faces=(d20,), critical_range=critical_range, extra_damage=(sneak,)))
    if pending_damage_of(twice.state):
        twice.do(RollDamage(attacker="aria", faces=main, extra_faces=(more,)))
    assert twice["hag"].hp == once["hag"].hp and twice["aria"].economy == once["aria"].economy
    assert [d.dice for d in of_type(twice.events, DiceRolled)] == [d.dice for d in of_type(once.events, DiceRolled)]
    assert pending_damage_of(twice.state) == ()


def _stored_duel(encounters, ruleset: str):
    """Aria (initiative 18) against a hag (AC 17, 82 HP, initiative 5), kept in a store whose past can change."""
    settings = {"initiative_reorder": False} if ruleset == "srd-2024-variant" else None
    specs = (pc("aria"), monster("hag", max_hp=82, ac=17))
    eid = stored_fight(encounters, "duel", specs, {"aria": 18, "hag": 5}, seed=4, ruleset=ruleset, settings=settings)
    return eid


@pytest.mark.parametrize("ruleset", ["srd-2024", "srd-2024-variant", "a5e"])
def test_a_to_hit_roll_waiting_for_damage_is_checked_again_after_a_change_to_the_past(ruleset, encounters):
    """Undo the Action Surge and the second attack's d20 no longer fits: the action was spent."""
    eid = _stored_duel(encounters, ruleset)
    encounters.execute(eid, Attack(attacker="aria", target="hag", faces=(2,)))
    surge = encounters.execute(eid, GrantAction(combatant="aria", kind="action", reason="Action Surge"))
    second = encounters.execute(eid, Attack(attacker="aria", target="hag", faces=(17,)))
    encounters.retract(eid, [r.seq for r in surge.records], reason="no Action Surge left")
    [conflict] = encounters.state(eid).conflicts
    assert conflict.type == "AttackRolled" and conflict.seq == second.records[-1].seq
    assert conflict.problem == "Aria has already used its action this turn"


@pytest.mark.parametrize("ruleset", ["srd-2024", "srd-2024-variant", "a5e"])
def test_a_hit_amended_to_a_miss_leaves_its_damage_roll_in_the_words_a_damage_roll_is_refused_with(ruleset, encounters):
    """Damage is rolled for an attack that hit. Aria's 17 hit the hag and her damage was rolled
    after it; the GM amends the d20 to a 2, a miss. The damage roll is listed in the very words a
    damage roll of hers is refused with now."""
    eid = _stored_duel(encounters, ruleset)
    swing = encounters.execute(eid, Attack(attacker="aria", target="hag", faces=(17,)))
    damage = encounters.execute(eid, RollDamage(attacker="aria", faces=(6,)))

    encounters.amend(
        eid, [r.seq for r in swing.records], Attack(attacker="aria", target="hag", faces=(2,)), reason="she rolled a 2"
    )

    rolled = next(r.seq for r in damage.records if isinstance(r.event, AttackDamageRolled))
    assert [(c.seq, c.problem) for c in encounters.state(eid).conflicts] == [
        (rolled, "Aria has no attack that hit waiting for its damage")
    ]
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, RollDamage(attacker="aria", faces=(6,)))
    assert (refused.value.code, refused.value.message) == (
        "damage/nothing-pending",
        "Aria has no attack that hit waiting for its damage",
    )


def test_a_stat_block_attacks_extra_damage_waits_with_the_rest_of_its_damage():
    """The Adult Red Dragon's Rend: '1d10 + 8 Slashing damage plus 2d4 Fire damage'. With only
    the d20 entered, roll_damage takes the slashing faces and the fire faces together."""
    t = Table().add(pc("aria", max_hp=120))
    t.do(AddCreature(creature="Adult Red Dragon", side="dragon"))
    t.start({"adult-red-dragon": 20, "aria": 1})
    [pending] = of_type(t.do(Attack(attacker="adult-red-dragon", target="aria", attack="Rend", faces=(10,))), AttackRolled)
    assert [(x.dice, x.damage_type) for x in pending.extra_damage] == [("2d4", "fire")]
    t.rejects(Attack(attacker="adult-red-dragon", target="aria", attack="Rend", faces=(10,)), "attack/damage-pending")
    events = t.do(RollDamage(attacker="adult-red-dragon", faces=(5,), extra_faces=((2, 3),)))
    assert [(d.amount, d.damage_type) for d in of_type(events, DamageTaken)] == [(5, "fire")]
    assert t["aria"].hp == 120 - 13 - 5


def test_a_legendary_pounce_can_be_rolled_in_two_steps_with_its_fire():
    """A legendary action's attack (the dragon's Pounce makes one Rend) waits for its damage too."""
    t = Table().add(pc("aria", max_hp=120), pc("bram", max_hp=60))
    t.do(AddCreature(creature="Adult Red Dragon", side="dragon"))
    t.start({"aria": 20, "adult-red-dragon": 10, "bram": 5})
    while t.state.turn != "aria":
        t.do(EndTurn(combatant=t.state.turn))
    t.do(EndTurn(combatant="aria"))  # right after Aria's turn, before Bram acts, the dragon may act
    [pending] = of_type(
        t.do(LegendaryAction(combatant="adult-red-dragon", action="Pounce", target="aria", faces=(10,))), AttackRolled
    )
    assert pending.uses == "none" and [x.damage_type for x in pending.extra_damage] == ["fire"]
    t.do(RollDamage(attacker="adult-red-dragon", faces=(1,), extra_faces=((1, 1),)))
    assert t["aria"].hp == 120 - 9 - 2
