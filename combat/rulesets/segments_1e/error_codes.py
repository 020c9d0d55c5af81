"""The error codes segments-1e's own modules raise (its `Ruleset.error_codes` adds the
shared ones it raises).
(combat/kernel/error_kinds.py says what a declaration holds.)
"""

from __future__ import annotations

from combat.kernel.error_kinds import ErrorCode, declared

__all__ = ["ERROR_CODES"]

ERROR_CODES: tuple[ErrorCode, ...] = declared(
    refused={
        "action/major-used": "… has already had its major action this round",
        "action/what": "say what the action is",
        "attack/multiplier": "a damage multiplier below 1",
        "attack/no-room": "… needs … ft of space and every square around is taken",
        "attack/routine-used": "… has made its first routine",
        "attack/routines-used": "the combatant has used all its attack routines this round",
        "creature/aac0": "cannot read AAC0 …",
        "creature/class": "no attack table for class …",
        "creature/duplicate": "'…' is already in the fight",
        "creature/hit-dice": "cannot read hit dice …",
        "creature/level": "… has no attack row for level …",
        "creature/no-attack-table": "… has no attack table",
        "declaration/casting-time": "casting time below 1 segment",
        "declaration/locked": "… declared … and cannot switch to …",
        "declaration/minor": "minor actions cannot take negative time",
        "declaration/no-routine": "… has no … routine…",
        "declaration/required": "… declared nothing, and … must be declared",
        "declaration/spell-name": "a spell declaration names the spell",
        "declaration/still-casting": "… is still casting …",
        "delay/after-major": "… has already had its major action this round",
        "delay/already-delayed": "… is already delayed this round",
        "free-attack/cause": "say what drew the free attack",
        "free-attack/not-drawn": "… has not drawn a free attack from …",
        "free-attack/once-per-opponent": "… has already been attacked by … this round",
        "free-attack/one-per-segment": "… has already made a free attack in segment …",
        "free-attack/surprised": "a surprised combatant cannot make a free attack",
        "grid/no-position": "… is not on the map",
        "grid/occupied": "… stands where a wall was put",
        "grid/same-square": "… shares a square with …: combat cannot take place while in the same square",
        "grid/wall": "(…, …) is a wall",
        "immediate/cause": "an immediate attack answers a trigger",
        "immediate/no-major": "an immediate attack needs the major action still unspent",
        "immediate/surprised": "a surprised combatant cannot make an immediate attack",
        "initiative/unknown-side": "no side of that name to roll initiative",
        "minor/gm-delay": "a delay for several minor actions cannot be negative",
        "minor/time": "a minor action takes 1 segment or none, not …",
        "move/close-in": "closing in is not possible from here",
        "move/nowhere": "… is already on (…, …)",
        "move/positioning-before-major": "positioning can only be done after a major action",
        "move/positioning-in-melee": "… is in melee with …; positioning cannot be done in melee",
        "move/through-foe": "… cannot pass through …'s square",
        "move/too-far": "… ft is more than … can move now (… ft)",
        "save/cover": "cover gives no bonus to saving throws in segments-1e",
        "spell/already-casting": "… is already casting …",
        "spell/declared": "in a round the spell cast is the one declared, with its range and casting time",
        "spell/name-needed": "nothing is declared before the first round: name the spell cast in this surprise segment",
        "spell/no-line-of-effect": "…% cover breaks line of effect",
        "spell/no-targets": "… was cast at no one",
        "spell/one-per-round": "… is still casting … (it goes off in round …); only one spell can be cast per round",
        "spell/out-of-range": "… is beyond the … ft of …",
        "spell/resolve-first": "…'s … goes off now",
        "spell/target-needed": "… needs its target announced now",
        "spell/undeclared": "… declared no spell this round; spells must be declared",
        "surprise/already-rolled": "the side has already rolled for surprise",
        "surprise/one-segment": "… takes … segments: only actions that fit in one segment can be done in a surprise segment",
        "surprise/segment-used": "the surprise segment is already used",
    },
    invalid={
        "creature/invalid": "the creature is invalid",
        "dice/face-count": "… is … strike(s) but … d20 face(s) were entered",
    },
)
