"""declared-d10: the start of combat and the surprise round."""

from __future__ import annotations

import pytest

from combat.kernel.commands import BeginCombat, EndTurn
from combat.kernel.events import DiceRolled, TurnStarted
from combat.rulesets.declared_d10.attacks import D10Attack, D10AttackRolled
from combat.rulesets.declared_d10.declarations import D10CloseDeclarations, D10Declare
from combat.rulesets.declared_d10.initiative import D10RollGroupInitiative
from combat.rulesets.declared_d10.state import D10Traits
from combat.rulesets.declared_d10.surprise import D10RollSurprise, D10StartNormalRound, D10SurpriseRolled
from tests.helpers import monster, of_type, pc
from tests.rulesets.declared_d10.helpers import CLUB, SWORD, d10_table, play_round

FORAGING_GOBLINS = {
    "jenny": D10Traits(stealth=4, perception=1),
    "larry": D10Traits(stealth=1, perception=3),
    "goblin-1": D10Traits(stealth=3, perception=2),
    "goblin-2": D10Traits(stealth=3, perception=0),
}


def goblins_in_the_woods(settings: dict | None = None):
    return d10_table(
        pc("jenny", player="Jo", attacks=(SWORD,)),
        pc("larry", player="Lee", attacks=(SWORD,)),
        monster("goblin-1", ac=12, attacks=(CLUB,)),
        monster("goblin-2", ac=12, attacks=(CLUB,)),
        settings=settings,
        traits=FORAGING_GOBLINS,
    )


def surprise(t, attacker_face: int, defender_face: int, **kw):
    t.do(BeginCombat())
    events = t.do(
        D10RollSurprise(
            attackers="party", defenders="monsters", attacker_faces=(attacker_face,), defender_faces=(defender_face,), **kw
        )
    )
    [result] = of_type(events, D10SurpriseRolled)
    return result, events


def test_the_gm_opens_a_fight_nobody_saw_coming_with_a_normal_round():
    """'if the party is walking down the street singing and laughing and their hated enemy is
    running down the street towards them, neither party is surprised ... and combat would begin
    with a normal round.'"""
    t = goblins_in_the_woods()
    t.do(BeginCombat())
    t.rejects(D10Declare(combatant="jenny", action="attack", target="goblin-1"), "phase/not-allowed")
    t.do(D10StartNormalRound())
    assert (t.state.phase, t.state.round, t.state.rules.round_kind) == ("declare", 1, "normal")


def test_the_party_surprises_foraging_goblins_with_its_lowest_stealth_against_their_highest_perception():
    """'Someone from the party rolls a d20+the lowest stealth bonus of the party and the goblins
    roll d20+the highest perception bonus in the group. If the party rolls higher than the
    goblins, they have surprised them'."""
    t = goblins_in_the_woods()
    result, events = surprise(t, 12, 10)
    assert [r.notation for r in of_type(events, DiceRolled)] == ["1d20+1", "1d20+2"]
    assert (result.attacker_total, result.defender_total, result.result) == (13, 12, "surprise")
    assert (t.state.rules.attackers, t.state.rules.defenders) == ("party", "monsters")
    assert (t.state.phase, t.state.round) == ("declare", 1)


@pytest.mark.parametrize(
    "attacker_face, defender_face, kind",
    [(16, 10, "full surprise"), (15, 10, "surprise"), (11, 10, "normal"), (9, 10, "normal")],
    ids=["5-over-is-full-surprise", "4-over-is-surprise", "a-tie-is-a-normal-round", "goblins-higher-is-a-normal-round"],
)
def test_how_far_the_attackers_roll_over_the_defenders_decides_the_round(attacker_face, defender_face, kind):
    """'if attackers roll higher, they gain surprise, if they roll 5 over the other side, they
    gain full surprise ... If the goblins roll higher, they are not surprised, and a normal round
    ensues'. Party d20+1 against goblins d20+2."""
    t = goblins_in_the_woods()
    result, _ = surprise(t, attacker_face, defender_face)
    assert result.result == kind
    assert t.state.rules.round_kind == kind


