"""declared-d10: the scripted demo fight, for many seeds, and its recorded session."""

from __future__ import annotations

from pathlib import Path

import pytest

from combat.app.application import fold_records
from combat.kernel.events import RoundEnded, RoundStarted, TurnStarted
from combat.rulesets.declared_d10.state import group_of
from combat.rulesets.declared_d10.surprise import D10SurpriseRolled
from tests.helpers import REPLAYS, played_demo


@pytest.mark.parametrize("seed", range(1, 11))
def test_the_demo_opens_with_a_surprise_round_then_plays_normal_rounds_in_changing_group_orders(tmp_path: Path, seed: int):
    """'Initiative is rolled at the start of each round so initiative order can change from round
    to round'; the demo fight must end by itself for any seed."""
    records, state = played_demo(tmp_path / "demo.db", "declared-d10", seed)
    events = [r.event for r in records]
    [opening] = [e for e in events if isinstance(e, D10SurpriseRolled)]
    assert opening.result == "surprise"
    assert events.index(opening) < next(i for i, e in enumerate(events) if isinstance(e, RoundStarted))
    normal_rounds = [e.round for e in events if isinstance(e, RoundEnded) and e.round > 1]
    assert len(normal_rounds) >= 3
    orders: dict[int, list[str]] = {}
    for e in events:
        if isinstance(e, TurnStarted):
            group = group_of(state.combatants[e.combatant])
            if group not in orders.setdefault(e.round, []):
                orders[e.round].append(group)
    assert len({tuple(orders[r]) for r in normal_rounds}) >= 2
    assert state.phase == "ended"
    assert fold_records(records) == state


def test_there_is_a_recorded_session_for_declared_d10():
    """tests/app/test_replays.py replays every recorded session against its expected state."""
    sessions = sorted(REPLAYS.glob("declared-d10-*.jsonl"))
    assert sessions and all(s.with_suffix(".expected.json").exists() for s in sessions)
