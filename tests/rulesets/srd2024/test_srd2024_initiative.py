"""srd-2024 initiative: a Dexterity check ranked high to low, fixed for the fight.

"When combat starts, every participant rolls Initiative; they make a Dexterity check that
determines their place in the Initiative order."
"""

from combat.fivee.initiative import InitiativeTied, OrderTie, RollInitiative, TieOrdered
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn, MarkSurprised
from combat.kernel.events import DiceRolled, InitiativeSet, RoundStarted, TurnStarted
from projections.initiative import initiative_order
from tests.helpers import Table, monster, of_type, pc


def _rolling(*specs) -> Table:
    t = Table().add(*specs)
    t.do(BeginCombat())
    return t


def _end_turns(t: Table, *cids: str) -> None:
    for cid in cids:
        t.do(EndTurn(combatant=cid))


def test_initiative_is_a_d20_plus_the_dexterity_modifier():
    """'they make a Dexterity check': d20 + modifier, 14 on the die +3 is 17."""
    t = _rolling(pc("aria", initiative_bonus=3), monster("goblin"))
    events = t.do(RollInitiative(combatant="aria", faces=(14,)))
    [roll] = of_type(events, DiceRolled)
    assert roll.notation == "1d20+3" and roll.source == "entered" and roll.purpose == "initiative"
    assert of_type(events, InitiativeSet) == [InitiativeSet(combatants=("aria",), total=17)]
    assert t["aria"].initiative == 17


def test_combatants_act_from_highest_to_lowest_initiative():
    """'The GM ranks the combatants, from highest to lowest Initiative.'"""
    t = Table().add(pc("aria"), pc("bram", initiative_bonus=1), monster("goblin", initiative_bonus=2))
    t.start({"aria": 8, "bram": 15, "goblin": 12})
    assert t.ruleset.turn_order(t.state, False) == ["bram", "goblin", "aria"]
    assert t.state.turn == "bram"


def test_the_initiative_order_stays_the_same_from_round_to_round():
    """'The Initiative order remains the same from round to round.'"""
    t = Table().add(pc("aria"), monster("goblin")).start({"aria": 8, "goblin": 12})
    _end_turns(t, "goblin", "aria")
    assert t.state.round == 2 and t.state.turn == "goblin"
    _end_turns(t, "goblin")
    assert t.state.turn == "aria" and t["aria"].initiative == 8


def test_a_second_initiative_roll_for_the_same_combatant_is_rejected():
    """Initiative is rolled once 'when combat starts' and kept for the whole fight."""
    t = _rolling(pc("aria"), monster("goblin"))
    t.do(RollInitiative(combatant="aria", faces=(11,)))
    error = t.rejects(RollInitiative(combatant="aria", faces=(20,)), "initiative/already-rolled")
    assert "11" in error.message and error.allowed == "goblin"


def test_rolling_for_everyone_left_when_all_have_rolled_is_rejected():
    """Everyone rolled 'when combat starts'; there is no one left to roll."""
    t = Table().add(pc("aria"), monster("goblin")).start({"aria": 8, "goblin": 12})
    t.rejects(RollInitiative(), "initiative/all-rolled")


def test_the_service_rolls_for_everyone_left_from_the_encounter_seed():
    """'The GM rolls for monsters': with no faces entered, the seeded dice roll for each unit."""
    t = _rolling(pc("aria"), monster("goblin"), monster("orc"))
    t.do(RollInitiative(combatant="aria", faces=(11,)))
    events = t.do(RollInitiative())
    rolls = of_type(events, DiceRolled)
    assert [r.roller for r in rolls] == ["goblin", "orc"]
    assert all(r.source == "generated" for r in rolls)
    again = _rolling(pc("aria"), monster("goblin"), monster("orc"))
    again.do(RollInitiative(combatant="aria", faces=(11,)))
    assert of_type(again.do(RollInitiative()), DiceRolled) == rolls


