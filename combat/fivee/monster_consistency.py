"""Do a monster's recorded stat block uses still fit, now that the past has changed?

The checks of combat/fivee/consistency.py for the events of monster_actions.py and
legendary.py: each gets the state just before the event and says what no longer fits.
"""

from __future__ import annotations

from typing import Any

from combat.common.consistency import able
from combat.fivee.actions import used_up
from combat.fivee.legendary import LegendaryActionUsed
from combat.fivee.legendary_resistance import LegendaryResistanceUsed
from combat.fivee.monster_actions import MonsterActionUsed, MultiattackUsed, RechargeChecked
from combat.fivee.monster_uses import UseSpent
from combat.fivee.monsters import monsters_of, sheet
from combat.kernel.decider import Rules
from combat.kernel.state import EncounterState

__all__ = ["RULES"]


def _multiattack(state: EncounterState, e: MultiattackUsed, ctx: dict[str, Any]) -> str | None:
    return able(state, e.attacker, "use Multiattack") or used_up(state.combatants[e.attacker], "action")


def _action(state: EncounterState, e: MonsterActionUsed, ctx: dict[str, Any]) -> str | None:
    return able(state, e.combatant, f"use {e.action}") or used_up(state.combatants[e.combatant], e.uses)


def _spent(state: EncounterState, e: UseSpent, ctx: dict[str, Any]) -> str | None:
    s = sheet(state, e.combatant)
    entry = s.block.limited(e.action) if s else None
    if s is None or entry is None:
        return None
    if entry.recharge is not None and entry.name in s.spent:
        return f"{e.action} was still spent, waiting to recharge"
    if entry.per_day is not None and s.used_today.get(entry.name, 0) >= entry.per_day:
        return f"{e.action} had no uses left today"
    return None


def _recharge(state: EncounterState, e: RechargeChecked, ctx: dict[str, Any]) -> str | None:
    s = sheet(state, e.combatant)
    if s is not None and e.action not in s.recharge_due:
        return f"{e.action} was not waiting for a recharge roll"
    return None


def _legendary(state: EncounterState, e: LegendaryActionUsed, ctx: dict[str, Any]) -> str | None:
    problem = able(state, e.combatant, "take legendary actions")
    s = sheet(state, e.combatant)
    if problem is None and s is not None and s.legendary_left < e.cost:
        return f"{state.combatants[e.combatant].name} had {s.legendary_left} legendary action use(s) left, not {e.cost}"
    if problem is None and monsters_of(state).after_turn_of in (None, e.combatant):
        return "no other creature's turn had just ended"
    return problem


def _resisted(state: EncounterState, e: LegendaryResistanceUsed, ctx: dict[str, Any]) -> str | None:
    s = sheet(state, e.combatant)
    if s is not None and s.failed_save is None:
        return f"{state.combatants[e.combatant].name} had no failed save to turn into a success"
    if s is not None and s.resistance_left == 0:
        return f"{state.combatants[e.combatant].name} had no Legendary Resistance left"
    return None


RULES = Rules(
    checks={
        MultiattackUsed: _multiattack,
        MonsterActionUsed: _action,
        UseSpent: _spent,
        RechargeChecked: _recharge,
        LegendaryActionUsed: _legendary,
        LegendaryResistanceUsed: _resisted,
    }
)
