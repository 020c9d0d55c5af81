"""srd-2024-variant Initiative Reorder (optional): swaps before the first round.

"Each player, in order of highest to lowest Initiative, can propose to swap their place with
another player. The GM can do the same among the entities they control. The swap can only
happen before the first round begins. A surprised combatant cannot swap places."
"""

from combat.fivee.initiative import OrderTie, RollInitiative
from combat.kernel.commands import EndTurn
from combat.kernel.events import RoundStarted
from combat.rulesets.srd2024_variant.reorder import (
    AnswerSwap,
    EndReorder,
    PassSwap,
    PlacesSwapped,
    ProposeSwap,
    ReorderOpened,
    SwapAnswered,
)
from tests.helpers import Table, monster, of_type, pc


def _party(surprised=()) -> Table:
    """Aria 18, Bram 15, Cora 9 (players), a goblin 12 and a wolf 6."""
    t = Table("srd-2024-variant").add(
        pc("aria", player="Sam"), pc("bram", player="Ana"), pc("cora", player="Kim"), monster("goblin"), monster("wolf")
    )
    return t.start({"aria": 18, "bram": 15, "cora": 9, "goblin": 12, "wolf": 6}, surprised=surprised)


def test_once_initiative_is_settled_the_players_are_queued_to_propose_swaps_in_initiative_order():
    """'Each player, in order of highest to lowest Initiative, can propose to swap.'"""
    t = _party()
    assert t.state.phase == "reorder" and t.state.round == 0
    assert of_type(t.events, ReorderOpened) == [ReorderOpened(queue=("aria", "bram", "cora"))]


def test_an_accepted_swap_exchanges_the_two_places():
    """'propose to swap their place with another player': Cora accepts and goes first."""
    t = _party()
    t.do(ProposeSwap(combatant="aria", other="cora"), actor="Sam")
    events = t.do(AnswerSwap(combatant="cora", accept=True), actor="Kim")
    assert of_type(events, PlacesSwapped) == [PlacesSwapped(first="aria", second="cora", first_total=18, second_total=9)]
    assert t["cora"].initiative == 18 and t["aria"].initiative == 9
    t.do(PassSwap(combatant="bram"), actor="Ana")
    t.do(PassSwap(combatant="cora"), actor="Kim")  # being asked is not her own chance to propose
    t.do(EndReorder())
    assert t.ruleset.turn_order(t.state, False) == ["cora", "bram", "goblin", "aria", "wolf"]
    assert t.state.turn == "cora" and t.rebuilt() == t.state


def test_a_declined_swap_changes_nothing_but_uses_the_proposers_chance():
    t = _party()
    t.do(ProposeSwap(combatant="aria", other="bram"), actor="Sam")
    events = t.do(AnswerSwap(combatant="bram", accept=False), actor="Ana")
    assert of_type(events, SwapAnswered)[0].accepted is False and not of_type(events, PlacesSwapped)
    assert t["aria"].initiative == 18 and t.state.rules.reorder_queue == ("bram", "cora")


def test_players_propose_in_initiative_order():
    """Cora (9) waits for Aria (18) and Bram (15) to propose or pass."""
    t = _party()
    error = t.rejects(ProposeSwap(combatant="cora", other="aria"), "reorder/not-your-turn", actor="Kim")
    assert error.allowed == "propose_swap or pass_swap for aria"


def test_a_surprised_combatant_asking_to_swap_is_refused():
    """'A surprised combatant cannot swap places.'"""
    t = _party(surprised=("cora",))
    assert t.state.rules.reorder_queue == ("aria", "bram")
    t.rejects(ProposeSwap(combatant="cora", other="aria"), "reorder/surprised", actor="Kim")


def test_nobody_can_swap_places_with_a_surprised_combatant():
    """'A surprised combatant cannot swap places': not even when another asks."""
    t = _party(surprised=("cora",))
    t.rejects(ProposeSwap(combatant="aria", other="cora"), "reorder/surprised", actor="Sam")


