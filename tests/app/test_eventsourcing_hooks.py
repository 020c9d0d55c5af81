"""What the store takes from eventsourcing beyond its public recorder contract, held to the
installed eventsourcing, so an upgrade that moves it fails here by name, not as a store that
notifies inside its inserts again or creates a function every partition overwrites.

The store overrides no private method of eventsourcing's recorders (the `_notify_channel`
override and the edit of `sql_create_statements` it once made are gone: its own
`insert_events` never reaches eventsourcing's NOTIFY, and combat.store.schema leaves the
shared insert function out when it creates the tables). What it still reads is pinned
below: each recorder's `_create_table(cursor)` and `sql_create_statements` (combat.store.schema
runs them under its lock), the tracking recorders' migration attributes, and where
eventsourcing sends its NOTIFY.
"""

from __future__ import annotations

import importlib.metadata
import inspect

from eventsourcing import postgres as es_postgres
from eventsourcing import sqlite as es_sqlite

from combat.app.application import Encounters
from combat.kernel.commands import Ruling
from combat.store.sqlite_recorder import SQLiteLogRecorder

CHECKED_AGAINST = (9, 5)  # eventsourcing's minor version these hooks were read against


def test_the_hooks_were_checked_against_the_installed_eventsourcing():
    installed = tuple(int(part) for part in importlib.metadata.version("eventsourcing").split(".")[:2])
    assert installed == CHECKED_AGAINST, (
        f"eventsourcing {installed} is installed; this module's hooks were read against {CHECKED_AGAINST}: "
        "read each one again in the new version's eventsourcing/postgres.py and sqlite.py, then move CHECKED_AGAINST"
    )


def _private_overrides(cls: type) -> list[str]:
    """The private methods of eventsourcing's that `cls` defines again."""
    bases = [b for b in cls.__mro__[1:] if b.__module__.startswith("eventsourcing.")]
    return sorted(
        name
        for name in vars(cls)
        if name.startswith("_")
        and not name.startswith("__")
        and name != "_abc_impl"  # every ABC subclass's own
        and callable(getattr(cls, name))
        and any(name in vars(b) for b in bases)
    )


def test_the_store_overrides_no_private_method_of_eventsourcings_recorders():
    from combat.store.postgres import PostgresLogRecorder

    assert _private_overrides(PostgresLogRecorder) == []
    assert _private_overrides(SQLiteLogRecorder) == []
    assert "construct_create_table_statements" not in vars(SQLiteLogRecorder)  # its tables are eventsourcing's own


def test_eventsourcings_notify_is_sent_only_from_the_insert_the_store_replaces():
    """The NOTIFY goes after the commit, from the store's own thread (combat.store.postgres):
    eventsourcing's is sent from `_insert_stored_events` alone, which the store's
    `insert_events` never calls."""
    from combat.store.postgres import PostgresLogRecorder

    source = inspect.getsource(es_postgres)
    assert source.count("self._notify_channel(") == 1
    assert "self._notify_channel(" in inspect.getsource(es_postgres.PostgresApplicationRecorder._insert_stored_events)
    ours = inspect.getsource(PostgresLogRecorder.insert_events)
    assert "_insert_stored_events" not in ours and "super()" not in ours


def test_the_create_hooks_the_schema_module_calls_are_there():
    """combat.store.schema runs each recorder's `_create_table(cursor)` inside its own
    transaction, and sets the migration attributes eventsourcing's tracking recorders read."""
    for cls, cursor in (
        (es_sqlite.SQLiteRecorder, "c"),
        (es_sqlite.SQLiteTrackingRecorder, "c"),
        (es_postgres.PostgresRecorder, "curs"),
        (es_postgres.PostgresTrackingRecorder, "curs"),
    ):
        assert list(inspect.signature(vars(cls)["_create_table"]).parameters) == ["self", cursor], cls
    for cls in (es_sqlite.SQLiteTrackingRecorder, es_postgres.PostgresTrackingRecorder):
        source = inspect.getsource(cls)
        for name in ("tracking_table_exists", "tracking_migration_current", "tracking_migration_previous"):
            assert f"self.{name}" in source, (cls, name)
        assert "table_migration_identifier" in source


def test_on_postgresql_the_shared_function_is_left_out_by_identity_and_no_insert_notifies_inside(postgres, monkeypatch):
    """combat.store.schema leaves eventsourcing's insert function out of what it creates by
    the statement object eventsourcing keeps under `sql_create_pg_function_insert_events`;
    an append never calls eventsourcing's NOTIFY."""

    def notified_inside(self, curs):
        raise AssertionError("eventsourcing's NOTIFY was sent inside an insert")

    monkeypatch.setattr(es_postgres.PostgresApplicationRecorder, "_notify_channel", notified_inside)
    encounters = Encounters(env=postgres)
    try:
        recorder = encounters.log.home.recorder
        shared = recorder.sql_create_pg_function_insert_events  # type: ignore[attr-defined]
        assert any(s is shared for s in recorder.sql_create_statements)  # type: ignore[attr-defined]
        eid = encounters.create("srd-2024", "the ford", seed=1)
        encounters.execute(eid, Ruling(text="the river is high"))
        assert encounters.state(eid).version == 2
    finally:
        encounters.close()
