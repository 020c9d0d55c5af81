"""Several processes starting at once on a new PostgreSQL store all come up (issue 25,
finding 6: "Starting 8 processes at once on a fresh store, one dies with 'tuple concurrently
updated'"; issue 30: the retry that answered it could give up and close the pool), and no
database object of one application is shared with another unless it means the same for all
of them. The tables are made by combat.store.schema, one process at a time."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import time
import uuid

from combat.app.application import Encounters
from tests.helpers import ROOT, connect_postgres

STARTER = """
import json, sys, time
from litestar.testing import TestClient
from combat.app.application import Encounters
from combat.service import create_app
env = json.loads(sys.argv[1])
while time.time() < float(sys.argv[2]):
    time.sleep(0.001)
with TestClient(create_app(Encounters(env=env), open_creation=True)) as http:
    created = http.post("/encounters", json={"ruleset": "srd-2024", "name": "started at once", "seed": 7})
    party = http.get("/characters")
    health = http.get("/health")
    print(json.dumps({"created": created.status_code, "id": created.json().get("id"),
                      "party": party.status_code, "health": health.status_code}))
"""


def _start_at_once(env: dict[str, str], count: int) -> list[dict]:
    """`count` processes, each building the store and the service at the same instant and
    answering three requests; what each answered (or its error output)."""
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
        for _ in range(count)
    ]
    results = [p.communicate(timeout=180) for p in procs]
    failures = [err[-800:] for p, (_, err) in zip(procs, results) if p.returncode != 0]
    assert failures == []
    return [json.loads(out.strip().splitlines()[-1]) for out, _ in results]


def test_eight_servers_starting_at_once_on_a_new_store_all_answer(postgres):
    """Issue 30: "eight processes started at once on one fresh PostgreSQL schema each build
    the store and answer requests, 0 errors and /health 200 after". Each builds every
    application of the store (4 partitions, the tokens, the party) before its first request."""
    env = {**postgres, "COMBAT_PARTITIONS": "4", "POSTGRES_POOL_SIZE": "2", "POSTGRES_MAX_OVERFLOW": "2"}
    answers = _start_at_once(env, 8)
    assert [(a["created"], a["party"], a["health"]) for a in answers] == [(201, 200, 200)] * 8
    ids = {a["id"] for a in answers}
    assert len(ids) == 8
    encounters = Encounters(env=env)
    try:
        assert all(encounters.state(uuid.UUID(i)).name == "started at once" for i in ids)
    finally:
        encounters.close()


def test_a_pool_of_one_connection_starts_and_serves(postgres):
    """Issue 30: "POSTGRES_POOL_SIZE=1 (and max overflow 0) never starts": creating a
    recorder's tables took a second connection while holding the first. Two processes at
    once, one connection each, on a new store of 4 partitions."""
    env = {**postgres, "COMBAT_PARTITIONS": "4", "POSTGRES_POOL_SIZE": "1", "POSTGRES_MAX_OVERFLOW": "0"}
    answers = _start_at_once(env, 2)
    assert [(a["created"], a["party"], a["health"]) for a in answers] == [(201, 200, 200)] * 2


def test_no_partition_creates_a_function_named_for_the_schema_alone(postgres):
    """eventsourcing names its insert function for the id type only (es_insert_events_uuid),
    with a body inserting into one partition's table: every partition replaced it with its
    own. None is created now, by the partitions or the party (issue 30: "the shared-function
    problem is gone for every table"); what each creates is its own tables."""
    encounters = Encounters(env={**postgres, "COMBAT_PARTITIONS": "4"})
    encounters.campaigns  # noqa: B018
    encounters.close()
    with connect_postgres() as connection:
        functions = connection.execute(
            "SELECT p.proname FROM pg_proc p JOIN pg_namespace n ON n.oid = p.pronamespace WHERE n.nspname = %s",
            (postgres["POSTGRES_SCHEMA"],),
        ).fetchall()
    assert functions == []
