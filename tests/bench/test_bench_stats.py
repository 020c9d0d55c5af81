"""`combat bench`'s statistics section (issue 34: "measures the projection's lag behind the write
path ... and the time to rebuild from 100,000 events; the write path's figures do not drop by
more than 5% with the projection running"), at a small size: every figure is there, for the
write path without a follower, with it on a thread and with it in a process of its own (at
its default look every 50 ms, and every 250 ms), and the report states the 5% target for each."""

from __future__ import annotations

from combat.bench import report, stats_projection


def test_the_stats_section_measures_rebuild_lag_and_the_write_paths_cost(tmp_path):
    result = stats_projection.run(tmp_path, 500, 9, rounds=2)
    assert result["events"] >= 500  # every stored event folded once by the rebuild
    assert result["rebuild_s"] > 0 and result["rebuild_events_per_s"] > 0
    modes = result["modes"]
    assert set(modes) == {"none", "thread", "process", "process_slow"}
    assert modes["none"]["ratio"] == 1.0  # each mode against `none` of its own round
    for mode in ("thread", "process", "process_slow"):
        m = modes[mode]
        assert 0 < m["lag_p50_ms"] <= m["lag_p99_ms"]
        assert 0 < m["ratio_low"] <= m["ratio"] <= m["ratio_high"]
    assert modes["process"]["child_cpu_s"] > 0 and modes["process_slow"]["child_cpu_s"] > 0  # apart from the writers'
    rows = report._stats(result)
    assert rows[0][0] == f"9. stats rebuild from {result['events']:,} events"
    assert [row[4][: len("drop <= 5%: ")] for row in rows[2:]] == ["drop <= 5%: "] * 3
    assert "thread" in rows[2][0] and "(every 50 ms)" in rows[3][0] and "(every 250 ms)" in rows[4][0]
