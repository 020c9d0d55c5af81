"""Every recorded session in replays/ rebuilds to the state stored beside it."""

from pathlib import Path

import pytest

from combat.app.application import fold_records
from combat.app.interchange import read_jsonl
from projections.state import render_state_json
from tests.helpers import REPLAYS

REPLAYS = sorted(REPLAYS.glob("*.jsonl"))


def test_there_is_a_recorded_session_for_srd_2024():
    assert any(p.name.startswith("srd-2024-") for p in REPLAYS)


@pytest.mark.parametrize("log", REPLAYS, ids=lambda p: p.stem)
def test_a_recorded_session_replays_to_its_expected_state(log: Path):
    """'Replay never re-rolls': the faces in the log give the same state every time."""
    expected = log.with_suffix(".expected.json").read_text()
    state = fold_records(read_jsonl(log.read_bytes().splitlines()))
    assert render_state_json(state) + "\n" == expected
