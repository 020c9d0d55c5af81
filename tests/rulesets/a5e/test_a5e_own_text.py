"""a5e follows its own text where it differs from the 2024 rules: Dodge, and a GM's grant to a
surprised participant (shared/rules/a5e-turn-based-action.txt)."""

from __future__ import annotations

from combat.common.commands import ApplyCondition, RemoveCondition
from combat.fivee.action_commands import BonusAction, TakeAction
from combat.fivee.banked_actions import ActionBanked, BankedActionGranted, banked_of
from combat.fivee.gm_edit_commands import GrantAction
from combat.fivee.initiative import RollInitiative
from combat.fivee.until_next_turn import is_dodging
from combat.kernel.commands import BeginCombat, EndTurn, MarkSurprised
from combat.kernel.events import ConditionSpec
from combat.rulesets.a5e.attacks import MakeAttack
from combat.rulesets.a5e.surprise import SurpriseEnded
from tests.helpers import Table, monster, of_type, pc
from tests.rulesets.a5e.helpers import attacked, fight_with_settings


def _aria_dodges(**settings) -> Table:
    """Aria (AC 15) dodges; then the goblin's turn, where she is grabbed: Grappled, Speed 0."""
    t = fight_with_settings(pc("aria"), monster("goblin", max_hp=20), monster("ogre", max_hp=30), **settings)
    t.do(TakeAction(combatant="aria", action="dodge"))
    t.do(EndTurn(combatant="aria"))
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="grappled", source="goblin")))
    return t


def test_an_a5e_dodge_lasts_to_the_dodgers_next_turn_though_it_is_grappled_or_stunned():
    """Dodge: 'Until the start of your next turn, attacks against you are made with disadvantage
    if you can see the attacker ... You cannot take the Dodge action when your Speed is reduced
    to 0.' The text says nothing of losing it early (the 2024 Dodge is lost to Incapacitated or
    Speed 0): it lasts until Aria's next turn starts, and then, still Grappled, she cannot Dodge."""
    t = _aria_dodges()
    assert t.state.settings["dodge_to_next_turn"] is True  # a new a5e encounter records the a5e reading
    grappled, roll = attacked(t.do(MakeAttack(attacker="goblin", target="aria", faces=(18, 6), damage_faces=(2,))))
    assert grappled.roll_mode == "disadvantage"
    assert roll.total == 6 + 4 and not grappled.hit
    t.do(EndTurn(combatant="goblin"))
    # Stunned: attacks against it have advantage; the Dodge's disadvantage still cancels it.
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="stunned", source="ogre's slam")))
    stunned, roll = attacked(t.do(MakeAttack(attacker="ogre", target="aria", faces=(9,), damage_faces=(2,))))
    assert stunned.roll_mode == "normal" and roll.total == 13 and not stunned.hit
    t.do(RemoveCondition(target="aria", condition="stunned"))
    t.do(EndTurn(combatant="ogre"))
    assert t.state.turn == "aria" and not is_dodging(t.state, "aria")  # "until the start of your next turn"
    t.rejects(TakeAction(combatant="aria", action="dodge"), "action/speed-zero")
    t.do(EndTurn(combatant="aria"))
    after, _ = attacked(t.do(MakeAttack(attacker="goblin", target="aria", faces=(18,), damage_faces=(2,))))
    assert after.roll_mode == "normal" and after.hit


def test_an_a5e_log_from_before_the_setting_keeps_the_2024_reading_it_was_played_with():
    """Old a5e logs carry no `dodge_to_next_turn`: a Grappled dodger there had no Dodge (Speed 0),
    and replays so."""
    t = _aria_dodges(dodge_to_next_turn=False)
    made, roll = attacked(t.do(MakeAttack(attacker="goblin", target="aria", faces=(18,), damage_faces=(2,))))
    assert made.roll_mode == "normal" and roll.total == 22 and made.hit


