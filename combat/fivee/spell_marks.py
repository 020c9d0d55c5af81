"""A mark a spell leaves that the next attack against its bearer spends: Guiding Bolt's "the
next attack roll made against it before the end of your next turn has Advantage". The attack
rule (combat/fivee/attacks.py) reads the mark as a reason for Advantage and, once the roll is
made, ends it: one roll, whoever makes it.
"""

from __future__ import annotations

from combat.common.durations import ending
from combat.common.rider_reads import advantage_marks
from combat.kernel.decider import Tx
from combat.kernel.state import Combatant

__all__ = ["spend_advantage_marks"]


def spend_advantage_marks(tx: Tx, target: Combatant) -> None:
    for mark in advantage_marks(target):
        bearer = tx.state.combatants[target.id]
        if mark in bearer.conditions:
            tx.emit(ending(bearer, mark, "the next attack roll against it was made"))
