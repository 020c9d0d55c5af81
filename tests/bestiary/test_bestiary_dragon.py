"""An Adult Red Dragon from the SRD 5.2 bestiary plays by its stat block.

Rend: "Melee Attack Roll: +14, reach 10 ft. 13 (1d10 + 8) Slashing damage plus 5 (2d4) Fire damage."
Multiattack: "The dragon makes three Rend attacks."
Fire Breath (Recharge 5-6): "at the start of each of the monster's turns, roll 1d6, and on one of
those numbers it regains the use."
Legendary actions: "taken immediately after another creature's turn, one at a time, and all spent
uses are regained at the start of the monster's own turn" (3 uses).
Legendary Resistance (3/Day): "If the dragon fails a saving throw, it can choose to succeed instead."
"""

import pytest

from combat.common.commands import SavingThrow
from combat.common.events import DamageTaken, SaveMade
from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.fivee.initiative import RollInitiative
from combat.fivee.legendary import LegendaryAction, LegendaryActionUsed
from combat.fivee.legendary_resistance import LegendaryResistanceUsed, UseLegendaryResistance
from combat.fivee.monster_actions import MonsterAction, Multiattack, Recharge, RechargeChecked
from combat.fivee.monster_uses import UseSpent
from combat.fivee.monsters import AddCreature, sheet
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn
from combat.rulesets.srd2024_variant.reorder import EndReorder, PassSwap
from tests.helpers import Table, of_type, pc

RULESETS = ("srd-2024", "srd-2024-variant", "a5e")


def _lair(ruleset: str = "srd-2024") -> Table:
    """Aria (20), the dragon (1 + 12 = 13), Bram (5): the dragon acts between them."""
    t = Table(ruleset).add(pc("aria", max_hp=120, ac=15), pc("bram", max_hp=120))
    t.do(AddCreature(creature="Adult Red Dragon", side="dragon"))
    t.start({"aria": 20, "adult-red-dragon": 1, "bram": 5})
    if ruleset == "srd-2024-variant":
        for player in ("aria", "bram"):  # nobody asks to swap places
            t.do(PassSwap(combatant=player))
        t.do(EndReorder())
    return t


def _dragon(t: Table):
    return sheet(t.state, "adult-red-dragon")


def test_rend_takes_its_to_hit_and_damage_from_the_block_and_fire_as_its_own_damage():
    """+14 to hit; 1d10 + 8 Slashing plus 2d4 Fire, each damage type taken on its own."""
    t = _lair()
    t.do(EndTurn(combatant="aria"))
    events = t.do(
        Attack(
            attacker="adult-red-dragon",
            target="aria",
            attack="rend",
            faces=(1 + 0 + 10,),
            damage_faces=(5,),
            extra_damage_faces=(2, 3),
        )
    )
    [made] = of_type(events, AttackMade)
    assert (made.total, made.damage, made.damage_type) == (25, 13, "slashing")
    [fire] = of_type(events, DamageTaken)
    assert (fire.amount, fire.damage_type) == (5, "fire")
    assert t["aria"].hp == 120 - 18


def test_a_fire_immune_target_takes_the_slashing_but_not_the_fire():
    """Immunity applies to the extra damage's own type."""
    t = Table().add(pc("aria", max_hp=120, immunities=("fire",)))
    t.do(AddCreature(creature="Adult Red Dragon", side="dragon"))
    t.start({"adult-red-dragon": 20, "aria": 1})
    t.do(
        Attack(
            attacker="adult-red-dragon", target="aria", attack="Rend", faces=(10,), damage_faces=(5,), extra_damage_faces=(4, 4)
        )
    )
    assert t["aria"].hp == 120 - 13


@pytest.mark.parametrize("ruleset", RULESETS)
def test_multiattack_is_one_action_making_three_rend_attacks(ruleset):
    """Multiattack spends the action; three Rend attacks follow, and a fourth is refused."""
    t = _lair(ruleset)
    t.do(EndTurn(combatant="aria"))
    t.do(Multiattack(attacker="adult-red-dragon"))
    assert not t["adult-red-dragon"].economy.action
    for _ in range(3):
        [made] = of_type(t.do(Attack(attacker="adult-red-dragon", target="aria", faces=(1,))), AttackMade)
        assert made.attack == "Rend" and made.uses == "attack" and not made.hit
    t.rejects(Attack(attacker="adult-red-dragon", target="aria", faces=(2,)), "economy/action-spent")


