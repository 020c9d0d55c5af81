"""Several processes starting at once on a new PostgreSQL store all come up (issue 25,
finding 6: "Starting 8 processes at once on a fresh store, one dies with 'tuple concurrently
updated'"), and no database object of one partition is shared with another unless it means
the same for all of them."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time

from combat.app.application import Encounters
from tests.helpers import ROOT, connect_postgres

STARTER = """
import json, os, sys, time
from combat.app.application import Encounters
env = json.loads(sys.argv[1])
while time.time() < float(sys.argv[2]):
    time.sleep(0.001)
encounters = Encounters(env=env)
try:
    print(encounters.create("srd-2024", "started at once"))
finally:
    encounters.close()
"""


def test_eight_processes_opening_a_new_store_at_once_all_come_up(postgres):
    env = {**postgres, "COMBAT_PARTITIONS": "4", "POSTGRES_POOL_SIZE": "2", "POSTGRES_MAX_OVERFLOW": "2"}
    start = time.time() + 3.0  # every process imported and waiting before any opens the store
    root = str(ROOT)
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", STARTER, json.dumps(env), str(start)],
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
            env={**os.environ, "PYTHONPATH": root},
            cwd=root,
        )
        for _ in range(8)
    ]
    results = [p.communicate(timeout=120) for p in procs]
    failures = [err[-800:] for p, (_, err) in zip(procs, results) if p.returncode != 0]
    assert failures == []
    ids = {out.strip() for out, _ in results}
    assert len(ids) == 8
    encounters = Encounters(env=env)
    try:
        assert all(encounters.state(__import__("uuid").UUID(i)).name == "started at once" for i in ids)
    finally:
        encounters.close()


def test_no_partition_creates_a_function_named_for_the_schema_alone(postgres):
    """eventsourcing names its insert function for the id type only (es_insert_events_uuid),
    with a body inserting into one partition's table: every partition replaced it with its
    own. None is created now; what each partition creates is its own tables."""
    encounters = Encounters(env={**postgres, "COMBAT_PARTITIONS": "4"})
    encounters.close()
    with connect_postgres() as connection:
        functions = connection.execute(
            "SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = %s",
            (postgres["POSTGRES_SCHEMA"],),
        ).fetchall()
    assert functions == []
