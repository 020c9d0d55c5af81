"""declared-d10: grappling by opposed Feats of Strength, and breaking free on a later round."""

from __future__ import annotations

import pytest

from combat.kernel.commands import EndTurn
from combat.kernel.events import ConditionEnded, DiceRolled
from combat.rulesets.declared_d10.actions import D10Move
from combat.rulesets.declared_d10.grapples import D10BreakGrapple, D10Grapple, D10GrappleRolled
from tests.helpers import of_type
from tests.rulesets.declared_d10.helpers import OGRE_GRABS_TAMMY, STRENGTH, duel, play_round


def ogre_grabs_tammy(ogre_face: int, tammy_face: int):
    t = play_round(duel(traits=STRENGTH), OGRE_GRABS_TAMMY, {"party": 1, "monsters": 9})
    return t, t.do(D10Grapple(attacker="ogre", target="tammy", faces=(ogre_face,), target_faces=(tammy_face,)))


@pytest.mark.parametrize(
    "ogre_face, tammy_face, grappled",
    [(10, 12, True), (8, 12, False), (9, 12, False)],
    ids=["ogre-higher-grapples", "tammy-higher-evades", "a-tie-evades"],
)
def test_a_grapple_is_an_opposed_d20_plus_feats_of_strength(ogre_face, tammy_face, grappled):
    """'Grappling: An opposed roll with the attacker and target rolling a d20+Feats of Strength
    bonus. If the attacker rolls higher, they have grappled the target and if the defender rolls
    higher, they have evaded the grapple.'"""
    t, events = ogre_grabs_tammy(ogre_face, tammy_face)
    assert [r.notation for r in of_type(events, DiceRolled)] == ["1d20+4", "1d20+1"]
    [rolled] = of_type(events, D10GrappleRolled)
    assert (rolled.attacker_total, rolled.target_total, rolled.success) == (ogre_face + 4, tammy_face + 1, grappled)
    assert t["tammy"].has("grappled") is grappled


def test_a_grappled_combatant_cannot_move_away():
    """Reading: held is held, until the grapple is broken."""
    t, _ = ogre_grabs_tammy(15, 2)
    t.do(EndTurn(combatant="ogre"))
    t.rejects(D10Move(combatant="tammy", away_from=("ogre",)), "move/grappled")


def test_the_grappled_defender_can_try_to_break_free_on_the_next_round_with_the_same_roll():
    """'Breaking a grapple: On the next round if the grappled defender has not been fully subdued
    ... then they can attempt to break the grapple with a regular grapple opposed roll.'"""
    t, _ = ogre_grabs_tammy(15, 2)
    t.do(EndTurn(combatant="ogre"))
    t.rejects(D10BreakGrapple(combatant="tammy", faces=(19,), grappler_faces=(3,)), "grapple/same-round")
    t.do(EndTurn(combatant="tammy"))
    play_round(t, {"tammy": ("grapple", None), "ogre": ("attack", "tammy")}, {"party": 9, "monsters": 3})
    events = t.do(D10BreakGrapple(combatant="tammy", faces=(19,), grappler_faces=(3,)))
    [rolled] = of_type(events, D10GrappleRolled)
    assert (rolled.breaking, rolled.attacker_total, rolled.target_total, rolled.success) == (True, 20, 7, True)
    assert [e.condition for e in of_type(events, ConditionEnded)] == ["grappled"]
    assert not t["tammy"].has("grappled")
    assert t.rebuilt() == t.state
