"""segments-1e: group d6 initiative every round, ties, Dexterity, delay."""

from combat.rulesets.segments_1e.commands import AnnounceDelay, RollGroupD6, RoutineAttack
from combat.rulesets.segments_1e.events import HighLowSet, SegmentTurnStarted
from tests.helpers import of_type
from tests.rulesets.segments_1e.helpers import SHORTBOW, declare, done, fight, fighter, initiative, ledger, mage, orc, rec


def _turns(t):
    return [(e.combatant, e.slot.key) for e in of_type(t.events, SegmentTurnStarted)]


def test_the_higher_group_acts_in_high_and_the_lower_in_low():
    """'Each group will roll a d6. The group with the highest roll acts first during HIGH group
    initiative. The group with the low roll acts during LOW group initiative.'"""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0), d6={"party": 2, "orcs": 4})
    [groups] = of_type(t.events, HighLowSet)
    assert (groups.high, groups.tied, groups.high_segment, groups.low_segment) == (("orcs",), False, 2, 4)
    done(t, "orc")
    done(t, "hugo")
    assert _turns(t) == [("orc", "high"), ("hugo", "low")]


def test_group_initiative_is_rolled_again_every_round():
    t = fight(fighter(x=0, y=0), orc(x=1, y=0), d6={"party": 2, "orcs": 4})
    done(t, "orc")
    done(t, "hugo")
    assert (t.state.phase, t.state.round, ledger(t).rolls) == ("declare", 2, {})
    initiative(declare(t), party=6, orcs=1)
    assert t.state.turn == "hugo" and rec(t, "hugo").group == "high"


def test_a_tie_puts_both_groups_in_high_ordered_by_action_type():
    """'If TIED, both groups act during HIGH group initiative. In this case, action order by
    type determines who acts first': the declared spell (D1), then missiles (D2), then melee (D3)."""
    t = fight(
        fighter(x=0, y=0),
        mage(x=0, y=3),
        orc(x=1, y=0),
        orc("archer", routines=(SHORTBOW,), x=8, y=8),
        d6={"party": 4, "orcs": 4},
        declared={
            "hugo": {"action": "melee"},
            "mira": {"action": "spell", "spell": "Magic Missile", "casting_segments": 1, "range_ft": 150},
            "orc": {"action": "melee"},
            "archer": {"action": "missile"},
        },
    )
    [groups] = of_type(t.events, HighLowSet)
    assert groups.tied and groups.high == ("party", "orcs") and groups.high_segment == 4
    order = [t.state.turn]
    while t.state.phase == "high":
        done(t, t.state.turn)
        order.append(t.state.turn)
    assert order[:4] == ["mira", "archer", "orc", "hugo"]


def test_melee_ties_go_to_the_faster_weapon():
    """Within melee, weapon speed decides (the scimitar, 4, before the longsword, 5)."""
    t = fight(
        fighter(x=0, y=0),
        orc(x=1, y=0),
        d6={"party": 3, "orcs": 3},
        declared={"hugo": {"action": "melee"}, "orc": {"action": "melee"}},
    )
    assert t.state.turn == "orc"


def test_a_dexterity_reaction_adjustment_can_lift_an_individual_into_high():
    """'Adjustments may be made for individuals with a Dexterity Reaction Adjustment in the
    right circumstances': the elf's 3 + 1 ties the orcs' 4, so she acts in HIGH."""
    t = fight(
        fighter(x=0, y=0),
        mage("elf", dex_reaction=1, x=0, y=1),
        orc(x=1, y=0),
        d6={"party": 3, "orcs": 4},
    )
    [groups] = of_type(t.events, HighLowSet)
    assert groups.groups == {"hugo": "low", "elf": "high", "orc": "high"}
    assert groups.scores["elf"] == 4 and groups.moved == ("elf",)


def test_the_dexterity_adjustment_does_not_time_spells():
    """Chosen: a spell's timing is its casting time, so the adjustment leaves a caster where
    its group is."""
    t = fight(
        fighter(x=0, y=0),
        mage("elf", dex_reaction=1, x=0, y=1),
        orc(x=1, y=0),
        d6={"party": 3, "orcs": 4},
        declared={"elf": {"action": "spell", "spell": "Sleep", "casting_segments": 1, "range_ft": 90}},
    )
    assert of_type(t.events, HighLowSet)[0].groups["elf"] == "low"


def test_a_table_may_turn_the_dexterity_adjustment_off():
    t = fight(
        fighter(x=0, y=0),
        mage("elf", dex_reaction=1, x=0, y=1),
        orc(x=1, y=0),
        d6={"party": 3, "orcs": 4},
        settings={"dex_reaction_initiative": False},
    )
    assert of_type(t.events, HighLowSet)[0].groups["elf"] == "low"


def test_a_delay_announced_in_high_loses_every_action_until_low():
    """'If you are in HIGH initiative, you lose all actions until LOW initiative ... You also
    gain the delayed condition for the rest of the round.'"""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0, hp=20), d6={"party": 5, "orcs": 2})
    t.do(AnnounceDelay(combatant="hugo"))
    assert t["hugo"].has("delayed")
    assert (t.state.phase, t.state.turn) == ("low", "orc")
    done(t, "orc")
    assert t.state.turn == "hugo"
    t.do(RoutineAttack(attacker="hugo", target="orc", faces=(2,)))
    done(t, "hugo")
    assert not t["hugo"].has("delayed")  # only for the rest of the round


def test_a_delay_announced_in_low_loses_the_major_action():
    """'If you announce a delay during LOW initiative, you lose your major action that round.'"""
    t = fight(fighter(x=0, y=0), orc(x=1, y=0), d6={"party": 2, "orcs": 5})
    done(t, "orc")
    t.do(AnnounceDelay(combatant="hugo"))
    t.rejects(RoutineAttack(attacker="hugo", target="orc", faces=(20,)), "action/major-used")


def test_the_delayed_lose_ties_unless_the_opponent_is_delayed_too():
    """'All group initiative action ties are lost unless the opponent has the delayed
    condition (e.g. ... melee vs. melee)'."""
    t = fight(
        fighter(x=0, y=0),
        orc(x=1, y=0),
        orc("orc-2", x=1, y=1),
        d6={"party": 4, "orcs": 2},
        declared={"hugo": {"action": "melee"}, "orc": {"action": "melee"}, "orc-2": {"action": "melee"}},
    )
    t.do(AnnounceDelay(combatant="hugo"))
    # In LOW the orcs' melee comes before the delayed fighter's: his tie is lost.
    assert t.state.turn == "orc"
    done(t, "orc")
    done(t, "orc-2")
    slots = {e.combatant: e.slot for e in of_type(t.events, SegmentTurnStarted) if e.slot.key == "low"}
    assert slots["hugo"].after == 1 and slots["orc"].after == 0
    assert t.state.turn == "hugo"


def test_each_side_rolls_its_own_group_die_once_a_round():
    t = fight(fighter(), orc(), d6={"party": 4})
    t.rejects(RollGroupD6(side="party", faces=(2,)), "initiative/already-rolled")
    t.rejects(RollGroupD6(side="elves", faces=(2,)), "initiative/unknown-side")
