"""The error codes a5e's own modules raise; its `Ruleset.error_codes` adds the shared ones it raises."""

from __future__ import annotations

from combat.kernel.error_kinds import ErrorCode, declared

__all__ = ["ERROR_CODES"]

ERROR_CODES: tuple[ErrorCode, ...] = declared(
    refused={
        "action/free-empty": "say what the free action is",
        "action/own-command": "the action has its own command",
        "action/speed-zero": "you cannot take the Dodge action when your Speed is reduced to 0",
        "attack/above-held": "… is …: no expertise die from above",
        "attack/above-melee": "attacking from above gives its expertise die on melee attacks",
        "attack/no-flank": "… is not an ally of …",
        "fall-back/not-pressed": "falling back needs a foe pressing the combatant",
        "fall-back/raging": "a raging combatant cannot fall back",
        "initiative/check-made": "… already made … (…) in the surprise step; that score is its initiative",
        "initiative/no-tie": "no tie is waiting to be settled",
        "move/speed": "… ft is not a speed",
        "press/after-attack": "pressing comes after an attack",
        "press/already-pressed": "the target is already pressed",
        "press/target": "the target cannot be pressed",
        "scene/two-environments": "name an example environment or send your own, not both",
        "scene/unknown-environment": "no example environment '…'",
        "sprint/fatigued": "a fatigued combatant cannot sprint",
        "sprint/not-alone": "sprinting needs no foe nearby",
        "surprise/already-checked": "the surprise check is already made",
        "surprise/cannot-act": "a surprised combatant cannot act on its first turn",
        "surprise/cannot-move": "a surprised combatant cannot move on its first turn",
        "surprise/cannot-react": "a surprised combatant cannot react until its first turn is over",
        "surprise/sudden-action": "a sudden action is not possible now",
        "tumble/ally": "… is an ally; tumbling is through a hostile creature's space",
        "tumble/specialty": "the tumbling specialty's 1d6 comes with proficiency in Acrobatics",
        "world-action/already-struck": "the world action has already struck this round",
        "world-action/not-reduced": "nothing reduces …",
        "world-action/not-spent": "the world action is not spent",
        "world-action/rolled": "… has had its recharge roll this round",
        "world-action/spent": "the world action is spent",
        "world-action/targets": "the world action's targets are wrong",
        "world/acted": "the world has already acted this round",
        "world/no-actions": "the scene's environment has no world actions",
        "world/pending-save": "a concentration save is owed after the world's damage",
        "world/recharge-owed": "the recharge roll for … is owed this round",
    },
)
