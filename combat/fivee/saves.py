"""Saving throws the GM calls for: d20 + bonus against a DC, with Advantage or Disadvantage."""

from __future__ import annotations

from typing import Any

from combat.kernel import dice
from combat.fivee.attacks import d20_notation
from combat.kernel.commands import SavingThrow
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import DiceRolled, SaveMade, SaveRolled

__all__ = ["saving_throw", "HANDLERS", "APPLIERS", "NARRATION"]


def saving_throw(tx: Tx, cid: str, ability: str, dc: int | None, bonus: int, mode: str, faces, reason: str = "") -> SaveMade:
    if dc is None:
        raise RuleError("save/no-dc", f"this {ability} save needs its DC here", allowed="dc: the number to meet or beat")
    roll = _roll_save(tx, cid, ability, bonus, mode, faces)
    event = SaveMade(combatant=cid, ability=ability, dc=dc, total=roll.total, success=roll.total >= dc, reason=reason)
    tx.emit(event)
    return event


def _roll_save(tx: Tx, cid: str, ability: str, bonus: int, mode: str, faces) -> DiceRolled:
    c = tx.combatant(cid)
    if c.status == "dead":
        raise RuleError("target/dead", f"{c.name} is dead and makes no saves", allowed="a living combatant")
    return tx.roll(d20_notation(mode, bonus), purpose=f"{ability} save", roller=c.id, faces=faces)


def _saving_throw(tx: Tx, cmd: SavingThrow) -> None:
    if cmd.dc is None:
        # The DC is not known yet (the GM keeps it secret, or the effect decides later): the
        # roll is recorded and the GM rules on it, with damage, a condition or a ruling.
        roll = _roll_save(tx, cmd.combatant, cmd.ability, cmd.bonus, cmd.roll_mode, cmd.faces)
        natural = dice.kept_d20(roll.dice) or 0
        tx.emit(SaveRolled(combatant=cmd.combatant, ability=cmd.ability, total=roll.total, natural=natural, reason=cmd.reason))
        return
    saving_throw(tx, cmd.combatant, cmd.ability, cmd.dc, cmd.bonus, cmd.roll_mode, cmd.faces, cmd.reason)


def _narrate_rolled(n: Any, e: SaveRolled) -> str:
    why = f" ({e.reason})" if e.reason else ""
    return f"{n.name(e.combatant)} rolls a {e.ability} save{why}: {e.total}, for the GM to rule on"


HANDLERS = {SavingThrow: _saving_throw}
APPLIERS = {SaveMade: lambda state, e: state, SaveRolled: lambda state, e: state}
NARRATION = {SaveRolled: _narrate_rolled}
