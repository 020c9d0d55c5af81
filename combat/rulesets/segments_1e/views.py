"""What segments-1e shows the generic readers (combat/kernel/views.py): of a hidden creature
in its ledger, a player or viewer sees neither its stat-block numbers nor the tables it
attacks and saves as."""

from __future__ import annotations

from typing import Any

from combat.kernel.views import Hidden, Views
from combat.rulesets.segments_1e.events import HIDDEN_CREATURE_STATS

__all__ = ["VIEWS"]


def _ledger_shown(block: dict[str, Any], hidden: Hidden) -> dict[str, Any]:
    ledger = block.get("creatures")
    if not ledger:
        return block
    creatures = {
        cid: (
            {
                **c,
                "stats": {k: v for k, v in c["stats"].items() if k not in HIDDEN_CREATURE_STATS},
                "attacks_as": None,
                "saves_as": None,
            }
            if hidden(cid)
            else c
        )
        for cid, c in ledger.items()
    }
    return {**block, "creatures": creatures}


VIEWS = Views(
    player_block=_ledger_shown,
    hidden_fields={
        "CreatureStats": HIDDEN_CREATURE_STATS,
        "Sheet": HIDDEN_CREATURE_STATS,
        "Creature": ("attacks_as", "saves_as"),
        "CreatureAdded": ("hp", "attacks_as", "saves_as"),
    },
)
