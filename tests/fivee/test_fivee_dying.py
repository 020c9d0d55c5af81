"""Dropping to 0 Hit Points, in srd-2024, srd-2024-variant and a5e (SRD 5.2 Rule.json,
"Dropping to 0 Hit Points" and "Knocking out a Creature"; a5e's text is silent on 0 HP and
follows the same rules). Every die is entered."""

import pytest

from combat.common.commands import ApplyCondition, Damage, Heal, RemoveCondition
from combat.common.events import CombatantDowned, DamageTaken
from combat.common.regained_movement import MovementRestored
from combat.fivee.action_commands import Move, TakeAction
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.fivee.attack_events import AttackMade
from combat.fivee.dying import (
    CombatantDied,
    CombatantKnockedOut,
    CombatantStabilized,
    DeathSave,
    DeathSaveFailed,
    TreatAsCharacter,
    dying_of,
)
from combat.fivee.held_open import helps_of
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import BeginCombat, EndTurn
from combat.kernel.events import AttackProfile, CombatEnded, ConditionSpec
from tests.fivee.helpers import fight
from tests.helpers import SHORTBOW, Table, monster, of_type, pc, turn_of

FIVE_E = ("srd-2024", "srd-2024-variant", "a5e")
CLUB = AttackProfile(name="Club", bonus=4, damage="1d4+2", damage_type="bludgeoning")


def party(ruleset: str, **settings) -> Table:
    """Aria (20 HP), Tomas and a bugbear (27 HP); round 1 is under way at Aria's turn."""
    return fight(ruleset, pc("aria"), pc("tomas"), monster("bugbear", max_hp=27, attacks=(CLUB,)), settings=settings)


def downed(t: Table, cid: str = "aria") -> None:
    t.do(Damage(target=cid, amount=t[cid].hp, damage_type="slashing"))


# -- instant death ---------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_monster_dies_at_0_hp_unless_the_gm_treats_it_like_a_character(ruleset):
    """'A monster dies the instant it drops to 0 Hit Points, although a Game Master can ignore
    this rule for an individual monster and treat it like a character.'"""
    t = fight(ruleset, pc("aria"), monster("goblin-1"), monster("goblin-2"), monster("boss"))
    t.do(TreatAsCharacter(combatant="goblin-2", reason="the goblin boss's nephew"))
    t.do(Damage(target="goblin-1", amount=7, damage_type="slashing"))
    events = t.do(Damage(target="goblin-2", amount=7, damage_type="slashing"))
    assert t["goblin-1"].status == "dead"
    assert CombatantDowned(combatant="goblin-2", status="unconscious") in events and t["goblin-2"].has("unconscious")
    turn_of(t, "goblin-2")
    assert dying_of(t.state).owed == ("goblin-2",)
    t.rejects(TreatAsCharacter(combatant="aria"), "treat-as-character/not-monster")


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_massive_damage_kills_when_the_remainder_equals_the_hit_point_maximum(ruleset):
    """'If your character has a Hit Point maximum of 12, currently has 6 Hit Points, and takes
    18 damage, the character drops to 0 Hit Points, but 12 damage remains. The character then
    dies, since 12 equals their Hit Point maximum.'"""
    t = fight(ruleset, pc("aria", max_hp=12, hp=6), pc("tomas", max_hp=12, hp=6), monster("ogre"))
    events = t.do(Damage(target="aria", amount=18, damage_type="bludgeoning"))
    assert of_type(events, CombatantDied)[0].cause.startswith("massive damage: 12 remained")
    assert t["aria"].status == "dead"
    t.do(Damage(target="tomas", amount=17, damage_type="bludgeoning"))  # 11 remain: unconscious
    assert t["tomas"].status == "unconscious"


