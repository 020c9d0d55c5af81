"""declared-d10: one d10 per group, rolled again every round; players order their own group."""

from __future__ import annotations

import pytest

from combat.kernel.commands import EndTurn
from combat.kernel.events import DiceRolled, TurnStarted
from combat.rulesets import get_ruleset
from combat.rulesets.declared_d10.initiative import D10GroupOrdered, D10OrderGroup, D10RollGroupInitiative
from projections.initiative import initiative_order
from tests.helpers import monster, of_type, pc
from tests.rulesets.declared_d10.helpers import d10_table, open_normal_round, play_round

EVERYONE_PARRIES = dict.fromkeys(("aria", "bob", "goblin-1", "goblin-2", "boss"), ("parry_dodge", None))


def camp():
    """Aria and Bob; two goblins (one big group, as most creatures are) and their boss (its own group)."""
    return open_normal_round(
        d10_table(
            pc("aria", player="Sam"),
            pc("bob", player="Ana"),
            monster("goblin-1"),
            monster("goblin-2"),
            monster("boss", group="boss", max_hp=30),
        )
    )


def end_turns(t, *cids):
    for cid in cids:
        assert t.state.turn == cid
        t.do(EndTurn(combatant=cid))


def test_each_group_rolls_one_d10_and_the_highest_roll_goes_first():
    """'one player in the group rolls a d10 for group initiative and the GM rolls a d10 for
    initiative for each group of creatures ... the GM could have all the normal creatures as one
    group and a boss monster as another group ... The highest roll goes first and so on'."""
    t = play_round(camp(), EVERYONE_PARRIES, {"party": 4, "monsters": 7, "boss": 9})
    rolls = of_type(t.events, DiceRolled)
    assert [(r.roller, r.notation, r.total) for r in rolls] == [
        ("party", "1d10", 4),
        ("monsters", "1d10", 7),
        ("boss", "1d10", 9),
    ]
    assert get_ruleset("declared-d10").turn_order(t.state, False) == ["boss", "goblin-1", "goblin-2", "aria", "bob"]
    assert [(e.combatant, e.initiative, e.current) for e in initiative_order(t.state)][:2] == [
        ("boss", 9, True),
        ("goblin-1", 7, False),
    ]
    end_turns(t, "boss", "goblin-1", "goblin-2", "aria", "bob")
    assert t.state.round == 2


def test_a_group_rolls_once_a_round_and_again_the_next_round():
    """'Initiative is rolled at the start of each round'."""
    t = play_round(camp(), EVERYONE_PARRIES, {"party": 4})
    t.rejects(D10RollGroupInitiative(group="party", faces=(9,)), "initiative/already-rolled")
    t.rejects(D10RollGroupInitiative(group="ogres", faces=(9,)), "initiative/unknown-group")
    t.rejects(D10RollGroupInitiative(faces=(9,)), "dice/whose-faces")
    t.do(D10RollGroupInitiative(group="monsters", faces=(7,)))
    t.do(D10RollGroupInitiative(group="boss", faces=(9,)))
    end_turns(t, "boss", "goblin-1", "goblin-2", "aria", "bob")
    assert all(c.initiative is None for c in t.state.combatants.values())


def test_a_group_that_acts_last_in_one_round_can_act_first_in_the_next_and_get_two_sets_of_actions_in_a_row():
    """'this can result in one group going last in a round and then first in the next round and
    getting two sets of actions before the other group gets a response'."""
    t = open_normal_round(d10_table(pc("aria"), monster("goblin")))
    plans = {"aria": ("parry_dodge", None), "goblin": ("parry_dodge", None)}
    play_round(t, plans, {"party": 2, "monsters": 9})
    end_turns(t, "goblin", "aria")
    play_round(t, plans, {"party": 10, "monsters": 1})
    end_turns(t, "aria", "goblin")
    assert [e.combatant for e in of_type(t.events, TurnStarted)] == ["goblin", "aria", "aria", "goblin"]


def test_players_switch_the_order_of_who_acts_within_their_group():
    """'Players can switch the order of who takes their actions each round during their group
    initiative'."""
    t = camp()
    [ordered] = of_type(t.do(D10OrderGroup(group="party", order=("bob", "aria")), actor="Ana"), D10GroupOrdered)
    assert ordered.order == ("bob", "aria")
    t.rejects(D10OrderGroup(group="monsters", order=("goblin-2", "goblin-1")), "initiative/not-your-group", actor="Ana")
    t.rejects(D10OrderGroup(group="party", order=("bob", "goblin-1")), "initiative/bad-order", actor="Ana")
    play_round(t, EVERYONE_PARRIES, {"party": 9, "monsters": 7, "boss": 2})
    assert t.state.turn == "bob"
    t.do(EndTurn(combatant="bob"))
    t.rejects(D10OrderGroup(group="party", order=("aria", "bob")), "initiative/already-acted", actor="Sam")


def test_the_gm_orders_a_creature_group_and_can_change_it_for_those_yet_to_act():
    """The GM declares for the creatures, and orders their group the same way."""
    t = play_round(camp(), EVERYONE_PARRIES, {"party": 2, "monsters": 7})
    t.do(D10OrderGroup(group="monsters", order=("goblin-2", "goblin-1")))
    t.do(D10RollGroupInitiative(group="boss", faces=(1,)))
    end_turns(t, "goblin-2", "goblin-1", "aria", "bob", "boss")


@pytest.mark.parametrize("ties, first", [("players_first", "aria"), ("creatures_first", "goblin-1")])
def test_tied_groups_go_in_the_order_the_table_chose(ties, first):
    """Where the text is silent: setting initiative_ties, players_first by default."""
    t = open_normal_round(
        d10_table(
            pc("aria"),
            pc("bob"),
            monster("goblin-1"),
            monster("goblin-2"),
            monster("boss", group="boss"),
            settings={"initiative_ties": ties},
        )
    )
    play_round(t, EVERYONE_PARRIES, {"party": 6, "monsters": 6, "boss": 2})
    assert t.state.turn == first
