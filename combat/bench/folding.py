"""Folding each ruleset's demo fight: the time per event of `fold` (every applier, nothing
else) over the demo's effective events already in memory (no store, no decoding, no
re-check of a changed past), set beside srd-2024's. It shows what a ruleset's own state
costs a fold; the target for declared-d10 and segments-1e is at most 2x srd-2024 per event."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from combat.app import history
from combat.app.application import Encounters
from combat.bench.timing import best_of
from combat.demos import DEMOS
from combat.kernel.decider import fold
from combat.kernel.events import Event
from combat.rulesets import get_ruleset

__all__ = ["run", "TARGET", "TARGETED"]

TARGET = 2.0
TARGETED = ("declared-d10", "segments-1e")
PEER = "srd-2024"


def run(workdir: Path, repeat: int, folds: int) -> dict[str, Any]:
    """`folds` replays of each demo log per timing, the best of `repeat` timings."""
    encounters = Encounters(workdir / "folding.db")
    try:
        logs = {}
        for ruleset, demo in DEMOS.items():
            eid = demo(encounters, seed=1, report=lambda outcome: None)
            logs[ruleset] = [rec.event for rec in history.effective(list(encounters.records(eid))).order]
    finally:
        encounters.close()

    def per_event_us(ruleset_id: str, events: list[Event]) -> float:
        ruleset = get_ruleset(ruleset_id)

        def fold_many() -> None:
            for _ in range(folds):
                fold(ruleset, events)

        return best_of(repeat, fold_many) / (folds * len(events)) * 1e6

    timed = {ruleset: per_event_us(ruleset, events) for ruleset, events in logs.items()}
    ratios = {ruleset: us / timed[PEER] for ruleset, us in timed.items()}
    return {
        "events": {ruleset: len(events) for ruleset, events in logs.items()},
        "us_per_event": timed,
        "ratio_to_srd_2024": ratios,
        "target": f"{', '.join(TARGETED)}: <= {TARGET:g}x {PEER} per event",
        "met": all(ratios[r] <= TARGET for r in TARGETED),
    }