# -- death saving throws ---------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_death_save_is_owed_at_the_start_of_the_turn_and_the_turn_waits_for_it(ruleset):
    """'Whenever you start your turn with 0 Hit Points, you must make a Death Saving Throw ...
    Roll 1d20. If the roll is 10 or higher, you succeed. Otherwise, you fail.'"""
    t = party(ruleset)
    t.rejects(DeathSave(combatant="aria", faces=(12,)), "death-save/not-owed")
    downed(t)
    turn_of(t, "bugbear")
    t.do(EndTurn(combatant="bugbear"))  # round 2: Aria's turn starts at 0 HP
    assert t.state.turn == "aria" and dying_of(t.state).owed == ("aria",)
    t.rejects(EndTurn(combatant="aria"), "turn/death-save-owed")
    t.do(DeathSave(combatant="aria", faces=(10,)), actor="aria")
    t.rejects(DeathSave(combatant="aria", faces=(10,)), "death-save/not-owed")
    assert dying_of(t.state).tallies["aria"].successes == 1
    t.do(EndTurn(combatant="aria"))
    turn_of(t, "aria")
    t.do(DeathSave(combatant="aria", faces=(9,)))
    assert (dying_of(t.state).tallies["aria"].successes, dying_of(t.state).tallies["aria"].failures) == (1, 1)
    assert t.rebuilt() == t.state


def _saves(t: Table, *faces: int) -> None:
    """Aria's Death Saving Throws, one a turn, with these faces (the fight goes round)."""
    for face in faces:
        turn_of(t, "aria")
        t.do(DeathSave(combatant="aria", faces=(face,)))
        if t.state.turn == "aria":
            t.do(EndTurn(combatant="aria"))


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_three_successes_make_a_character_stable_and_a_stable_character_makes_no_more(ruleset):
    """'On your third success, you become Stable'; 'A Stable creature doesn't make Death Saving
    Throws even though it has 0 Hit Points, but it still has the Unconscious condition.'"""
    t = party(ruleset)
    downed(t)
    t.do(EndTurn(combatant="aria"))
    _saves(t, 10, 3, 15, 19)
    assert dying_of(t.state).tallies["aria"].stable and t["aria"].has("unconscious")
    turn_of(t, "tomas")
    turn_of(t, "aria")
    assert dying_of(t.state).owed == ()
    # "If the creature takes damage, it stops being Stable and starts making Death Saving Throws again."
    events = t.do(Damage(target="aria", amount=1, damage_type="fire"))
    assert DeathSaveFailed(combatant="aria", failures=1, cause="damage") in events
    assert not dying_of(t.state).tallies["aria"].stable


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_1_is_two_failures_and_the_third_failure_kills(ruleset):
    """'When you roll a 1 on the d20 for a Death Saving Throw, you suffer two failures.'
    'On your third failure, you die.'"""
    t = party(ruleset)
    downed(t)
    t.do(EndTurn(combatant="aria"))
    _saves(t, 1)
    assert dying_of(t.state).tallies["aria"].failures == 2
    turn_of(t, "aria")
    events = t.do(DeathSave(combatant="aria", faces=(5,)))
    assert CombatantDied(combatant="aria", cause="three failed Death Saving Throws") in events
    assert t["aria"].status == "dead" and t.state.turn == "aria"
    t.do(EndTurn(combatant="aria"))
    t.rejects(Heal(target="aria", amount=5), "target/dead")


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_20_regains_1_hp_and_the_character_rises_prone_with_its_speed_for_the_turn(ruleset):
    """'If you roll a 20 on the d20, you regain 1 Hit Point.' Unconscious: 'When this condition
    ends, you remain Prone.' Revived during its own turn, it moves at its Speed for the rest of it."""
    t = party(ruleset)
    downed(t)
    t.do(EndTurn(combatant="aria"))
    turn_of(t, "aria")
    assert t["aria"].economy.movement == 0  # 'Speed 0' while Unconscious
    events = t.do(DeathSave(combatant="aria", faces=(20,)))
    assert t["aria"].status == "active" and t["aria"].hp == 1 and t["aria"].has("prone")
    assert MovementRestored(combatant="aria", feet=30) in events
    assert "aria" not in dying_of(t.state).tallies and t["aria"].economy.movement == 30
    assert t.rebuilt() == t.state


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_healing_resets_both_tallies(ruleset):
    """'The number of both is reset to zero when you regain any Hit Points or become Stable.'"""
    t = party(ruleset)
    downed(t)
    t.do(EndTurn(combatant="aria"))
    _saves(t, 12, 4)
    t.do(Heal(target="aria", amount=3, source="tomas"))
    assert "aria" not in dying_of(t.state).tallies and t["aria"].status == "active"
    downed(t)
    turn_of(t, "aria")
    t.do(DeathSave(combatant="aria", faces=(4,)))
    assert (dying_of(t.state).tallies["aria"].successes, dying_of(t.state).tallies["aria"].failures) == (0, 1)


