"""Where a serving process runs the statistics follower (`combat serve --stats-follower`, or
the variable below). Its own module so that `combat --help` reads them without loading the
statistics.

- `thread`: on a thread of the service's own process (combat.app.followers), woken by each
  append: the least lag, but its work shares the writers' interpreter (the GIL);
- `process`: `combat stats follow` as a child process the service starts and stops
  (combat.app.follower_process): its work on another core, the writers' process untouched;
- `off`: no follower; each statistics answer takes in what is new itself, as the CLI does
  (for a store followed by a `combat stats follow` run apart, or by another server).

A store in memory is one process's alone: it has no follower, whatever is asked.
"""

from __future__ import annotations

__all__ = [
    "FOLLOWER_ENV",
    "FOLLOWER_MODES",
    "DEFAULT_FOLLOWER",
    "SERVE_FOLLOWER",
    "INTERVAL_ENV",
    "POLL_SECONDS",
    "LISTEN_FALLBACK",
]

FOLLOWER_ENV = "COMBAT_STATS_FOLLOWER"
FOLLOWER_MODES = ("thread", "process", "off")
# `create_app`'s: a program that embeds the service keeps to one process.
DEFAULT_FOLLOWER = "thread"
# `combat serve`'s: the follower's work on another core, looking every POLL_SECONDS, the way
# that kept the write path within 5% of its rate without a follower (docs/stats.md).
SERVE_FOLLOWER = "process"
# How often `combat stats follow` looks for new events on SQLite (no subscriptions there),
# and on PostgreSQL, where each append's NOTIFY wakes it, in case one was missed; the
# variable sets it for a follower the service starts too. Looking less often makes fewer,
# larger batches: on SQLite each batch's commit takes the file's one write lock, which the
# writers then wait for (`combat bench --only stats`: docs/stats.md).
INTERVAL_ENV = "COMBAT_STATS_INTERVAL"
POLL_SECONDS = 0.25
LISTEN_FALLBACK = 1.0
