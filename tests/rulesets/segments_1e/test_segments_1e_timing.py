"""segments-1e: when things happen within the round - a spell goes off at the end of its last
segment, in time order with every other turn; one-segment actions in the surprise segments; a
multi-attacker closing in before its attacks.

The rules README: "A spell's casting starts in its caster's acting segment and goes off when
its casting time has passed; damage to the caster before then spoils it (lost as if cast)."
"""

from __future__ import annotations

from combat.app.application import Encounters
from combat.kernel.commands import EndTurn
from combat.rulesets.segments_1e.commands import (
    BeginCasting,
    MajorAction,
    MinorAction,
    MoveTo,
    ResolveSpell,
    RoutineAttack,
)
from combat.rulesets.segments_1e.events import (
    AttackRoutineBegun,
    CastingStarted,
    CreatureMoved,
    MajorActionTaken,
    SegmentReached,
    SegmentTurnStarted,
    SpellSpoiled,
    SpellWentOff,
)
from combat.rulesets.segments_1e.turns import spell_turn
from tests.helpers import of_type
from tests.rulesets.segments_1e.helpers import begin, done, fight, fighter, ledger, mage, orc, owlbear, rec, stored_fight, table

MAGIC_MISSILE = {"action": "spell", "spell": "Magic Missile", "casting_segments": 1, "range_ft": 150}


# -- (1) a blow in the segment a spell goes off, before it goes off, spoils it --------------------


def test_the_orcs_blow_in_the_segment_halvaines_spell_goes_off_spoils_it():
    """'damage to the caster before then spoils it' (rules README); "If this concentration is
    broken, the spell being cast fails and is lost as if cast." The party rolls 5 and the
    orcs 4: HIGH acts in segment 4, LOW in segment 5. Halvaine's 2-segment spell starts in
    segment 4 and goes off at the end of segment 5 - after the orc's blow in segment 5."""
    t = fight(
        mage("halvaine", x=0, y=0),
        orc(x=1, y=0),
        d6={"party": 5, "orcs": 4},
        declared={"halvaine": {**MAGIC_MISSILE, "spell": "Sleep", "casting_segments": 2}},
    )
    [started] = of_type(t.do(BeginCasting(caster="halvaine", targets=("orc",))), CastingStarted)
    assert (started.start_segment, started.completes_segment) == (4, 5)
    done(t, "halvaine")
    assert (t.state.phase, t.state.turn, ledger(t).segment) == ("low", "orc", 5)
    [spoiled] = of_type(t.do(RoutineAttack(attacker="orc", target="halvaine", faces=(15,), damage_faces=((3,),))), SpellSpoiled)
    assert (spoiled.spell, spoiled.segment, spoiled.reason) == ("Sleep", 5, "took damage")
    done(t, "orc")
    assert t.state.phase == "declare" and not of_type(t.events, SpellWentOff)


def test_spells_going_off_in_the_same_segment_are_simultaneous():
    """'Simultaneous (tied) actions both take effect, even if one combatant dies in that
    segment' (rules README): the mage's bolt and the shaman's spell both go off at the end
    of segment 5; the bolt that strikes the shaman does not spoil the shaman's spell."""
    t = fight(
        mage(x=0, y=0),
        orc("shaman", x=6, y=0, hp=20),
        d6={"party": 5, "orcs": 2},
        declared={"mira": {**MAGIC_MISSILE, "casting_segments": 4}, "shaman": MAGIC_MISSILE},
    )
    t.do(BeginCasting(caster="mira", targets=("shaman",)))
    done(t, "mira")
    t.do(BeginCasting(caster="shaman", targets=("mira",)))
    done(t, "shaman")
    assert (t.state.phase, t.state.turn, ledger(t).segment) == ("spells", "mira", 5)
    events = t.do(ResolveSpell(caster="mira", damage="1d4+1", damage_faces=(3,)))
    assert t["shaman"].hp == 16 and not of_type(events, SpellSpoiled)
    assert of_type(t.do(ResolveSpell(caster="shaman")), SpellWentOff)


# -- (2) a spell goes off in its segment, in time order with everything else ----------------------


