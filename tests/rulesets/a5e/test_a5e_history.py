"""a5e at a table that argues: undo, redo, amended rulings, and what no longer fits afterwards."""

from __future__ import annotations

import random
import tempfile
from pathlib import Path

import pytest

from combat.app.application import Encounters
from combat.app.history import replay
from combat.common.commands import ConcentrationSave, Damage, EndConcentration, StartConcentration
from combat.common.events import ConcentrationChecked, ConcentrationCheckRequired, DamageTaken
from combat.demos import get_demo
from combat.fivee.action_commands import Move
from combat.fivee.action_events import Moved
from combat.fivee.attack_events import AttackMade
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn
from combat.kernel.errors import RuleError
from combat.kernel.events import CombatantAdded, ConflictOverridden, EventsRetracted, RulingAmended, TurnEnded
from combat.rulesets import get_ruleset
from combat.rulesets.a5e.attacks import MakeAttack
from combat.rulesets.a5e.consistency import CHECKS
from combat.rulesets.a5e.initiative import RollOff, SurpriseCheckReused, TieRolledOff
from combat.rulesets.a5e.maneuvers import FallBack, FellBack, PressTheAttack
from combat.rulesets.a5e.rounds import EndWorldStep
from combat.rulesets.a5e.scene import SetScene
from combat.rulesets.a5e.sprint import Sprint
from combat.rulesets.a5e.surprise import SurpriseCheck, SurpriseCheckMade
from combat.rulesets.a5e.world_actions import (
    RechargeRolled,
    RollRecharge,
    UseWorldAction,
    WorldActionUsed,
    WorldTarget,
)
from tests.helpers import monster, pc

BURST = "Flame Burst"


def _mill(encounters: Encounters, environment: str | None = "fiery", goblin: dict | None = None):
    """Aria (initiative 15, 20 HP) and a goblin (initiative 5, 12 HP) in a burning mill whose
    recharge rolls wait for the start of the next round."""
    eid = encounters.create("a5e", "history", seed=7, settings={"recharge_roll_after_use": False})
    encounters.execute(eid, AddCombatant(combatant=pc("aria")))
    encounters.execute(eid, AddCombatant(combatant=monster("goblin", max_hp=12, **(goblin or {}))))
    if environment:
        encounters.execute(eid, SetScene(environment=environment))
    encounters.execute(eid, BeginCombat())
    encounters.execute(eid, RollInitiative(combatant="aria", faces=(15,)))
    encounters.execute(eid, RollInitiative(combatant="goblin", faces=(5,)))
    return eid


def _burst(cid: str, save: int, damage: int) -> UseWorldAction:
    return UseWorldAction(action=BURST, targets=(WorldTarget(combatant=cid, faces=(save,)),), damage_faces=(damage,))


def _seqs(outcome, kind=None) -> list[int]:
    return [r.seq for r in outcome.records if kind is None or isinstance(r.event, kind)]


def _to_next_round(encounters: Encounters, eid) -> None:
    encounters.execute(eid, EndWorldStep())
    encounters.execute(eid, EndTurn(combatant="aria"))
    encounters.execute(eid, EndTurn(combatant="goblin"))


def test_an_undone_flame_burst_gives_back_the_hp_and_the_world_action_and_undoing_the_undo_brings_it_back(encounters):
    """'Within Turn-Based Action, the world gets its own turn': taking the world's turn back
    gives back its world action as well as the damage it did."""
    eid = _mill(encounters)
    before = encounters.state(eid)
    burst = encounters.execute(eid, _burst("aria", save=3, damage=8))
    burnt = encounters.state(eid)
    assert burnt.combatants["aria"].hp == 12 and BURST in burnt.rules.spent

    undo = encounters.undo_last(eid, reason="Aria is at the door, out of reach of the burning bins")

    state = encounters.state(eid)
    assert state.combatants == before.combatants and state.rules == before.rules and state.rolls == before.rolls
    assert state.retracted == tuple(_seqs(burst)) and state.conflicts == ()
    assert isinstance(undo.records[0].event, EventsRetracted)

    encounters.undo_last(eid, reason="she was by the bins after all")
    state = encounters.state(eid)
    assert state.combatants == burnt.combatants and state.rules == burnt.rules and state.rolls == burnt.rolls