def test_fire_breath_stays_spent_on_a_4_and_comes_back_on_a_5():
    """Recharge 5-6: spent when used; at the start of its turn a 4 leaves it spent, a 5 brings it back."""
    t = _lair()
    t.do(EndTurn(combatant="aria"))
    t.do(MonsterAction(combatant="adult-red-dragon", action="fire breath"))
    assert _dragon(t).spent == ("Fire Breath",)
    t.do(EndTurn(combatant="adult-red-dragon"))
    t.do(EndTurn(combatant="bram"))
    t.do(EndTurn(combatant="aria"))
    # its turn: the recharge roll comes before anything else it does
    t.rejects(Multiattack(attacker="adult-red-dragon"), "recharge/due")
    t.rejects(EndTurn(combatant="adult-red-dragon"), "recharge/due")
    [checked] = of_type(t.do(Recharge(combatant="adult-red-dragon", faces=(4,))), RechargeChecked)
    assert (checked.roll, checked.needed, checked.regained) == (4, 5, False)
    t.rejects(MonsterAction(combatant="adult-red-dragon", action="Fire Breath"), "creature/recharging")
    t.do(EndTurn(combatant="adult-red-dragon"))
    t.do(EndTurn(combatant="bram"))
    t.do(EndTurn(combatant="aria"))
    [checked] = of_type(t.do(Recharge(combatant="adult-red-dragon", faces=(5,))), RechargeChecked)
    assert checked.regained and _dragon(t).spent == ()
    t.do(MonsterAction(combatant="adult-red-dragon", action="Fire Breath"))
    assert t.rebuilt() == t.state


def test_three_legendary_actions_after_other_turns_regained_on_its_own():
    """One at a time after another creature's turn, never on its own; 3 uses, back at its turn."""
    t = _lair()
    t.do(EndTurn(combatant="aria"))
    # its own turn has started: its legendary actions wait for another creature's turn to end
    t.rejects(LegendaryAction(combatant="adult-red-dragon", action="Pounce"), "legendary/not-now")
    t.do(EndTurn(combatant="adult-red-dragon"))
    t.rejects(LegendaryAction(combatant="adult-red-dragon", action="Pounce"), "legendary/not-now")  # its own turn just ended
    t.do(EndTurn(combatant="bram"))
    events = t.do(
        LegendaryAction(
            combatant="adult-red-dragon",
            action="pounce",
            target="aria",
            faces=(10,),
            damage_faces=(1,),
            extra_damage_faces=(1, 1),
        )
    )
    [used] = of_type(events, LegendaryActionUsed)
    assert (used.action, used.after_turn_of, used.cost) == ("Pounce", "bram", 1)
    [made] = of_type(events, AttackMade)
    assert made.attack == "Rend" and made.uses == "none" and made.hit
    t.do(LegendaryAction(combatant="adult-red-dragon", action="Fiery Rays"))
    t.rejects(LegendaryAction(combatant="adult-red-dragon", action="Fiery Rays"), "legendary/once")
    t.do(LegendaryAction(combatant="adult-red-dragon", action="Commanding Presence"))
    assert _dragon(t).legendary_left == 0
    t.rejects(LegendaryAction(combatant="adult-red-dragon", action="Pounce"), "legendary/no-uses-left")
    t.do(EndTurn(combatant="aria"))
    assert _dragon(t).legendary_left == 3 and _dragon(t).legendary_used == ()


def test_the_moment_after_a_turn_ends_when_the_next_creature_acts():
    """'Immediately after another creature's turn': once Aria has moved, it is too late."""
    t = _lair()
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="adult-red-dragon"))
    t.do(EndTurn(combatant="bram"))
    t.do(Move(combatant="aria", feet=5))
    t.rejects(LegendaryAction(combatant="adult-red-dragon", action="Pounce"), "legendary/not-now")


def test_legendary_resistance_turns_a_failed_save_into_a_success_three_times_a_day():
    """Legendary Resistance (3/Day): the GM chooses after the save fails; the fourth failure stands."""
    t = _lair()
    t.rejects(UseLegendaryResistance(combatant="adult-red-dragon"), "legendary/no-failed-save")
    for left in (2, 1, 0):
        [save] = of_type(t.do(SavingThrow(combatant="adult-red-dragon", ability="wisdom", dc=18, bonus=7, faces=(3,))), SaveMade)
        assert not save.success
        [resisted] = of_type(t.do(UseLegendaryResistance(combatant="adult-red-dragon")), LegendaryResistanceUsed)
        assert (resisted.ability, resisted.dc, resisted.left) == ("wisdom", 18, left)
        if left:
            t.rejects(UseLegendaryResistance(combatant="adult-red-dragon"), "legendary/no-failed-save")
    t.do(SavingThrow(combatant="adult-red-dragon", ability="wisdom", dc=18, bonus=7, faces=(3,)))
    t.rejects(UseLegendaryResistance(combatant="adult-red-dragon"), "legendary/no-resistance-left")


