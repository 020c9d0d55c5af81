"""Actions per round: "During each round, a player may perform one attack and one move action.
The other actions listed below will specify if they still allow for an attack or move or if
they take up both of those actions when performed."

A turn has two slots, `attack` and `move`; each action spends one or both, and spending a
slot twice is rejected. Free attacks spend neither.
"""

from __future__ import annotations

from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant, EncounterState, with_rules

__all__ = ["SLOTS", "require_unspent", "spend"]

SLOTS = ("attack", "move")


def require_unspent(tx: Tx, c: Combatant, *slots: str) -> None:
    spent = tx.state.rules.spent
    used = [s for s in slots if s in spent]
    if used:
        left = [s for s in SLOTS if s not in spent]
        raise RuleError(
            f"economy/{used[0]}-spent",
            f"{c.name} has already used its {' and '.join(used)} this round",
            allowed=(", ".join(left) + ", " if left else "") + "end_turn",
        )


def spend(state: EncounterState, *slots: str) -> EncounterState:
    spent = state.rules.spent
    return with_rules(state, spent=spent + tuple(s for s in slots if s not in spent))
