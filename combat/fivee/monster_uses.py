"""A stat block's limited uses: an action that Recharges ("Recharge 5-6") is spent until its
d6 brings it back, and a per-day one ("3/Day") counts its uses. Whatever spends such a use
(a monster's action, its attack, a spell it casts through a reaction) asks `require_use` first
and records `UseSpent`."""

from __future__ import annotations

from typing import ClassVar

from combat.bestiary.model import BlockAction, BlockAttack
from combat.fivee.monsters import MonsterSheet, sheets, with_sheet
from combat.kernel.decider import Rules
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState

__all__ = ["UseSpent", "require_use", "RULES"]


class UseSpent(Event, frozen=True, kw_only=True):
    """A Recharge or per-day action was used."""

    combatant: str
    action: str
    hidden: ClassVar[Hidden] = PUBLIC


def require_use(c: Combatant, s: MonsterSheet, name: str) -> None:
    """A Recharge action must be charged and a per-day action must have uses left."""
    entry = s.block.limited(name)
    if entry is None:
        return
    if entry.recharge is not None and entry.name in s.spent:
        faces = "6" if entry.recharge == 6 else f"{entry.recharge}-6"
        raise RuleError(
            "creature/recharging",
            f"{c.name}'s {entry.name} is spent until it recharges (Recharge {faces}, rolled at the start of its turn)",
            allowed=_available(s) or "its other actions",
        )
    if entry.per_day is not None and s.used_today.get(entry.name, 0) >= entry.per_day:
        raise RuleError(
            "creature/no-uses-left",
            f"{c.name} has used {entry.name} {entry.per_day}/day already",
            allowed=_available(s) or "its other actions",
        )


def _available(s: MonsterSheet) -> str:
    entries: tuple[BlockAttack | BlockAction, ...] = (
        *s.block.attacks,
        *s.block.actions,
        *s.block.bonus_actions,
        *s.block.reactions,
    )
    names = [e.name for e in entries]
    usable = []
    for n in names:
        e = s.block.limited(n)
        if (
            e is None
            or (e.recharge is not None and n not in s.spent)
            or (e.per_day is not None and s.used_today.get(n, 0) < e.per_day)
        ):
            usable.append(n)
    return ", ".join(usable)


def _on_use_spent(state: EncounterState, e: UseSpent) -> EncounterState:
    s = sheets(state)[e.combatant]  # KeyError in a changed past: a conflict, not a crash
    entry = s.block.limited(e.action)
    if entry is not None and entry.recharge is not None:
        return with_sheet(state, e.combatant, spent=(*s.spent, entry.name))
    return with_sheet(state, e.combatant, used_today={**s.used_today, e.action: s.used_today.get(e.action, 0) + 1})


RULES = Rules(
    appliers={UseSpent: _on_use_spent}, narration={UseSpent: lambda n, e: f"{n.name(e.combatant)}'s {e.action} is spent"}
)
