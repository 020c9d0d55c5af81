"""Small timing helpers: best-of-N for throughput, percentiles for latency."""

from __future__ import annotations

import statistics
import time
from collections.abc import Callable
from typing import Any

__all__ = ["best_of", "percentile", "latencies"]


def best_of(repeat: int, fn: Callable[[], Any], clock: Callable[[], float] = time.perf_counter) -> float:
    """The fastest of `repeat` runs, in seconds: noise only ever makes a run slower. With
    `clock=time.process_time`, the CPU time this process spent, which other processes
    taking turns on the cores do not lengthen (a long run is interrupted more than a short one)."""
    best = float("inf")
    for _ in range(repeat):
        start = clock()
        fn()
        best = min(best, clock() - start)
    return best


def latencies(count: int, fn: Callable[[int], Any]) -> list[float]:
    samples = []
    for i in range(count):
        start = time.perf_counter()
        fn(i)
        samples.append(time.perf_counter() - start)
    return samples


def percentile(samples: list[float], p: float) -> float:
    ordered = sorted(samples)
    if not ordered:
        return float("nan")
    k = (len(ordered) - 1) * p / 100
    low = int(k)
    high = min(low + 1, len(ordered) - 1)
    return ordered[low] + (ordered[high] - ordered[low]) * (k - low)


def median(samples: list[float]) -> float:
    return statistics.median(samples)
