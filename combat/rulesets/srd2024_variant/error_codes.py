"""The error codes srd2024-variant's own modules raise (its `Ruleset.error_codes` adds the
shared ones it raises).
(combat/kernel/error_kinds.py says what a declaration holds.)
"""

from __future__ import annotations

from combat.kernel.error_kinds import ErrorCode, declared

__all__ = ["ERROR_CODES"]

ERROR_CODES: tuple[ErrorCode, ...] = declared(
    refused={
        "communicate/foe": "… is a foe: swaying a foe takes the Influence action",
        "communicate/nobody": "… addresses no one",
        "communicate/not-addressed": "the combatant was not addressed, so cannot reply",
        "cover/constitution-only": "cover adds to AC and Constitution saves in this variant, not to … saves",
        "cover/none": "no cover named",
        "cover/total": "… has Total Cover and can't be targeted directly",
        "grapple/no-free-hand": "grappling needs a free hand",
        "grapple/none": "the combatant is not grappling anyone",
        "initiative/group-not-identical": "… differs from … in …; one roll is for identical entities",
        "initiative/mount-follows-rider": "… is a controlled mount: its Initiative is its rider's",
        "initiative/no-reroll": "no tie among player characters is waiting for a reroll",
        "initiative/players-reroll": "the tie at … is among player characters: they reroll a d20 to order it",
        "initiative/reroll-waiting": "a tie among player characters waits for their reroll",
        "initiative/unsettled": "initiative is not settled: …",
        "jump/too-far": "the jump is longer than the combatant can jump",
        "mount/already-riding": "the rider is already mounted",
        "mount/controlled-actions": "a controlled mount has only three action options, not …",
        "mount/grouped": "… shares its group's Initiative and cannot take its rider's",
        "mount/no-save": "no save to stay mounted is owed",
        "mount/not-riding": "… is not mounted",
        "mount/riding": "a mounted combatant cannot do this",
        "mount/self": "… cannot ride itself",
        "mount/taken": "the mount already carries a rider",
        "mount/too-small": "… (…) is not at least one size larger than … (…)",
        "mount/unable": "the mount cannot carry a rider now",
        "mount/untrained": "the creature is not trained to be ridden",
        "mount/unwilling": "… is not willing to carry …",
        "move/blocked": "… cannot pass through …'s space",
        "move/mode": "'…' is not a kind of movement",
        "move/not-grappling": "the combatant is not grappling anyone to drag",
        "prone/already": "… is already Prone",
        "reorder/down": "… is … and cannot swap places",
        "reorder/gm-decides": "… is the GM's to move",
        "reorder/gm-ends": "the GM ends the reorder",
        "reorder/mount-follows-rider": "… is a controlled mount: its place is its rider's",
        "reorder/not-asked": "no reorder was asked for",
        "reorder/not-your-character": "… does not play …",
        "reorder/not-your-turn": "a reorder is asked on one's own turn",
        "reorder/players-only": "a player swaps with another player, not with …",
        "reorder/players-waiting": "players are still choosing in the reorder",
        "reorder/proposal-open": "a reorder proposal is already open",
        "reorder/self": "… cannot swap places with itself",
        "traits/missing": "…'s Strength modifier and Proficiency Bonus are not noted, and … depends on them",
        "traits/negative": "speeds and hands cannot be negative",
        "traits/proficiency": "a Proficiency Bonus of …",
        "traits/speed": "'…' is not a special speed",
        "traits/strength": "a Strength modifier of …",
        "unarmed/too-large": "… (…) is more than one size larger than … (…)",
    },
)
