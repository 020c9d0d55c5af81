"""The benchmark's result as a text table (one row per figure, beside its floor or peer, the
ratio, the target and whether it was met) or as JSON."""

from __future__ import annotations

import json
from typing import Any

__all__ = ["rows", "text", "to_json"]

Row = tuple[str, str, str, str, str]  # what, measured, floor or peer, ratio, target (met?)


def _met(value: Any) -> str:
    return {True: "met", False: "MISSED", None: "-"}[value]


def _ms(value: float) -> str:
    return f"{value:.2f} ms"


def _replay(r: dict[str, Any]) -> list[Row]:
    def against_floor(label: str, m: dict[str, Any]) -> Row:
        least = 0.3 if m["events"] > 10_000 else 0.5
        return (
            f"{label} {m['events']:,} events",
            f"{m['replay_events_per_s']:,.0f} ev/s",
            f"decode floor {m['decode_floor_events_per_s']:,.0f} ev/s",
            f"{m['ratio_to_floor']:.2f}x",
            f">= {least}x: {_met(m['ratio_to_floor'] >= least)}",
        )

    small = r["small"]
    return [
        against_floor("1. replay", r),
        (
            "",
            "",
            f"eventsourcing default {r['peer_events_per_s']:,.0f} ev/s",
            f"{r['ratio_to_peer']:.2f}x",
            f"> 1x: {_met(r['ratio_to_peer'] > 1)}",
        ),
        against_floor("   replay", small),
        (
            f"   rate at {r['events']:,} / at {small['events']:,}",
            f"{r['replay_events_per_s']:,.0f} ev/s",
            f"{small['replay_events_per_s']:,.0f} ev/s",
            f"{r['rate_large_to_small']:.2f}x",
            f">= 0.8x: {_met(r['rate_large_to_small'] >= 0.8)}",
        ),
    ]


def _commands(r: dict[str, Any]) -> list[Row]:
    return [
        (
            f"2. attack, fight of {r['fight_events'][0]:,} events, p50",
            _ms(r["p50_ms"]),
            f"bare SQLite insert+commit {_ms(r['floor_p50_ms'])}",
            f"{r['ratio_p50']:.2f}x",
            "",
        ),
        (
            "   p99",
            _ms(r["p99_ms"]),
            f"bare SQLite insert+commit {_ms(r['floor_p99_ms'])}",
            f"{r['ratio_p99']:.2f}x",
            f"<= 3x: {_met(r['met'])}",
        ),
        *(
            (
                f"   cast_spell, {label}, p50 / p99",
                f"{_ms(r[f'cast_spell_{key}_p50_ms'])} / {_ms(r[f'cast_spell_{key}_p99_ms'])}",
                f"attack {_ms(r['p50_ms'])} / {_ms(r['p99_ms'])}",
                f"{r[f'cast_spell_{key}_p50_ms'] / r['p50_ms']:.2f}x",
                "",
            )
            for key, label in (("fire_bolt", "Fire Bolt"), ("fireball", "Fireball on 4"))
            if f"cast_spell_{key}_p50_ms" in r
        ),
    ]


def _loading(r: dict[str, Any]) -> list[Row]:
    cold, cached, tail = r["cold_ms"], r["cached_ms"], r["events_after_snapshot"]
    return [
        (
            f"3. load {r['large_events']:,} events ({tail['large']} after snapshot)",
            _ms(cold["large"]),
            f"{r['small_events']} events {_ms(cold['small'])}",
            f"{r['ratio_large_to_small']:.2f}x",
            "",
        ),
        (
            f"   load {r['large_worst_events']:,} events ({tail['large_worst']} after snapshot)",
            _ms(cold["large_worst"]),
            f"{r['small_events']} events {_ms(cold['small'])}",
            f"{r['ratio_large_worst_to_small']:.2f}x",
            f"<= 2x: {_met(r['met'])}",
        ),
        (
            "   cached",
            _ms(cached["large"]),
            f"{r['small_events']} events {_ms(cached['small'])}",
            f"{r['ratio_cached_large_to_small']:.2f}x",
            "",
        ),
    ]