def test_faces_entered_while_several_still_roll_are_rejected():
    """Entered dice belong to one roller; the service cannot guess whose they were."""
    t = _rolling(pc("aria"), monster("goblin"))
    t.rejects(RollInitiative(faces=(12,)), "dice/whose-faces")


def test_a_surprised_combatant_rolls_initiative_with_disadvantage():
    """'If a combatant is surprised by combat starting, that combatant has Disadvantage on their Initiative roll.'"""
    t = _rolling(pc("aria", initiative_bonus=2), monster("goblin"))
    t.do(MarkSurprised(combatants=("aria",)))
    events = t.do(RollInitiative(combatant="aria", faces=(17, 4)))
    [roll] = of_type(events, DiceRolled)
    assert roll.notation == "2d20kl1+2" and roll.total == 6
    assert of_type(events, InitiativeSet) == [InitiativeSet(combatants=("aria",), total=6, disadvantage=True)]


def test_surprise_cannot_be_marked_after_the_combatant_has_rolled():
    """Surprise affects the Initiative roll, so it is decided before anyone rolls."""
    t = _rolling(pc("aria"), pc("bram"), monster("goblin"))
    t.do(MarkSurprised(combatants=("aria",)))
    t.do(RollInitiative(combatant="bram", faces=(9,)))
    t.rejects(MarkSurprised(combatants=("bram",)), "phase/not-allowed")


def test_a_group_of_identical_creatures_shares_one_roll():
    """'For a group of identical creatures, the GM makes a single roll, so each member of the group has the same Initiative.'"""
    goblins = [monster(f"goblin-{i}", group="goblins", initiative_bonus=2) for i in (1, 2, 3)]
    t = _rolling(pc("aria"), *goblins)
    events = t.do(RollInitiative(combatant="goblin-2", faces=(10,)))
    assert len(of_type(events, DiceRolled)) == 1
    assert of_type(events, InitiativeSet) == [InitiativeSet(combatants=("goblin-1", "goblin-2", "goblin-3"), total=12)]
    t.do(RollInitiative(combatant="aria", faces=(5,)))
    assert t.ruleset.turn_order(t.state, False) == ["goblin-1", "goblin-2", "goblin-3", "aria"]


def test_a_group_with_a_surprised_member_rolls_its_shared_initiative_with_disadvantage():
    """Silent in the text; the engine's choice: one surprised goblin slows the whole group's roll."""
    t = _rolling(pc("aria"), monster("goblin-1", group="goblins"), monster("goblin-2", group="goblins"))
    t.do(MarkSurprised(combatants=("goblin-2",)))
    [roll] = of_type(t.do(RollInitiative(combatant="goblin-1", faces=(15, 3))), DiceRolled)
    assert roll.notation == "2d20kl1+0" and roll.total == 3


def test_a_creature_with_another_initiative_modifier_cannot_join_a_group():
    """Only identical creatures share a roll."""
    t = Table().add(monster("goblin-1", group="goblins", initiative_bonus=2))
    t.rejects(AddCombatant(combatant=monster("goblin-boss", group="goblins", initiative_bonus=4)), "combatant/invalid")


def test_characters_cannot_share_a_group_roll():
    """'The GM makes a single roll' for identical creatures; each player rolls for their own character."""
    t = Table()
    t.rejects(AddCombatant(combatant=pc("aria", group="party")), "combatant/invalid")


def test_a_tie_between_monsters_and_characters_is_for_the_gm_and_round_one_waits():
    """'The GM decides the order if the tie is between a monster and a player character.'"""
    t = _rolling(pc("aria", initiative_bonus=2), monster("goblin", initiative_bonus=1))
    t.do(RollInitiative(combatant="aria", faces=(10,)))
    events = t.do(RollInitiative(combatant="goblin", faces=(11,)))
    assert of_type(events, InitiativeTied) == [InitiativeTied(total=12, units=(("aria",), ("goblin",)), decided_by="gm")]
    assert t.state.phase == "initiative" and t.state.round == 0 and t.state.turn is None
    assert [(e.combatant, e.tied) for e in initiative_order(t.state)] == [("aria", True), ("goblin", True)]


