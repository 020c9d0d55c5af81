"""What a ruleset shows the readers that serve every ruleset, declared once on the ruleset
(as boardgame.io's `playerView`): the redaction of its own state block for a player or a
viewer, the fields a hidden creature's copy of its types leaves blank in the published
schemas, and the lines a board prints beside a combatant. projections/, the service's schemas
and `combat show` ask `Ruleset.views` and name no ruleset.

A ruleset that declares nothing shows its block as it is (it keeps no creature's secrets of
its own) and prints nothing beside a combatant.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from typing import Any

from combat.kernel.state import EncounterState

__all__ = ["Hidden", "Views", "hide_combatant_entries"]

# Whether the reader may not see this combatant's numbers (projections/redaction.py judges it).
Hidden = Callable[[Any], bool]


def _as_is(block: dict[str, Any], hidden: Hidden) -> dict[str, Any]:
    return block


def _nothing(state: EncounterState, cid: str) -> tuple[str, ...]:
    return ()


def _no_death_saves(state: EncounterState, cid: str) -> str | None:
    return None


@dataclass(frozen=True)
class Views:
    # The ruleset's own state block (the JSON under its `state_key`) as a player or viewer
    # reads it: `hidden(cid)` says whose numbers they may not see.
    player_block: Callable[[dict[str, Any], Hidden], dict[str, Any]] = _as_is
    # Schema definitions by name (its event and state types) and the fields a hidden
    # creature's copy may leave blank (GET /schemas/...?view=redacted).
    hidden_fields: Mapping[str, tuple[str, ...]] = field(default_factory=dict)
    # A combatant's spell slots left, one entry a level ("1st 2/4", "pact (3rd) 1/2").
    slots_left: Callable[[EncounterState, str], tuple[str, ...]] = _nothing
    # A dying combatant's death saves in words ("1 success, 2 failures"); None when not dying.
    death_saves: Callable[[EncounterState, str], str | None] = _no_death_saves
    # Slots of its block the state's JSON leaves out: what the rules read and no reader needs,
    # so a log projects to the bytes it did before the slot existed.
    bookkeeping: tuple[str, ...] = ()


def hide_combatant_entries(block: dict[str, Any], key: str, hidden: Hidden) -> dict[str, Any]:
    """`block` with the entries of its map `key` (by combatant id) of hidden combatants left out."""
    entries = block.get(key)
    if not isinstance(entries, dict):
        return block
    return {**block, key: {cid: v for cid, v in entries.items() if not hidden(cid)}}
