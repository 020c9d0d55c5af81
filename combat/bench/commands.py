"""2. Command latency in-process on the SQLite file store: an attack with its rolls, decided
and appended by `Encounters.execute` in fights of about 1,000 events, against the floor of
one bare SQLite insert-and-commit of the same bytes (same table shape, WAL, same file system).

The fights are played on as they are measured (move, attack, end turn), spread over several
encounters so that each stays near 1,000 events; only the attacks are timed. Each encounter
is loaded once first, as a running service would have it cached.
"""

from __future__ import annotations

import sqlite3
import time
import uuid
from pathlib import Path
from typing import Any

from combat.bench.fixtures import TARGETS, long_fight, store_fight
from combat.bench.timing import percentile
from combat.app.application import Encounters
from combat.kernel.commands import Attack, EndTurn, Move

__all__ = ["run", "sqlite_floor"]

ATTACKS_PER_ENCOUNTER = 50


def sqlite_floor(path: Path, payloads: list[list[bytes]]) -> list[float]:
    """Seconds per transaction: BEGIN, INSERT each payload, COMMIT, as eventsourcing does it."""
    db = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
    try:
        db.execute("PRAGMA journal_mode=WAL")
        db.execute(
            "CREATE TABLE IF NOT EXISTS stored_events (originator_id TEXT, originator_version INTEGER, "
            "topic TEXT, state BLOB, PRIMARY KEY (originator_id, originator_version))"
        )
        topic = "combat.store:Recorded"
        samples = []
        for rows in payloads:
            originator = uuid.uuid4().hex
            start = time.perf_counter()
            cursor = db.cursor()
            cursor.execute("BEGIN")
            for version, state in enumerate(rows, start=1):
                cursor.execute("INSERT INTO stored_events VALUES (?,?,?,?)", (originator, version, topic, state))
            db.commit()
            samples.append(time.perf_counter() - start)
        return samples
    finally:
        db.close()


def run(workdir: Path, events: int, samples: int) -> dict[str, Any]:
    fight = long_fight(events)
    encounters = Encounters(workdir / "commands.db")
    mapper = encounters.log.home.mapper
    latencies: list[float] = []
    payloads: list[list[bytes]] = []
    stored_events: list[int] = []
    try:
        while len(latencies) < samples:
            eid = store_fight(encounters, fight)
            state = encounters.state(eid)
            stored_events.append(state.version)
            for _ in range(min(ATTACKS_PER_ENCOUNTER, samples - len(latencies))):
                cid = state.turn
                assert cid is not None
                encounters.execute(eid, Move(combatant=cid, feet=5))
                attack = Attack(attacker=cid, target=TARGETS[cid])
                start = time.perf_counter()
                outcome = encounters.execute(eid, attack)
                latencies.append(time.perf_counter() - start)
                payloads.append([mapper.to_stored_event(rec).state for rec in outcome.records])
                state = encounters.execute(eid, EndTurn(combatant=cid)).state
            stored_events.append(state.version)
    finally:
        encounters.close()
    floor = sqlite_floor(workdir / "floor.db", payloads)
    p50, p99 = percentile(latencies, 50), percentile(latencies, 99)
    f50, f99 = percentile(floor, 50), percentile(floor, 99)
    return {
        "samples": len(latencies),
        "fight_events": [min(stored_events), max(stored_events)],
        "events_per_attack": sum(map(len, payloads)) / len(payloads),
        "p50_ms": p50 * 1000,
        "p99_ms": p99 * 1000,
        "floor_p50_ms": f50 * 1000,
        "floor_p99_ms": f99 * 1000,
        "ratio_p50": p50 / f50,
        "ratio_p99": p99 / f99,
        "target": "p99 <= 3x the floor's p99",
        "met": p99 <= 3 * f99,
    }