# -- damage at 0 HP --------------------------------------------------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_damage_at_0_hp_is_a_failure_and_a_critical_hit_two(ruleset):
    """'If you take any damage while you have 0 Hit Points, you suffer a Death Saving Throw
    failure. If the damage is from a Critical Hit, you suffer two failures instead.'
    Unconscious: 'Any attack roll that hits you is a Critical Hit if the attacker is within 5 feet.'"""
    t = party(ruleset)
    downed(t)
    events = t.do(Damage(target="aria", amount=3, damage_type="fire"))
    assert DeathSaveFailed(combatant="aria", failures=1, cause="damage") in events
    turn_of(t, "bugbear")
    events = t.do(Attack(attacker="bugbear", target="aria", faces=(15, 15), damage_faces=(1, 1)))
    assert of_type(events, AttackMade)[0].critical
    assert CombatantDied(combatant="aria", cause="three failed Death Saving Throws") in events
    assert DeathSaveFailed(combatant="aria", failures=2, cause="damage from a Critical Hit") in events


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_damage_at_0_hp_equal_to_the_hit_point_maximum_kills(ruleset):
    """'If the damage equals or exceeds your Hit Point maximum, you die.'"""
    t = party(ruleset)
    downed(t)
    t.do(Damage(target="aria", amount=19, damage_type="fire"))
    assert t["aria"].status == "unconscious"
    events = t.do(Damage(target="aria", amount=20, damage_type="fire"))
    assert of_type(events, CombatantDied)[0].cause == "20 damage at 0 HP, Hit Point maximum 20"


# -- stabilising and knocking out -------------------------------------------------------------


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_the_help_action_stabilises_a_dying_ally_on_a_dc_10_medicine_check(ruleset):
    """'You can take the Help action to try to stabilize a creature with 0 Hit Points, which
    requires a successful DC 10 Wisdom (Medicine) check.'"""
    t = party(ruleset)
    t.do(EndTurn(combatant="aria"))
    downed(t)
    t.do(TakeAction(combatant="tomas", action="help", target="aria", bonus=2, faces=(7,)))  # 9: fails
    assert not dying_of(t.state).tallies.get("aria")
    t.do(EndTurn(combatant="tomas"))
    turn_of(t, "aria")
    t.do(DeathSave(combatant="aria", faces=(12,)))
    turn_of(t, "tomas")
    events = t.do(TakeAction(combatant="tomas", action="help", target="aria", bonus=2, faces=(8,)))  # 10
    assert of_type(events, CombatantStabilized)
    assert dying_of(t.state).tallies["aria"].stable and helps_of(t.state) == ()
    t.do(EndTurn(combatant="tomas"))
    turn_of(t, "tomas")  # Aria's turn passes with no save owed: she is Stable
    t.rejects(TakeAction(combatant="tomas", action="help", target="aria", faces=(8,)), "help/target")


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_a_melee_attack_may_knock_a_creature_out_instead(ruleset):
    """'When you would reduce a creature to 0 Hit Points with a melee attack, you can instead
    reduce the creature to 1 Hit Point and give it the Unconscious condition.' 'The condition
    ends early if the creature regains any Hit Points or if someone takes an action to
    administer first aid to it, making a successful DC 10 Wisdom (Medicine) check.'"""
    t = fight(ruleset, pc("aria", attacks=(SHORTBOW, CLUB)), pc("tomas"), monster("thug", max_hp=5), monster("guard", max_hp=5))
    t.rejects(
        Attack(attacker="aria", target="thug", attack="Shortbow", knock_out=True, faces=(15,), damage_faces=(6,)),
        "attack/knock-out-ranged",
    )
    events = t.do(Attack(attacker="aria", target="thug", attack="Club", knock_out=True, faces=(15,), damage_faces=(4,)))
    assert CombatantKnockedOut(combatant="thug", by="aria") in events
    assert t["thug"].hp == 1 and t["thug"].status == "unconscious" and t["thug"].has("unconscious")
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="tomas"))
    # The thug's turn passes with no Death Saving Throw: it has 1 HP.
    assert t.state.turn == "thug" and dying_of(t.state).owed == ()
    t.do(EndTurn(combatant="thug"))
    t.do(TakeAction(combatant="guard", action="help", target="thug", bonus=1, faces=(9,)))
    assert t["thug"].status == "active" and t["thug"].has("prone") and not t["thug"].has("unconscious")


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_an_encounter_recorded_before_death_saves_keeps_its_reading(ruleset):
    """Logs from before the `death_saves` setting: a character stays unconscious until healed,
    owes no Death Saving Throw, and rises without Prone, as those logs were played."""
    t = party(ruleset, death_saves=False)
    downed(t)
    t.do(EndTurn(combatant="aria"))
    turn_of(t, "aria")
    assert dying_of(t.state).owed == ()
    t.do(Damage(target="aria", amount=25, damage_type="fire"))
    assert t["aria"].status == "unconscious"
    t.do(Heal(target="aria", amount=4))
    assert t["aria"].status == "active" and not t["aria"].has("prone")


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_freed_from_a_grapple_during_its_own_turn_a_creature_moves_at_its_speed(ruleset):
    """Grappled: 'Your Speed is 0 and can't increase.' Freed during its own turn, the creature
    moves at its Speed for the rest of that turn (today's turn granted it 0 ft at its start)."""
    t = party(ruleset)
    t.do(ApplyCondition(target="tomas", condition=ConditionSpec(name="grappled", source="bugbear")))
    t.do(EndTurn(combatant="aria"))
    assert t["tomas"].economy.movement == 0
    t.rejects(Move(combatant="tomas", feet=5), "economy/movement")
    events = t.do(RemoveCondition(target="tomas", condition="grappled", reason="escaped the bugbear's grip"))
    assert of_type(events, MovementRestored) == [MovementRestored(combatant="tomas", feet=30, reason="no longer grappled")]
    t.do(Move(combatant="tomas", feet=30))


