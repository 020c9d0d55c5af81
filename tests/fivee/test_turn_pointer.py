"""The GM moves the turn: goto_turn and previous_turn, what they do to the action economy and
to start- and end-of-turn effects (srd-2024, the variant and a5e)."""

from __future__ import annotations

import pytest

from combat.app.application import Encounters
from combat.common.commands import ApplyCondition
from combat.fivee.action_commands import Move, TakeAction
from combat.fivee.attack_commands import Attack
from combat.fivee.initiative import RollInitiative
from combat.fivee.turn_pointer import GotoTurn, PreviousTurn, TurnMoved
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn
from combat.kernel.events import ConditionEnded, ConditionSpec, TurnEnded, TurnStarted
from tests.helpers import Table, monster, of_type, pc


def _fight(ruleset: str = "srd-2024") -> Table:
    """Order: Aria 18, the hag 12, Bron 9, the goblin 5."""
    t = Table.as_rolled(ruleset)
    t.add(pc("aria"), monster("hag", max_hp=82), pc("bron"), monster("goblin"))
    if ruleset == "a5e":
        t.do(BeginCombat())
        for cid, face in {"aria": 18, "hag": 12, "bron": 9, "goblin": 5}.items():
            t.do(RollInitiative(combatant=cid, faces=(face,)))
        return t
    return t.start({"aria": 18, "hag": 12, "bron": 9, "goblin": 5})


def test_goto_turn_ends_the_current_turn_and_starts_the_named_one_passing_over_the_rest():
    """Avrae's `!i move`: a skipped turn is given now. The current turn ends with its end-of-turn
    effects; the named combatant's turn starts with its start-of-turn effects and a fresh
    economy; the combatants passed over get no turn and none of their effects run."""
    t = _fight()
    t.do(ApplyCondition(target="goblin", condition=ConditionSpec(name="frightened", ends="end", ends_on="aria")))
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="poisoned", ends="start", ends_on="bron")))
    t.do(ApplyCondition(target="bron", condition=ConditionSpec(name="prone", ends="start", ends_on="hag")))
    events = t.do(GotoTurn(combatant="bron", reason="Bron's turn was skipped"))
    assert events[0] == TurnEnded(combatant="aria")
    assert ConditionEnded(target="goblin", condition="frightened", reason="end of Aria's turn") in events
    assert TurnMoved(combatant="bron", round=1, reason="Bron's turn was skipped") in events
    assert ConditionEnded(target="aria", condition="poisoned", reason="start of Bron's turn") in events
    assert events[-1] == TurnStarted(combatant="bron", round=1)
    assert t["bron"].has("prone"), "the hag's turn was passed over: its start-of-turn effects did not run"
    assert t.state.turn == "bron" and t.state.round == 1
    assert t["bron"].economy.action and t["bron"].economy.movement == 30


def test_after_goto_turn_the_order_goes_on_from_the_combatant_moved_to():
    """After the moved-to turn, end_turn follows the initiative order from there."""
    t = _fight()
    t.do(GotoTurn(combatant="bron"))
    t.do(EndTurn(combatant="bron"))
    assert t.state.turn == "goblin"
    t.do(EndTurn(combatant="goblin"))
    assert t.state.turn == "aria" and t.state.round == 2


def test_goto_turn_refuses_the_dead_the_current_and_a_turn_that_waits_for_damage():
    t = _fight()
    t.rejects(GotoTurn(combatant="aria"), "turn/already")
    t.do(Attack(attacker="aria", target="goblin", faces=(15,)))  # the damage is still to roll
    error = t.rejects(GotoTurn(combatant="bron"), "turn/pending-damage")
    assert error.allowed == "roll_damage for aria"
    t.rejects(GotoTurn(combatant="nobody"), "combatant/unknown")


def test_goto_turn_is_the_gms_only():
    assert GotoTurn.gm_only and PreviousTurn.gm_only


def test_previous_turn_takes_the_current_turn_back_and_gives_the_one_before_a_fresh_turn():
    """Avrae's `!i prev`. The turn taken back will come again, so its end-of-turn effects do
    not run; the previous combatant's turn starts afresh: what it spent is not carried over."""
    t = _fight()
    t.do(Move(combatant="aria", feet=30))
    t.do(TakeAction(combatant="aria", action="dash"))
    t.do(EndTurn(combatant="aria"))
    t.do(ApplyCondition(target="goblin", condition=ConditionSpec(name="frightened", ends="end", ends_on="hag")))
    events = t.do(PreviousTurn(reason="Aria forgot her bonus action"))
    assert events[0] == TurnEnded(combatant="hag", taken_back=True)  # taken back, not ended: it comes again
    assert not of_type(events, ConditionEnded) and t["goblin"].has("frightened")
    assert TurnMoved(combatant="aria", round=1, back=True, reason="Aria forgot her bonus action") in events
    assert t.state.turn == "aria" and t["aria"].economy.action and t["aria"].economy.moved == 0
    t.do(EndTurn(combatant="aria"))
    assert t.state.turn == "hag"


def test_previous_turn_from_the_first_turn_of_a_round_goes_back_a_round():
    t = _fight()
    for cid in ("aria", "hag", "bron", "goblin"):
        t.do(EndTurn(combatant=cid))
    assert t.state.turn == "aria" and t.state.round == 2
    t.do(PreviousTurn())
    assert t.state.turn == "goblin" and t.state.round == 1
    t.do(EndTurn(combatant="goblin"))
    assert t.state.turn == "aria" and t.state.round == 2


def test_there_is_no_turn_before_the_first_turn_of_the_fight():
    t = _fight()
    t.rejects(PreviousTurn(), "turn/first")


def test_previous_turn_passes_over_the_dead():
    t = _fight()
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="hag"))
    t.do(Attack(attacker="bron", target="goblin", faces=(20,), damage_faces=(8, 8)))  # the goblin dies
    t.do(EndTurn(combatant="bron"))
    assert t.state.turn == "aria" and t.state.round == 2
    t.do(PreviousTurn())
    assert t.state.turn == "bron" and t.state.round == 1


@pytest.mark.parametrize("ruleset", ["srd-2024-variant", "a5e"])
def test_the_variant_and_a5e_move_the_turn_the_same_way(ruleset):
    t = _fight(ruleset)
    assert t.state.turn == "aria"
    t.do(GotoTurn(combatant="bron"))
    assert t.state.turn == "bron"
    t.do(PreviousTurn())
    assert t.state.turn == "hag" and t.rebuilt() == t.state


def test_a_moved_turn_is_no_conflict_when_the_past_is_checked_again(encounters: Encounters):
    """Re-checks after a change to the past see a TurnMoved as the GM's choice, not a skipped turn."""
    eid = encounters.create("srd-2024", "moves", seed=5)
    for spec in (pc("aria"), monster("hag", max_hp=82), pc("bron")):
        encounters.execute(eid, AddCombatant(combatant=spec))
    encounters.execute(eid, BeginCombat())
    for cid, face in (("aria", 18), ("hag", 12), ("bron", 9)):
        encounters.execute(eid, RollInitiative(combatant=cid, faces=(face,)))
    swing = encounters.execute(eid, Attack(attacker="aria", target="hag", faces=(3,)))
    encounters.execute(eid, GotoTurn(combatant="bron"))
    encounters.execute(eid, EndTurn(combatant="bron"))
    encounters.retract(eid, [r.seq for r in swing.records], reason="she never swung")
    state = encounters.state(eid)
    assert state.conflicts == () and state.turn == "aria" and state.round == 2