def test_an_undone_press_the_attack_gives_back_the_bonus_action_and_a_fall_back_against_it_no_longer_fits(encounters):
    """'When you Press the Attack, your target can use its reaction to Fall Back': with the
    press taken back, the goblin had nothing to fall back from."""
    eid = _mill(encounters, environment=None)
    press = encounters.execute(eid, PressTheAttack(combatant="aria", target="goblin"))
    fell = encounters.execute(eid, FallBack(combatant="goblin"))
    [fell_seq] = _seqs(fell, FellBack)

    encounters.retract(eid, _seqs(press), reason="the goblin was 15 ft away, out of Aria's reach")

    state = encounters.state(eid)
    assert state.combatants["aria"].economy.bonus_action and state.rules.presses == ()
    assert not state.combatants["goblin"].economy.reaction  # a conflict is listed, never rewritten
    assert [(c.seq, c.type, c.problem) for c in state.conflicts] == [
        (fell_seq, "FellBack", "no one is pressing the attack against Goblin")
    ]
    # One predicate says it: the Fall Back the goblin would send now is refused in the same words.
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, FallBack(combatant="goblin"))
    assert (refused.value.code, refused.value.message) == ("fall-back/not-pressed", state.conflicts[0].problem)

    encounters.retract(eid, [fell_seq], reason="no press, no falling back")
    state = encounters.state(eid)
    assert state.conflicts == () and state.combatants["goblin"].economy.reaction


def test_an_amended_recharge_roll_leaves_the_burst_that_followed_in_conflict_until_the_narrator_lets_it_stand(encounters):
    """'On a result equal to or greater than the listed number, the environment regains its
    world action.' The 5 that regained Flame Burst (Recharge 4-6) is amended to a 2: the burst
    used right after it was still spent."""
    eid = _mill(encounters)
    encounters.execute(eid, _burst("aria", save=3, damage=8))
    _to_next_round(encounters, eid)
    recharge = encounters.execute(eid, RollRecharge(action=BURST, faces=(5,)))
    assert recharge.records[-1].event.regained
    second = encounters.execute(eid, _burst("goblin", save=2, damage=4))
    [used_seq] = _seqs(second, WorldActionUsed)

    amended = encounters.amend(
        eid,
        _seqs(recharge, RechargeRolled),
        RollRecharge(action=BURST, faces=(2,)),
        reason="the recharge die landed cocked against a tankard",
    )

    state = encounters.state(eid)
    corrected = [r.event for r in amended.records if isinstance(r.event, RechargeRolled)]
    assert isinstance(amended.records[0].event, RulingAmended) and not corrected[0].regained
    assert state.combatants["goblin"].hp == 8  # what happened at the table is not rewritten
    [conflict] = state.conflicts
    assert (conflict.seq, conflict.type) == (used_seq, "WorldActionUsed")
    assert conflict.problem == "Flame Burst is spent until a recharge roll of 4 or more regains it"
    assert conflict.caused_by == (amended.records[0].seq,)

    override = encounters.override(eid, [used_seq], ruling="the flames had already leapt: the burst stands")
    assert isinstance(override.records[0].event, ConflictOverridden) and encounters.state(eid).conflicts == ()


