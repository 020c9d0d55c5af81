"""A check made: an ability check (combat/fivee/ability_checks.py), Hide's Stealth or
Search's Wisdom (actions.py), a Medicine check to stabilize (dying.py). It stands apart from
those modules because they import each other."""

from __future__ import annotations

from typing import Any, ClassVar

from combat.kernel.events import Event
from combat.kernel.hidden import Hidden

__all__ = ["CheckMade", "narrate_check"]


class CheckMade(Event, frozen=True, kw_only=True):
    combatant: str
    skill: str
    total: int
    dc: int | None = None
    success: bool | None = None
    hidden: ClassVar[Hidden] = Hidden.said("total", "dc")  # a DC the GM sets for a check, said aloud


def narrate_check(n: Any, e: CheckMade) -> str:
    result = "" if e.success is None else (" - success" if e.success else " - failure")
    against = f" vs DC {e.dc}" if e.dc is not None else ""
    return f"{n.name(e.combatant)} makes a {e.skill} check: {e.total}{against}{result}"
