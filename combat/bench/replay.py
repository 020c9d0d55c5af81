"""1. Replay throughput: a long encounter rebuilt from the store, against the floor and a peer.

The floor is the cheapest way to do the same reading: plain `sqlite3` selecting the same rows
from the same file, each decoded by msgspec into a list kept in memory (as the replay keeps
the log), measured in the same run. The peer is eventsourcing's default path (its default
mapper and aggregate replay) on the same events."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import msgspec
from eventsourcing.application import Application
from eventsourcing.domain import Aggregate, event

from combat.bench.fixtures import long_fight, store_fight
from combat.bench.timing import best_of
from combat.app import history
from combat.app.application import SNAPSHOT_INTERVAL, Encounters
from combat.app.catalog import AnyEvent
from combat.kernel.records import Recorded

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


def run(workdir: Path, events: int, repeat: int) -> dict[str, Any]:
    # The same fight the loading section stores (built once for both).
    fight = long_fight(events + SNAPSHOT_INTERVAL).prefix(events)
    commands = fight.commands
    encounters = Encounters(workdir / "replay.db")
    try:
        eid = store_fight(encounters, fight, snapshots=False)
        n = encounters.state(eid).version
        decoder = msgspec.json.Decoder(Recorded[AnyEvent])
        table = encounters.log.home.recorder.events_table_name  # type: ignore[attr-defined]

        def floor() -> list[Any]:
            with sqlite3.connect(workdir / "replay.db") as db:
                rows = db.execute(f"SELECT state FROM {table} WHERE originator_id = ? ORDER BY originator_version", (eid.hex,))
                return [decoder.decode(row[0]) for row in rows]

        def ours() -> None:
            history.replay(encounters.log.recorded(eid))

        floor_s = best_of(repeat, floor)
        ours_s = best_of(repeat, ours)
    finally:
        encounters.close()

    peer = Peer(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": str(workdir / "peer.db")})
    aggregate = PeerFight(name="peer")
    for events_of_command in commands[1:]:
        for e in events_of_command:
            aggregate.happen(msgspec.to_builtins(e))
    peer.save(aggregate)
    peer_s = best_of(repeat, lambda: peer.repository.get(aggregate.id))
    peer.close()
    return {
        "events": n,
        "replay_events_per_s": n / ours_s,
        "decode_floor_events_per_s": n / floor_s,
        "peer_events_per_s": n / peer_s,
        "ratio_to_floor": floor_s / ours_s,
        "ratio_to_peer": peer_s / ours_s,
        "target": "replay >= 0.5x the floor at 10k events and >= 0.3x at 100k, and faster than the peer",
        "met": floor_s / ours_s >= (0.3 if n > 10_000 else 0.5) and ours_s < peer_s,
    }