def test_a_player_swaps_only_with_another_player():
    """'propose to swap their place with another player'."""
    t = _party()
    t.rejects(ProposeSwap(combatant="aria", other="goblin"), "reorder/players-only", actor="Sam")


def test_a_player_cannot_propose_for_someone_elses_character():
    t = _party()
    t.rejects(ProposeSwap(combatant="aria", other="bram"), "reorder/not-your-character", actor="Kim")


def test_only_the_asked_player_answers_a_proposal():
    t = _party()
    t.do(ProposeSwap(combatant="aria", other="cora"), actor="Sam")
    t.rejects(AnswerSwap(combatant="bram", accept=True), "reorder/not-asked", actor="Ana")
    t.rejects(AnswerSwap(combatant="cora", accept=True), "reorder/not-your-character", actor="Ana")


def test_the_gm_swaps_the_entities_they_control():
    """'The GM can do the same among the entities they control.'"""
    t = _party()
    t.do(ProposeSwap(combatant="wolf", other="goblin"))
    assert t["wolf"].initiative == 12 and t["goblin"].initiative == 6


def test_a_player_cannot_move_the_gms_entities():
    t = _party()
    t.rejects(ProposeSwap(combatant="wolf", other="goblin"), "reorder/gm-decides", actor="Sam")


def test_the_gm_cannot_swap_a_monster_with_a_player():
    t = _party()
    t.rejects(ProposeSwap(combatant="goblin", other="cora"), "reorder/players-only")


def test_the_reorder_waits_for_every_players_chance_before_round_one():
    """'The swap can only happen before the first round begins': the GM closes it after the players."""
    t = _party()
    t.do(PassSwap(combatant="aria"), actor="Sam")
    error = t.rejects(EndReorder(), "reorder/players-waiting")
    assert "Bram" in error.message
    t.do(PassSwap(combatant="bram"), actor="Ana")
    t.do(PassSwap(combatant="cora"), actor="Kim")
    t.rejects(EndReorder(), "reorder/gm-ends", actor="Sam")
    events = t.do(EndReorder())
    assert of_type(events, RoundStarted) == [RoundStarted(round=1)] and t.state.turn == "aria"


def test_no_swap_once_the_rounds_have_begun():
    """'The swap can only happen before the first round begins.'"""
    t = _party()
    for cid, player in (("aria", "Sam"), ("bram", "Ana"), ("cora", "Kim")):
        t.do(PassSwap(combatant=cid), actor=player)
    t.do(EndReorder())
    t.rejects(ProposeSwap(combatant="aria", other="bram"), "phase/not-allowed", actor="Sam")


def test_a_swap_into_a_tied_place_takes_its_rank_in_the_tie():
    """Aria takes Bram's place among the 15s, ahead of the goblin the GM put second."""
    t = Table("srd-2024-variant").add(pc("aria", player="Sam"), pc("bram", player="Ana"), monster("goblin"))
    t.start({"aria": 4, "bram": 15, "goblin": 15})
    t.do(OrderTie(order=("bram", "goblin")))
    t.do(ProposeSwap(combatant="bram", other="aria"), actor="Ana")
    t.do(AnswerSwap(combatant="aria", accept=True), actor="Sam")
    assert t.ruleset.turn_order(t.state, False) == ["aria", "goblin", "bram"]


def test_with_the_reorder_setting_off_round_one_starts_at_once():
    t = Table("srd-2024-variant", settings={"initiative_reorder": False}).add(pc("aria"), monster("goblin"))
    t.start({"aria": 5, "goblin": 10})
    assert t.state.phase == "turns" and t.state.turn == "goblin"
    t.do(EndTurn(combatant="goblin"))
    t.rejects(RollInitiative(combatant="aria", faces=(20,)), "initiative/already-rolled")
