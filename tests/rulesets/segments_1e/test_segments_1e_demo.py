"""segments-1e: the demo fight plays to its end for any seed, with what the issue asks for,
and a recorded session of it replays."""

import pytest

from combat.app.application import fold_records
from combat.app.catalog import ALL_EVENT_TYPES
from combat.kernel.events import CombatEnded
from combat.rulesets.segments_1e.events import CastingStarted, HighLowSet, SegmentTurnStarted, SpellSpoiled, SpellWentOff
from projections.narrative import narrate
from tests.helpers import REPLAYS, of_type, played_demo


@pytest.mark.parametrize("seed", range(1, 11))
def test_the_demo_fight_has_a_surprise_segment_timed_spells_a_tie_and_a_multi_attacker(tmp_path, seed):
    records, live = played_demo(tmp_path / "demo.db", "segments-1e", seed)
    events = [r.event for r in records]
    turns = of_type(events, SegmentTurnStarted)
    assert any(t.slot.key == "surprise-1" for t in turns)
    assert any(t.slot.key == "multi_attacks" and t.combatant == "warlord" for t in turns)
    assert of_type(events, HighLowSet)[0].tied
    bolt = next(e for e in of_type(events, CastingStarted) if e.spell == "Lightning Bolt")
    [gone] = [e for e in of_type(events, SpellWentOff) if e.spell == "Lightning Bolt"]
    assert gone.segment == bolt.completes_segment == bolt.start_segment + 2
    assert any(e.spell == "Hold Person" and e.reason == "took damage" for e in of_type(events, SpellSpoiled))
    assert of_type(events, CombatEnded) and live.phase == "ended"
    assert fold_records(records) == live
    names = {t.__name__ for t in ALL_EVENT_TYPES}
    assert not [line for line in narrate(records) if line.split(" - ")[-1] in names]


def test_there_is_a_recorded_session_for_segments_1e():
    """Replayed with every other session by tests/app/test_replays.py."""
    logs = sorted(REPLAYS.glob("segments-1e-*.jsonl"))
    assert logs and all(log.with_suffix(".expected.json").exists() for log in logs)
