"""Morale: "The creature gains a bonus to morale checks equal to the enhanced hit dice bonus."

Chosen (the text gives the bonus, not the check): d20 plus the bonus against the number the
GM names; the creature stands if it reaches it.
"""

from __future__ import annotations

from typing import Any

from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant, EncounterState
from combat.rulesets.segments_1e.commands import CheckMorale
from combat.rulesets.segments_1e.events import MoraleChecked
from combat.rulesets.segments_1e.hit_dice import morale_bonus, parse_hit_dice

__all__ = ["no_morale", "RULES"]


def no_morale(c: Combatant) -> str | None:
    """Only a creature still standing checks morale."""
    return None if c.status == "active" else f"{c.name} is {c.status} and checks no morale"


def _check(tx: Tx, cmd: CheckMorale) -> None:
    c = tx.combatant(cmd.combatant)
    problem = no_morale(c)
    if problem:
        raise RuleError("combatant/incapacitated", problem, allowed="an active creature")
    hd = tx.state.rules.creatures[c.id].stats.hit_dice
    bonus = morale_bonus(parse_hit_dice(hd)) if hd else 0
    roll = tx.roll(f"1d20{bonus:+d}", purpose="morale", roller=c.id, faces=cmd.faces)
    tx.emit(MoraleChecked(combatant=c.id, total=roll.total, bonus=bonus, needed=cmd.needed, holds=roll.total >= cmd.needed))


def _check_checked(state: EncounterState, e: MoraleChecked, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    return f"{e.combatant} is not in the fight any more" if c is None else no_morale(c)


RULES = Rules(
    handlers={CheckMorale: _check},
    appliers={MoraleChecked: lambda state, e: state},
    checks={MoraleChecked: _check_checked},
    narration={
        MoraleChecked: lambda n, e: (
            f"{n.name(e.combatant)} morale: {e.total}"
            + ("" if e.bonus is None else f" (+{e.bonus}) vs {e.needed}")
            + " - "
            + ("holds" if e.holds else "breaks")
        ),
    },
)
