"""The followers of the encounters' logs in a long-running process (the service): one thread
that runs each follower (the campaigns' carry-over, the statistics read model) whenever this
process appends (`poke`) and every `interval` seconds for what other processes append, so
that no request writes to read.

A read waits until the followers have carried everything stored when the read began
(`caught_up`): it reads projections that are current, and writes nothing itself.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable, Sequence

__all__ = ["FollowerThread"]


class FollowerThread:
    """`passes`: each follower's step (run it up to the logs' heads) and whether it is behind."""

    def __init__(
        self, passes: Sequence[tuple[Callable[[], object], Callable[[], bool]]], interval: float = 1.0, gap: float = 0.05
    ):
        self._passes = list(passes)
        # The least time between two passes: under a stream of writes, each pass takes in
        # what came since the last in one batch, not one pass per command on the writers' cores.
        self._gap = gap
        self._interval = interval
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._done = threading.Condition()
        self._rounds = 0  # follower passes finished, for waiters
        self._thread = threading.Thread(target=self._run, name="combat-followers", daemon=True)
        self._thread.start()

    def poke(self) -> None:
        """Something was appended: carry it over soon."""
        self._wake.set()

    def caught_up(self, timeout: float = 5.0) -> bool:
        """Wait until a pass that began after this call has finished and nothing stored is
        left to carry (or `timeout`); False if it did not come to that in time."""
        deadline = time.monotonic() + timeout
        with self._done:
            target = self._rounds + 1
        while True:
            self._wake.set()
            with self._done:
                left = deadline - time.monotonic()
                if left <= 0:
                    return False
                if self._rounds < target:
                    self._done.wait(left)
                    continue
            if not any(behind() for _, behind in self._passes):
                return True
            with self._done:
                target = self._rounds + 1

    def _run(self) -> None:
        import structlog

        log = structlog.get_logger("combat.followers")
        while not self._stopping.is_set():
            self._wake.wait(self._interval)
            self._wake.clear()
            if self._stopping.is_set():
                return
            for step, _ in self._passes:
                try:
                    step()
                except Exception as exc:
                    log.warning(
                        "follower failed", step=getattr(step, "__qualname__", str(step)), error=f"{type(exc).__name__}: {exc}"
                    )
                    time.sleep(min(self._interval, 0.5))
            with self._done:
                self._rounds += 1
                self._done.notify_all()
            self._stopping.wait(self._gap)

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        self._thread.join(timeout=10)
