"""`combat bench --quick`: the smoke check CI runs. "--quick finishes in under a minute for a
smoke check in CI (no thresholds asserted in CI)": so this checks only that every section
is there with real numbers, never how fast anything was."""

from __future__ import annotations

import math

from combat.bench import report, suite

FIGURES = {
    "replay": ("replay_events_per_s", "decode_floor_events_per_s", "peer_events_per_s"),
    "commands": ("p50_ms", "p99_ms", "floor_p50_ms", "floor_p99_ms", "cast_spell_fire_bolt_p50_ms", "cast_spell_fireball_p99_ms"),
    "loading": ("ratio_large_to_small", "ratio_large_worst_to_small", "ratio_cached_large_to_small"),
    "memory": ("traced_bytes_per_encounter", "stored_log_bytes"),
}
PER_STORE = {"service": ("commands_per_s", "p50_ms", "p99_ms"), "lag": ("p50_ms", "p99_ms", "reply_p50_ms")}


def _positive(value: object) -> bool:
    return isinstance(value, (int, float)) and math.isfinite(value) and value > 0


def test_the_quick_benchmark_reports_every_section_with_numbers_and_a_verdict_on_each_target(tmp_path):
    result = suite.run(quick=True, workdir=tmp_path)

    for section, keys in FIGURES.items():
        assert all(_positive(result[section][key]) for key in keys), (section, result[section])
    for section, keys in PER_STORE.items():
        assert all(_positive(result[section]["sqlite"][key]) for key in keys), (section, result[section])
        postgres = result[section]["postgres"]  # measured, or skipped saying why
        assert postgres.get("skipped") or all(_positive(postgres[key]) for key in keys), postgres
    sqlite = result["service"]["sqlite"]
    for runs in [*sqlite["by_clients"].values(), sqlite["shared"]]:  # the service beside both floors, same run
        for server in ("combat", "litestar", "asgi"):
            assert all(_positive(runs[server][key]) for key in ("commands_per_s", "p99_ms", "server_cpu_ms_per_command"))
        assert _positive(runs["ratio_to_litestar"]) and _positive(runs["cpu_ratio_to_asgi"])
    assert set(result["service"]["checks"]) >= {"no_errors", "ratio_to_litestar_at_8"}
    assert "Litestar floor" in report.text(result) and "one encounter" in report.text(result)
    scaling = result["scaling"]  # PostgreSQL's scale-out runs, or skipped saying why
    assert scaling.get("skipped") or (
        scaling["alternating"]["gapless"]
        and scaling["alternating"]["commands_stored"] > 0
        and all(_positive(scaling[run]["commands_per_s"]) for run in ("one", "two", "alternating", "one_process_one_encounter"))
        and all(_positive(scaling["two"][key]) for key in ("store_cpu_ms_per_command", "client_cpu_ms_per_command"))
        and _positive(scaling["ceiling"]["ratio_to_one"])
        and "4b. scale-out on postgres" in report.text(result)
    ), scaling
    folding = result["folding"]
    assert all(_positive(us) for us in folding["us_per_event"].values()), folding
    assert {"declared-d10", "segments-1e"} <= set(folding["ratio_to_srd_2024"])
    for section in ("replay", "commands", "loading", "service", "folding"):
        assert isinstance(result[section]["met"], bool) and result[section]["target"]
    assert result["machine"]["usable_cpus"] >= 1
    assert (
        "1. replay" in report.text(result)
        and "8. fold the declared-d10 demo" in report.text(result)
        and '"commands"' in report.to_json(result)
    )


def test_the_startup_section_alone_times_help_and_do_against_a_bare_interpreter(tmp_path):
    """`combat bench --only startup` (issue 33): `combat --help` and `combat do` against a bare
    `python -c pass` of the same run, with their targets, at most 3x and 8x; the other
    sections are not run."""

    from combat.cli import cli

    result = suite.run(quick=True, workdir=tmp_path, only=["startup"])
    assert set(result) == {"machine", "quick", "startup"}
    startup = result["startup"]
    assert all(_positive(startup[key]) for key in ("bare_python_ms", "help_ms", "do_ms", "ratio_help", "ratio_do"))
    assert startup["targets"] == {"help": 3.0, "do": 8.0}
    [help_row, do_row] = report.rows(result)
    assert help_row[0].endswith("combat --help") and help_row[4].startswith("<= 3x: ")
    assert do_row[0].strip().startswith("combat do") and do_row[4].startswith("<= 8x: ")
    bench = next(c for c in cli.commands.values() if c.name == "bench")
    only = next(p for p in bench.params if p.name == "only")
    assert tuple(only.type.choices) == suite.SECTIONS  # the CLI offers every section, and only those
