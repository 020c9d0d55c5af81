"""A whole srd-2024 fight as a GM runs it, every die entered from the table.

Two goblins and a bugbear ambush Aria and Lyra on a forest road. Aria is surprised, ties the
bugbear on initiative and drops to 0 HP under its Critical Hit, makes a Death Saving Throw; Lyra hides, shoots, and pours a
potion into Aria, who gets up and finishes the bugbear with her Extra Attack.
"""

from combat.common.commands import Heal, RemoveCondition
from combat.common.events import CombatantDowned
from combat.fivee.action_commands import BonusAction, Move, TakeAction
from combat.fivee.attack_commands import Attack
from combat.fivee.dying import DeathSave, dying_of
from combat.fivee.initiative import OrderTie, RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn, MarkSurprised
from combat.kernel.events import AttackProfile, CombatEnded, DiceRolled, TurnStarted
from tests.helpers import SHORTBOW, Table, monster, of_type, pc

MORNINGSTAR = AttackProfile(name="Morningstar", bonus=4, damage="2d8+2", damage_type="piercing")


def test_an_ambush_on_the_forest_road_from_set_up_to_victory():
    t = Table(seed=7)
    for spec in (
        pc("aria", initiative_bonus=1, attacks_per_action=2),
        pc("lyra", initiative_bonus=4, max_hp=16, attacks=(SHORTBOW,)),
        monster("goblin-1", group="goblins", initiative_bonus=2),
        monster("goblin-2", group="goblins", initiative_bonus=2),
        monster("bugbear", max_hp=20, ac=14, initiative_bonus=1, attacks=(MORNINGSTAR,)),
    ):
        t.do(AddCombatant(combatant=spec))
    t.do(BeginCombat())
    t.do(MarkSurprised(combatants=("aria",)))
    t.do(RollInitiative(combatant="aria", faces=(15, 6)))  # 2d20kl1+1 = 7
    t.do(RollInitiative(combatant="lyra", faces=(12,)))  # 16
    t.do(RollInitiative(combatant="goblin-1", faces=(9,)))  # the goblins, 11
    t.do(RollInitiative(combatant="bugbear", faces=(6,)))  # 7, tied with Aria
    assert t.state.round == 0 and t.state.ties[0].decided_by == "gm"
    t.do(OrderTie(order=("bugbear", "aria")))
    assert t.ruleset.turn_order(t.state, False) == ["lyra", "goblin-1", "goblin-2", "bugbear", "aria"]

    # Round 1. Lyra hides (Cunning Action) and shoots from hiding with Advantage.
    t.do(TakeAction(combatant="lyra", action="hide", bonus=7, faces=(11,), bonus_action=True))
    events = t.do(Attack(attacker="lyra", target="goblin-1", faces=(5, 14), damage_faces=(5,)))
    assert CombatantDowned(combatant="goblin-1", status="dead") in events and not t["lyra"].has("invisible")
    t.do(EndTurn(combatant="lyra"))
    assert t.state.turn == "goblin-2"  # the dead goblin's turn is skipped
    t.do(Move(combatant="goblin-2", feet=20))
    t.do(Attack(attacker="goblin-2", target="aria", faces=(16,), damage_faces=(3,)))
    t.do(EndTurn(combatant="goblin-2"))
    events = t.do(Attack(attacker="bugbear", target="aria", faces=(20,), damage_faces=(3, 4, 5, 6)))
    assert CombatantDowned(combatant="aria", status="unconscious") in events and t["aria"].hp == 0
    t.do(EndTurn(combatant="bugbear"))
    # "Whenever you start your turn with 0 Hit Points, you must make a Death Saving Throw."
    t.rejects(EndTurn(combatant="aria"), "turn/death-save-owed")
    t.do(DeathSave(combatant="aria", faces=(12,)))
    assert dying_of(t.state).tallies["aria"].successes == 1
    t.do(EndTurn(combatant="aria"))

    # Round 2. A potion for Aria, an arrow for the last goblin.
    assert t.state.round == 2 and t.state.turn == "lyra"
    t.do(BonusAction(combatant="lyra", description="pours a Potion of Healing into Aria"))
    t.do(Heal(target="aria", notation="2d4+2", faces=(3, 3), source="lyra"))
    assert t["aria"].status == "active" and t["aria"].hp == 8
    # "The number of both is reset to zero when you regain any Hit Points"; Unconscious ends: "you remain Prone."
    assert "aria" not in dying_of(t.state).tallies and t["aria"].has("prone")
    t.do(Attack(attacker="lyra", target="goblin-2", faces=(15,), damage_faces=(5,)))
    t.do(EndTurn(combatant="lyra"))
    assert t.state.turn == "bugbear"
    # Prone Aria: "An attack roll against you has Advantage if the attacker is within 5 feet of you."
    assert t.do(Attack(attacker="bugbear", target="aria", faces=(2, 1)))[-1].roll_mode == "advantage"
    t.do(EndTurn(combatant="bugbear"))
    t.do(RemoveCondition(target="aria", condition="prone", reason="Aria stands up"))
    t.do(Attack(attacker="aria", target="bugbear", faces=(17,), damage_faces=(6,)))
    events = t.do(Attack(attacker="aria", target="bugbear", faces=(20,), damage_faces=(8, 8)))

    assert of_type(events, CombatEnded) == [
        CombatEnded(winner="party", reason="every foe of the party side is down", automatic=True)
    ]
    assert t.state.phase == "ended" and t["bugbear"].hp == 0
    assert [(e.round, e.combatant) for e in of_type(t.events, TurnStarted)] == [
        (1, "lyra"),
        (1, "goblin-2"),
        (1, "bugbear"),
        (1, "aria"),
        (2, "lyra"),
        (2, "bugbear"),
        (2, "aria"),
    ]
    assert {r.source for r in of_type(t.events, DiceRolled)} == {"entered"}
    assert t.rebuilt() == t.state
