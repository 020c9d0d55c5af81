"""The framework's own error codes: those of the kernel's modules (and of more rooms, where
the kernel is the one room they share).
"""

from __future__ import annotations

from combat.kernel.error_kinds import ErrorCode, declared

__all__ = ["KERNEL_ERROR_CODES"]

KERNEL_ERROR_CODES: tuple[ErrorCode, ...] = declared(
    refused={
        "action/unknown": "'…' is not an action",
        "attack/unknown": "… has no attack called '…'",
        "combat/one-side": "a fight needs at least two sides",
        "combat/unknown-side": "no side called '…'",
        "combatant/unknown": "no combatant '…'",
        "command/unknown": "… has no command '…'",
        "command/unsupported": "… has no rule for '…'",
        "condition/empty": "a condition needs a name",
        "condition/not-custom": "a condition of the ruleset sent as custom",
        "condition/unknown": "not a condition of the ruleset (send it as custom)",
        "creature/unknown": "no creature called '…' in the bestiary",
        "damage-type/empty": "a damage type needs a name",
        "damage-type/not-custom": "a damage type of the ruleset sent as custom",
        "damage-type/unknown": "not a damage type of the ruleset (send it as custom)",
        "legendary/unknown": "… has no legendary action called '…'",
        "log/empty": "the log holds no events",
        "phase/not-allowed": "the command is not allowed in the encounter's phase",
        "resource/unknown": "…'s sheet has no feature called '…'",
        "reveal/unknown": "nothing hidden of that name to reveal",
        "ruling/empty": "a ruling needs its words",
        "spell/unknown": "no spell called '…' in the SRD 5.2 spells",
        "world-action/unknown": "the … environment has no world action '…'",
    },
    invalid={
        "command/service-field": "… is filled in by the service from what it stores, never sent",
        "dice/bad-face": "face … is not possible on a d…",
        "dice/bad-notation": "cannot read dice notation …: …",
        "dice/faces-count": "more … rolls than the … entered",
        "dice/impossible": "cannot roll …: …",
        "dice/too-few-faces": "… needs more dice than the … face(s) entered",
        "dice/too-many": "… rolls too many dice",
        "dice/too-many-faces": "… rolls … dice but … faces were entered",
        "dice/unused-faces": "faces were entered for a roll that is not made",
        "ruleset/unknown": "no ruleset of that id (404 when it is in the path, 422 in a body)",
        "settings/invalid": "… cannot be …",
        "settings/unknown": "unknown setting(s) for …: …",
        "stat-block/invalid": "the stat block is invalid",
    },
    not_found={
        "campaign/unknown": "no campaign …",
        "character/unknown": "no character '…' in this campaign",
        "encounter/unknown": "no encounter '…' in this store",
        "token/unknown": "no token … in this encounter",
    },
    forbidden={
        "command/gm-field": "… may not set … in '…': DCs, bonuses and reasons come from the stat block, the conditions or the GM, and another creature's dice from its own roller",
    },
)
