"""The store's tables are made before the service serves, and a table that cannot be made
is reported by name without taking the encounters down (issue 30: "a failure can leave the
shared connection pool closed so every later request (/health included) answers 500/503
until a restart")."""

from __future__ import annotations

import gc
import sqlite3

import pytest
from litestar.testing import TestClient

from combat.app.application import Encounters
from combat.kernel.commands import Ruling
from combat.service import create_app
from combat.store.schema import SchemaError
from tests.helpers import connect_postgres


def _still_serving(encounters: Encounters) -> None:
    """The encounters' pool is open: a new fight is created and ruled on, and the query
    /health makes answers."""
    fight = encounters.create("srd-2024", "after the failure", seed=7)
    encounters.execute(fight, Ruling(text="the bridge holds"))
    assert encounters.state(fight).version == 2
    encounters.log.home.recorder.max_notification_id()  # raises once the pool is closed
    with TestClient(create_app(Encounters(env=encounters._env))) as http:  # type: ignore[arg-type]
        assert http.get("/health").status_code == 200


def _party_table_fails(encounters: Encounters) -> None:
    with pytest.raises(SchemaError) as failed:
        encounters.campaigns  # noqa: B018
    assert failed.value.code == "store/schema"
    assert "party_events" in failed.value.message
    # The half-built party is collected: eventsourcing's Application.__del__ closed the
    # pool it was lent.
    gc.collect()
    with pytest.raises(SchemaError):
        create_app(encounters)  # the service refuses to start, saying which table


def test_a_party_table_that_cannot_be_made_leaves_the_encounters_serving_on_sqlite(tmp_path):
    """Someone left an index named `party_events` in the store's file: the party's table
    cannot be made under that name. The error names it; the encounters go on."""
    path = tmp_path / "combat.db"
    encounters = Encounters(path)
    try:
        with sqlite3.connect(path) as db:
            db.execute("CREATE TABLE notes (x INTEGER)")
            db.execute("CREATE INDEX party_events ON notes (x)")
        _party_table_fails(encounters)
        with sqlite3.connect(path) as db:
            db.execute("DROP INDEX party_events")
        _still_serving(encounters)
    finally:
        encounters.close()


def test_a_party_table_that_cannot_be_made_leaves_the_encounters_serving_on_postgres(postgres):
    """The same on PostgreSQL, where the pool is shared by the partitions and the party:
    a table `party_events` of another shape, on which the party's index cannot be made."""
    env = {**postgres, "COMBAT_PARTITIONS": "2"}
    encounters = Encounters(env=env)
    try:
        with connect_postgres() as conn:
            conn.execute(f'CREATE TABLE "{postgres["POSTGRES_SCHEMA"]}".party_events (x integer)')
        _party_table_fails(encounters)
        with connect_postgres() as conn:
            conn.execute(f'DROP TABLE "{postgres["POSTGRES_SCHEMA"]}".party_events')
        _still_serving(encounters)
    finally:
        encounters.close()
