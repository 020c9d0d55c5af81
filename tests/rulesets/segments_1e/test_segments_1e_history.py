"""segments-1e: taking back, amending and arguing over what happened in a segmented round.

Played through `Encounters` on a SQLite file, with every die entered: an undo gives back what
the deed spent, a redo brings it back, and an amended ruling that changes what followed lists
every later event that could no longer have happened as a conflict, until the GM rules.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from combat.app.application import Encounters, Outcome, fold_records
from combat.app.history import replay
from combat.app.interchange import read_jsonl
from combat.demos import get_demo
from combat.kernel.commands import Command, EndTurn
from combat.kernel.events import ConflictOverridden, EventsRetracted, RulingAmended, TurnEnded
from combat.rulesets.segments_1e.commands import (
    BeginCasting,
    CloseDeclarations,
    DeclareRoundAction,
    ResolveSpell,
    RollGroupD6,
    RoutineAttack,
)
from combat.rulesets.segments_1e.events import (
    HighLowSet,
    RoundActionDeclared,
    SegmentTurnStarted,
    SpellSpoiled,
    TableAttackRolled,
)
from combat.rulesets.segments_1e.ledger import Creature
from tests.helpers import REPLAYS, amended_then_overridden, played_demo, redone
from tests.rulesets.segments_1e.helpers import SHORTBOW, fighter, mage, orc, stats, stored_fight

MELEE = {"action": "melee"}
BOLT = {"action": "spell", "spell": "Lightning Bolt", "casting_segments": 3, "range_ft": 80}
KNEE_DEEP = "Hugo was fighting knee-deep in the ford: -2 to hit"


def _ford(encounters: Encounters, orc_hp: int = 5, **d6: int):
    """Hugo (Fighter 4: needs 11 against the orcs' AC 6) beside an orc; a second orc, far off,
    declares something other than melee. The party's 5 against the orcs' 2: HIGH acts in
    segment 2, LOW in segment 5."""
    return stored_fight(
        encounters,
        fighter(x=0, y=0),
        orc(x=1, y=0, hp=orc_hp),
        orc("orc-2", x=9, y=9),
        declared={"hugo": MELEE, "orc": MELEE, "orc-2": {"action": "other"}},
        d6=d6 or {"party": 5, "orcs": 2},
    )


def _rec(encounters: Encounters, eid, cid: str) -> Creature:
    return (encounters.state(eid)).rules.creatures[cid]


def _seq(outcome: Outcome, kind: type, **fields: Any) -> int:
    return next(
        r.seq for r in outcome.records if isinstance(r.event, kind) and all(getattr(r.event, k) == v for k, v in fields.items())
    )


def _then(encounters: Encounters, eid, *commands: Command) -> Outcome:
    outcome = None
    for command in commands:
        outcome = encounters.execute(eid, command)
    assert outcome is not None
    return outcome


def test_an_undone_blow_gives_back_the_orcs_hit_points_and_hugos_major_action(encounters):
    """'Each round, during combat, a creature has an opportunity to accomplish 1 major task':
    the GM takes the blow back, and with it the orc's wound and the major action it spent."""
    eid = _ford(encounters)
    assert encounters.state(eid).turn == "hugo"
    blow = encounters.execute(eid, RoutineAttack(attacker="hugo", target="orc", faces=(15,), damage_faces=((3,),)))
    assert encounters.state(eid).combatants["orc"].hp == 2 and _rec(encounters, eid, "hugo").major_used

    undo = encounters.undo_last(eid, reason="Hugo meant to step back, not swing")

    state = encounters.state(eid)
    assert state.combatants["orc"].hp == 5
    assert not _rec(encounters, eid, "hugo").major_used and state.combatants["hugo"].economy.action
    assert state.retracted == tuple(r.seq for r in blow.records)
    assert isinstance(undo.records[0].event, EventsRetracted) and state.conflicts == ()
    swing = encounters.execute(eid, RoutineAttack(attacker="hugo", target="orc", faces=(2,)))
    assert not next(r.event for r in swing.records if isinstance(r.event, TableAttackRolled)).hit


def test_undoing_the_undo_brings_the_blow_back(encounters):
    eid = _ford(encounters)
    blow = RoutineAttack(attacker="hugo", target="orc", faces=(15,), damage_faces=((3,),))
    struck, state = redone(encounters, eid, blow, "the blow stands after all")
    assert state.combatants == struck.combatants and state.rules == struck.rules and state.conflicts == ()


def test_an_amended_blow_that_no_longer_kills_reports_the_orcs_skipped_turn_until_the_gm_rules(encounters):
    """'The attacker chooses a target to attack, the GM relays any modifiers to the roll':
    the GM forgot Hugo stood knee-deep in the ford. At -2 his 12 misses, the orc lives, and
    the second orc's LOW turn came before the orc's (melee before other), so it was skipped."""
    eid = _ford(encounters)
    kill = encounters.execute(eid, RoutineAttack(attacker="hugo", target="orc", faces=(12,), damage_faces=((6,),)))
    assert encounters.state(eid).combatants["orc"].status == "dead"
    low = encounters.execute(eid, EndTurn(combatant="hugo"))
    orc_2_turn = _seq(low, SegmentTurnStarted, combatant="orc-2")

    amended = encounters.amend(
        eid, [kill.records[0].seq], RoutineAttack(attacker="hugo", target="orc", bonus=-2, faces=(12,)), reason=KNEE_DEEP
    )

    state = encounters.state(eid)
    [strike] = [r.event for r in amended.records if isinstance(r.event, TableAttackRolled)]
    assert (strike.total, strike.needed, strike.hit) == (10, 11, False)
    assert state.combatants["orc"].hp == 5 and state.combatants["orc"].status == "active"
    assert [(c.seq, c.type) for c in state.conflicts] == [(orc_2_turn, "SegmentTurnStarted")]
    assert state.conflicts[0].problem == "Orc is standing now and acts in LOW before Orc 2 (segment 5): its turn was skipped"
    assert state.conflicts[0].caused_by == (amended.records[0].seq,)

    amended_then_overridden(encounters, eid, orc_2_turn, "the orc was winded and let its turn pass")


def test_a_backstab_ruled_afterwards_kills_the_orc_and_its_own_turn_becomes_a_conflict(encounters):
    """'All damage multipliers (e.g. back stab ...) will include all modifiers to damage':
    the GM rules Sly struck from behind. Doubled, her 3 fells the 5 HP orc, which then could
    not have taken its LOW turn nor swung at Hugo."""
    sly = stats(
        "sly",
        name="Sly",
        kind="pc",
        side="party",
        ac=7,
        hp=20,
        character_class="Thief",
        level=5,
        routines=(orc().routines[0],),
        x=1,
        y=1,
    )
    eid = stored_fight(
        encounters,
        fighter(x=0, y=0),
        sly,
        orc(x=1, y=0, hp=5),
        orc("orc-2", x=9, y=9),
        declared={"hugo": {"action": "other"}, "sly": MELEE, "orc": MELEE, "orc-2": {"action": "other"}},
        d6={"party": 5, "orcs": 2},
    )
    assert encounters.state(eid).turn == "sly"
    stab = encounters.execute(eid, RoutineAttack(attacker="sly", target="orc", faces=(16,), damage_faces=((3,),)))
    _then(encounters, eid, EndTurn(combatant="sly"))
    orc_turn = encounters.execute(eid, EndTurn(combatant="hugo"))
    assert encounters.state(eid).turn == "orc"
    swing = encounters.execute(eid, RoutineAttack(attacker="orc", target="hugo", faces=(18,), damage_faces=((4,),)))

    encounters.amend(
        eid,
        [stab.records[0].seq],
        RoutineAttack(attacker="sly", target="orc", multipliers=(2,), faces=(16,), damage_faces=((3,),)),
        reason="Sly was behind the orc: a backstab, double damage",
    )

    state = encounters.state(eid)
    assert state.combatants["orc"].status == "dead"
    problems = {c.seq: c.problem for c in state.conflicts}
    assert problems[_seq(orc_turn, SegmentTurnStarted, combatant="orc")] == "Orc is dead now and could not take a turn"
    assert problems[swing.records[0].seq] == "Orc is dead and cannot attack"
    assert state.combatants["hugo"].hp == 26  # nothing is rewritten: the blow stays until the GM rules


def test_a_declaration_amended_afterwards_makes_the_blow_that_broke_it_a_conflict(encounters):
    """'A caster may decide not to cast but cannot switch actions': the GM's notes say Hugo
    declared he would haul a friend out of the water, not melee; his swing no longer fits."""
    eid = _ford(encounters)
    declared = next(
        r.seq for r in encounters.records(eid) if isinstance(r.event, RoundActionDeclared) and r.event.combatant == "hugo"
    )
    swing = encounters.execute(eid, RoutineAttack(attacker="hugo", target="orc", faces=(15,), damage_faces=((3,),)))

    encounters.amend(
        eid,
        [declared],
        DeclareRoundAction(combatant="hugo", action="other", description="hauls Mira out of the water"),
        reason="the GM's notes say Hugo declared the rescue",
    )

    [conflict] = encounters.state(eid).conflicts
    assert (conflict.seq, conflict.type) == (swing.records[0].seq, "AttackRoutineBegun")
    assert conflict.problem == "Hugo declared other and cannot switch to routine attack"


def test_a_bolt_that_missed_an_orc_now_standing_is_a_conflict(encounters):
    """'1 round (one minute) = 10 segments': Mira's Lightning Bolt, begun in LOW segment 5,
    goes off in segment 7 at both orcs. Hugo felled the first orc in between, so only the
    other took the bolt. Amended to a miss, the first orc stands, and the bolt missed it."""
    eid = stored_fight(
        encounters,
        fighter(x=0, y=0),
        mage(x=0, y=2),
        orc(x=1, y=0, hp=5),
        orc("orc-2", x=2, y=3, hp=40),
        declared={"hugo": MELEE, "mira": BOLT, "orc": MELEE, "orc-2": {"action": "other"}},
        d6={"party": 2, "orcs": 5},
    )
    _then(
        encounters,
        eid,
        RoutineAttack(attacker="orc", target="hugo", faces=(3,)),
        EndTurn(combatant="orc"),
        EndTurn(combatant="orc-2"),
        BeginCasting(caster="mira", targets=("orc", "orc-2")),
        EndTurn(combatant="mira"),
    )
    kill = encounters.execute(eid, RoutineAttack(attacker="hugo", target="orc", faces=(12,), damage_faces=((6,),)))
    encounters.execute(eid, EndTurn(combatant="hugo"))
    assert (encounters.state(eid).phase, encounters.state(eid).turn) == ("spells", "mira")
    bolt = encounters.execute(eid, ResolveSpell(caster="mira", damage="5d6", damage_faces=(3, 3, 3, 3, 3)))
    assert encounters.state(eid).combatants["orc-2"].hp == 25

    encounters.amend(
        eid, [kill.records[0].seq], RoutineAttack(attacker="hugo", target="orc", bonus=-2, faces=(12,)), reason=KNEE_DEEP
    )

    [conflict] = encounters.state(eid).conflicts
    assert (conflict.seq, conflict.type) == (_seq(bolt, TurnEnded, combatant="mira"), "TurnEnded")
    assert conflict.problem == "Orc is standing now and was a target of Lightning Bolt, but took none of its damage"


def test_an_orc_that_stands_again_was_left_out_of_the_next_rounds_group_initiative(encounters):
    """'Each group will roll a d6 ... The group with the low roll acts during LOW group
    initiative': the next round's groups were set while the orc lay dead; amended, it stands,
    and nobody placed it."""
    eid = _ford(encounters)
    kill = encounters.execute(eid, RoutineAttack(attacker="hugo", target="orc", faces=(12,), damage_faces=((6,),)))
    _then(encounters, eid, EndTurn(combatant="hugo"), EndTurn(combatant="orc-2"))
    assert (encounters.state(eid).phase, encounters.state(eid).round) == ("declare", 2)
    _then(
        encounters,
        eid,
        DeclareRoundAction(combatant="hugo", action="move"),
        DeclareRoundAction(combatant="orc-2", action="other"),
        CloseDeclarations(),
        RollGroupD6(side="party", faces=(4,)),
    )
    groups = encounters.execute(eid, RollGroupD6(side="orcs", faces=(1,)))

    encounters.amend(
        eid, [kill.records[0].seq], RoutineAttack(attacker="hugo", target="orc", bonus=-2, faces=(12,)), reason=KNEE_DEEP
    )

    problems = {c.seq: c.problem for c in encounters.state(eid).conflicts}
    assert problems[_seq(groups, HighLowSet)] == "Orc is standing now but was left out of group initiative"


def test_an_undone_arrow_no_longer_spoils_the_spell_and_it_goes_off(encounters):
    """'If this concentration is broken, the spell being cast fails and is lost as if cast':
    the archer's arrow spoiled Mira's Web; the GM takes the arrow back, and the Web goes off."""
    archer = orc("archer", x=8, y=0, routines=(SHORTBOW,))
    eid = stored_fight(
        encounters,
        mage(x=0, y=0),
        archer,
        declared={
            "mira": {"action": "spell", "spell": "Web", "casting_segments": 5, "range_ft": 60},
            "archer": {"action": "missile"},
        },
        d6={"party": 5, "orcs": 2},
    )
    _then(encounters, eid, BeginCasting(caster="mira", targets=("archer",)), EndTurn(combatant="mira"))
    arrows = encounters.execute(eid, RoutineAttack(attacker="archer", target="mira", faces=(18, 1), damage_faces=((2,),)))
    assert any(isinstance(r.event, SpellSpoiled) for r in arrows.records)
    assert _rec(encounters, eid, "mira").casting is None

    encounters.undo_last(eid, reason="the archer had no line of sight through the smoke")

    assert _rec(encounters, eid, "mira").casting.spell == "Web"  # type: ignore[union-attr]
    assert encounters.state(eid).combatants["mira"].hp == 12
    encounters.execute(eid, EndTurn(combatant="archer"))
    assert (encounters.state(eid).phase, encounters.state(eid).turn) == ("spells", "mira")


# -- the demo and its recorded session --------------------------------------------------------


@pytest.mark.parametrize("seed", range(1, 11))
def test_the_demo_table_argues_and_leaves_no_conflict_unresolved(tmp_path, seed):
    """Osric's swing in the surprise segment is taken back, round one's first blow is amended
    (seed 4 has none to argue over), and whatever that leaves in conflict the GM rules on."""
    records, state = played_demo(tmp_path / "demo.db", "segments-1e", seed)
    kinds = {type(r.event) for r in records}
    assert EventsRetracted in kinds and (RulingAmended in kinds or seed == 4)
    assert state.conflicts == () and state.phase == "ended"


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_retracting_any_command_of_the_demo_refolds_and_a_redo_restores_the_fight(tmp_path, seed):
    """A sanity check over a whole fight: a retraction of any command refolds without error
    (what no longer fits is listed, naming later events), and retracting it again gives back
    the same fight."""
    encounters = Encounters(tmp_path / "demo.db")
    try:
        eid = get_demo("segments-1e")(encounters, seed=seed, report=lambda outcome: None)
        before = encounters.state(eid)
        records = list(encounters.records(eid))
        chosen = random.Random(seed).choice(records[1:])
        seqs = [r.seq for r in records if r.command_id == chosen.command_id]
        undo = encounters.retract(eid, seqs, reason="what if")
        assert all(c.seq > min(seqs) for c in undo.state.conflicts)
        assert undo.state == replay(list(encounters.records(eid)))
        encounters.retract(eid, [undo.records[0].seq], reason="it happened after all")
        after = encounters.state(eid)
    finally:
        encounters.close()
    fight = ("combatants", "rules", "phase", "round", "turn")
    assert [getattr(after, f) for f in fight] == [getattr(before, f) for f in fight]
    assert after.conflicts == before.conflicts


def test_the_recorded_session_has_an_undo_an_amended_ruling_and_a_conflict_the_gm_resolved():
    [log] = sorted(REPLAYS.glob("segments-1e-*.jsonl"))
    records = read_jsonl(log.read_bytes().splitlines())
    kinds = [type(r.event) for r in records]
    assert EventsRetracted in kinds and RulingAmended in kinds and ConflictOverridden in kinds
    amended_at = next(r.seq for r in records if isinstance(r.event, RulingAmended))
    overridden_at = next(r.seq for r in records if isinstance(r.event, ConflictOverridden))
    assert replay([r for r in records if r.seq < overridden_at]).conflicts  # the amendment left conflicts
    assert amended_at < overridden_at and fold_records(records).conflicts == ()
