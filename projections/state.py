"""The current-state projection: phase, round, whose turn, every combatant's HP, conditions
and economy left, in the JSON other tools read."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from combat.app.history import fold_records
from combat.kernel.records import Recorded
from combat.kernel.state import UNSHOWN, EncounterState, unresolved_ties
from combat.rulesets import get_ruleset
from projections.initiative import initiative_order

__all__ = ["state_view", "project_state", "render_state_json"]


def state_view(state: EncounterState) -> dict[str, Any]:
    """The shared fields, then the ruleset's own state under its `state_key` once it holds
    something (so an encounter's JSON carries no empty bookkeeping)."""
    ruleset = get_ruleset(state.ruleset)
    view = msgspec.to_builtins(state)
    rules = view.pop("rules")
    unshown = ruleset.views.bookkeeping
    shown = {k: v for k, v in rules.items() if k not in unshown} if isinstance(rules, dict) else rules
    if ruleset.state_key and shown != msgspec.to_builtins(ruleset.state_type()):
        view[ruleset.state_key] = shown
    # What the GM revealed, and a condition's `hidden`, show only once they hold something:
    # the projection reads as it did before information could be hidden (projections/redaction.py).
    for key in ("revealed", "revealed_sides"):
        if not view[key]:
            del view[key]
    # The memory hidden information is judged on: the GM's bookkeeping, no part of the view.
    for key in UNSHOWN:
        del view[key]
    for c in view["combatants"].values():
        c["conditions"] = [{k: v for k, v in x.items() if k != "hidden" or v} for x in c["conditions"]]
    view["initiative_order"] = [msgspec.to_builtins(entry) for entry in initiative_order(state)]
    view["unresolved_ties"] = [msgspec.to_builtins(t) for t in unresolved_ties(state)]
    view["commands"] = ruleset.phases.commands(state.phase)
    return view


def project_state(records: Iterable[Recorded]) -> dict[str, Any]:
    return state_view(fold_records(records))


def render_state_json(state: EncounterState) -> str:
    """Stable, sorted JSON: the same log always gives the same bytes."""
    return msgspec.json.format(msgspec.json.encode(state_view(state), order="sorted"), indent=2).decode()
