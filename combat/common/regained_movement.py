"""Movement regained mid-turn: a creature revived, or freed from a condition that set its Speed
to 0, during its own turn moves at its Speed for the rest of that turn.

A turn's movement is granted from the Speed the creature has as the turn starts (0 while
Unconscious or Grappled). Without this rule a character healed on its own turn (a 20 on its
Death Saving Throw) or one that escaped a grapple with its action would keep 0 ft. The grant
is its own event, so logs recorded before it keep the movement they had.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from combat.common.condition_effects import speed_of
from combat.kernel.decider import Rules, Tx
from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import EncounterState, with_combatant

__all__ = ["MovementRestored", "restore_movement", "RULES"]


class MovementRestored(Event, frozen=True, kw_only=True):
    """`feet` more movement this turn, up to the creature's Speed."""

    combatant: str
    feet: int
    reason: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


def restore_movement(tx: Tx, cid: str, reason: str = "") -> None:
    """If it is `cid`'s turn and it was granted less than its Speed, grant the rest."""
    c = tx.state.combatants[cid]
    if tx.state.turn != cid or c.status != "active":
        return
    missing = speed_of(c) - c.economy.movement
    if missing > 0:
        tx.emit(MovementRestored(combatant=cid, feet=missing, reason=reason))


def _on_restored(state: EncounterState, e: MovementRestored) -> EncounterState:
    c = state.combatants[e.combatant]
    return with_combatant(state, c.id, economy=msgspec.structs.replace(c.economy, movement=c.economy.movement + e.feet))


RULES = Rules(
    appliers={MovementRestored: _on_restored},
    narration={MovementRestored: lambda n, e: f"{n.name(e.combatant)} can move again: {e.feet} ft this turn"},
)
