"""The statistics tables on PostgreSQL (issue 34: "in the same store (SQLite by default,
PostgreSQL when the service uses it)"): the same numbers as on SQLite, and a rebuild."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from pathlib import Path

from combat.app.application import Encounters
from combat.stats.answers import Scope
from combat.stats.projection import FOLLOWER
from combat.store.party import tracking_name
from combat.store.settings import DB_ENV
from combat.store.stats_tables import COLUMNS
from tests.stats.helpers import play_two_fights

ROOT = Path(__file__).resolve().parents[2]


def test_the_two_fights_add_up_the_same_on_postgresql(postgres):
    """Brann 32 dealt in 3 hits and 6 d20s, Elara 48 and one miss; one undo, one amendment;
    a rebuild gives the same rows (a column named `natural`, reserved in PostgreSQL, included)."""
    encounters = Encounters(env=postgres)
    try:
        played = play_two_fights(encounters)
        found = encounters.stats.gm(Scope(campaign=str(played.campaign)))
        assert [(c.name, c.damage_dealt, c.hits, c.misses, c.d20.rolls) for c in found.characters] == [
            ("Brann", 32, 3, 0, 6),
            ("Elara", 48, 0, 1, 3),
            ("Goblin 1", 0, 0, 1, 3),
            ("Goblin 2", 0, 0, 0, 1),
        ]
        assert found.rulings == {"amend": 1, "retract": 1}
        before = {t: encounters.stats.tables.select(t, counted=False) for t in COLUMNS}
        encounters.stats.rebuild()
        assert {t: encounters.stats.tables.select(t, counted=False) for t in COLUMNS} == before
    finally:
        encounters.close()


def test_combat_stats_follow_on_postgresql_is_woken_by_each_append_and_stops_on_sigterm(postgres):
    """`combat stats follow` on PostgreSQL, in a process of its own: it LISTENs on every
    partition's channel, so fights played here after it started are taken in (with a poll of
    one minute, only a NOTIFY could bring them in before the test's deadline); SIGTERM stops
    it at its committed positions, and a rebuild gives the same rows."""
    encounters = Encounters(env=postgres)
    try:
        encounters.stats  # noqa: B018  (its tables made before the follower starts)
        env = {k: v for k, v in os.environ.items() if k != DB_ENV}
        proc = subprocess.Popen(
            [sys.executable, "-m", "combat.cli", "stats", "follow", "--interval", "60"],
            env={**env, "PYTHONPATH": str(ROOT), **postgres},
            stdout=subprocess.PIPE,
            text=True,
            cwd=ROOT,
        )
        try:
            assert proc.stdout is not None and proc.stdout.readline().startswith("following: ")
            play_two_fights(encounters)
            deadline = time.monotonic() + 30
            while not all(
                encounters.stats.tables.position(tracking_name(FOLLOWER, part)) >= (part.recorder.max_notification_id() or 0)
                for part in encounters.log.parts
            ):
                assert time.monotonic() < deadline, "no NOTIFY woke the follower"
                time.sleep(0.01)
        finally:
            proc.send_signal(signal.SIGTERM)
            out, _ = proc.communicate(timeout=30)
        assert proc.returncode == 0 and out.startswith("stopped: ")
        followed = {t: encounters.stats.tables.select(t, counted=False) for t in COLUMNS}
        encounters.stats.rebuild()
        assert {t: encounters.stats.tables.select(t, counted=False) for t in COLUMNS} == followed
        brann = encounters.stats.gm(Scope(character="Brann")).characters[0]
        assert (brann.attacks, brann.damage_dealt, brann.d20.rolls) == (3, 32, 6)
    finally:
        encounters.close()


def test_serve_on_postgresql_with_the_stats_follower_in_a_child_process(postgres, monkeypatch):
    """`combat serve --stats-follower process` on PostgreSQL: the child opens the service's own
    store (its schema included) from the service's settings, takes in both fights, and stops
    cleanly with the service."""
    from litestar.testing import TestClient

    from combat.service import create_app

    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    encounters = Encounters(env=postgres)
    try:
        played = play_two_fights(encounters)
        app = create_app(encounters, stats_follower="process")
        with TestClient(app) as http:  # type: ignore[arg-type]
            child = app.state["service"].stats_process
            assert child is not None and child.ready(60)
            assert all(
                encounters.stats.tables.position(tracking_name(FOLLOWER, part)) >= (part.recorder.max_notification_id() or 0)
                for part in encounters.log.parts
            )  # taken in by the child before it said it was ready, not by a request
            gm = http.get(f"/campaigns/{played.campaign}/stats").json()
        brann = next(c for c in gm["characters"] if c["name"] == "Brann")
        assert (brann["attacks"], brann["damage_dealt"], brann["d20"]["rolls"]) == (3, 32, 6)
        assert child.process.returncode == 0
    finally:
        encounters.close()
