"""The a5e demo: a complete fight in a fiery mill, for any seed, whose Flame Burst recharges."""

from __future__ import annotations

import pytest

from combat.app.application import fold_records
from combat.kernel.events import RoundStarted
from combat.rulesets import RULESETS
from combat.rulesets.a5e.world_actions import RechargeRolled, WorldActionUsed
from projections.narrative import narrate
from tests.helpers import REPLAYS, played_demo


@pytest.mark.parametrize("seed", range(1, 11))
def test_the_a5e_demo_ends_by_itself_and_its_world_action_is_used_recharged_and_used_again(tmp_path, seed):
    """'After the environment uses a world action with a recharge ... at the start of each round
    the Narrator repeats the roll until the environment regains the world action.'"""
    records, state = played_demo(tmp_path / "demo.db", "a5e", seed)
    assert state.phase == "ended" and state == fold_records(records)
    round_of, uses, regained = 0, [], []
    for rec in records:
        if isinstance(rec.event, RoundStarted):
            round_of = rec.event.round
        elif isinstance(rec.event, WorldActionUsed):
            uses.append(round_of)
        elif isinstance(rec.event, RechargeRolled) and rec.event.regained:
            regained.append(round_of)
    assert any(uses[0] < r <= later for r in regained for later in uses[1:]), (uses, regained)
    names = {t.__name__ for t in RULESETS["a5e"].events}
    assert not [line for line in narrate(records) if line.rsplit(" - ", 1)[-1] in names]


def test_there_is_a_recorded_a5e_session():
    assert list(REPLAYS.glob("a5e-*.jsonl"))
