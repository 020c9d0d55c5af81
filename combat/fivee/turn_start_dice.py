"""The dice of the effects that act as a creature's turn starts, entered on the command that
starts the turn (issue 31: "every die face enterable").

Searing Smite: "At the start of each of its turns until the spell ends, the target takes 1d6
Fire damage and then makes a Constitution saving throw"; Ensnaring Strike: "While Restrained,
the target takes 1d6 Piercing damage at the start of each of its turns". No command is sent at
that moment, so the command that moves the turn there (end_turn, goto_turn, previous_turn)
carries them: `turn_start_faces: {"searing smite": {"damage": [4], "save": [12]}}`, by the
effect's name (the condition on the bearer). The kernel keeps them on the command's `Tx` until
the flow's rolls take them (combat/kernel/decider.py).

Refused (`dice/unused-faces`), before any die is rolled: faces for an effect the creature whose
turn starts does not have or that rolls nothing now (Ensnaring Strike's thorns once it is no
longer Restrained), and `save` faces for an effect that asks no save; and faces left when no
turn started. The outcome may still leave entered faces unused, as a missed attack leaves its
damage's: a burn that drops the creature leaves its save unrolled.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from combat.kernel.commands import TurnStartDice
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionSpec
from combat.kernel.names import normalised
from combat.kernel.riders import Riders

__all__ = ["check_entered", "take"]

UNSET = msgspec.UNSET


def check_entered(tx: Tx, cid: str, acting: Sequence[tuple[ConditionSpec, Riders]]) -> None:
    """Refuse faces entered for an effect that does not roll as `cid`'s turn starts."""
    if not tx.turn_start_faces:
        return
    names = {cond.name: r for cond, r in acting}
    name = tx.state.combatants[cid].name
    allowed = "turn_start_faces for " + (", ".join(names) if names else "no effect of theirs")
    for key, dice in tx.turn_start_faces.items():
        r = names.get(normalised(key))
        if r is None:
            raise RuleError("dice/unused-faces", f"'{key}' rolls nothing as {name}'s turn starts", allowed=allowed)
        if dice.save is not None and r.turn_start_save is UNSET:
            raise RuleError(
                "dice/unused-faces", f"'{key}' asks {name} for no save as its turn starts", allowed=f"{key}: damage faces only"
            )


def take(tx: Tx, effect: str) -> TurnStartDice:
    """The faces entered for `effect` (empty when none were), no longer waiting."""
    for key in list(tx.turn_start_faces):
        if normalised(key) == effect:
            return tx.turn_start_faces.pop(key)
    return TurnStartDice()