def _run(r: dict[str, Any]) -> str:
    return (
        f"{r['commands_per_s']:,.0f}/s, p50 {r['p50_ms']:.1f} p99 {r['p99_ms']:.1f} ms, "
        f"CPU {r['server_cpu_ms_per_command']:.2f} ms/cmd"
    )


def _against_floors(label: str, runs: dict[str, Any], target: str) -> list[Row]:
    ours = runs["combat"]
    errors = f", {ours['errors']} errors" if ours["errors"] else ""
    return [
        (
            label,
            _run(ours) + errors,
            f"Litestar floor {_run(runs['litestar'])}",
            f"{runs['ratio_to_litestar']:.2f}x (CPU {runs['cpu_ratio_to_litestar']:.1f}x)",
            target,
        ),
        (
            "",
            "",
            f"bare ASGI floor {_run(runs['asgi'])}",
            f"{runs['ratio_to_asgi']:.2f}x (CPU {runs['cpu_ratio_to_asgi']:.1f}x)",
            "",
        ),
    ]


def _service(r: dict[str, Any], lag: dict[str, Any]) -> list[Row]:
    out: list[Row] = []
    sqlite, targets, checks = r["sqlite"], r["targets"], r["checks"]
    for clients, runs in sorted(sqlite["by_clients"].items(), key=lambda item: int(item[0])):
        target = ""
        if clients == "8":
            target = f">= {targets['ratio_to_litestar_at_8']}x: {_met(checks.get('ratio_to_litestar_at_8'))}"
        elif f"p99_ms_at_{clients}" in checks:
            target = f"p99 <= {targets[f'p99_ms_at_{clients}']:.0f} ms: {_met(checks[f'p99_ms_at_{clients}'])}"
        out += _against_floors(f"4. service on SQLite, {clients} client(s) on their own encounters", runs, target)
    shared = sqlite["shared"]
    out += _against_floors(
        f"   {shared['combat']['clients']} clients on one encounter, no expected version",
        shared,
        f"0 errors: {_met(checks['no_errors'])}",
    )
    load = sqlite["machine_load"]
    out.append(("   machine load (1-min average) before / after", f"{load['before']:.2f} / {load['after']:.2f}", "", "", ""))
    s = r["postgres"]
    if "skipped" in s:
        out.append(("4. service on postgres", "skipped", s["skipped"][:60], "", ""))
    else:
        out.append(
            (
                (
                    f"4. service on postgres: {s['processes']} processes at {s['server_cpu_percent']:.0f}% CPU, "
                    f"{s['clients']} clients, {s['encounters']} encounters"
                ),
                _run(s),
                "",
                "",
                "",
            )
        )
    for store in ("sqlite", "postgres"):
        s = lag[store]
        if "skipped" in s:
            continue
        out.append(
            (
                f"6. stream lag on {store}, p50 / p99",
                f"{_ms(s['p50_ms'])} / {_ms(s['p99_ms'])}",
                f"command reply {_ms(s['reply_p50_ms'])} / {_ms(s['reply_p99_ms'])}",
                f"{s['ratio_p50_to_reply']:.2f}x",
                "",
            )
        )
    return out


