"""What declared-d10 shows the generic readers (combat/kernel/views.py): a hidden creature's
stat-block notes (`traits`) are left out of a player's or viewer's state."""

from __future__ import annotations

from typing import Any

from combat.kernel.views import Hidden, Views, hide_combatant_entries

__all__ = ["VIEWS", "hide_traits"]


def hide_traits(block: dict[str, Any], hidden: Hidden) -> dict[str, Any]:
    return hide_combatant_entries(block, "traits", hidden)


VIEWS = Views(player_block=hide_traits)