def test_a_player_may_not_order_a_tie_with_a_monster():
    """'The GM decides the order if the tie is between a monster and a player character.'"""
    t = _rolling(pc("aria", player="Sam"), monster("goblin"))
    t.do(RollInitiative(combatant="aria", faces=(12,)))
    t.do(RollInitiative(combatant="goblin", faces=(12,)))
    error = t.rejects(OrderTie(order=("goblin", "aria")), "initiative/gm-decides", actor="Sam")
    assert error.allowed == "the GM"


def test_the_gm_orders_a_mixed_tie_and_round_one_begins_in_that_order():
    """Once the GM has ordered the tie, the first round starts with whoever the GM put first."""
    t = _rolling(pc("aria"), monster("goblin"))
    t.do(RollInitiative(combatant="aria", faces=(12,)))
    t.do(RollInitiative(combatant="goblin", faces=(12,)))
    events = t.do(OrderTie(order=("goblin", "aria")))
    assert TieOrdered(total=12, order=("goblin", "aria")) in events
    assert of_type(events, RoundStarted) == [RoundStarted(round=1)]
    assert of_type(events, TurnStarted) == [TurnStarted(combatant="goblin", round=1)]
    assert [e.tied for e in initiative_order(t.state)] == [False, False]


def test_the_players_order_a_tie_between_characters():
    """'the players decide the order among tied characters.'"""
    t = _rolling(pc("aria", player="Sam"), pc("bram", player="Ana"), monster("goblin"))
    t.do(RollInitiative(combatant="aria", faces=(9,)))
    events = t.do(RollInitiative(combatant="bram", faces=(9,)))
    assert of_type(events, InitiativeTied)[0].decided_by == "players"
    t.do(RollInitiative(combatant="goblin", faces=(3,)))
    assert t.state.round == 0
    t.do(OrderTie(order=("bram", "aria")), actor="Ana")
    assert t.ruleset.turn_order(t.state, False) == ["bram", "aria", "goblin"]
    assert t.state.turn == "bram"


def test_a_player_without_a_character_in_the_tie_does_not_order_it():
    """It is the players of the tied characters who decide; Kim's Lyra is not tied."""
    t = _rolling(pc("aria", player="Sam"), pc("bram", player="Ana"), pc("lyra", player="Kim"), monster("goblin"))
    for cid, face in (("aria", 9), ("bram", 9), ("lyra", 18), ("goblin", 3)):
        t.do(RollInitiative(combatant=cid, faces=(face,)))
    error = t.rejects(OrderTie(order=("bram", "aria")), "initiative/not-your-tie", actor="Kim")
    assert error.allowed == "the GM or Ana, Sam"
    t.do(OrderTie(order=("aria", "bram")), actor="Sam")
    assert t.state.turn == "lyra"


def test_the_gm_orders_tied_monsters_naming_a_group_by_its_group_id():
    """'the GM decides the order among tied monsters.'"""
    t = _rolling(pc("aria"), monster("goblin-1", group="goblins"), monster("goblin-2", group="goblins"), monster("ogre"))
    t.do(RollInitiative(combatant="aria", faces=(2,)))
    t.do(RollInitiative(combatant="goblin-1", faces=(14,)))
    t.do(RollInitiative(combatant="ogre", faces=(14,)))
    assert t.state.ties[0].units == (("goblin-1", "goblin-2"), ("ogre",))
    t.do(OrderTie(order=("ogre", "goblins")))
    assert t.ruleset.turn_order(t.state, False) == ["ogre", "goblin-1", "goblin-2", "aria"]


def test_a_settled_tie_cannot_be_reordered_once_the_rounds_have_begun():
    """'The Initiative order remains the same from round to round.'"""
    t = _rolling(pc("aria"), monster("goblin"))
    t.do(RollInitiative(combatant="aria", faces=(12,)))
    t.do(RollInitiative(combatant="goblin", faces=(12,)))
    t.do(OrderTie(order=("goblin", "aria")))
    t.rejects(OrderTie(order=("aria", "goblin")), "initiative/fixed")


