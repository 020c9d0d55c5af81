"""Holding off Python's cyclic garbage collector while a long log is read or folded.

Reading or folding a log makes thousands of objects that form no cycles, most of them kept
(the records) or dropped at once (each intermediate state). The collector's passes, every
700 allocations and each walking what is still alive, grow with the log read so far: over a
100,000-event log they cost more than the work itself, and make a long replay slower per
event than a short one. Nothing is lost by waiting: the cycles it would find are collected
on its next pass after the work is done."""

from __future__ import annotations

import gc
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["paused"]


@contextmanager
def paused() -> Iterator[None]:
    """The collector off for the block (left as it was if it already is: blocks nest)."""
    if not gc.isenabled():
        yield
        return
    gc.disable()
    try:
        yield
    finally:
        gc.enable()