def _scaling(r: dict[str, Any] | None) -> list[Row]:
    if not r:
        return []
    if "skipped" in r:
        return [("4b. scale-out on postgres", "skipped", r["skipped"][:60], "", "")]
    one, two, alt, sticky = r["one"], r["two"], r["alternating"], r["one_process_one_encounter"]
    out: list[Row] = [
        (
            (
                f"4b. scale-out on postgres, {r['partitions']} partitions: two processes at {two['server_cpu_percent']:.0f}% CPU, "
                f"{two['clients']} clients on {two['encounters']} encounters (median of {len(r.get('rounds', [0]))} rounds)"
            ),
            f"{two['commands_per_s']:,.0f} commands/s",
            f"one process {one['commands_per_s']:,.0f}/s",
            f"{r['ratio_two_to_one']:.2f}x",
            f">= 1.5x: {_met(r['ratio_two_to_one'] >= 1.5)}",
        ),
        (
            (
                f"   CPU per command with two processes: servers {two['server_cpu_ms_per_command']:.2f} ms, PostgreSQL "
                f"{two.get('store_cpu_ms_per_command', float('nan')):.2f} ms, load client {two['client_cpu_ms_per_command']:.2f} ms"
            ),
            f"ceiling on {r['ceiling']['cpus']} CPUs {r['ceiling']['commands_per_s']:,.0f}/s",
            f"one process {one['commands_per_s']:,.0f}/s",
            f"{r['ceiling']['ratio_to_one']:.2f}x",
            "",
        ),
        (
            "   one encounter, processes alternating per command",
            f"{alt['commands_per_s']:,.0f} commands/s",
            f"p50 {_ms(alt['p50_ms'])}",
            f"p99 {_ms(alt['p99_ms'])}",
            (
                f"gapless ({alt['version']} events, {alt['commands_stored']}/{alt['commands_accepted']} commands): "
                f"{_met(alt['gapless'])}"
            ),
        ),
        (
            "   the same client, every command to one process",
            f"{sticky['commands_per_s']:,.0f} commands/s",
            f"p50 {_ms(sticky['p50_ms'])}",
            f"p99 {_ms(sticky['p99_ms'])}",
            f"alternating {r['ratio_alternating_to_one_process']:.2f}x of it",
        ),
    ]
    for count, run in r["curve"].items():
        out.append(
            (
                f"   two processes, {count} partition(s)",
                f"{run['commands_per_s']:,.0f} commands/s",
                f"p50 {_ms(run['p50_ms'])}",
                f"p99 {_ms(run['p99_ms'])}",
                "",
            )
        )
    writes = r.get("store_writes")
    if writes:
        rates = writes["commands_per_s"]
        for n, (what, rate) in enumerate(rates.items()):
            label = f"4c. store writes, no HTTP, {writes['threads_per_process']} threads per process: " if n == 0 else "   "
            out.append((label + what, f"{rate:,.0f} commands/s", "", "", ""))
    return out


def _memory(r: dict[str, Any]) -> list[Row]:
    return [
        (
            f"5. memory per cached encounter of {r['events_each']:,} events",
            f"{r['traced_bytes_per_encounter'] / 1024:.1f} KiB (RSS {r['rss_bytes_per_encounter'] / 1024:.1f})",
            f"its stored log {r['stored_log_bytes'] / 1024:.0f} KiB",
            f"{r['ratio_traced_to_log']:.3f}x",
            "",
        ),
        *_touched(r.get("touched")),
    ]


def _touched(t: dict[str, Any] | None) -> list[Row]:
    if not t:
        return []
    return [
        (
            f"   RSS after reading {t['many']:,} encounters ({t['cached']:,} cached)",
            f"{t['rss_after_many_bytes'] / 2**20:.0f} MiB",
            f"after {t['few']:,}: {t['rss_after_few_bytes'] / 2**20:.0f} MiB",
            f"{t['ratio']:.2f}x",
            f"<= 1.2x: {_met(t['met'])}",
        )
    ]


def _startup(r: dict[str, Any]) -> list[Row]:
    floor = f"python -c pass {_ms(r['bare_python_ms'])}"
    return [
        (
            "7. combat --help",
            _ms(r["help_ms"]),
            floor,
            f"{r['ratio_help']:.1f}x",
            f"<= {r['targets']['help']:.0f}x: {_met(r['ratio_help'] <= r['targets']['help'])}",
        ),
        (
            "   combat do (one attack)",
            _ms(r["do_ms"]),
            floor,
            f"{r['ratio_do']:.1f}x",
            f"<= {r['targets']['do']:.0f}x: {_met(r['ratio_do'] <= r['targets']['do'])}",
        ),
    ]


def _folding(r: dict[str, Any]) -> list[Row]:
    out: list[Row] = []
    peer = r["us_per_event"]["srd-2024"]
    for ruleset, us in r["us_per_event"].items():
        if ruleset == "srd-2024":
            continue
        target = f"<= 2x: {_met(r['ratio_to_srd_2024'][ruleset] <= 2)}" if ruleset in ("declared-d10", "segments-1e") else ""
        out.append(
            (
                f"8. fold the {ruleset} demo ({r['events'][ruleset]} events)",
                f"{us:.2f} us/event",
                f"srd-2024 demo {peer:.2f} us/event",
                f"{r['ratio_to_srd_2024'][ruleset]:.2f}x",
                target,
            )
        )
    return out


