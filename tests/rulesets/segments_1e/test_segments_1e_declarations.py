"""segments-1e: declaring actions before the round."""

from combat.rulesets.segments_1e.commands import BeginCasting, DeclareRoundAction, ForgoSpell, RoutineAttack
from combat.rulesets.segments_1e.events import CastingStarted, SpellForgone
from tests.helpers import of_type
from tests.rulesets.segments_1e.helpers import LONGSWORD, SHORTBOW, begin, done, fight, fighter, mage, orc, rec, table

SLEEP = {"action": "spell", "spell": "Sleep", "casting_segments": 1, "range_ft": 90}


def test_a_spell_must_be_declared_to_be_cast():
    """'Invocations are otherwise always considered: [invocation] (declared; major) ...
    Incantations ... operate in a similar fashion.'"""
    t = fight(mage(x=0, y=0), orc(x=4, y=0), d6={"party": 5, "orcs": 2})
    assert t.state.turn == "mira"
    t.rejects(BeginCasting(caster="mira", targets=("orc",)), "spell/undeclared")


def test_the_target_of_a_declared_spell_is_named_in_the_casters_group_turn():
    """'When an incantation or invocation is declared, the target of the effect does not need
    to be declared. However, during the caster's Group initiative turn, the caster must
    announce the target'."""
    t = fight(mage(x=0, y=0), orc(x=4, y=0), d6={"party": 5, "orcs": 2}, declared={"mira": SLEEP})
    t.rejects(BeginCasting(caster="mira"), "spell/target-needed")
    [started] = of_type(t.do(BeginCasting(caster="mira", targets=("orc",))), CastingStarted)
    assert started.targets == ("orc",)


def test_a_caster_may_decide_not_to_cast_but_cannot_switch_actions():
    """'a caster may decide not to cast but cannot switch actions'."""
    t = fight(mage(x=0, y=0), orc(x=1, y=0), d6={"party": 5, "orcs": 2}, declared={"mira": SLEEP})
    t.rejects(RoutineAttack(attacker="mira", target="orc", faces=(20,)), "declaration/locked")
    [forgone] = of_type(t.do(ForgoSpell(caster="mira")), SpellForgone)
    assert forgone.spell == "Sleep"
    t.rejects(RoutineAttack(attacker="mira", target="orc", faces=(20,)), "action/major-used")


def test_a_declared_melee_attacker_cannot_switch_to_its_bow():
    t = fight(
        fighter(x=0, y=0, routines=(LONGSWORD, SHORTBOW)),
        orc(x=1, y=0),
        d6={"party": 5, "orcs": 2},
        declared={"hugo": {"action": "melee"}},
    )
    t.rejects(RoutineAttack(attacker="hugo", target="orc", routine="Shortbow", faces=(20, 20)), "declaration/locked")
    t.rejects(DeclareRoundAction(combatant="hugo", action="missile"), "phase/not-allowed")


def test_a_declaration_may_be_changed_until_the_declarations_close():
    t = begin(table(fighter(), mage(), orc()))
    t.do(DeclareRoundAction(combatant="mira", **SLEEP))
    t.do(DeclareRoundAction(combatant="mira", action="melee"))
    assert rec(t, "mira").declared.action == "melee" and rec(t, "mira").casting is None


def test_a_declared_delay_acts_on_low_without_the_delayed_condition():
    """'If you declare (during the Declare Actions phase), your intent to delay, you act on
    LOW initiative (no matter your group initiative result) and do not have the delayed
    condition as a result of declaring the delay.'"""
    t = fight(
        fighter(x=0, y=0), mage(x=0, y=1), orc(x=5, y=5), d6={"party": 6, "orcs": 1}, declared={"mira": {"action": "delay"}}
    )
    assert (t.state.phase, t.state.turn) == ("high", "hugo")
    done(t, "hugo")
    assert (t.state.phase, t.state.turn, rec(t, "mira").group) == ("low", "mira", "low")
    assert not t["mira"].has("delayed")


def test_a_delaying_activity_is_done_during_low_without_the_delayed_condition():
    """'An individual performing a delaying activity can only do so during LOW initiative.
    However, performing a delaying activity does not otherwise grant the delayed condition.'"""
    t = fight(
        fighter(x=0, y=0),
        orc(x=5, y=5),
        d6={"party": 6, "orcs": 1},
        declared={"hugo": {"action": "delaying", "description": "loads his heavy crossbow"}},
    )
    # The party rolled HIGH, yet nobody acts in HIGH: the fighter's crossbow waits for LOW.
    assert (t.state.phase, t.state.turn, rec(t, "hugo").group) == ("low", "hugo", "low")
    assert not t["hugo"].has("delayed")


def test_an_unknown_action_cannot_be_declared():
    t = begin(table(fighter(), orc()))
    err = t.rejects(DeclareRoundAction(combatant="hugo", action="dance"), "declaration/unknown-action")
    assert "melee" in err.allowed and "spell" in err.allowed
