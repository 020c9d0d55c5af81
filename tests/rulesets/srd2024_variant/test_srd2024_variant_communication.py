"""srd-2024-variant Communicating Δ: extended communication among allies costs an action.

"Interactions among allies, for example to provide a detailed explanation or discuss
strategies, require: The entity initiating the communication to use either an Action or a
Bonus Action; If a reply is needed, replying entities use their Reaction."
"Attempts to influence a foe, require the usage of the Influence action."
"""

from combat.fivee.action_commands import TakeAction
from combat.fivee.attack_commands import Attack
from combat.kernel.commands import EndTurn
from combat.rulesets.srd2024_variant.communication import AllyReplied, CommunicateWithAllies, ReplyToAlly
from tests.helpers import Table, monster, of_type, pc


def _fight() -> Table:
    t = Table("srd-2024-variant", settings={"initiative_reorder": False})
    t.add(pc("aria"), pc("bram"), pc("cora"), monster("goblin"))
    return t.start({"aria": 18, "bram": 12, "cora": 10, "goblin": 5})


def test_explaining_a_plan_to_allies_takes_the_action():
    """'The entity initiating the communication [uses] either an Action or a Bonus Action.'"""
    t = _fight()
    t.do(CommunicateWithAllies(combatant="aria", listeners=("bram", "cora"), topic="flank the goblin"))
    assert t["aria"].economy.action is False and t["aria"].economy.bonus_action is True
    t.rejects(Attack(attacker="aria", target="goblin", faces=(15,)), "economy/action-spent")


def test_it_may_use_the_bonus_action_instead():
    t = _fight()
    t.do(CommunicateWithAllies(combatant="aria", listeners=("bram",), uses="bonus_action"))
    assert t["aria"].economy.bonus_action is False and t["aria"].economy.action is True
    t.rejects(CommunicateWithAllies(combatant="aria", listeners=("bram",), uses="bonus_action"), "economy/bonus-action-spent")


def test_a_reply_costs_the_listeners_reaction():
    """'If a reply is needed, replying entities use their Reaction.'"""
    t = _fight()
    t.do(CommunicateWithAllies(combatant="aria", listeners=("bram", "cora"), uses="bonus_action"))
    events = t.do(ReplyToAlly(combatant="bram", topic="on it"))
    assert of_type(events, AllyReplied) == [AllyReplied(combatant="bram", to="aria", topic="on it")]
    assert t["bram"].economy.reaction is False and t["cora"].economy.reaction is True
    t.rejects(ReplyToAlly(combatant="bram"), "communicate/not-addressed")


def test_someone_not_addressed_cannot_reply():
    t = _fight()
    t.do(CommunicateWithAllies(combatant="aria", listeners=("bram",)))
    t.rejects(ReplyToAlly(combatant="cora"), "communicate/not-addressed")


def test_a_reply_needs_a_reaction_left():
    t = _fight()
    t.do(CommunicateWithAllies(combatant="aria", listeners=("bram",), uses="bonus_action"))
    t.do(ReplyToAlly(combatant="bram"))
    t.do(CommunicateWithAllies(combatant="aria", listeners=("bram",)))
    t.rejects(ReplyToAlly(combatant="bram"), "economy/reaction-spent")


def test_the_conversation_closes_when_the_speakers_turn_ends():
    t = _fight()
    t.do(CommunicateWithAllies(combatant="aria", listeners=("bram",)))
    t.do(EndTurn(combatant="aria"))
    t.rejects(ReplyToAlly(combatant="bram"), "communicate/not-addressed")


def test_talking_a_foe_round_is_the_influence_action_not_a_conversation():
    """'Attempts to influence a foe, require the usage of the Influence action.'"""
    t = _fight()
    error = t.rejects(CommunicateWithAllies(combatant="aria", listeners=("goblin",)), "communicate/foe")
    assert error.allowed == "take_action influence"
    t.do(TakeAction(combatant="aria", action="influence", target="goblin"))
    assert t["aria"].economy.action is False


def test_only_on_the_speakers_turn():
    t = _fight()
    t.rejects(CommunicateWithAllies(combatant="bram", listeners=("aria",)), "turn/not-yours")
