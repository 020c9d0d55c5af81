"""Saving throws the GM calls for: d20 + bonus against a DC, with Advantage or Disadvantage."""

from __future__ import annotations

from combat.fivee.attacks import d20_notation
from combat.kernel.commands import SavingThrow
from combat.kernel.decider import Tx, Applier, Handler
from combat.kernel.errors import RuleError
from combat.kernel.events import SaveMade

__all__ = ["saving_throw", "HANDLERS", "APPLIERS"]


def saving_throw(tx: Tx, cid: str, ability: str, dc: int, bonus: int, mode: str, faces, reason: str = "") -> SaveMade:
    c = tx.combatant(cid)
    if c.status == "dead":
        raise RuleError("target/dead", f"{c.name} is dead and makes no saves", allowed="a living combatant")
    roll = tx.roll(d20_notation(mode, bonus), purpose=f"{ability} save", roller=c.id, faces=faces)
    event = SaveMade(combatant=c.id, ability=ability, dc=dc, total=roll.total, success=roll.total >= dc, reason=reason)
    tx.emit(event)
    return event


def _saving_throw(tx: Tx, cmd: SavingThrow) -> None:
    saving_throw(tx, cmd.combatant, cmd.ability, cmd.dc, cmd.bonus, cmd.roll_mode, cmd.faces, cmd.reason)


HANDLERS: dict[type, Handler] = {SavingThrow: _saving_throw}
APPLIERS: dict[type, Applier] = {SaveMade: lambda state, e: state}
