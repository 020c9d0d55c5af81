"""The threads that decide and commit commands where the store's writes stay in threads
(PostgreSQL, SQLite in memory; an SQLite file's are decided on the event loop:
combat.store.group_commit), handing each result straight back to the event loop.

`loop.run_in_executor` wraps every job in a `concurrent.futures.Future`, chains it to an
asyncio one and copies its state across with callbacks and locks on both sides: about a
tenth of a command's CPU in the service, for a job that needs one hand-off each way. Here a
job is a plain tuple on a queue, and its thread sets the asyncio future itself, through
`call_soon_threadsafe`. A job whose awaiting request was cancelled (the client went away)
still runs to its end: a command that reached its commit is stored, as with the executor.
"""

from __future__ import annotations

import asyncio
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

__all__ = ["Workers"]

T = TypeVar("T")


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is not None:
        future.set_exception(error)
    else:
        future.set_result(result)


_STOP: Any = object()  # put once per thread by `close`


class Workers:
    """`count` daemon threads, started on the first job, joined by `close` (threads left
    running at interpreter exit were a known cause of a rare "Fatal Python error")."""

    def __init__(self, count: int, name: str):
        self._count = count
        self._name = name
        self._jobs: queue.SimpleQueue[tuple[Callable[[], Any], asyncio.AbstractEventLoop, asyncio.Future[Any]]] = (
            queue.SimpleQueue()
        )
        self._threads: list[threading.Thread] = []
        self._starting = threading.Lock()

    def run(self, job: Callable[[], T]) -> asyncio.Future[T]:
        """`job()` on one of the threads; await the result on the running loop."""
        if len(self._threads) < self._count:
            self._start()
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        self._jobs.put((job, loop, future))
        return future

    def _start(self) -> None:
        with self._starting:
            while len(self._threads) < self._count:
                thread = threading.Thread(
                    target=self._work, args=(self._jobs,), name=f"{self._name}-{len(self._threads)}", daemon=True
                )
                thread.start()
                self._threads.append(thread)

    def close(self, timeout: float = 10.0) -> None:
        """Let the jobs queued finish, then stop and join the threads. A job sent later
        starts new threads on a queue of their own."""
        with self._starting:
            threads, self._threads = self._threads, []
            jobs, self._jobs = self._jobs, queue.SimpleQueue()
            for _ in threads:
                jobs.put(_STOP)
        for thread in threads:
            thread.join(timeout)

    def _work(self, jobs: queue.SimpleQueue[Any]) -> None:
        while True:
            item = jobs.get()
            if item is _STOP:
                return
            job, loop, future = item
            try:
                result = job()
            except BaseException as exc:  # handed to the awaiting request, as the executor did
                error: BaseException | None = exc
                result = None
            else:
                error = None
            # A loop closed while the job ran (shutting down, a test client gone) has nobody
            # awaiting; asyncio's executor checks the same before calling into it.
            if not loop.is_closed():
                try:  # noqa: SIM105  (no context manager per job on this path)
                    loop.call_soon_threadsafe(_settle, future, result, error)
                except RuntimeError:  # closed in between
                    pass
            del job, future, result, error
