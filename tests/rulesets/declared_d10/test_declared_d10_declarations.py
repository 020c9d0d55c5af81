"""declared-d10: declaring actions before initiative, and being held to them."""

from __future__ import annotations

from types import SimpleNamespace

from combat.kernel.commands import EndTurn
from combat.rulesets.declared_d10.actions import D10Move
from combat.rulesets.declared_d10.attacks import D10Attack, D10AttackRolled
from combat.rulesets.declared_d10.declarations import (
    D10ActionDeclared,
    D10ChangeRuled,
    D10CloseDeclarations,
    D10DeclarationsClosed,
    D10Declare,
    D10RuleOnChange,
)
from combat.rulesets.declared_d10.initiative import D10RollGroupInitiative
from combat.rulesets.declared_d10.rounds import D10DeclarationsOpened
from projections.narrative import Narrator
from projections.state import state_view
from tests.helpers import monster, of_type, pc
from tests.rulesets.declared_d10.helpers import BOW, CLUB, SWORD, d10_table, open_normal_round, play_round

SPEAR = SWORD.__class__(name="Spear", bonus=4, damage="1d8", damage_type="piercing")


def carls_room(settings: dict | None = None, carl_attack=BOW):
    """Bob and Carl against an ogre (5 HP left) and an orc standing right next to it."""
    return open_normal_round(
        d10_table(
            pc("bob", player="Sam", attacks=(SWORD,)),
            pc("carl", player="Kim", attacks=(carl_attack,)),
            monster("ogre", max_hp=5, ac=10, attacks=(CLUB,)),
            monster("orc", max_hp=15, ac=12, attacks=(CLUB,)),
            settings=settings,
        )
    )


CARL_SHOOTS_THE_OGRE = {
    "bob": ("attack", "ogre"),
    "carl": ("attack", "ogre"),
    "ogre": ("attack", "bob"),
    "orc": ("attack", "carl"),
}


def test_each_player_declares_for_their_own_character_and_the_gm_for_each_creature():
    """'each player declares their action and the GM declares the actions of each creature.'"""
    t = carls_room()
    t.do(D10Declare(combatant="carl", action="attack", target="ogre"), actor="Kim")
    t.rejects(D10Declare(combatant="bob", action="attack", target="ogre"), "declaration/not-yours", actor="Kim")
    t.rejects(D10Declare(combatant="orc", action="attack", target="carl"), "declaration/not-yours", actor="Kim")
    t.rejects(D10Declare(combatant="bob", action="dance", target="ogre"), "declaration/unknown-action", actor="Sam")
    t.do(D10Declare(combatant="orc", action="attack", target="carl"))
    assert set(t.state.rules.declarations) == {"carl", "orc"}


def test_declarations_are_visible_in_the_state_and_in_the_log():
    """Everyone at the table sees what was declared."""
    t = carls_room()
    events = t.do(D10Declare(combatant="carl", action="attack", target="ogre", detail="an arrow across the room"), actor="Kim")
    view = state_view(t.state)
    assert view["d10"]["declarations"]["carl"] == {
        "combatant": "carl",
        "action": "attack",
        "target": "ogre",
        "detail": "an arrow across the room",
        "ruling": None,
    }
    narrator = Narrator(names={"carl": "Carl", "ogre": "Ogre"})
    [declared] = of_type(events, D10ActionDeclared)
    assert (
        narrator.line(SimpleNamespace(seq=1, command_id="", event=declared))
        == "Carl declares: attack Ogre (an arrow across the room)"
    )


def test_initiative_is_rolled_only_once_everyone_who_can_act_has_declared():
    """'Once everyone has made their declarations for the round, one player in the group rolls a d10'."""
    t = carls_room()
    t.do(D10Declare(combatant="carl", action="attack", target="ogre"))
    t.rejects(D10CloseDeclarations(), "declaration/missing")
    t.rejects(D10RollGroupInitiative(group="party", faces=(4,)), "phase/not-allowed")


def test_once_the_round_begins_declarations_are_locked():
    """'Once the round begins, the actions declared cannot be changed.'"""
    t = carls_room()
    play_round(t, CARL_SHOOTS_THE_OGRE, {"party": 8})
    t.rejects(D10Declare(combatant="carl", action="attack", target="orc"), "phase/not-allowed", actor="Kim")
    t.do(D10RollGroupInitiative(group="monsters", faces=(2,)))
    t.rejects(D10Attack(attacker="bob", target="orc", faces=(15,), damage_faces=(3,)), "declaration/mismatch")
    assert t.state.rules.locked


