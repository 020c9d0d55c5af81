"""`combat bench`'s statistics section (issue 34: "measures the projection's lag behind the write
path ... and the time to rebuild from 100,000 events; the write path's figures do not drop by
more than 5% with the projection running"), at a small size: every figure is there and the
report states the 5% target."""

from __future__ import annotations

from combat.bench import report, stats_projection


def test_the_stats_section_measures_rebuild_lag_and_the_write_paths_cost(tmp_path):
    result = stats_projection.run(tmp_path, 500, 9)
    assert result["events"] >= 500  # every stored event folded once by the rebuild
    assert result["rebuild_s"] > 0 and result["rebuild_events_per_s"] > 0
    assert 0 < result["lag_p50_ms"] <= result["lag_p99_ms"]
    assert result["write_ratio_with_follower"] > 0
    rows = report._stats(result)
    assert rows[0][0] == f"9. stats rebuild from {result['events']:,} events"
    assert rows[1][4].startswith("drop <= 5%: ")