def rows(result: dict[str, Any]) -> list[Row]:
    """The table's rows, of the sections measured (`combat bench --only` leaves some out)."""
    has = result.__contains__
    return [
        *(_replay(result["replay"]) if has("replay") else []),
        *(_commands(result["commands"]) if has("commands") else []),
        *(_loading(result["loading"]) if has("loading") else []),
        *(_service(result["service"], result["lag"]) if has("service") else []),
        *_scaling(result.get("scaling")),
        *(_memory(result["memory"]) if has("memory") else []),
        *(_startup(result["startup"]) if has("startup") else []),
        *(_folding(result["folding"]) if has("folding") else []),
        *_stats(result.get("stats")),
    ]


def _stats(r: dict[str, Any] | None) -> list[Row]:
    """The statistics projection (docs/stats.md); absent from results recorded before it."""
    if not r:
        return []
    rows: list[Row] = [
        (
            f"9. stats rebuild from {r['events']:,} events",
            f"{r['rebuild_s']:.2f} s",
            f"{r['rebuild_events_per_s']:,.0f} events/s",
            "",
            "",
        )
    ]
    if "modes" not in r:  # recorded before the follower could run as a process
        ratio = r["write_ratio_with_follower"]
        lag = f"p50 {_ms(r['lag_p50_ms'])}, p99 {_ms(r['lag_p99_ms'])}"
        return [*rows, ("   stats follower thread: writes, lag", f"{ratio:.2f}x", lag, "", f"drop <= 5%: {_met(ratio >= 0.95)}")]
    none = r["modes"]["none"]
    rows.append(
        (
            f"   writes without a stats follower ({r['commands']} commands x {r['rounds']} rounds)",
            f"{none['commands_per_s']:,.0f} commands/s",
            f"{none['cpu_ms_per_command']:.2f} ms CPU/command",
            "",
            "",
        )
    )
    labels = {
        "thread": "a thread of the writers' process",
        "process": f"a process of its own (every {r['interval_s'] * 1000:.0f} ms)",
        "process_slow": f"a process of its own (every {r.get('slow_interval_s', 0) * 1000:.0f} ms), as combat serve runs it",
    }
    for mode, label in labels.items():
        if mode not in r["modes"]:
            continue
        m = r["modes"][mode]
        extra = f", child {m['child_cpu_s']:.2f} s" if "child_cpu_s" in m else ""
        rows.append(
            (
                f"   writes with the follower on {label}",
                f"{m['ratio']:.2f}x ({m['ratio_low']:.2f}-{m['ratio_high']:.2f})",
                f"CPU {m['cpu_ms_per_command']:.2f} ms/command, {m['cpu_ratio']:.2f}x{extra}",
                f"lag p50 {_ms(m['lag_p50_ms'])}, p99 {_ms(m['lag_p99_ms'])}",
                f"drop <= 5%: {_met(m['ratio'] >= 0.95)}",
            )
        )
    return rows


def text(result: dict[str, Any]) -> str:
    m = result["machine"]
    head = (
        f"combat bench{' --quick' if result['quick'] else ''}: {m['date']}, Python {m['python']}, "
        f"{m['usable_cpus']} of {m['cpu_count']} CPUs, {m['memory']} memory, {m['platform']}"
    )
    table = [("figure", "measured", "floor or peer", "ratio", "target"), *rows(result)]
    widths = [max(len(row[i]) for row in table) for i in range(5)]
    lines = [head, ""]
    for n, row in enumerate(table):
        lines.append("  ".join(cell.ljust(w) for cell, w in zip(row, widths)).rstrip())
        if n == 0:
            lines.append("  ".join("-" * w for w in widths))
    if result["quick"]:
        lines += ["", "--quick: small sizes for a smoke check; the targets are for the full run."]
    return "\n".join(lines)


def to_json(result: dict[str, Any]) -> str:
    return json.dumps(result, indent=2, sort_keys=True)
