"""Fixtures of the service tests (the in-process `client` and `postgres` are in tests/conftest.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest

from combat.app.application import Encounters
from combat.service import create_app
from tests.service.helpers import SMALL_POOL, ServeProcess, serving_two


@pytest.fixture
def two_servers(postgres, tmp_path) -> Iterator[tuple[ServeProcess, ServeProcess]]:
    # Create the tables once, before two processes race to create them.
    encounters = Encounters(env={**postgres, **SMALL_POOL})
    create_app(encounters)
    encounters.close()
    yield from serving_two({**postgres, **SMALL_POOL}, tmp_path)
