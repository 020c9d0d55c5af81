"""The error codes of the rules every ruleset with hit points and conditions shares
(combat/common), and of rules the 5e family and declared-d10 or segments-1e both raise.
"""

from __future__ import annotations

from combat.kernel.error_kinds import ErrorCode, declared

__all__ = ["COMMON_ERROR_CODES"]

COMMON_ERROR_CODES: tuple[ErrorCode, ...] = declared(
    refused={
        "attack/none": "… has no …attack",
        "attack/out-of-range": "… is … ft away; … reaches … ft",
        "attack/out-of-reach": "… is … ft away, not in melee",
        "combatant/down": "… is … and cannot concentrate",
        "combatant/duplicate": "'…' is already in the fight",
        "combatant/incapacitated": "… is …",
        "concentration/no-check": "no concentration save is owed",
        "concentration/none": "the combatant is not concentrating",
        "condition/absent": "… is not prone",
        "condition/duration": "'…' ends at the … of a turn, but whose turn is not named",
        "condition/effect-alone": "'…' names the effect … but not who concentrates on it",
        "condition/immune": "… is immune to the Frightened condition (heroism)",
        "condition/lasting-effect": "… does not run … on a condition",
        "condition/level": "a level for '…' is set by the rules, not given",
        "condition/not-concentrating": "… is not concentrating on anything to hold '…'",
        "condition/rounds": "'…' cannot last … rounds",
        "condition/save-dc": "a DC of … for the repeated save",
        "condition/until-round": "the round a condition runs out in is set by the rules from its rounds",
        "declaration/unknown-action": "'…' is not an action",
        "economy/action-spent": "the action is used this turn",
        "economy/attack-spent": "the attacks of this turn are used",
        "economy/bonus-action-spent": "the bonus action is used this turn",
        "economy/move-spent": "the move of this round is used (declared-d10)",
        "economy/object-interaction-spent": "the free object interaction is used this turn",
        "economy/reaction-spent": "the reaction is used this round",
        "grapple/already": "the target is already grappled",
        "grapple/not-grappled": "the combatant is not grappled",
        "initiative/already-rolled": "the combatant or side has already rolled initiative",
        "move/ally": "… is an ally of …",
        "reorder/surprised": "a surprised combatant cannot swap places",
        "save/ability": "'…' is not an ability",
        "save/cover-not-dexterity": "cover adds to Dexterity saving throws, not …",
        "save/no-dc": "this … save needs its DC here",
        "save/total-cover": "a creature behind Total Cover can't be targeted directly",
        "spell/not-yet": "…'s spell goes off at the end of its segment, once every other turn in it is done",
        "surprise/nobody": "no combatant named",
        "surprise/too-late": "… has already rolled initiative",
        "surprise/unknown-side": "no side called '…'",
        "target/dead": "… is dead",
        "target/self": "… cannot attack itself",
        "turn/not-yours": "it is …'s turn, not …'s",
    },
    invalid={
        "amount/ambiguous": "give either an amount or dice notation",
        "amount/negative": "amount … is negative",
        "amount/not-positive": "temporary HP of …",
        "combatant/invalid": "the combatant is invalid",
        "dice/whose-faces": "faces were entered but …",
    },
)
