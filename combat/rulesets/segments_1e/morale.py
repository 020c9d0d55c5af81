"""Morale: "The creature gains a bonus to morale checks equal to the enhanced hit dice bonus."

Chosen (the text gives the bonus, not the check): d20 plus the bonus against the number the
GM names; the creature stands if it reaches it.
"""

from __future__ import annotations

from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.rulesets.segments_1e.commands import CheckMorale
from combat.rulesets.segments_1e.events import MoraleChecked
from combat.rulesets.segments_1e.hit_dice import morale_bonus, parse_hit_dice

__all__ = ["HANDLERS", "APPLIERS"]


def _check(tx: Tx, cmd: CheckMorale) -> None:
    c = tx.combatant(cmd.combatant)
    if c.status != "active":
        raise RuleError("combatant/incapacitated", f"{c.name} is {c.status}", allowed="an active creature")
    hd = tx.state.rules.creatures[c.id].stats.hit_dice
    bonus = morale_bonus(parse_hit_dice(hd)) if hd else 0
    roll = tx.roll(f"1d20{bonus:+d}", purpose="morale", roller=c.id, faces=cmd.faces)
    tx.emit(MoraleChecked(combatant=c.id, total=roll.total, bonus=bonus, needed=cmd.needed, holds=roll.total >= cmd.needed))


HANDLERS = {CheckMorale: _check}
APPLIERS = {MoraleChecked: lambda state, e: state}
