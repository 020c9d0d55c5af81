"""5. Memory per cached encounter of 1,000 events, against the bytes of its stored log.

The cache keeps each encounter's folded state, not its events. Measured twice over many
encounters loaded into one `Encounters`: what Python allocated for them (tracemalloc), and
how much the process's resident set grew (without tracemalloc, which adds its own overhead).
Measured in a fresh interpreter: memory freed by the sections before would otherwise be
reused, and the resident set would not grow at all.
"""

from __future__ import annotations

import gc
import json
import os
import subprocess
import sys
import tracemalloc
from pathlib import Path
from typing import Any
from uuid import UUID

from combat.app.application import Encounters
from combat.bench.fixtures import long_fight, store_fight

__all__ = ["run", "measure", "run_touched", "touched", "rss_bytes"]


def rss_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


def _in_own_process(measure: str, workdir: Path, *sizes: int) -> dict[str, Any]:
    """One of this module's measures in a fresh interpreter, so its RSS is its own."""
    call = f"m.{measure}(pathlib.Path({str(workdir)!r}), {', '.join(map(str, sizes))})"
    code = f"import json, pathlib, combat.bench.memory as m; print(json.dumps({call}))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False, timeout=1200)
    if done.returncode:
        raise RuntimeError(f"memory benchmark failed:\n{done.stderr[-2000:]}")
    return json.loads(done.stdout)


def run(workdir: Path, events: int, count: int) -> dict[str, Any]:
    """`measure` in a process of its own."""
    return _in_own_process("measure", workdir, events, count)


def run_touched(workdir: Path, few: int, many: int) -> dict[str, Any]:
    """`touched` in a process of its own."""
    return _in_own_process("touched", workdir, few, many)


def _read_in_two(db: Path, ids: list[UUID], first: int) -> tuple[int, int, int]:
    """Fold the states of `ids` in a fresh `Encounters` on `db`: the resident set after the
    first `first` of them, after all of them, and how many states its cache then holds."""
    reader = Encounters(db)
    try:
        for eid in ids[:first]:
            reader.state(eid)
        gc.collect()
        after_first = rss_bytes()
        for eid in ids[first:]:
            reader.state(eid)
        gc.collect()
        return after_first, rss_bytes(), len(reader._cache)
    finally:
        reader.close()


def touched(workdir: Path, few: int, many: int) -> dict[str, Any]:
    """A service's resident memory after reading `few` encounters, then after `many`: with
    the state cache bounded, touching ten times as many costs about no more."""
    fight = long_fight(20)
    writer = Encounters(workdir / "touched.db")
    try:
        ids = [store_fight(writer, fight) for _ in range(many)]
    finally:
        writer.close()
    after_few, after_many, cached = _read_in_two(workdir / "touched.db", ids, few)
    return {
        "few": few,
        "many": many,
        "cached": cached,
        "rss_after_few_bytes": after_few,
        "rss_after_many_bytes": after_many,
        "ratio": after_many / after_few,
        "target": "RSS after touching 10x the encounters <= 1.2x",
        "met": after_many / after_few <= 1.2,
    }


def measure(workdir: Path, events: int, count: int) -> dict[str, Any]:
    fight = long_fight(events)
    writer = Encounters(workdir / "memory.db")
    try:
        ids = [store_fight(writer, fight) for _ in range(count)]
        log_bytes = sum(len(s.state) for s in writer.log.of(ids[0]).recorder.select_events(ids[0]))
        version = writer.state(ids[0]).version
    finally:
        writer.close()

    # Resident set: a few encounters first warm the code paths and pools; the rest are counted.
    warm = 2
    before, after, _ = _read_in_two(workdir / "memory.db", ids, warm)
    rss_per = max(0, after - before) / (count - warm)

    reader = Encounters(workdir / "memory.db")
    try:
        reader.state(ids[0])
        gc.collect()
        tracemalloc.start()
        try:
            start, _ = tracemalloc.get_traced_memory()
            for eid in ids[1:]:
                reader.state(eid)
            gc.collect()
            end, _ = tracemalloc.get_traced_memory()
        finally:
            tracemalloc.stop()
        traced_per = (end - start) / (count - 1)
    finally:
        reader.close()
    return {
        "encounters": count,
        "events_each": version,
        "stored_log_bytes": log_bytes,
        "traced_bytes_per_encounter": traced_per,
        "rss_bytes_per_encounter": rss_per,
        "ratio_traced_to_log": traced_per / log_bytes,
        "target": "none set: the cache holds the folded state, not the log",
        "met": None,
    }
