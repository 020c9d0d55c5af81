"""`combat stats follow` as a child of a serving process (`combat serve --stats-follower
process`, combat.stats.settings): the statistics follower's work on a core of its own, out of
the writers' interpreter.

On this project's 2-core machine the follower on a thread of the service took a tenth of the
write path's rate (the GIL: per event it decodes, builds rows and inserts about a tenth of what
the write itself costs); `combat bench --only stats` measures all three ways (docs/stats.md).

The child opens the same store from the service's own settings (never from a URL on its
command line, where a password would show in the process list), and is stopped with SIGTERM:
it finishes the batch in hand, each batch committed with its position, and exits; if the
service dies without stopping it, its stdin (a pipe from the service) closes and it stops
the same way. A child that dies is not restarted: the answers then take in what is new
themselves, and a warning says so.
"""

from __future__ import annotations

import os
import subprocess
import sys
import threading
from collections.abc import Mapping

import structlog

from combat.store.settings import DB_ENV
from combat.store.sqlite_recorder import is_sqlite_file

__all__ = ["FollowerProcess"]

log = structlog.get_logger("combat.followers")


def child_env(settings: Mapping[str, str]) -> dict[str, str]:
    """The environment that opens the store of `settings` in `combat stats follow`."""
    env = {**os.environ, **settings}
    if is_sqlite_file(dict(settings)):
        env[DB_ENV] = settings["SQLITE_DBNAME"]
    else:
        env.pop(DB_ENV, None)  # PostgreSQL: the settings above name it, as `combat serve` without --db
    return env


class FollowerProcess:
    def __init__(self, settings: Mapping[str, str], *, interval: float | None = None):
        # Its stdin is a pipe nobody writes to: when this process dies, however, the pipe
        # closes and the child stops rather than follow on for nobody.
        command = [sys.executable, "-m", "combat.cli", "stats", "follow", "--until-stdin-closes"]
        if interval is not None:
            command += ["--interval", str(interval)]
        self.process = subprocess.Popen(
            command, env=child_env(settings), stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        self._ready = threading.Event()
        self._stopping = False
        self._reader = threading.Thread(target=self._read, name="combat-stats-child", daemon=True)
        self._reader.start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            if line.startswith("following:"):
                self._ready.set()
            elif not line.startswith("stopped:"):
                sys.stderr.write(line)  # its log lines, where the service's go
        if not self._stopping:
            log.warning("stats follower process ended", pid=self.process.pid, returncode=self.process.wait())

    def ready(self, timeout: float = 60.0) -> bool:
        """Has the child taken in what was stored when it started?"""
        return self._ready.wait(timeout)

    def stop(self, timeout: float = 10.0) -> int:
        """SIGTERM, and SIGKILL if it has not stopped within `timeout` (nothing is counted twice
        either way); its exit status."""
        self._stopping = True
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
        self._reader.join(timeout=5)
        if self.process.stdin is not None:
            self.process.stdin.close()
        return self.process.returncode