def test_a_spell_going_off_in_segment_3_kills_the_orc_before_its_segment_5_blow():
    """'7. The GM will resolve all "spells" ... based on the Spell Initiative Chart', each
    going off 'when its casting time has passed' (rules README). The party rolls 5, the orcs
    3: HIGH acts in segment 3, LOW in segment 5. Hugo's melee in segment 3 comes first (D3
    after D1, same segment); Mira's missile goes off at the end of segment 3 and kills the
    orc, which never strikes in segment 5. The segments of the story only ever go forward."""
    t = fight(
        fighter(x=0, y=0),
        mage(x=0, y=1),
        orc(x=1, y=0, hp=4),
        orc("orc-2", x=1, y=1, hp=9),
        d6={"party": 5, "orcs": 3},
        declared={"mira": MAGIC_MISSILE, "hugo": {"action": "melee"}},
    )
    assert (t.state.turn, ledger(t).segment) == ("mira", 3)
    t.do(BeginCasting(caster="mira", targets=("orc",)))
    t.rejects(ResolveSpell(caster="mira", damage="1d4+1"), "spell/not-yet")
    done(t, "mira")
    assert t.state.turn == "hugo"
    t.do(RoutineAttack(attacker="hugo", target="orc-2", faces=(3,)))
    done(t, "hugo")
    assert spell_turn(t.state) and (t.state.phase, t.state.turn, ledger(t).segment) == ("low", "mira", 3)
    [gone] = of_type(t.do(ResolveSpell(caster="mira", damage="1d4+1", damage_faces=(3,))), SpellWentOff)
    assert gone.segment == 3 and t["orc"].status == "dead"
    assert (t.state.turn, ledger(t).segment) == ("orc-2", 5)
    t.do(RoutineAttack(attacker="orc-2", target="hugo", faces=(2,)))
    done(t, "orc-2")
    assert t.state.phase == "declare"
    assert "orc" not in {e.combatant for e in of_type(t.events, SegmentTurnStarted)}
    reached = [e.segment for e in of_type(t.events, SegmentReached)]
    assert reached == sorted(reached)


def test_a_log_from_before_the_setting_resolves_every_spell_after_the_groups():
    """Logs recorded without `spells_on_timeline` keep the reading they were played with:
    step 7 resolves the spells after the groups, so the orc still strikes in segment 5."""
    t = fight(
        mage(x=0, y=0),
        orc(x=1, y=0, hp=4),
        d6={"party": 5, "orcs": 3},
        declared={"mira": MAGIC_MISSILE},
        settings={"spells_on_timeline": False},
    )
    t.do(BeginCasting(caster="mira", targets=("orc",)))
    done(t, "mira")
    assert (t.state.phase, t.state.turn, ledger(t).segment) == ("low", "orc", 5)
    t.do(RoutineAttack(attacker="orc", target="mira", faces=(2,)))
    done(t, "orc")
    assert (t.state.phase, t.state.turn) == ("spells", "mira")


def test_a_changed_past_that_brings_a_spell_forward_makes_the_later_turn_a_conflict(tmp_path):
    """'Any minor action that requires 1 segment will add 1 segment to any major action no
    matter when the minor action is executed ... or other timed actions.' Mira's step back
    put her missile off to segment 4, after the orc's turn; the GM rules the step took no
    time, so the missile goes off in segment 3 now - before the orc's turn, which the re-check
    reports (the question the flow asks, segments.spell_due), with the spell's own turn."""
    encounters = Encounters(tmp_path / "timing.db")
    try:
        eid = stored_fight(
            encounters,
            mage(x=0, y=0),
            orc(x=9, y=0),
            declared={"mira": MAGIC_MISSILE, "orc": {"action": "other"}},
            d6={"party": 4, "orcs": 3},
        )
        encounters.execute(eid, BeginCasting(caster="mira", targets=("orc",)))
        step = encounters.execute(eid, MinorAction(combatant="mira", description="steps back"))
        turn = encounters.execute(eid, EndTurn(combatant="mira"))
        orc_turn = next(r.seq for r in turn.records if isinstance(r.event, SegmentTurnStarted) and r.event.combatant == "orc")
        encounters.execute(eid, MajorAction(combatant="orc", description="sounds a horn"))
        last = encounters.execute(eid, EndTurn(combatant="orc"))
        spell_turn_seq = next(r.seq for r in last.records if isinstance(r.event, SegmentTurnStarted))
        state = encounters.state(eid)
        assert (state.phase, state.turn, state.rules.segment) == ("spells", "mira", 4)
        assert state.conflicts == ()

        encounters.amend(
            eid,
            [step.records[0].seq],
            MinorAction(combatant="mira", description="steps back", segments=0),
            reason="a step back takes no time",
        )

        problems = [(c.seq, c.problem) for c in encounters.state(eid).conflicts]
        assert problems == [
            (orc_turn, "Mira's spell goes off in segment 3 now, before Orc's turn"),
            (spell_turn_seq, "Mira's turn in the spells step falls in segment 3 now, not 4"),
        ]
    finally:
        encounters.close()


