"""1. Replay throughput: a long encounter rebuilt from the store, against the floor and a peer.

The floor is the cheapest way to do the same reading: plain `sqlite3` selecting the same rows
from the same file, each decoded by msgspec into a list kept in memory (as the replay keeps
the log), measured in the same run. The peer is eventsourcing's default path (its default
mapper and aggregate replay) on the same events.

The replay is measured twice, on the whole fight and on its first tenth (100,000 and 10,000
events in the full run), each against its own floor: a replay whose rate falls as the log
grows (the garbage collector walking the log read so far did that) shows in the ratio of
the two rates."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from uuid import UUID

import msgspec
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from combat.app import history
from combat.app.application import SNAPSHOT_INTERVAL, Encounters
from combat.app.catalog import record_decoder
from combat.bench.fixtures import long_fight, store_fight
from combat.bench.timing import best_of

__all__ = ["run"]


class PeerFight(Aggregate):
    """The peer: the same events through eventsourcing's own classes and default mapper."""

    @event("Created")
    def __init__(self, name: str) -> None:
        self.name = name
        self.happened = 0
        self.last: dict[str, Any] = {}

    @event("Happened")
    def happen(self, payload: dict[str, Any]) -> None:
        self.happened += 1
        self.last = payload


class Peer(Application):
    name = "peer"


SMALL = 10  # the smaller replay is this fraction of the larger
RATE_TARGET = 0.8  # the larger log's rate at least this fraction of the smaller one's


def _floor_ratio_target(events: int) -> float:
    return 0.3 if events > 10_000 else 0.5


def _timers(workdir: Path, encounters: Encounters, eid: UUID) -> tuple[Callable[[], Any], Callable[[], Any]]:
    """The replay and the floor of one stored encounter, to be timed."""
    decoder = record_decoder()
    table = encounters.log.home.recorder.events_table_name  # type: ignore[attr-defined]

    def floor() -> list[Any]:
        with sqlite3.connect(workdir / "replay.db") as db:
            rows = db.execute(f"SELECT state FROM {table} WHERE originator_id = ? ORDER BY originator_version", (eid.hex,))
            return [decoder.decode(row[0]) for row in rows]

    def ours() -> None:
        history.replay(encounters.log.recorded(eid))

    return ours, floor


def run(workdir: Path, events: int, repeat: int) -> dict[str, Any]:
    # The same fight the loading section stores (built once for both).
    fight = long_fight(events + SNAPSHOT_INTERVAL).prefix(events)
    commands = fight.commands
    encounters = Encounters(workdir / "replay.db")
    try:
        eid = store_fight(encounters, fight, snapshots=False)
        small_eid = store_fight(encounters, fight.prefix(events // SMALL), snapshots=False)
        n, small_n = encounters.state(eid).version, encounters.state(small_eid).version
        timers = [*_timers(workdir, encounters, eid), *_timers(workdir, encounters, small_eid)]
        # Round by round, each of the four in turn (the smaller log, a tenth of the time, a few
        # times over), so a change in the machine's load falls on all of them alike.
        best = [float("inf")] * 4
        for _ in range(repeat):
            for i, timed in enumerate(timers):
                best[i] = min(best[i], best_of(1 if i < 2 else 3, timed, clock=time.process_time))
        ours_s, floor_s, small_s, small_floor_s = best
    finally:
        encounters.close()

    peer = Peer(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(workdir / "peer.db")})
    aggregate = PeerFight(name="peer")
    for events_of_command in commands[1:]:
        for e in events_of_command:
            aggregate.happen(msgspec.to_builtins(e))
    peer.save(aggregate)
    peer_s = best_of(repeat, lambda: peer.repository.get(aggregate.id), clock=time.process_time)
    peer.close()
    rate_ratio = (n / ours_s) / (small_n / small_s)
    return {
        "events": n,
        "replay_events_per_s": n / ours_s,
        "decode_floor_events_per_s": n / floor_s,
        "peer_events_per_s": n / peer_s,
        "ratio_to_floor": floor_s / ours_s,
        "ratio_to_peer": peer_s / ours_s,
        "small": {
            "events": small_n,
            "replay_events_per_s": small_n / small_s,
            "decode_floor_events_per_s": small_n / small_floor_s,
            "ratio_to_floor": small_floor_s / small_s,
        },
        "rate_large_to_small": rate_ratio,
        "target": (
            f"replay >= 0.5x the floor at 10k events and >= 0.3x at 100k, the rate at {n:,} events >= "
            f"{RATE_TARGET}x the rate at {small_n:,}, and faster than the peer"
        ),
        "met": (
            floor_s / ours_s >= _floor_ratio_target(n)
            and small_floor_s / small_s >= _floor_ratio_target(small_n)
            and rate_ratio >= RATE_TARGET
            and ours_s < peer_s
        ),
    }