def _ambush(encounters: Encounters):
    """The goblin sneaks (Stealth 12); Aria's Perception +3 rolls 11 for 14 and spots it. Both
    checks are kept as initiative; Aria swings first and ends her turn."""
    eid = encounters.create("a5e", "ambush", seed=7)
    encounters.execute(eid, AddCombatant(combatant=pc("aria")))
    encounters.execute(eid, AddCombatant(combatant=monster("goblin", max_hp=12)))
    encounters.execute(eid, BeginCombat())
    encounters.execute(eid, SurpriseCheck(combatant="goblin", check="dexterity (stealth)", bonus=2, faces=(10,)))
    spotted = encounters.execute(eid, SurpriseCheck(combatant="aria", bonus=3, dc=12, faces=(11,)))
    rolled = encounters.execute(eid, RollInitiative())
    [reused] = [r.seq for r in rolled.records if isinstance(r.event, SurpriseCheckReused) and r.event.combatants == ("aria",)]
    attack = encounters.execute(eid, MakeAttack(attacker="aria", target="goblin", faces=(15,), damage_faces=(5,)))
    ended = encounters.execute(eid, EndTurn(combatant="aria"))
    assert encounters.state(eid).combatants["goblin"].hp == 4
    return eid, _seqs(spotted, SurpriseCheckMade)[0], reused, _seqs(attack), _seqs(ended, TurnEnded)[0]


def test_an_amended_perception_check_makes_aria_surprised_and_lists_what_she_could_not_have_done(encounters):
    """'Surprised creatures are unable to move or take an action on their first turn' and 'If
    any creatures have already made an ability check during the surprise step, they use that
    existing score for initiative.' Aria's Perception was +0, not +3: her 11 misses the
    goblin's 12."""
    eid, spotted, reused, attack, turn_ended = _ambush(encounters)

    encounters.amend(
        eid,
        [spotted],
        SurpriseCheck(combatant="aria", bonus=0, dc=12, faces=(11,)),
        reason="Aria's Perception is +0; the +3 was her Insight",
    )

    state = encounters.state(eid)
    assert state.combatants["aria"].surprised
    attack_made = next(seq for seq in attack if seq in {c.seq for c in state.conflicts})
    assert [(c.seq, c.problem) for c in state.conflicts] == [
        (reused, "Aria's surprise-step wisdom (perception) check is 11 now, not 14"),
        (attack_made, "Aria was surprised and could not take an action on its first turn"),
        (turn_ended, "Aria was surprised, but the end of its first turn did not end the surprise"),
    ]


def test_the_narrator_resolves_the_surprise_conflicts_by_retraction_amendment_and_ruling(encounters):
    """Aria's swing is taken back, her first end_turn is decided again (now ending her
    surprise), and the initiative order as played stands by ruling."""
    eid, spotted, reused, attack, turn_ended = _ambush(encounters)
    encounters.amend(
        eid, [spotted], SurpriseCheck(combatant="aria", bonus=0, dc=12, faces=(11,)), reason="Aria's Perception is +0"
    )

    encounters.retract(eid, attack, reason="surprised, Aria could not swing")
    encounters.amend(eid, [turn_ended], EndTurn(combatant="aria"), reason="her first turn is over: so is her surprise")
    assert [c.seq for c in encounters.state(eid).conflicts] == [reused]
    encounters.override(eid, [reused], ruling="the order stands as played")

    state = encounters.state(eid)
    assert state.conflicts == () and not state.combatants["aria"].surprised
    assert state.combatants["goblin"].hp == 12 and state.turn == "goblin"
    assert state == replay(list(encounters.records(eid)))


def test_an_amended_stat_block_with_fire_resistance_makes_the_full_fire_damage_a_conflict(encounters):
    """Resistance halves damage: once the Narrator amends the goblin's stat block to resist
    fire, the 6 fire damage the burst did from a roll of 6 should have been 3."""
    eid = _mill(encounters)
    added = next(
        r.seq for r in encounters.records(eid) if isinstance(r.event, CombatantAdded) and r.event.combatant.id == "goblin"
    )
    burst = encounters.execute(eid, _burst("goblin", save=2, damage=6))
    [damage] = _seqs(burst, DamageTaken)

    encounters.amend(
        eid,
        [added],
        AddCombatant(combatant=monster("goblin", max_hp=12, resistances=("fire",))),
        reason="the stat block says the mill goblin resists fire",
    )

    state = encounters.state(eid)
    assert [(c.seq, c.problem) for c in state.conflicts] == [(damage, "Goblin would take 3 fire from 6, not 6")]


