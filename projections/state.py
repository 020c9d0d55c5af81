"""The current-state projection: phase, round, whose turn, every combatant's HP, conditions
and economy left, in the JSON other tools read."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from combat.app.application import fold_records
from combat.fivee.initiative import unresolved_ties
from combat.rulesets import get_ruleset
from combat.kernel.state import EncounterState
from combat.app.store import Recorded
from projections.initiative import initiative_order

__all__ = ["state_view", "project_state", "render_state_json"]


# The fields every ruleset shares; a ruleset's own fields show only once they hold something,
# so an encounter's JSON does not carry the empty bookkeeping of every other ruleset.
_SHARED = frozenset(
    "ruleset name seed settings version rolls phase round turn combatants ties helps opportunities "
    "pending_checks winner ended_reason retracted conflicts".split()
)
_DEFAULTS = msgspec.to_builtins(EncounterState())


def state_view(state: EncounterState) -> dict[str, Any]:
    view = {
        key: value
        for key, value in msgspec.to_builtins(state).items()
        if key in _SHARED or value != _DEFAULTS.get(key)
    }
    for c in view.get("combatants", {}).values():
        # A condition shows `hidden` only when it is: the projection reads as it did before
        # conditions could be hidden (projections/redaction.py).
        c["conditions"] = [{k: v for k, v in x.items() if k != "hidden" or v} for x in c.get("conditions", ())]
    view["initiative_order"] = [msgspec.to_builtins(entry) for entry in initiative_order(state)]
    view["unresolved_ties"] = [msgspec.to_builtins(t) for t in unresolved_ties(state)]
    view["commands"] = get_ruleset(state.ruleset).phases.commands(state.phase)
    return view


def project_state(records: Iterable[Recorded]) -> dict[str, Any]:
    return state_view(fold_records(records))


def render_state_json(state: EncounterState) -> str:
    """Stable, sorted JSON: the same log always gives the same bytes."""
    return msgspec.json.format(msgspec.json.encode(state_view(state), order="sorted"), indent=2).decode()
