"""Fixtures shared by every folder of tests: a pure table, a store on a SQLite file, the service
in-process over it, and a fresh PostgreSQL schema. Plain helpers are in tests/helpers.py;
a folder's own fixtures are in its conftest.py."""

from __future__ import annotations

import os
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest
from litestar.testing import TestClient

from combat.app.application import Encounters
from combat.service import create_app
from tests.helpers import POSTGRES_SETTINGS, Table, connect_postgres


@pytest.fixture
def table() -> Table:
    return Table()


@pytest.fixture
def encounters(tmp_path: Path) -> Iterator[Encounters]:
    store = Encounters(tmp_path / "combat.db")
    yield store
    store.close()


@pytest.fixture
def postgres() -> Iterator[dict[str, str]]:
    """eventsourcing's settings for a fresh schema of its own, dropped afterwards."""
    try:
        connection = connect_postgres()
    except Exception as exc:  # ImportError without the extra, OperationalError without the server
        where = (
            f"{POSTGRES_SETTINGS['POSTGRES_HOST']}:{POSTGRES_SETTINGS['POSTGRES_PORT']}/{POSTGRES_SETTINGS['POSTGRES_DBNAME']}"
        )
        reason = f"PostgreSQL not reachable at {where}: {type(exc).__name__}: {exc}".strip()
        if os.environ.get("CI"):
            pytest.fail(f"{reason} (CI requires it)")
        pytest.skip(reason)
    schema = f"combat_test_{uuid.uuid4().hex[:12]}"
    with connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    try:
        yield {"PERSISTENCE_MODULE": "eventsourcing.postgres", "POSTGRES_SCHEMA": schema, **POSTGRES_SETTINGS}
    finally:
        with connect_postgres() as connection:
            connection.execute(f'DROP SCHEMA "{schema}" CASCADE')


@pytest.fixture
def client(encounters: Encounters) -> Iterator[TestClient]:
    """The service in-process over the `encounters` store."""
    with TestClient(create_app(encounters)) as http:  # type: ignore[arg-type]
        yield http
