"""The initiative order as a table shows it: who acts when, whose turn it is, who is tied."""

from __future__ import annotations

import msgspec

from combat.kernel.state import EncounterState, unresolved_ties
from combat.rulesets import get_ruleset

__all__ = ["InitiativeEntry", "initiative_order"]


class InitiativeEntry(msgspec.Struct, frozen=True, kw_only=True):
    combatant: str
    name: str
    side: str
    initiative: int | None
    status: str
    current: bool
    tied: bool


def initiative_order(state: EncounterState) -> list[InitiativeEntry]:
    ruleset = get_ruleset(state.ruleset)
    tied = {m for tie in unresolved_ties(state) for unit in tie.units for m in unit}
    ordered = ruleset.turn_order(state, True)
    waiting = [cid for cid in state.combatants if cid not in ordered]
    return [
        InitiativeEntry(
            combatant=cid,
            name=state.combatants[cid].name,
            side=state.combatants[cid].side,
            initiative=state.combatants[cid].initiative,
            status=state.combatants[cid].status,
            current=state.turn == cid,
            tied=cid in tied,
        )
        for cid in ordered + waiting
    ]