def test_in_its_lair_the_dragon_has_four_legendary_resistances():
    """'Legendary Resistance (3/Day, or 4/Day in Lair)'."""
    t = Table()
    t.do(AddCreature(creature="Adult Red Dragon", side="dragon", lair=True))
    assert _dragon(t).resistance_left == 4


def test_per_day_uses_are_spent_and_not_regained():
    """'Web (Recharge 5-6)' aside, a 1/Day action has one use a day."""
    t = Table().add(pc("aria"))
    t.do(
        AddCreature(
            creature={
                "name": "Cave Witch",
                "ac": 12,
                "hp": 30,
                "actions": [{"name": "Curse", "text": "One creature is cursed.", "per_day": 1}],
            },
            side="witch",
        )
    )
    t.start({"cave-witch": 20, "aria": 1})
    t.do(MonsterAction(combatant="cave-witch", action="Curse", target="aria"))
    t.do(EndTurn(combatant="cave-witch"))
    t.do(EndTurn(combatant="aria"))
    t.rejects(MonsterAction(combatant="cave-witch", action="Curse", target="aria"), "creature/no-uses-left")


def test_amending_the_recharge_roll_to_a_4_makes_the_second_breath_a_conflict(encounters):
    """The table finds the recharge d6 showed 4, not 5: Fire Breath never came back, so the
    breath the dragon took after it no longer fits, and is listed as a conflict."""
    eid = encounters.create("srd-2024", "lair", seed=3)
    run = lambda command: encounters.execute(eid, command)  # noqa: E731
    run(AddCombatant(combatant=pc("aria", max_hp=120)))
    run(AddCreature(creature="Adult Red Dragon", side="dragon"))
    run(BeginCombat())
    run(RollInitiative(combatant="adult-red-dragon", faces=(20,)))
    run(RollInitiative(combatant="aria", faces=(1,)))
    run(MonsterAction(combatant="adult-red-dragon", action="Fire Breath"))
    run(EndTurn(combatant="adult-red-dragon"))
    run(EndTurn(combatant="aria"))
    recharged = run(Recharge(combatant="adult-red-dragon", faces=(5,)))
    breath = run(MonsterAction(combatant="adult-red-dragon", action="Fire Breath"))
    encounters.amend(
        eid, [r.seq for r in recharged.records], Recharge(combatant="adult-red-dragon", faces=(4,)), reason="it was a 4"
    )
    state = encounters.state(eid)
    spent_again = next(r.seq for r in breath.records if isinstance(r.event, UseSpent))
    assert any(c.seq == spent_again and "still spent" in c.problem for c in state.conflicts)


def test_retracting_the_dragons_arrival_makes_its_deeds_conflicts_not_a_crash(encounters):
    """Undo the add_creature long after: its breath and recharge roll cannot take effect, and say so."""
    eid = encounters.create("srd-2024", "lair", seed=3)
    run = lambda command: encounters.execute(eid, command)  # noqa: E731
    run(AddCombatant(combatant=pc("aria", max_hp=120)))
    run(AddCombatant(combatant=pc("bram", max_hp=120)))
    arrival = run(AddCreature(creature="Adult Red Dragon", side="dragon"))
    run(BeginCombat())
    run(RollInitiative(combatant="adult-red-dragon", faces=(20,)))
    run(RollInitiative(combatant="aria", faces=(2,)))
    run(RollInitiative(combatant="bram", faces=(1,)))
    run(MonsterAction(combatant="adult-red-dragon", action="Fire Breath"))
    run(EndTurn(combatant="adult-red-dragon"))
    run(EndTurn(combatant="aria"))
    run(LegendaryAction(combatant="adult-red-dragon", action="Fiery Rays"))
    encounters.retract(eid, [r.seq for r in arrival.records], reason="the dragon never came")
    state = encounters.state(eid)
    assert "adult-red-dragon" not in state.combatants
    assert {"MonsterActionUsed", "UseSpent", "LegendaryActionUsed"} <= {c.type for c in state.conflicts}
