"""The error codes declared-d10's own modules raise; its `Ruleset.error_codes` adds the shared ones it raises."""

from __future__ import annotations

from combat.kernel.error_kinds import ErrorCode, declared

__all__ = ["ERROR_CODES"]

ERROR_CODES: tuple[ErrorCode, ...] = declared(
    refused={
        "attack/no-free-attack": "the combatant has no free attack to make",
        "attack/no-sneak": "no sneak attack: the conditions for it are not met",
        "condition/lasting-wound": "a lasting wound is set by the wound rules, not applied by hand",
        "damage/cover-not-area": "cover halves only area effects; direct attacks that hit do full damage",
        "damage/cover-unknown": "… is not a target",
        "damage/targets": "name each target once",
        "declaration/cannot-act": "the combatant cannot act, so cannot declare",
        "declaration/gm-rules": "only the GM can allow a change to a declared action",
        "declaration/mismatch": "the action does not match what was declared",
        "declaration/missing": "an action is not declared yet",
        "declaration/no-time-limit": "this table sets no time limit for declarations",
        "declaration/none": "nothing was declared for this",
        "declaration/not-yours": "… cannot declare for …",
        "disengage/no-foe": "no foe is in melee to disengage from",
        "grapple/same-round": "an escape waits for the round after the grapple",
        "grapple/target": "this creature cannot be grappled",
        "initiative/already-acted": "the combatant has already acted this round",
        "initiative/bad-order": "… is not a list of members of '…' each named once",
        "initiative/cannot-act": "the combatant cannot act now",
        "initiative/not-your-group": "… cannot order group '…'",
        "initiative/unknown-group": "no group '…'",
        "move/grappled": "a grappled combatant cannot move",
        "opposed/sides": "an opposed roll needs what is at stake and two different sides",
        "surprise/same-side": "attackers and defenders must be different sides",
        "timer/rounds": "… gave … rounds",
        "timer/what": "a timer needs to say what happens",
        "traits/dr": "damage reduction … is negative",
        "traits/unknown-attack": "… has no attack called …",
    },
)
