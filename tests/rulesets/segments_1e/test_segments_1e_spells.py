"""segments-1e: spells on the timeline, spoiled by broken concentration; concentration to
maintain an effect."""

from combat.common.commands import ApplyCondition, Damage, SavingThrow, StartConcentration
from combat.common.events import ConcentrationEnded, DamageTaken
from combat.kernel.events import ConditionSpec
from combat.rulesets.segments_1e.commands import (
    BeginCasting,
    DeclareRoundAction,
    MinorAction,
    MoveTo,
    ResolveSpell,
    RoutineAttack,
)
from combat.rulesets.segments_1e.events import CastingDelayed, CastingStarted, SpellSpoiled, SpellWentOff
from combat.rulesets.segments_1e.turns import spell_turn
from tests.helpers import Table, of_type
from tests.rulesets.segments_1e.helpers import declare, done, fight, fighter, initiative, ledger, mage, orc, rec


def _spell(name: str, segments: int, range_ft: int = 60, action: str = "spell") -> dict:
    return {"action": action, "spell": name, "casting_segments": segments, "range_ft": range_ft}


def _to_spells(t):
    """Let everyone pass until a spell goes off."""
    while not spell_turn(t.state) and t.state.turn is not None:
        done(t, t.state.turn)


def _going_off(t) -> tuple[str, str | None, int]:
    """The step being played, whose spell goes off, and in which segment."""
    assert spell_turn(t.state)
    return (t.state.phase, t.state.turn, ledger(t).segment)


def test_a_spell_begins_in_the_casters_segment_and_goes_off_after_its_casting_time():
    """'A spell's casting starts in its caster's acting segment and goes off when its casting
    time has passed': HIGH acts in segment 2, a 3-segment spell goes off in segment 4."""
    t = fight(mage(x=0, y=0), orc(x=6, y=0, hp=20), d6={"party": 5, "orcs": 2}, declared={"mira": _spell("Web", 3)})
    [started] = of_type(t.do(BeginCasting(caster="mira", targets=("orc",))), CastingStarted)
    assert (started.start_segment, started.completes_segment) == (2, 4)
    done(t, "mira")
    assert _going_off(t) == ("low", "mira", 4)  # just before the orcs' LOW turn in segment 5
    [gone] = of_type(t.do(ResolveSpell(caster="mira")), SpellWentOff)
    assert gone.segment == 4
    assert (t.state.phase, t.state.turn, ledger(t).segment) == ("low", "orc", 5)


def test_spells_go_off_in_the_order_of_their_segments_among_the_other_turns():
    """'7. The GM will resolve all "spells" ... based on the Spell Initiative Chart', and a
    spell 'goes off when its casting time has passed' (rules README): the HIGH mage's spell
    (segment 2 to 4) goes off before the LOW shaman even begins its quick one (segment 5);
    that one and the long one (segment 2 to 8) go off after the round's last turn, in the
    order of their segments."""
    t = fight(
        mage(x=0, y=0),
        mage("elf", x=0, y=1),
        orc("shaman", x=6, y=0, hp=20),
        d6={"party": 5, "orcs": 2},
        declared={"mira": _spell("Web", 3), "elf": _spell("Lightning Bolt", 7), "shaman": _spell("Cause Fear", 1)},
    )
    t.do(BeginCasting(caster="mira", targets=("shaman",)))
    done(t, "mira")
    t.do(BeginCasting(caster="elf", targets=("shaman",)))
    done(t, "elf")
    assert _going_off(t) == ("low", "mira", 4)
    t.do(ResolveSpell(caster="mira"))
    t.do(BeginCasting(caster="shaman", targets=("mira",)))
    done(t, "shaman")
    order = []
    while spell_turn(t.state):
        order.append(_going_off(t))
        t.do(ResolveSpell(caster=t.state.turn))
    assert order == [("spells", "shaman", 5), ("spells", "elf", 8)]


def test_damage_during_the_casting_spoils_the_spell():
    """'If this concentration is broken, the spell being cast fails and is lost as if cast.'
    The orc in LOW strikes in segment 5; the 6-segment spell begun in segment 2 was not done."""
    t = fight(mage(x=0, y=0), orc(x=1, y=0), d6={"party": 5, "orcs": 2}, declared={"mira": _spell("Lightning Bolt", 6)})
    t.do(BeginCasting(caster="mira", targets=("orc",)))
    done(t, "mira")
    events = t.do(RoutineAttack(attacker="orc", target="mira", faces=(18,), damage_faces=((3,),)))
    [spoiled] = of_type(events, SpellSpoiled)
    assert (spoiled.spell, spoiled.segment, spoiled.reason) == ("Lightning Bolt", 5, "took damage")
    done(t, "orc")
    assert t.state.phase == "declare"  # nothing left to resolve