def test_in_a_surprise_round_attackers_roll_with_advantage_and_defenders_with_disadvantage_for_that_round_only():
    """'Surprise: Attackers roll their dice with Advantage and defenders roll with Disadvantage
    during that round.' The reading: every d20 and the group's initiative d10."""
    t = d10_table(pc("jenny", attacks=(SWORD,)), monster("goblin", ac=12, max_hp=20, attacks=(CLUB,)))
    surprise(t, 12, 10)
    play_round(t, {"jenny": ("attack", "goblin"), "goblin": ("attack", "jenny")}, {"party": (3, 8), "monsters": (9, 2)})
    assert (t["jenny"].initiative, t["goblin"].initiative) == (8, 2)
    [jenny] = of_type(t.do(D10Attack(attacker="jenny", target="goblin", faces=(4, 15), damage_faces=(1,))), D10AttackRolled)
    assert (jenny.roll_mode, jenny.natural, jenny.total) == ("advantage", 15, 20)
    t.do(EndTurn(combatant="jenny"))
    [goblin] = of_type(t.do(D10Attack(attacker="goblin", target="jenny", faces=(18, 3), damage_faces=(1,))), D10AttackRolled)
    assert (goblin.roll_mode, goblin.natural, goblin.hit) == ("disadvantage", 3, False)
    t.do(EndTurn(combatant="goblin"))
    assert (t.state.round, t.state.rules.round_kind) == (2, "normal")
    play_round(t, {"jenny": ("attack", "goblin"), "goblin": ("attack", "jenny")}, {"party": 5, "monsters": 4})
    [again] = of_type(t.do(D10Attack(attacker="jenny", target="goblin", faces=(15,), damage_faces=(1,))), D10AttackRolled)
    assert again.roll_mode == "normal" and again.reasons == ()


def test_under_full_surprise_the_defenders_cannot_take_any_actions_that_round():
    """'Full Surprise: Attackers roll their dice with Advantage and defenders cannot take any
    actions during that round.'"""
    t = d10_table(pc("jenny", attacks=(SWORD,)), monster("goblin", ac=12, max_hp=20, attacks=(CLUB,)))
    surprise(t, 18, 5)
    t.rejects(D10Declare(combatant="goblin", action="attack", target="jenny"), "declaration/cannot-act")
    t.do(D10Declare(combatant="jenny", action="attack", target="goblin"))
    t.do(D10CloseDeclarations())
    t.rejects(D10RollGroupInitiative(group="monsters", faces=(10,)), "initiative/cannot-act")
    t.do(D10RollGroupInitiative(group="party", faces=(2, 6)))
    assert t.state.turn == "jenny" and t["goblin"].initiative is None
    t.do(D10Attack(attacker="jenny", target="goblin", faces=(1, 14), damage_faces=(2,)))
    events = t.do(EndTurn(combatant="jenny"))
    assert [e.combatant for e in of_type(t.events, TurnStarted)] == ["jenny"]
    assert t.state.round == 2 and t.state.rules.round_kind == "normal"
    assert len(events) > 0 and t.rebuilt() == t.state


def test_when_both_sides_stumble_into_each_other_each_rolls_a_plain_d20_and_either_can_gain_surprise():
    """'If both parties have stumbled into each other, each side rolls a d20 with no added
    bonuses.' Reading: the side that rolls higher surprises the other."""
    t = goblins_in_the_woods()
    result, events = surprise(t, 8, 11, stumbled=True)
    assert [r.notation for r in of_type(events, DiceRolled)] == ["1d20+0", "1d20+0"]
    assert (result.result, result.surprising, result.surprised) == ("surprise", "monsters", "party")
    assert t.state.rules.attackers == "monsters"


def test_a_table_can_have_the_surprising_side_act_first_in_the_surprise_round():
    """Where the text is silent: setting surprise_round_order = attackers_first."""
    for order, first in (("initiative", "goblin"), ("attackers_first", "jenny")):
        t = d10_table(pc("jenny"), monster("goblin"), settings={"surprise_round_order": order})
        surprise(t, 12, 10)
        play_round(t, {"jenny": ("parry_dodge", None), "goblin": ("parry_dodge", None)}, {"party": (1, 2), "monsters": (9, 10)})
        assert t.state.turn == first