def test_an_unconscious_dodger_sees_no_attacker_and_has_no_dodge():
    """Dodge: '... attacks against you are made with disadvantage if you can see the attacker'.
    An Unconscious creature is unaware of its surroundings: it can see no attacker."""
    t = fight_with_settings(pc("aria"), monster("goblin", max_hp=20))
    t.do(TakeAction(combatant="aria", action="dodge"))
    t.do(EndTurn(combatant="aria"))
    t.do(ApplyCondition(target="aria", condition=ConditionSpec(name="unconscious", source="sleep")))
    made, _ = attacked(t.do(MakeAttack(attacker="goblin", target="aria", faces=(3, 12), damage_faces=(2, 2))))
    assert made.roll_mode == "advantage" and made.natural == 12  # "target is unconscious", no Dodge to cancel it


# -- a GM's grant to a surprised participant ------------------------------------------------


def _goblin_first_aria_surprised(**settings) -> Table:
    t = Table(ruleset="a5e", settings=settings or None).add(pc("aria"), monster("goblin", max_hp=20))
    t.do(BeginCombat())
    t.do(MarkSurprised(combatants=("aria",)))
    t.do(RollInitiative(combatant="goblin", faces=(18,)))
    t.do(RollInitiative(combatant="aria", faces=(5,)))
    assert t.state.turn == "goblin" and t["aria"].surprised
    return t


def test_a_grant_before_a_surprised_participants_first_turn_is_banked_but_unusable_on_it():
    """'Surprised creatures are unable to move or take an action on their first turn, and are
    unable to use a reaction until after their first turn.' Granting is not acting: an action
    granted before Aria's turn is kept for it (banked_actions.py), and there she may no more use
    it than her own."""
    t = _goblin_first_aria_surprised()
    events = t.do(GrantAction(combatant="aria", kind="action", reason="haste, cast before the ambush"))
    assert of_type(events, ActionBanked) == [
        ActionBanked(combatant="aria", kind="action", reason="haste, cast before the ambush")
    ]
    t.rejects(GrantAction(combatant="aria", kind="reaction"), "surprise/cannot-react")  # given at once: for now
    t.do(EndTurn(combatant="goblin"))
    assert t.state.turn == "aria" and [g.armed for g in banked_of(t.state)] == [True]
    t.rejects(TakeAction(combatant="aria", action="dash"), "surprise/cannot-act")
    t.rejects(MakeAttack(attacker="aria", target="goblin", faces=(15,)), "surprise/cannot-act")
    t.rejects(GrantAction(combatant="aria", kind="action"), "surprise/cannot-act")  # on the turn: for now
    events = t.do(EndTurn(combatant="aria"))
    assert of_type(events, SurpriseEnded) and not of_type(events, BankedActionGranted)
    assert banked_of(t.state) == ()  # a grant is for one turn: unused, it lapsed


def test_a_banked_bonus_action_follows_the_tables_surprised_bonus_action_setting():
    """'Surprised creatures are unable to move or take an action on their first turn.' With
    `surprised_bonus_action` the table lets a surprised creature take its bonus action; a bonus
    action banked before its turn then comes once its own is spent, and its action still not."""
    t = _goblin_first_aria_surprised(surprised_bonus_action=True)
    assert of_type(t.do(GrantAction(combatant="aria", kind="bonus_action", reason="quickened")), ActionBanked)
    t.do(EndTurn(combatant="goblin"))
    events = t.do(BonusAction(combatant="aria", description="second wind"))
    assert of_type(events, BankedActionGranted) == [
        BankedActionGranted(combatant="aria", kind="bonus_action", reason="quickened")
    ]
    t.do(BonusAction(combatant="aria", description="healing word"))
    t.rejects(BonusAction(combatant="aria", description="a third"), "economy/bonus-action-spent")
    t.rejects(TakeAction(combatant="aria", action="dash"), "surprise/cannot-act")
