"""Scripted fights, one per ruleset, played through the application as a GM would.

Each demo is `run(encounters, seed=..., report=...) -> encounter id`; the same seed plays
the same fight.
"""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from combat.demos import a5e, declared_d10, segments_1e, srd2024, srd2024_variant
from combat.kernel.errors import RuleError

__all__ = ["DEMOS", "get_demo"]

Demo = Callable[..., UUID]

DEMOS: dict[str, Demo] = {
    "srd-2024": srd2024.run_demo,
    "srd-2024-variant": srd2024_variant.run_demo,
    "declared-d10": declared_d10.run_demo,
    "a5e": a5e.run_demo,
    "segments-1e": segments_1e.run_demo,
}


def get_demo(ruleset_id: str) -> Demo:
    try:
        return DEMOS[ruleset_id]
    except KeyError:
        raise RuleError("demo/none", f"there is no demo fight for '{ruleset_id}'", allowed=", ".join(DEMOS)) from None
