"""segments-1e: the round structure as a state machine, and the segment clock."""

from combat.kernel.commands import EndTurn
from combat.kernel.events import PhaseChanged, RoundStarted
from combat.rulesets import get_ruleset
from combat.rulesets.segments_1e.commands import CheckSurprise, RoutineAttack
from combat.rulesets.segments_1e.events import SegmentTurnStarted
from tests.helpers import of_type
from tests.rulesets.segments_1e.helpers import begin, declare, done, fight, fighter, initiative, ledger, orc, owlbear, table


def test_a_round_walks_the_eight_steps_of_the_text_in_order():
    """'1. All individuals Declare Actions ... 2. Group Initiative ... 3. ... Fast Action ...
    4. ... multi-attack ability ... 5. ... HIGH ... LOW ... 6. ... remaining attacks ...
    7. ... resolve all spells ... 8. ... End the Round sequence'."""
    t = table(fighter(x=0, y=0), orc(x=1, y=0))
    begin(t)
    initiative(declare(t), party=5, orcs=2)
    done(t, "hugo")
    done(t, "orc")
    phases = [(e.previous, e.phase) for e in of_type(t.events, PhaseChanged)]
    assert phases == [
        ("setup", "surprise"),
        ("surprise", "declare"),
        ("declare", "initiative"),
        ("initiative", "fast_actions"),
        ("fast_actions", "multi_attacks"),
        ("multi_attacks", "high"),
        ("high", "low"),
        ("low", "multi_attacks_rest"),
        ("multi_attacks_rest", "spells"),
        ("spells", "end_of_round"),
        ("end_of_round", "declare"),
    ]
    assert [e.round for e in of_type(t.events, RoundStarted)] == [1, 2]
    assert t.rebuilt() == t.state


def test_the_diagram_draws_the_round_as_a_loop():
    """`combat diagram segments-1e` shows the same table the engine checks."""
    diagram = get_ruleset("segments-1e").phases.mermaid()
    for step in (
        "surprise --> surprise_segments: surprise_checked",
        "declare --> initiative: close_declarations",
        "initiative --> fast_actions: groups_set",
        "fast_actions --> multi_attacks: fast_actions_done",
        "multi_attacks --> high: first_routines_done",
        "high --> low: high_done",
        "low --> multi_attacks_rest: low_done",
        "multi_attacks_rest --> spells: routines_done",
        "spells --> end_of_round: spells_done",
        "end_of_round --> declare: round_begins",
    ):
        assert step in diagram


def test_surprise_is_checked_once_at_the_start_of_the_fight():
    """'The GM will check for Surprise.' - before the first round, not every round."""
    t = fight(fighter(), orc(), d6={"party": 5, "orcs": 2})
    t.rejects(CheckSurprise(side="orcs", faces=(1,)), "phase/not-allowed")


def test_the_state_shows_the_segment_being_played():
    """'Each round ... is further divided into 10 segments': HIGH (party rolled 5) acts in
    the segment of the orcs' 2, LOW in the segment of the party's 5."""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0), d6={"party": 5, "orcs": 2})
    assert (t.state.phase, t.state.turn, ledger(t).segment) == ("high", "hugo", 2)
    done(t, "hugo")
    assert (t.state.phase, t.state.turn, ledger(t).segment) == ("low", "orc", 5)


def test_nobody_takes_a_turn_in_a_step_with_nobody_in_it():
    """A round without fast actions or spells goes straight from the groups to the end."""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0), d6={"party": 2, "orcs": 5})
    turns = [(e.combatant, e.slot.key) for e in of_type(t.events, SegmentTurnStarted)]
    assert turns == [("orc", "high")]


def test_a_multi_attack_creature_takes_its_first_routine_before_high_and_the_rest_after_low():
    """'4. If any individual has the multi-attack ability (and is in melee), the GM will ask
    them to take their turn' ... '6. ... those with any remaining attacks due to the
    multi-attack ability complete their action.' The owlbear's side lost initiative."""
    t = fight(
        fighter(x=0, y=0),
        owlbear(x=1, y=0),
        d6={"party": 6, "orcs": 1},
        declared={"owlbear": {"action": "melee"}, "hugo": {"action": "melee"}},
    )
    assert (t.state.phase, t.state.turn) == ("multi_attacks", "owlbear")
    t.do(RoutineAttack(attacker="owlbear", target="hugo", faces=(2, 2, 2)))
    done(t, "owlbear")
    assert (t.state.phase, t.state.turn) == ("high", "hugo")
    t.do(RoutineAttack(attacker="hugo", target="owlbear", faces=(3,)))
    done(t, "hugo")
    assert (t.state.phase, t.state.turn, ledger(t).segment) == ("multi_attacks_rest", "owlbear", 6)
    t.do(RoutineAttack(attacker="owlbear", target="hugo", faces=(2, 2, 2)))
    t.do(EndTurn(combatant="owlbear"))
    assert t.state.phase == "declare" and t.state.round == 2
