"""segments-1e: ties that are simultaneous - 'Simultaneous (tied) actions both take effect,
even if one combatant dies in that segment.'"""

from combat.kernel.events import CombatEnded
from combat.rulesets.segments_1e.commands import RoutineAttack
from combat.rulesets.segments_1e.events import SimultaneousActionKept, TableAttackRolled
from combat.rulesets.segments_1e.ledger import Routine, Strike
from tests.helpers import of_type
from tests.rulesets.segments_1e.helpers import done, fight, fighter, orc

AXE = Routine(name="Hand axe", strikes=(Strike(name="hand axe", damage="1d6"),), speed=5)
MELEE = {"action": "melee"}


def _duel(orc_routine: Routine):
    return fight(
        fighter(x=0, y=0),
        orc(x=1, y=0, hp=4, routines=(orc_routine,)),
        orc("orc-2", x=9, y=9),
        d6={"party": 3, "orcs": 3},
        declared={"hugo": MELEE, "orc": MELEE, "orc-2": {"action": "other"}},
    )


def test_a_creature_felled_in_a_tied_segment_still_lands_its_blow():
    """Tied groups, both in melee with speed-5 weapons: the fighter fells the orc, and the
    orc's axe, swung in the same segment, still bites."""
    t = _duel(AXE)
    assert t.state.turn == "hugo"
    events = t.do(RoutineAttack(attacker="hugo", target="orc", faces=(19,), damage_faces=((8,),)))
    [kept] = of_type(events, SimultaneousActionKept)
    assert kept.combatant == "orc" and t["orc"].status == "dead"
    done(t, "hugo")
    assert t.state.turn == "orc"
    [strike] = of_type(t.do(RoutineAttack(attacker="orc", target="hugo", faces=(17,), damage_faces=((6,),))), TableAttackRolled)
    assert strike.hit and t["hugo"].hp == 24


def test_a_creature_felled_by_a_faster_weapon_does_not_act():
    """Not a tie: the longsword (5) comes before the slower two-handed axe (9)."""
    slow = Routine(name="Great axe", strikes=(Strike(name="great axe", damage="1d10"),), speed=9)
    t = _duel(slow)
    assert not of_type(
        t.do(RoutineAttack(attacker="hugo", target="orc", faces=(19,), damage_faces=((8,),))), SimultaneousActionKept
    )
    done(t, "hugo")
    assert t.state.turn != "orc"


def test_the_fight_ends_only_once_the_simultaneous_blow_has_landed():
    t = fight(
        fighter(x=0, y=0),
        orc(x=1, y=0, hp=4, routines=(AXE,)),
        d6={"party": 3, "orcs": 3},
        declared={"hugo": MELEE, "orc": MELEE},
    )
    t.do(RoutineAttack(attacker="hugo", target="orc", faces=(19,), damage_faces=((8,),)))
    assert t.state.phase == "high"
    done(t, "hugo")
    t.do(RoutineAttack(attacker="orc", target="hugo", faces=(17,), damage_faces=((6,),)))
    assert not of_type(t.events, CombatEnded)
    done(t, "orc")
    [ended] = of_type(t.events, CombatEnded)
    assert ended.winner == "party" and t.state.phase == "ended"