def test_a_retracted_sprint_makes_the_long_run_that_followed_a_conflict(encounters):
    """'If you are unencumbered, your Speed is quadrupled for one turn': without the Sprint,
    Aria's 100 ft run is 70 ft more than her Speed of 30."""
    eid = _mill(encounters, environment=None)
    sprint = encounters.execute(eid, Sprint(combatant="aria", con_modifier=2))
    run = encounters.execute(eid, Move(combatant="aria", feet=100))

    encounters.retract(eid, _seqs(sprint), reason="Aria was wearing heavy armour: the Narrator takes the sprint back")

    state = encounters.state(eid)
    assert [(c.seq, c.problem) for c in state.conflicts] == [
        (_seqs(run, Moved)[0], "Aria has 30 ft of walk movement left, not 100")
    ]
    assert state.combatants["aria"].economy.action  # the Sprint's action came back


def test_the_a5e_ruleset_checks_its_own_events_and_the_shared_ones():
    ruleset = get_ruleset("a5e")
    assert all(ruleset.checks[kind] is check for kind, check in CHECKS.items())  # and the stat block checks
    assert {WorldActionUsed, RechargeRolled, FellBack, SurpriseCheckReused, AttackMade, Moved} <= set(CHECKS)


# -- the demo: the table argues, and any event undone and redone changes nothing --------------

_TMP = tempfile.TemporaryDirectory()
_DEMO: dict[int, tuple[Path, object]] = {}


def _demo(seed: int):
    if seed not in _DEMO:
        db = Path(_TMP.name) / f"mill-{seed}.db"
        encounters = Encounters(db)
        eid = get_demo("a5e")(encounters, seed=seed, report=lambda outcome: None)
        encounters.close()
        _DEMO[seed] = (db, eid)
    return _DEMO[seed]


def test_the_demo_table_takes_back_a_burst_amends_a_recharge_roll_and_lets_the_conflicting_burst_stand():
    db, eid = _demo(1)
    encounters = Encounters(db)
    try:
        records = list(encounters.records(eid))
        state = encounters.state(eid)
    finally:
        encounters.close()
    kinds = [type(r.event) for r in records if isinstance(r.event, (EventsRetracted, RulingAmended, ConflictOverridden))]
    assert kinds == [EventsRetracted, RulingAmended, ConflictOverridden]
    assert state.phase == "ended" and state.conflicts == ()
    [override] = [r.event for r in records if isinstance(r.event, ConflictOverridden)]
    unresolved = replay([r for r in records if not isinstance(r.event, ConflictOverridden)]).conflicts
    assert [(c.seq, c.type, c.problem) for c in unresolved] == [
        (override.seqs[0], "WorldActionUsed", "Flame Burst is spent until a recharge roll of 4 or more regains it")
    ]


@pytest.mark.parametrize("seed", [1, 2])
def test_undoing_any_demo_command_and_then_the_undo_gives_back_the_same_fight(tmp_path, seed):
    db, eid = _demo(seed)
    copy = tmp_path / "copy.db"
    copy.write_bytes(db.read_bytes())
    encounters = Encounters(copy)
    try:
        before = encounters.state(eid)
        records = list(encounters.records(eid))
        history = (EventsRetracted, RulingAmended, ConflictOverridden)
        changes = {r.command_id for r in records if isinstance(r.event, history)}
        standing = [r for r in records if r.seq > 1 and r.seq not in before.retracted and r.command_id not in changes]
        commands = sorted({r.command_id: r.seq for r in reversed(standing)}.values())
        for first in random.Random(seed).sample(commands, 6):
            command = records[first - 1].command_id
            undo = encounters.retract(eid, [r.seq for r in standing if r.command_id == command], reason="the table argues")
            assert replay(list(encounters.records(eid))) == undo.state  # checks never fail to answer
            after = encounters.retract(eid, [undo.records[0].seq], reason="it stands after all").state
            assert after.combatants == before.combatants and after.rules == before.rules
            assert (after.phase, after.round, after.turn, after.rolls) == (before.phase, before.round, before.turn, before.rolls)
            assert after.conflicts == before.conflicts
    finally:
        encounters.close()


# -- the check after a changed past says what the guard says ---------------------------------