def test_ordering_only_part_of_a_tie_is_rejected():
    """An order settles the whole tie: every tied combatant, first to last."""
    t = _rolling(pc("aria"), pc("bram"), monster("goblin"))
    for cid in ("aria", "bram", "goblin"):
        t.do(RollInitiative(combatant=cid, faces=(7,)))
    error = t.rejects(OrderTie(order=("aria", "bram")), "initiative/no-such-tie")
    assert "aria, bram, goblin" in (error.allowed or "")


def test_a_late_arrival_rolls_and_joins_the_order_from_the_next_round():
    """Combatants who join mid-fight roll Initiative when they arrive and take their place in the order."""
    t = Table().add(pc("aria"), monster("goblin")).start({"aria": 15, "goblin": 5})
    t.do(AddCombatant(combatant=monster("wolf", initiative_bonus=2)))
    assert t.state.phase == "turns" and t["wolf"].initiative is None
    t.do(RollInitiative(combatant="wolf", faces=(8,)))
    assert t.ruleset.turn_order(t.state, False) == ["aria", "wolf", "goblin"]
    _end_turns(t, "aria")
    assert t.state.turn == "wolf"
    _end_turns(t, "wolf", "goblin")
    assert t.state.round == 2 and t.state.turn == "aria"


def test_a_late_arrival_above_the_current_turn_first_acts_next_round():
    """A hawk arriving on 19 after Aria (15) has acted waits for round 2, where it acts first."""
    t = Table().add(pc("aria"), monster("goblin")).start({"aria": 15, "goblin": 5})
    _end_turns(t, "aria")
    t.do(AddCombatant(combatant=monster("hawk")))
    t.do(RollInitiative(combatant="hawk", faces=(19,)))
    _end_turns(t, "goblin")
    assert t.state.round == 2 and t.state.turn == "hawk"


def test_a_late_arrival_joins_a_group_that_has_already_rolled():
    """'For a group of identical creatures, the GM makes a single roll': a goblin arriving after
    the goblins rolled shares their count (tests/fivee/test_fivee_texts_state.py covers all three)."""
    t = Table().add(pc("aria"), monster("goblin-1", group="goblins")).start({"aria": 15, "goblin-1": 5})
    t.do(AddCombatant(combatant=monster("goblin-2", group="goblins")))
    assert t["goblin-2"].initiative == t["goblin-1"].initiative == 5


def test_a_late_arrival_tying_a_settled_tie_does_not_reshuffle_those_already_ordered():
    """'The Initiative order remains the same from round to round': the goblin, put before Aria
    by the GM, keeps its place when a wolf arrives on the same count; the wolf waits for the GM."""
    t = _rolling(pc("aria"), monster("goblin"), pc("bram"))
    t.do(RollInitiative(combatant="aria", faces=(12,)))
    t.do(RollInitiative(combatant="goblin", faces=(12,)))
    t.do(RollInitiative(combatant="bram", faces=(3,)))
    t.do(OrderTie(order=("goblin", "aria")))
    t.do(AddCombatant(combatant=monster("wolf")))
    events = t.do(RollInitiative(combatant="wolf", faces=(12,)))
    assert of_type(events, InitiativeTied)[0].units == (("goblin",), ("aria",), ("wolf",))
    assert t.ruleset.turn_order(t.state, False) == ["goblin", "aria", "wolf", "bram"]
    _end_turns(t, "goblin")
    assert t.state.turn == "aria"
    t.do(OrderTie(order=("goblin", "wolf", "aria")))
    _end_turns(t, "aria")
    assert t.state.turn == "bram"
    _end_turns(t, "bram")
    assert [t.state.turn, t.ruleset.turn_order(t.state, False)] == ["goblin", ["goblin", "wolf", "aria", "bram"]]
