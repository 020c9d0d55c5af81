"""Reply bodies built from the application's results."""

from __future__ import annotations

from typing import cast

import msgspec

from combat.application import Outcome
from combat.interchange import to_line
from combat.service.messages import CommandDone, StateView
from combat.state import EncounterState
from projections.state import state_view

__all__ = ["view_of", "command_done"]


def view_of(state: EncounterState) -> StateView:
    """The state projection exactly as `projections.state` builds it. `StateView` describes
    it for the OpenAPI document; a ruleset's own block appears only once it holds something,
    which the schema allows as none of its fields is required."""
    return cast(StateView, state_view(state))


def command_done(outcome: Outcome) -> CommandDone:
    return CommandDone(
        version=outcome.state.version,
        events=[msgspec.json.decode(to_line(rec)) for rec in outcome.records],
        state=view_of(outcome.state),
    )
