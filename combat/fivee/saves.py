"""Saving throws the GM calls for: d20 + bonus against a DC, with Advantage or Disadvantage,
and what conditions and cover do to them (combat/fivee/save_conditions.py)."""

from __future__ import annotations

from combat.fivee.attacks import d20_notation, roll_mode
from combat.fivee.save_conditions import automatic_failure, cover_bonus, save_disadvantage
from combat.kernel.commands import SavingThrow
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import SaveMade

__all__ = ["saving_throw", "HANDLERS", "APPLIERS"]


def saving_throw(
    tx: Tx, cid: str, ability: str, dc: int, bonus: int, mode: str, faces, reason: str = "", *,
    conditions: bool = True, cover: str = "none",
) -> SaveMade:
    """A save, with what the 5e conditions do to it unless `conditions` is False (segments-1e)
    and cover's bonus to a Dexterity save."""
    c = tx.combatant(cid)
    if c.status == "dead":
        raise RuleError("target/dead", f"{c.name} is dead and makes no saves", allowed="a living combatant")
    bonus += cover_bonus(ability, cover)
    failed_by = automatic_failure(c, ability) if conditions else None
    if failed_by is not None:
        if faces is not None:
            raise RuleError("dice/unused-faces", f"{c.name} is {failed_by} and fails {ability} saves without a roll",
                            allowed="no faces")
        event = SaveMade(combatant=c.id, ability=ability, dc=dc, total=0, success=False,
                         reason=", ".join(r for r in (reason, f"automatically fails: {failed_by}") if r), cover=cover)  # type: ignore[arg-type]
        tx.emit(event)
        return event
    if conditions and save_disadvantage(c, ability):
        mode = roll_mode(["advantage"] if mode == "advantage" else [], ["condition"])
    roll = tx.roll(d20_notation(mode, bonus), purpose=f"{ability} save", roller=c.id, faces=faces)
    event = SaveMade(combatant=c.id, ability=ability, dc=dc, total=roll.total, success=roll.total >= dc, reason=reason,
                     cover=cover)  # type: ignore[arg-type]
    tx.emit(event)
    return event


def _saving_throw(tx: Tx, cmd: SavingThrow) -> None:
    saving_throw(tx, cmd.combatant, cmd.ability, cmd.dc, cmd.bonus, cmd.roll_mode, cmd.faces, cmd.reason, cover=cmd.cover)


HANDLERS = {SavingThrow: _saving_throw}
APPLIERS = {SaveMade: lambda state, e: state}