def test_a_tie_amended_away_leaves_the_roll_off_in_the_words_a_roll_off_is_refused_with(encounters):
    """'If there is a tie, the tied participants each roll a d20 to determine the order amongst
    themselves.' Aria and the goblin both had 14 and rolled off; the Narrator amends the goblin's
    roll to 12. The roll-off is listed; once it (and the wolf's roll after it) is taken back, a
    roll-off at 14 is refused in the same words."""
    eid = encounters.create("a5e", "history", seed=7)
    for spec in (pc("aria"), monster("goblin"), monster("wolf")):
        encounters.execute(eid, AddCombatant(combatant=spec))
    encounters.execute(eid, BeginCombat())
    encounters.execute(eid, RollInitiative(combatant="aria", faces=(14,)))
    goblin = encounters.execute(eid, RollInitiative(combatant="goblin", faces=(14,)))
    roll_off = encounters.execute(eid, RollOff(total=14, faces=(6, 18)))
    wolf = encounters.execute(eid, RollInitiative(combatant="wolf", faces=(5,)))

    encounters.amend(eid, _seqs(goblin), RollInitiative(combatant="goblin", faces=(12,)), reason="the goblin rolled 12")

    problems = {c.seq: c.problem for c in encounters.state(eid).conflicts}
    assert problems[_seqs(roll_off, TieRolledOff)[0]] == "no tie at 14 is waiting for a roll-off"
    encounters.retract(eid, _seqs(roll_off) + _seqs(wolf), reason="there was no tie to roll off")
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, RollOff(total=14, faces=(6, 18)))
    assert (refused.value.code, refused.value.message) == ("initiative/no-tie", "no tie at 14 is waiting for a roll-off")


def test_a_blow_amended_onto_the_goblin_leaves_arias_concentration_save_in_the_words_it_is_refused_with(encounters):
    """'If you take damage, you must succeed on a Constitution saving throw to maintain
    Concentration' (the 5e rule a5e shares). The Narrator amends the burning
    beam: it struck the goblin, not Aria. Her save is listed in the very words a save of hers
    is refused with now."""
    eid = _mill(encounters, environment=None)
    encounters.execute(eid, StartConcentration(combatant="aria", effect="bless"))
    beam = encounters.execute(eid, Damage(target="aria", damage_type="fire", amount=6, source="burning beam"))
    save = encounters.execute(eid, ConcentrationSave(combatant="aria", faces=(12,)))

    encounters.amend(
        eid, _seqs(beam), Damage(target="goblin", damage_type="fire", amount=6, source="burning beam"), reason="it hit the goblin"
    )

    assert [(c.seq, c.problem) for c in encounters.state(eid).conflicts] == [
        (_seqs(save, ConcentrationChecked)[0], "Aria has no concentration save to make")
    ]
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, ConcentrationSave(combatant="aria", faces=(12,)))
    assert (refused.value.code, refused.value.message) == ("concentration/no-check", "Aria has no concentration save to make")


def test_a_concentration_taken_back_leaves_the_save_it_owed_in_the_words_ending_it_is_refused_with(encounters):
    """'If you take damage, you must succeed on a Constitution saving throw to maintain
    Concentration': with no Concentration there is none to keep. The Narrator takes back
    Aria's bless: she never cast it. The save the burning beam asked of her is listed in the
    very words ending her concentration is refused with."""
    eid = _mill(encounters, environment=None)
    bless = encounters.execute(eid, StartConcentration(combatant="aria", effect="bless"))
    beam = encounters.execute(eid, Damage(target="aria", damage_type="fire", amount=6, source="burning beam"))

    encounters.retract(eid, _seqs(bless), reason="she never cast bless")

    assert [(c.seq, c.problem) for c in encounters.state(eid).conflicts] == [
        (_seqs(beam, ConcentrationCheckRequired)[0], "Aria is not concentrating on anything")
    ]
    with pytest.raises(RuleError) as refused:
        encounters.execute(eid, EndConcentration(combatant="aria"))
    assert (refused.value.code, refused.value.message) == ("concentration/none", "Aria is not concentrating on anything")