def test_a_monster_treated_like_a_character_is_defeated_when_it_falls_unconscious():
    """'Combat ends when one side or the other is defeated': the bugbear at 0 HP, Unconscious
    instead of dead, is no longer standing."""
    t = fight("srd-2024", pc("aria"), monster("bugbear", max_hp=27, attacks=(CLUB,)))
    t.do(TreatAsCharacter(combatant="bugbear"))
    downed(t, "bugbear")
    assert t["bugbear"].status == "unconscious" and t.state.phase == "ended" and of_type(t.events, CombatEnded)


def test_in_the_variant_a_creature_that_escapes_a_grapple_on_its_turn_moves_at_its_speed():
    """Grappled: 'Your Speed is 0 and can't increase'; once the escape succeeds, its turn's
    movement is its Speed."""
    from combat.rulesets.srd2024_variant.traits import NoteTraits
    from combat.rulesets.srd2024_variant.unarmed import EscapeGrapple, UnarmedStrike

    t = fight("srd-2024-variant", monster("bugbear", max_hp=27, attacks=(CLUB,)), pc("aria"), pc("tomas"))
    t.do(NoteTraits(combatant="bugbear", strength=2, proficiency=2))
    t.do(UnarmedStrike(attacker="bugbear", target="aria", option="grapple", faces=(3,)))
    assert t["aria"].has("grappled")
    t.do(EndTurn(combatant="bugbear"))
    assert t["aria"].economy.movement == 0
    events = t.do(EscapeGrapple(combatant="aria", skill="athletics", bonus=5, faces=(18,)))
    assert of_type(events, MovementRestored)[0].feet == 30
    t.do(Move(combatant="aria", feet=30))


def test_a_death_save_no_longer_owed_after_an_undo_is_a_conflict(encounters):
    """After a change to the past, a Death Saving Throw that was owed only because of damage
    now undone no longer fits the rules: the history reports it."""
    from combat.kernel.commands import AddCombatant

    eid = encounters.create("srd-2024", "undo", seed=1)
    for spec in (pc("aria"), pc("tomas"), monster("bugbear", max_hp=27, attacks=(CLUB,))):
        encounters.execute(eid, AddCombatant(combatant=spec))
    encounters.execute(eid, BeginCombat())
    for i, cid in enumerate(("aria", "tomas", "bugbear")):
        encounters.execute(eid, RollInitiative(combatant=cid, faces=(20 - i,)))
    encounters.execute(eid, Damage(target="aria", amount=20, damage_type="slashing"))
    for cid in ("aria", "tomas", "bugbear"):
        encounters.execute(eid, EndTurn(combatant=cid))
    encounters.execute(eid, DeathSave(combatant="aria", faces=(12,)))
    seq = next(r.seq for r in encounters.records(eid) if isinstance(r.event, DamageTaken))
    outcome = encounters.amend(eid, [seq], Damage(target="aria", amount=5, damage_type="slashing"), reason="it was 5")
    assert [c.type for c in outcome.state.conflicts] == ["DeathSaveOwed"]


