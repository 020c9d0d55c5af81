"""The carry-over follower in a long-running process (the service): one thread that carries
the fights' events to their characters whenever this process appends (`poke`) and every
`interval` seconds for what other processes append, so that no request writes to read.

A read waits until the follower has carried everything stored when the read began
(`caught_up`): it reads a projection that is current, and writes nothing itself.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable

__all__ = ["CarryOverRunner"]


class CarryOverRunner:
    def __init__(self, carry_over: Callable[[], object], behind: Callable[[], bool], interval: float = 1.0):
        self._carry_over = carry_over
        self._behind = behind
        self._interval = interval
        self._wake = threading.Event()
        self._stopping = threading.Event()
        self._done = threading.Condition()
        self._rounds = 0  # follower passes finished, for waiters
        self._thread = threading.Thread(target=self._run, name="combat-carry-over", daemon=True)
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
            if not self._behind():
                return True
            with self._done:
                target = self._rounds + 1

    def _run(self) -> None:
        import structlog

        log = structlog.get_logger("combat.campaigns")
        while not self._stopping.is_set():
            self._wake.wait(self._interval)
            self._wake.clear()
            if self._stopping.is_set():
                return
            try:
                self._carry_over()
            except Exception as exc:
                log.warning("carry-over failed", error=f"{type(exc).__name__}: {exc}")
                time.sleep(min(self._interval, 0.5))
            with self._done:
                self._rounds += 1
                self._done.notify_all()

    def stop(self) -> None:
        self._stopping.set()
        self._wake.set()
        self._thread.join(timeout=10)
