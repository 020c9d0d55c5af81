"""Who is in melee with whom on the battle map.

Chosen (the text calls melee "a conceptual zone"): two creatures are in melee when their
squares touch, diagonals too. A creature off the map is left to the GM: nothing here counts
it in or out of melee.
"""

from __future__ import annotations

from combat.kernel.state import EncounterState
from combat.rulesets.segments_1e.ledger import Creature

__all__ = ["Square", "adjacent", "where", "foes_in_melee"]

Square = tuple[int, int]


def adjacent(a: Square, b: Square) -> bool:
    return a != b and max(abs(a[0] - b[0]), abs(a[1] - b[1])) == 1


def where(rec: Creature) -> Square | None:
    return None if rec.x is None or rec.y is None else (rec.x, rec.y)


def foes_in_melee(state: EncounterState, cid: str, at: Square | None = None) -> list[str]:
    """Standing foes in a square touching `cid`'s (or the square `at`)."""
    ledger = state.rules
    here = at or where(ledger.creatures[cid])
    if here is None:
        return []
    side = state.combatants[cid].side
    return [
        fid
        for fid, rec in ledger.creatures.items()
        if state.combatants[fid].side != side
        and state.combatants[fid].status == "active"
        and (there := where(rec)) is not None
        and adjacent(here, there)
    ]
