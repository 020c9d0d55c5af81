"""What dropping to 0 Hit Points and regaining them mean: a part the shared hit-point,
condition and turn rules leave to each ruleset.

The plain rules (declared-d10 and segments-1e take them): a monster at 0 HP dies and anyone
else falls unconscious, either way losing concentration; regaining HP brings the creature
back. A ruleset with rules of its own for 0 HP fills the port with a subclass (the 5e family's
death saves, massive damage and knocking out: combat/fivee/dying.py's `DeathAtZero`), and the
shared rules call it wherever a creature drops, is struck at 0 HP, regains HP or starts a turn.
"""

from __future__ import annotations

from combat.common.concentration import end_concentration
from combat.common.events import CombatantDowned, CombatantRevived
from combat.common.regained_movement import restore_movement
from combat.kernel.decider import Tx
from combat.kernel.state import Combatant

__all__ = ["ZeroHitPoints", "zero_hp"]


class ZeroHitPoints:
    """The plain rules; each method is one moment the shared rules reach."""

    # Whether the ruleset records a death as its own event (the 5e `CombatantDied`): Exhaustion
    # has levels, and kills at level 6, only where it does (combat/common/conditions.py).
    records_deaths = False

    def dropped(self, tx: Tx, c: Combatant, remainder: int) -> None:
        """`c` has just dropped to 0 HP with `remainder` damage left over."""
        dead = c.kind == "monster"
        tx.emit(CombatantDowned(combatant=c.id, status="dead" if dead else "unconscious"))
        end_concentration(tx, c.id, "died" if dead else "fell unconscious")

    def struck_again(self, tx: Tx, c: Combatant, amount: int) -> None:
        """More of the blow that has just dropped `c` or struck it at 0 HP."""

    def damaged_at_zero(self, tx: Tx, c: Combatant, amount: int, *, critical: bool) -> None:
        """A new blow to a creature already at 0 HP."""

    def already_struck(self, tx: Tx, cid: str) -> bool:
        """This command has already dropped `cid`, or struck it at 0 HP."""
        return any(isinstance(e, CombatantDowned) and e.combatant == cid for e in tx.events)

    def revived(self, tx: Tx, cid: str) -> None:
        """`cid`, unconscious at 0 HP, has regained Hit Points (its Speed back on its own turn)."""
        tx.emit(CombatantRevived(combatant=cid))
        restore_movement(tx, cid)

    def turn_started(self, tx: Tx, cid: str) -> None:
        """`cid`'s turn has started (a 5e creature at 0 HP owes a Death Saving Throw)."""

    def died(self, tx: Tx, cid: str, cause: str) -> None:
        """`cid` dies of `cause` outright (Exhaustion level 6), where `records_deaths`."""
        raise NotImplementedError("a ruleset that records deaths says how")


_PLAIN = ZeroHitPoints()


def zero_hp(tx: Tx) -> ZeroHitPoints:
    """The ruleset's rules for 0 HP: its port, or the plain ones."""
    return tx.ruleset.port(ZeroHitPoints) or _PLAIN
