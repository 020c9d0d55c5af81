"""srd-2024-variant initiative Δ: the group roll is optional, tied players reroll a d20.

"Optional: For a group of identical entities (i.e. same stat block), the GM can make a single
roll, so each member of that group has the same Initiative."
"Ties. If a tie occurs, the GM decides the order among tied non-player entities, and the
players reroll a D20 to decide the order among tied characters. The GM decides the order if
the tie is between a monster and a player character."
"""

from combat.fivee.initiative import InitiativeTied, OrderTie, RollInitiative, TieOrdered
from combat.kernel.commands import AddCombatant, BeginCombat
from combat.kernel.events import DiceRolled, InitiativeSet
from combat.rulesets.srd2024_variant.initiative import RerollTie, TieRerolled
from tests.helpers import Table, monster, of_type, pc

NO_REORDER = {"initiative_reorder": False}


def _goblins(t: Table) -> Table:
    return t.add(*(monster(f"goblin-{i}", group="goblins", initiative_bonus=2) for i in (1, 2, 3)))


def test_without_the_group_setting_each_goblin_rolls_its_own_initiative():
    """The single roll is optional; by default every entity rolls for itself."""
    t = _goblins(Table("srd-2024-variant", settings=NO_REORDER).add(pc("aria")))
    assert all(t[f"goblin-{i}"].group is None for i in (1, 2, 3))
    t.do(BeginCombat())
    events = t.do(RollInitiative())
    assert [e.roller for e in of_type(events, DiceRolled)] == ["aria", "goblin-1", "goblin-2", "goblin-3"]
    assert all(len(e.combatants) == 1 for e in of_type(events, InitiativeSet))


def test_with_the_group_setting_identical_goblins_share_one_roll():
    """'the GM can make a single roll, so each member of that group has the same Initiative.'"""
    t = _goblins(Table("srd-2024-variant", settings={**NO_REORDER, "group_initiative": True}).add(pc("aria")))
    t.do(BeginCombat())
    events = t.do(RollInitiative(combatant="goblin-2", faces=(9,)))
    assert of_type(events, InitiativeSet) == [InitiativeSet(combatants=("goblin-1", "goblin-2", "goblin-3"), total=11)]


def test_a_group_member_with_another_stat_block_is_rejected():
    """'a group of identical entities (i.e. same stat block)': a tougher goblin is not one of them."""
    t = _goblins(Table("srd-2024-variant", settings={"group_initiative": True}))
    error = t.rejects(
        AddCombatant(combatant=monster("boss", group="goblins", initiative_bonus=2, max_hp=21)), "initiative/group-not-identical"
    )
    assert "max_hp" in error.message


def test_tied_players_reroll_a_d20_and_the_higher_goes_first():
    """'the players reroll a D20 to decide the order among tied characters.'"""
    t = Table("srd-2024-variant", settings=NO_REORDER).add(pc("aria"), pc("bram"), monster("goblin"))
    t.start({"aria": 12, "bram": 12, "goblin": 3})
    [tie] = t.state.ties
    assert tie.decided_by == "players" and t.state.phase == "initiative"
    t.do(RerollTie(combatant="aria", faces=(6,)))
    events = t.do(RerollTie(combatant="bram", faces=(17,)))
    assert of_type(events, TieRerolled) == [TieRerolled(combatant="bram", total=12, face=17)]
    assert of_type(events, TieOrdered) == [TieOrdered(total=12, order=("bram", "aria"))]
    assert t.state.phase == "turns" and t.state.turn == "bram"
    assert t.ruleset.turn_order(t.state, False) == ["bram", "aria", "goblin"]
    assert t.rebuilt() == t.state


def test_players_tied_again_reroll_again_and_the_first_reroll_keeps_its_weight():
    """Rerolls go on until the tied characters are told apart; 15 then 3 still beats a lone 8."""
    t = Table("srd-2024-variant", settings=NO_REORDER).add(pc("aria"), pc("bram"), pc("cora"), monster("goblin"))
    t.start({"aria": 10, "bram": 10, "cora": 10, "goblin": 3})
    t.do(RerollTie(combatant="aria", faces=(15,)))
    t.do(RerollTie(combatant="bram", faces=(15,)))
    t.do(RerollTie(combatant="cora", faces=(8,)))
    assert t.state.phase == "initiative"  # Aria and Bram are still level
    t.rejects(RerollTie(combatant="cora", faces=(20,)), "initiative/reroll-waiting")
    t.do(RerollTie(combatant="aria", faces=(3,)))
    events = t.do(RerollTie(combatant="bram", faces=(11,)))
    assert of_type(events, TieOrdered) == [TieOrdered(total=10, order=("bram", "aria", "cora"))]


def test_the_service_rerolls_for_every_tied_player_when_no_dice_are_entered():
    """With no faces entered, the seeded dice reroll until the tie is settled."""
    t = Table("srd-2024-variant", seed=7, settings=NO_REORDER).add(pc("aria"), pc("bram"), monster("goblin"))
    t.start({"aria": 12, "bram": 12, "goblin": 3})
    events = t.do(RerollTie())
    assert {e.combatant for e in of_type(events, TieRerolled)} == {"aria", "bram"}
    assert len(of_type(events, TieOrdered)) == 1 and t.state.phase == "turns"


def test_players_cannot_simply_choose_their_order_in_a_tie():
    """In this variant tied players reroll; order_tie is refused for their tie."""
    t = Table("srd-2024-variant", settings=NO_REORDER).add(pc("aria"), pc("bram"), monster("goblin"))
    t.start({"aria": 12, "bram": 12, "goblin": 3})
    error = t.rejects(OrderTie(order=("bram", "aria")), "initiative/players-reroll")
    assert error.allowed == "reroll_tie"


def test_the_gm_orders_a_tie_between_a_monster_and_a_character():
    """'The GM decides the order if the tie is between a monster and a player character.'"""
    t = Table("srd-2024-variant", settings=NO_REORDER).add(pc("aria", player="Sam"), monster("goblin"))
    t.start({"aria": 12, "goblin": 12})
    [tie] = of_type(t.events, InitiativeTied)
    assert tie.decided_by == "gm"
    t.rejects(RerollTie(combatant="aria", faces=(20,)), "initiative/no-reroll")
    t.rejects(OrderTie(order=("aria", "goblin")), "initiative/gm-decides", actor="Sam")
    t.do(OrderTie(order=("goblin", "aria")))
    assert t.state.turn == "goblin"


def test_the_gm_orders_tied_monsters():
    """'the GM decides the order among tied non-player entities'."""
    t = Table("srd-2024-variant", settings=NO_REORDER).add(pc("aria"), monster("goblin"), monster("wolf"))
    t.start({"aria": 3, "goblin": 14, "wolf": 14})
    t.do(OrderTie(order=("wolf", "goblin")))
    assert t.ruleset.turn_order(t.state, False) == ["wolf", "goblin", "aria"]