def test_a_stat_block_hit_with_extra_damage_that_drops_a_character_is_one_blow():
    """Rend: '13 (1d10 + 8) Slashing damage plus 5 (2d4) Fire damage' is one hit: the Fire that
    follows the Slashing that dropped Aria to 0 HP is part of that damage, not a Death Saving
    Throw failure ('If you take any damage while you have 0 Hit Points')."""
    from combat.fivee.monster_actions import Multiattack
    from combat.fivee.monsters import AddCreature

    t = Table().add(pc("aria", max_hp=40, hp=10), pc("bram", max_hp=120))
    t.do(AddCreature(creature="Adult Red Dragon", side="dragon"))
    t.start({"adult-red-dragon": 20, "aria": 1, "bram": 2})
    t.do(Multiattack(attacker="adult-red-dragon"))
    t.do(
        Attack(
            attacker="adult-red-dragon", target="aria", attack="Rend", faces=(10,), damage_faces=(5,), extra_damage_faces=(2, 3)
        )
    )
    assert t["aria"].status == "unconscious" and "aria" not in dying_of(t.state).tallies
    # At 0 HP: Advantage, and a Critical Hit from within 5 feet: two failures for the whole blow.
    t.do(
        Attack(
            attacker="adult-red-dragon",
            target="aria",
            attack="Rend",
            faces=(10, 10),
            damage_faces=(1, 1),
            extra_damage_faces=(1, 1, 1, 1),
        )
    )
    assert dying_of(t.state).tallies["aria"].failures == 2 and t["aria"].status == "unconscious"


def _aria_at_4_hp_before_a_dragon(ruleset: str, initiative: dict[str, int]) -> Table:
    """Aria (4 of 10 HP) and Bram against an Adult Red Dragon, initiative rolled with these faces."""
    from combat.fivee.monsters import AddCreature

    t = Table.as_rolled(ruleset)
    t.add(pc("aria", max_hp=10, hp=4), pc("bram", max_hp=120))
    t.do(AddCreature(creature="Adult Red Dragon", side="dragon"))
    return t.start(initiative)


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_massive_damage_counts_a_stat_blocks_extra_damage_with_the_rest_of_the_hit(ruleset):
    """Instant Death, 'Massive Damage. When damage reduces a character to 0 Hit Points and
    damage remains, the character dies if the remainder equals or exceeds their Hit Point
    maximum.' Rend, '13 (1d10 + 8) Slashing damage plus 5 (2d4) Fire damage', is one hit:
    Aria (4 of 10 HP) takes 13 + 5; 14 remains, so she dies, where the Slashing alone
    (9 remaining) would only have dropped her."""
    t = _aria_at_4_hp_before_a_dragon(ruleset, {"adult-red-dragon": 20, "aria": 1, "bram": 2})
    turn_of(t, "adult-red-dragon")
    events = t.do(
        Attack(
            attacker="adult-red-dragon", target="aria", attack="Rend", faces=(10,), damage_faces=(5,), extra_damage_faces=(2, 3)
        )
    )
    [died] = of_type(events, CombatantDied)
    assert died.cause == "massive damage: 14 remained, Hit Point maximum 10"
    assert t["aria"].status == "dead" and not of_type(events, CombatantDowned)
    assert [d.amount for d in of_type(events, DamageTaken)] == [5]  # the Fire, after the Slashing's AttackMade


@pytest.mark.parametrize("ruleset", FIVE_E)
def test_an_opportunity_attack_from_a_stat_block_lands_its_extra_damage_as_one_blow(ruleset):
    """The same Rend made as an Opportunity Attack: its Fire is part of the hit, judged with it."""
    t = _aria_at_4_hp_before_a_dragon(ruleset, {"aria": 20, "adult-red-dragon": 2, "bram": 1})
    turn_of(t, "aria")
    t.do(Move(combatant="aria", feet=5, leaves_reach_of=("adult-red-dragon",)))
    events = t.do(
        OpportunityAttack(
            attacker="adult-red-dragon", target="aria", attack="Rend", faces=(10,), damage_faces=(5,), extra_damage_faces=(2, 3)
        )
    )
    assert of_type(events, CombatantDied)[0].cause == "massive damage: 14 remained, Hit Point maximum 10"