def test_a_log_from_before_spells_went_off_in_time_order_keeps_the_blow_in_their_segment_simultaneous():
    """Logs without the setting `spells_on_timeline` keep their reading: 'Simultaneous (tied)
    actions both take effect' - the 4-segment spell begun in segment 2 goes off in segment 5,
    the very segment the orc's blow lands, and every spell waits for step 7."""
    t = fight(
        mage(x=0, y=0),
        orc(x=1, y=0),
        d6={"party": 5, "orcs": 2},
        declared={"mira": _spell("Sleep", 4)},
        settings={"spells_on_timeline": False},
    )
    t.do(BeginCasting(caster="mira", targets=("orc",)))
    done(t, "mira")
    assert not of_type(t.do(RoutineAttack(attacker="orc", target="mira", faces=(18,), damage_faces=((3,),))), SpellSpoiled)
    done(t, "orc")
    assert _going_off(t) == ("spells", "mira", 5)
    assert of_type(t.do(ResolveSpell(caster="mira")), SpellWentOff)


def _shaman_declares_cause_fear(**settings: object) -> Table:
    """Hugo (the party's d6: 5, HIGH) beside an orc shaman (the orcs' 2, LOW) that declared Cause Fear."""
    return fight(
        fighter(x=0, y=0),
        orc("shaman", x=1, y=0, hp=20),
        d6={"party": 5, "orcs": 2},
        declared={"shaman": _spell("Cause Fear", 1)},
        settings=settings or None,
    )


def test_damage_before_the_casting_begins_spoils_a_declared_spell():
    """The HIGH fighter hits the LOW shaman before it can begin."""
    t = _shaman_declares_cause_fear()
    [spoiled] = of_type(t.do(RoutineAttack(attacker="hugo", target="shaman", faces=(18,), damage_faces=((2,),))), SpellSpoiled)
    assert spoiled.segment == 2


def test_a_table_may_let_a_declared_spell_survive_until_its_casting_begins():
    t = _shaman_declares_cause_fear(spoil_before_casting=False)
    assert not of_type(t.do(RoutineAttack(attacker="hugo", target="shaman", faces=(18,), damage_faces=((2,),))), SpellSpoiled)


def test_only_one_spell_per_round_even_while_a_long_casting_runs_on():
    """'Only one spell can be cast per round': an 8-segment spell begun in segment 5 goes off
    in segment 2 of the next round, and its caster declares no other spell there."""
    t = fight(
        orc(x=9, y=9), mage(x=0, y=0), d6={"orcs": 5, "party": 2}, declared={"mira": _spell("Conjure Elemental", 8, range_ft=0)}
    )
    done(t, "orc")
    [started] = of_type(t.do(BeginCasting(caster="mira")), CastingStarted)
    assert (started.completes_round, started.completes_segment) == (2, 2)
    done(t, "mira")
    assert (t.state.phase, t.state.round) == ("declare", 2)
    t.rejects(DeclareRoundAction(combatant="mira", **_spell("Sleep", 1)), "spell/one-per-round")
    initiative(declare(t), orcs=1, party=6)
    assert _going_off(t) == ("low", "mira", 2)  # just before the orc's turn in segment 6
    t.do(ResolveSpell(caster="mira"))
    assert rec(t, "mira").casting is None


def test_a_one_round_spell_goes_off_in_the_last_segment():
    """'Complex activities require a full round to complete as do actions (like the casting
    time of certain spells) that take "1 round".'"""
    t = fight(mage(x=0, y=0), orc(x=9, y=9), d6={"party": 5, "orcs": 2}, declared={"mira": _spell("Hold Portal", 10, range_ft=0)})
    [started] = of_type(t.do(BeginCasting(caster="mira")), CastingStarted)
    assert (started.completes_round, started.completes_segment) == (1, 10)


def test_an_invocation_begins_in_the_first_segment():
    """'a magic item that is activated by way of an invocation, must always be declared and
    activation always begins on the 1st segment.'"""
    t = fight(
        orc(x=6, y=0), mage(x=0, y=0), d6={"orcs": 5, "party": 2}, declared={"mira": _spell("Wand of Frost", 3, 60, "invocation")}
    )
    done(t, "orc")
    [started] = of_type(t.do(BeginCasting(caster="mira", targets=("orc",))), CastingStarted)
    assert (started.start_segment, started.completes_segment) == (1, 3)


def test_a_minor_action_during_a_casting_puts_it_off_a_segment():
    """'Any minor action that requires 1 segment will add 1 segment to any major action no
    matter when the minor action is executed ... or other timed actions.'"""
    t = fight(mage(x=0, y=0), orc(x=6, y=0), d6={"party": 5, "orcs": 2}, declared={"mira": _spell("Web", 2)})
    t.do(BeginCasting(caster="mira", targets=("orc",)))
    [later] = of_type(t.do(MinorAction(combatant="mira", description="steps behind the pillar")), CastingDelayed)
    assert later.completes_segment == 4


