"""A bounded cache of folded encounter states, least recently used out first.

A long-running service touches more encounters than it needs to keep: an evicted state is
only a shortcut lost (the next read loads it from its latest snapshot), so the cache has a
fixed size rather than growing with every encounter ever opened.
"""

from __future__ import annotations

import os
import threading
from collections import OrderedDict
from typing import Generic, TypeVar
from uuid import UUID

__all__ = ["StateCache", "CACHE_ENV", "DEFAULT_CACHED"]

CACHE_ENV = "COMBAT_CACHED_ENCOUNTERS"
DEFAULT_CACHED = 1024  # about 5 KiB each for a fight of 1,000 events (docs/benchmarks.md)

V = TypeVar("V")


class StateCache(Generic[V]):
    def __init__(self, size: int | None = None):
        self.size = size if size is not None else int(os.environ.get(CACHE_ENV) or DEFAULT_CACHED)
        if self.size < 1:
            raise ValueError(f"{CACHE_ENV} must be at least 1, not {self.size}")
        self._states: OrderedDict[UUID, V] = OrderedDict()
        self._guard = threading.Lock()  # requests run on several threads

    def get(self, key: UUID) -> V | None:
        with self._guard:
            state = self._states.get(key)
            if state is not None:
                self._states.move_to_end(key)
            return state

    def put(self, key: UUID, state: V) -> None:
        with self._guard:
            self._states[key] = state
            self._states.move_to_end(key)
            while len(self._states) > self.size:
                self._states.popitem(last=False)

    def pop(self, key: UUID) -> None:
        with self._guard:
            self._states.pop(key, None)

    def clear(self) -> None:
        with self._guard:
            self._states.clear()

    def __len__(self) -> int:
        return len(self._states)