# -- (3) one-segment actions in a surprise segment -------------------------------------------------


def test_a_one_segment_spell_is_cast_in_a_surprise_segment_and_goes_off_at_its_end():
    """'the side that is not surprised acts in the surprise segments, and only actions that
    fit in one segment can be done in each' (rules README): Mira's Magic Missile (1 segment)
    is named as she casts it - nothing was declared before the first round - and goes off at
    the end of surprise segment 1; a 3-segment spell does not fit."""
    t = begin(table(mage(x=0, y=0), orc(x=6, y=0, hp=4)), orcs=1)
    assert (t.state.phase, t.state.turn, ledger(t).segment) == ("surprise_segments", "mira", 1)
    t.rejects(BeginCasting(caster="mira", targets=("orc",), spell="Web", range_ft=60, casting_segments=3), "surprise/one-segment")
    t.rejects(BeginCasting(caster="mira", targets=("orc",)), "spell/name-needed")
    [started] = of_type(t.do(BeginCasting(caster="mira", targets=("orc",), spell="Magic Missile", range_ft=150)), CastingStarted)
    assert (started.uses, started.start_segment, started.completes_segment) == ("surprise_segment", 1, 1)
    t.rejects(MinorAction(combatant="mira", description="draws her dagger"), "surprise/segment-used")
    done(t, "mira")
    assert spell_turn(t.state) and (t.state.phase, t.state.turn, ledger(t).segment) == ("surprise_segments", "mira", 1)
    [gone] = of_type(t.do(ResolveSpell(caster="mira", damage="1d4+1", damage_faces=(3,))), SpellWentOff)
    assert (gone.spell, gone.segment) == ("Magic Missile", 1) and t["orc"].status == "dead"
    assert t.state.phase == "ended"


def test_only_one_spell_is_cast_between_two_surprise_segments():
    """'Only one spell can be cast per round (even if one is cast as an immediate action).'
    The surprise segments come before the first round and are shorter than one: Mira's Magic
    Missile goes off at the end of surprise segment 1 (3 on the d4, +1), and in segment 2
    she may still act - but not cast a second spell."""
    t = begin(table(mage(x=0, y=0), orc(x=6, y=0, hp=20)), orcs=2)
    t.do(BeginCasting(caster="mira", targets=("orc",), spell="Magic Missile", range_ft=150))
    done(t, "mira")
    t.do(ResolveSpell(caster="mira", damage="1d4+1", damage_faces=(3,)))
    assert (t.state.phase, ledger(t).segment, t.state.turn, t["orc"].hp) == ("surprise_segments", 2, "mira", 16)
    t.rejects(BeginCasting(caster="mira", targets=("orc",), spell="Magic Missile", range_ft=150), "spell/one-per-round")
    [kicked] = of_type(t.do(MajorAction(combatant="mira", description="kicks over the brazier")), MajorActionTaken)
    assert kicked.segment == 2


def test_a_log_from_before_the_one_spell_setting_lets_a_caster_cast_in_each_surprise_segment():
    """An encounter recorded without `one_spell_in_surprise_segments` keeps the reading it was
    played with: Mira begins a second Magic Missile in surprise segment 2."""
    t = begin(table(mage(x=0, y=0), orc(x=6, y=0, hp=20), settings={"one_spell_in_surprise_segments": False}), orcs=2)
    t.do(BeginCasting(caster="mira", targets=("orc",), spell="Magic Missile", range_ft=150))
    done(t, "mira")
    t.do(ResolveSpell(caster="mira", damage="1d4+1", damage_faces=(3,)))
    [again] = of_type(t.do(BeginCasting(caster="mira", targets=("orc",), spell="Magic Missile", range_ft=150)), CastingStarted)
    assert (again.uses, again.start_segment) == ("surprise_segment", 2)


def test_a_one_segment_major_action_is_taken_in_a_surprise_segment():
    """'only actions that fit in one segment can be done in each' surprise segment: kicking
    over the brazier takes that segment (not the round's major action), and nothing else
    that takes time fits in it."""
    t = begin(table(fighter(x=0, y=0), orc(x=5, y=0)), orcs=2)
    [kicked] = of_type(t.do(MajorAction(combatant="hugo", description="kicks over the brazier")), MajorActionTaken)
    assert (kicked.uses, kicked.segment) == ("surprise_segment", 1)
    t.rejects(MoveTo(combatant="hugo", x=1, y=0), "surprise/segment-used")
    assert not rec(t, "hugo").major_used
    done(t, "hugo")
    t.do(MajorAction(combatant="hugo", description="shoulders the door shut"))
    assert rec(t, "hugo").segment_used == 2