def test_line_of_effect_is_broken_by_more_than_half_cover():
    """'Cover of over 50% will break line of effect.'"""
    t = fight(mage(x=0, y=0), orc(x=6, y=0), d6={"party": 5, "orcs": 2}, declared={"mira": _spell("Magic Missile", 1, 150)})
    t.rejects(BeginCasting(caster="mira", targets=("orc",), cover_percent=60), "spell/no-line-of-effect")
    t.do(BeginCasting(caster="mira", targets=("orc",), cover_percent=50))


def test_a_spell_is_lost_when_its_target_is_out_of_sight_as_it_goes_off():
    """'the caster must be able to see the creature or object when the spell casting is
    complete. Concealment of 75% or more will break line of sight.'"""
    t = fight(mage(x=0, y=0), orc(x=6, y=0), d6={"party": 5, "orcs": 2}, declared={"mira": _spell("Magic Missile", 1, 150)})
    t.do(BeginCasting(caster="mira", targets=("orc",)))
    _to_spells(t)
    [lost] = of_type(t.do(ResolveSpell(caster="mira", concealment_percent=75, damage="1d4+1")), SpellSpoiled)
    assert "sight" in lost.reason and t["orc"].hp == 8


def test_a_spell_reaches_as_far_as_its_range_center_to_center():
    """'ranges for missile fire or spells, will be calculated from the center of the wielder's
    or caster's square to the center of the target's square': 6 and 8 squares away is 50 ft."""
    declared = {"mira": _spell("Charm Person", 1, 40)}
    t = fight(mage(x=0, y=0), orc(x=6, y=8), d6={"party": 5, "orcs": 2}, declared=declared)
    t.rejects(BeginCasting(caster="mira", targets=("orc",)), "spell/out-of-range")
    t = fight(mage(x=0, y=0), orc(x=6, y=8), d6={"party": 5, "orcs": 2}, declared={"mira": _spell("Charm Person", 1, 50)})
    t.do(BeginCasting(caster="mira", targets=("orc",)))


def test_a_spells_damage_goes_to_its_target_when_it_goes_off():
    t = fight(
        mage(x=0, y=0), orc(x=6, y=0, hp=20), d6={"party": 5, "orcs": 2}, declared={"mira": _spell("Magic Missile", 1, 150)}
    )
    t.do(BeginCasting(caster="mira", targets=("orc",)))
    _to_spells(t)
    [hurt] = of_type(t.do(ResolveSpell(caster="mira", damage="2d4+2", damage_faces=(3, 4))), DamageTaken)
    assert (hurt.amount, t["orc"].hp) == (9, 11)


def _concentrating():
    t = fight(mage(x=0, y=0), orc(x=1, y=0, hp=20), fighter(x=0, y=1), d6={"party": 5, "orcs": 2})
    t.do(StartConcentration(combatant="mira", effect="Invisibility to Animals"))
    return t


def test_concentration_to_maintain_is_broken_by_damage():
    """'Concentration is always broken by ... caster takes damage'."""
    t = _concentrating()
    [ended] = of_type(t.do(Damage(target="mira", damage_type="fire", amount=1)), ConcentrationEnded)
    assert ended.reason == "took damage" and t["mira"].concentration is None


def test_concentration_to_maintain_is_broken_by_a_failed_save():
    """'... caster fails a save'."""
    t = _concentrating()
    t.do(SavingThrow(combatant="mira", ability="spell", dc=14, faces=(15,)))
    assert t["mira"].concentration is not None
    t.do(SavingThrow(combatant="mira", ability="spell", dc=14, faces=(9,)))
    assert t["mira"].concentration is None


def test_concentration_to_maintain_is_broken_when_movement_is_impeded():
    """'... caster's movement or ability to act is impeded.'"""
    t = _concentrating()
    t.do(ApplyCondition(target="mira", condition=ConditionSpec(name="entangled", source="orc")))
    assert t["mira"].concentration is None


def test_concentration_is_broken_by_an_ally_jostling_through_the_square():
    """'Allied creatures can move past each other using the same space. This does cause some
    jostling, so any concentration (i.e. spell casting) will be broken.'"""
    t = _concentrating()
    done(t, "mira")
    [ended] = of_type(t.do(MoveTo(combatant="hugo", x=0, y=-2, through=("mira",))), ConcentrationEnded)
    assert ended.reason == "jostled by Hugo"


def test_a_new_casting_ends_an_effect_maintained_by_concentration():
    """'While maintaining concentration, any other action that requires concentration will
    cause any preexisting maintenance to cease.'"""
    t = fight(mage(x=0, y=0), orc(x=6, y=0), d6={"party": 5, "orcs": 2}, declared={"mira": _spell("Magic Missile", 1, 150)})
    t.do(StartConcentration(combatant="mira", effect="Detect Magic"))
    [ended] = of_type(t.do(BeginCasting(caster="mira", targets=("orc",))), ConcentrationEnded)
    assert ended.effect == "Detect Magic"