def test_the_gm_lets_carl_shift_his_arrow_to_the_orc_when_the_ogre_is_killed_first():
    """'Carl declared that he was going to shoot an arrow at the ogre across the room, but before
    his action that ogre is killed. There is an orc right next to the dead ogre so the GM
    determines that Carl can easily shift his target the tiny amount necessary to fire on the
    orc instead.'"""
    t = play_round(carls_room(), CARL_SHOOTS_THE_OGRE, {"party": 8, "monsters": 2})
    t.do(D10Attack(attacker="bob", target="ogre", faces=(15,), damage_faces=(6,)))
    assert t["ogre"].status == "dead"
    t.do(EndTurn(combatant="bob"))
    t.rejects(D10Attack(attacker="carl", target="orc", faces=(15,), damage_faces=(3,)), "declaration/mismatch")
    t.rejects(
        D10RuleOnChange(combatant="carl", allowed=True, target="orc", ruling="the orc is right next to it"),
        "declaration/gm-rules",
        actor="Kim",
    )
    [ruled] = of_type(
        t.do(D10RuleOnChange(combatant="carl", allowed=True, target="orc", ruling="the orc is right next to the dead ogre")),
        D10ChangeRuled,
    )
    assert ruled.allowed and ruled.target == "orc"
    [shot] = of_type(t.do(D10Attack(attacker="carl", target="orc", faces=(15,), damage_faces=(3,))), D10AttackRolled)
    assert shot.hit and t["orc"].hp == 12
    assert t.state.rules.declarations["carl"].ruling == "the orc is right next to the dead ogre"


def test_the_gm_rules_that_carl_charging_the_ogre_with_a_spear_keeps_running_past_it():
    """'if Carl were charging at the ogre with a spear and the ogre was pushed out of the way
    before Carl got to it, the GM could say that Carl just keeps running past the ogre and cannot
    change his direction in time'."""
    t = play_round(carls_room(carl_attack=SPEAR), CARL_SHOOTS_THE_OGRE, {"party": 8, "monsters": 2})
    t.do(EndTurn(combatant="bob"))  # Bob shoves the ogre aside (the GM's narration)
    refused = t.do(D10RuleOnChange(combatant="carl", allowed=False, target="orc", ruling="Carl keeps running past the ogre"))
    assert [(e.allowed, e.ruling) for e in of_type(refused, D10ChangeRuled)] == [(False, "Carl keeps running past the ogre")]
    assert t.state.rules.declarations["carl"].target == "ogre"
    t.rejects(D10Attack(attacker="carl", target="orc", faces=(15,), damage_faces=(3,)), "declaration/mismatch")
    t.do(D10Move(combatant="carl", detail="runs past the ogre"))
    assert t.rebuilt() == t.state


def test_a_declaration_without_a_target_lets_jenny_attack_whichever_goblin_is_still_standing():
    """'Jenny is going to attack the nearest goblin standing after Larry casts his spell'."""
    t = open_normal_round(d10_table(pc("jenny", attacks=(SWORD,)), monster("goblin-1", ac=10), monster("goblin-2", ac=10)))
    play_round(
        t,
        {"jenny": ("attack", None), "goblin-1": ("parry_dodge", None), "goblin-2": ("parry_dodge", None)},
        {"party": 6, "monsters": 1},
    )
    [attack] = of_type(t.do(D10Attack(attacker="jenny", target="goblin-2", faces=(12,), damage_faces=(2,))), D10AttackRolled)
    assert attack.target == "goblin-2"


def test_with_a_time_limit_whoever_has_not_declared_in_time_hesitates_for_the_round():
    """'Everyone declares what they are going to do within X seconds or minutes ... The GM can
    give you a set time to make your plans each round'. Setting declaration_seconds; the reading:
    whoever has not declared when the time is up takes no turn that round."""
    t = carls_room(settings={"declaration_seconds": 30})
    assert t.state.rules.declaration_seconds == 30
    assert of_type(t.events, D10DeclarationsOpened)[-1].seconds == 30
    for cid in ("carl", "ogre", "orc"):
        t.do(D10Declare(combatant=cid, action="parry_dodge"))
    t.rejects(D10CloseDeclarations(), "declaration/missing")
    [closed] = of_type(t.do(D10CloseDeclarations(time_up=True)), D10DeclarationsClosed)
    assert closed.hesitating == ("bob",)
    assert t.state.rules.declarations["bob"].action == "hesitate"
    t.do(D10RollGroupInitiative(group="party", faces=(9,)))
    t.do(D10RollGroupInitiative(group="monsters", faces=(3,)))
    assert t.state.turn == "carl"


def test_without_a_time_limit_the_gm_cannot_call_time_on_declarations():
    """The time limit is a table's choice; without it everyone gets to declare."""
    t = carls_room()
    t.rejects(D10CloseDeclarations(time_up=True), "declaration/no-time-limit")