# -- (4) a multi-attacker not yet in melee closes in -------------------------------------------------


def test_an_owlbear_not_yet_in_melee_closes_in_with_its_group_then_makes_its_routines():
    """'4. If any individual has the multi-attack ability (and is in melee), the GM will ask
    them to take their turn. 5. ... Group Initiative ... 6. The GM will have those with any
    remaining attacks due to the multi-attack ability complete their action.' The owlbear,
    15 ft from Hugo, has no turn in step 4; in HIGH it closes in and makes its first
    routine, and its second follows in step 6."""
    t = fight(
        owlbear(x=4, y=0),
        fighter(hp=60, x=0, y=0),
        d6={"orcs": 6, "party": 1},
        declared={"owlbear": {"action": "melee"}, "hugo": {"action": "melee"}},
    )
    assert (t.state.phase, t.state.turn, ledger(t).segment) == ("high", "owlbear", 1)
    t.rejects(MoveTo(combatant="owlbear", x=3, y=0), "move/close-in")  # still 10 ft short
    [moved] = of_type(t.do(MoveTo(combatant="owlbear", x=1, y=0)), CreatureMoved)
    assert moved.uses == "close_in"
    t.rejects(MoveTo(combatant="owlbear", x=1, y=1), "move/close-in")  # once
    t.do(RoutineAttack(attacker="owlbear", target="hugo", faces=(2, 2, 2)))
    done(t, "owlbear")
    assert (t.state.phase, t.state.turn) == ("low", "hugo")
    done(t, "hugo")
    assert (t.state.phase, t.state.turn) == ("multi_attacks_rest", "owlbear")
    t.do(RoutineAttack(attacker="owlbear", target="hugo", faces=(2, 2, 2)))
    done(t, "owlbear")
    routines = [(e.uses, e.mode) for e in of_type(t.events, AttackRoutineBegun)]
    assert routines == [("major", "routine"), ("extra_routine", "routine")]
    assert "multi_attacks" not in {e.slot.key for e in of_type(t.events, SegmentTurnStarted)}


def test_a_log_from_before_the_setting_keeps_the_owlbear_in_step_4():
    """Logs recorded without `multi_attackers_close_in` keep their reading: the owlbear
    takes its step-4 turn wherever it stands, and cannot move there."""
    t = fight(
        owlbear(x=4, y=0),
        fighter(hp=60, x=0, y=0),
        d6={"orcs": 6, "party": 1},
        declared={"owlbear": {"action": "melee"}},
        settings={"multi_attackers_close_in": False},
    )
    assert (t.state.phase, t.state.turn) == ("multi_attacks", "owlbear")
    t.rejects(MoveTo(combatant="owlbear", x=1, y=0), "phase/not-allowed")


def test_a_changed_past_that_brings_a_foe_into_melee_makes_the_owlbears_closing_in_a_conflict(tmp_path):
    """'4. If any individual has the multi-attack ability (and is in melee) ...': closing in
    is for a creature not yet in melee. Hugo's move was ruled to end beside the owlbear
    (the GM had misread the map); the owlbear, in melee already, could not have closed in -
    the re-check asks what the move's guard asks (grid.closing_in_problem)."""
    encounters = Encounters(tmp_path / "close-in.db")
    try:
        eid = stored_fight(
            encounters,
            fighter(hp=60, x=0, y=0),
            owlbear(x=6, y=0),
            declared={"hugo": {"action": "move"}, "owlbear": {"action": "melee"}},
            d6={"party": 6, "orcs": 1},
        )
        assert encounters.state(eid).turn == "hugo"
        step = encounters.execute(eid, MoveTo(combatant="hugo", x=3, y=0))
        encounters.execute(eid, EndTurn(combatant="hugo"))
        assert (encounters.state(eid).phase, encounters.state(eid).turn) == ("low", "owlbear")
        closing = encounters.execute(eid, MoveTo(combatant="owlbear", x=4, y=0))
        assert [r.event.uses for r in closing.records if isinstance(r.event, CreatureMoved)] == ["close_in"]

        encounters.amend(eid, [step.records[0].seq], MoveTo(combatant="hugo", x=5, y=0), reason="the map was misread")

        problems = {c.seq: c.problem for c in encounters.state(eid).conflicts}
        assert problems[closing.records[0].seq] == "Owlbear is in melee already: it has nothing to close in to"
    finally:
        encounters.close()
