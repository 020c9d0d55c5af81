"""A PostgreSQL store split by encounter (combat.store.partitions): each encounter lives whole
in one partition, everything that reads the store sees every partition, the count is the
store's own (fixed when it was made), and a store written before partitions keeps working as
one partition. Two real `combat serve` processes writing one encounter in turns keep its
log gapless.

Needs PostgreSQL as tests/service/test_service_postgres.py does (skipped without it, failed in CI).
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from datetime import UTC, datetime
from uuid import UUID

import httpx
import pytest

from combat.app import directory
from combat.app.application import Encounters
from combat.kernel.commands import Ruling
from combat.kernel.errors import RuleError
from combat.kernel.events import RulingMade
from combat.kernel.records import Recorded
from combat.store import SeqTaken
from combat.store.partitions import partition_of
from tests.helpers import connect_postgres
from tests.service.helpers import SMALL_POOL, Fight, ServeProcess, bearer, open_fight, read_events, serving_two, set_the_scene


def _rows(schema: str, table: str) -> int:
    with connect_postgres() as connection:
        return connection.execute(f'SELECT count(*) FROM "{schema}"."{table}"').fetchone()[0]


def _in_partitions(encounters: Encounters, count: int, wanted: set[int]) -> list:
    """Encounters created until each partition in `wanted` holds one (ids are random)."""
    found: dict[int, object] = {}
    for n in range(200):
        eid = encounters.create("srd-2024", f"table {n}", seed=n)
        found.setdefault(partition_of(eid, count), eid)
        if wanted <= found.keys():
            return [found[k] for k in sorted(wanted)]
    raise AssertionError("ids never reached every partition")


def test_encounters_spread_over_partitions_and_the_list_sees_every_one(postgres):
    encounters = Encounters(env={**postgres, **SMALL_POOL}, partitions=4)
    try:
        assert encounters.log.count == 4
        ids = _in_partitions(encounters, 4, {0, 1, 2, 3})
        for eid in ids:
            encounters.execute(eid, Ruling(text=f"the floor of {eid.hex[:4]} is slick"))
        # Each encounter's events are all in its own partition's table.
        tables = ["combat_events", "combat_p1_events", "combat_p2_events", "combat_p3_events"]
        assert all(_rows(postgres["POSTGRES_SCHEMA"], table) >= 2 for table in tables)
        listed = {s.id for s in directory.summaries(encounters)}
        assert set(ids) <= listed
        assert directory.resolve(encounters, ids[3].hex[:12]) == ids[3]
        assert [r.seq for r in encounters.records(ids[2])] == [1, 2]
    finally:
        encounters.close()


def test_the_count_is_the_stores_own_and_a_different_one_is_refused(postgres):
    first = Encounters(env={**postgres, **SMALL_POOL}, partitions=2)
    first.close()
    later = Encounters(env={**postgres, **SMALL_POOL})  # no setting: the store's count
    try:
        assert later.log.count == 2
    finally:
        later.close()
    with pytest.raises(RuleError) as refused:
        Encounters(env={**postgres, **SMALL_POOL, "COMBAT_PARTITIONS": "3"})
    assert refused.value.code == "partitions/mismatch"
    assert "this store has 2 partitions" in refused.value.message


def test_a_store_written_before_partitions_stays_one_partition(postgres):
    """Its events are all in combat_events: a count over 1 would look for them elsewhere."""
    old = Encounters(env={**postgres, **SMALL_POOL}, partitions=1)
    eids = [old.create("srd-2024", f"old table {n}", seed=n) for n in range(6)]
    old.close()
    with connect_postgres() as connection:  # as a store made before partitions were recorded
        connection.execute(f'DROP TABLE "{postgres["POSTGRES_SCHEMA"]}".combat_partitions')
    reopened = Encounters(env={**postgres, **SMALL_POOL})
    try:
        assert reopened.log.count == 1
        assert [reopened.state(eid).name for eid in eids] == [f"old table {n}" for n in range(6)]
    finally:
        reopened.close()
    with pytest.raises(RuleError) as refused:
        Encounters(env={**postgres, **SMALL_POOL}, partitions=4)
    assert refused.value.code == "partitions/mismatch"


def test_an_sqlite_store_is_one_partition(tmp_path):
    with pytest.raises(RuleError) as refused:
        Encounters(tmp_path / "table.db", partitions=2)
    assert refused.value.code == "partitions/sqlite"
    assert "PostgreSQL" in refused.value.allowed
    with pytest.raises(RuleError) as bad:
        Encounters(tmp_path / "table.db", env={"COMBAT_PARTITIONS": "many"})
    assert bad.value.code == "partitions/count"


@pytest.fixture
def two_partitioned_servers(postgres, tmp_path) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    yield from serving_two({**postgres, **SMALL_POOL, "COMBAT_PARTITIONS": "4"}, tmp_path)


COMMANDS = 24


def test_commands_alternated_between_two_processes_keep_each_log_gapless(two_partitioned_servers):
    """Two processes started at once on a new schema agree on its count; commands to one
    encounter sent in turn to each process are all stored, in order, with no seq skipped;
    a stream on one process follows an encounter outside partition 0 written through the other."""
    a, b = two_partitioned_servers
    with httpx.Client(base_url=a.url, timeout=30) as http_a, httpx.Client(base_url=b.url, timeout=30) as http_b:
        fights = [set_the_scene(open_fight(http_a, name=f"table {n}")) for n in range(3)]
        while not any(partition_of(UUID(f.id), 4) for f in fights):
            fights.append(set_the_scene(open_fight(http_a, name="one more table")))
        outside = next(f for f in fights if partition_of(UUID(f.id), 4))
        start = {f.id: len(f.events()) for f in fights}
        streamed: list[dict] = []
        ready = threading.Event()

        def follow() -> None:
            with (
                httpx.Client(base_url=b.url, timeout=30) as own,
                own.stream(
                    "GET", f"/encounters/{outside.id}/stream", params={"state": "false"}, headers=bearer(outside.gm)
                ) as stream,
            ):
                lines = stream.iter_lines()
                streamed.extend(read_events(lines, 1))
                ready.set()
                streamed.extend(read_events(lines, start[outside.id] + COMMANDS - 1))

        follower = threading.Thread(target=follow)
        follower.start()
        assert ready.wait(10)

        def play(fight: Fight) -> None:
            for i in range(COMMANDS):
                http = (http_a, http_b)[i % 2]
                Fight(http, fight.id, fight.gm).do(Ruling(text=f"{fight.id[:4]} ruling {i}"))

        players = [threading.Thread(target=play, args=(f,)) for f in fights]
        for thread in players:
            thread.start()
        for thread in players:
            thread.join(timeout=120)
        follower.join(timeout=60)

        for fight in fights:
            log = Fight(http_b, fight.id, fight.gm).events()
            assert [e["seq"] for e in log] == list(range(1, start[fight.id] + COMMANDS + 1))
            assert [e["text"] for e in log if e["type"] == "RulingMade"] == [
                f"{fight.id[:4]} ruling {i}" for i in range(COMMANDS)
            ]
            assert Fight(http_a, fight.id, fight.gm).state() == Fight(http_b, fight.id, fight.gm).state()
        assert [m["data"]["event"] for m in streamed] == Fight(http_a, outside.id, outside.gm).events()


def test_a_partition_configured_apart_lives_in_its_own_schema(postgres):
    """COMBAT_P1_POSTGRES_SCHEMA (as COMBAT_P1_POSTGRES_HOST would, for a server of its own)
    puts partition 1 elsewhere; the store still reads and lists every encounter."""
    apart = postgres["POSTGRES_SCHEMA"] + "_p1"
    with connect_postgres() as connection:
        connection.execute(f'CREATE SCHEMA "{apart}"')
    try:
        encounters = Encounters(env={**postgres, **SMALL_POOL, "COMBAT_P1_POSTGRES_SCHEMA": apart}, partitions=2)
        try:
            home, away = _in_partitions(encounters, 2, {0, 1})
            assert _rows(apart, "combat_p1_events") >= 1
            with connect_postgres() as connection:
                here = connection.execute(f"SELECT to_regclass('\"{postgres['POSTGRES_SCHEMA']}\".combat_p1_events')").fetchone()[
                    0
                ]
            assert here is None
            assert encounters.state(away).name.startswith("table")
            assert {home, away} <= set(directory.encounter_ids(encounters))
        finally:
            encounters.close()
    finally:
        with connect_postgres() as connection:
            connection.execute(f'DROP SCHEMA "{apart}" CASCADE')


def test_a_command_taken_twice_stores_nothing_the_second_time_and_wakes_other_processes(postgres):
    """An append is one insert under its partition's lock: a seq already taken by another
    process stores none of the second writer's events (the table keeps one row per seq), and
    the NOTIFY sent after the commit names the encounter, for other processes' streams.
    (docs/scaling.md: "If another process appended first, the insert is refused".)"""
    from combat.store.postgres import PostgresLogRecorder

    first = Encounters(env={**postgres, **SMALL_POOL}, partitions=4)
    second = Encounters(env={**postgres, **SMALL_POOL})
    try:
        assert all(isinstance(part.recorder, PostgresLogRecorder) for part in first.log.parts)
        eid = _in_partitions(first, 4, {2})[0]
        channel = first.log.of(eid).recorder.channel_name
        with connect_postgres() as listener:
            listener.execute(f'LISTEN "{channel}"')
            second.state(eid)  # the second process has the encounter cached at version 1
            first.execute(eid, Ruling(text="the bridge is rotten"))
            payloads = [n.payload for n in listener.notifies(timeout=5, stop_after=1)]
        assert payloads == [eid.hex]
        now = datetime.now(UTC)
        records = [
            Recorded(
                originator_id=eid,
                originator_version=seq,
                timestamp=now,
                actor="gm",
                command_id="late",
                event=RulingMade(text=text),
            )
            for seq, text in ((2, "the bridge holds"), (3, "and the rope too"))
        ]
        with pytest.raises(SeqTaken):
            second.log.append(records)
        assert [(r.seq, r.command_id != "late") for r in first.records(eid)] == [(1, True), (2, True)]
        # Deciding through the application instead, the second process decides again on seq 2.
        outcome = second.execute(eid, Ruling(text="the rope holds"))
        assert [r.seq for r in outcome.records] == [3]
    finally:
        second.close()
        first.close()
