"""The statistics follower in a process of its own (issue 34: the write path's figures "do not
drop by more than 5% with the projection running"): `combat stats follow`, and `combat serve
--stats-follower` choosing a thread, a child process or none. Stopped by SIGTERM it leaves its
position committed; killed with -9 and started again it counts nothing twice."""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import time
from collections.abc import Callable, Mapping
from pathlib import Path

import pytest
from litestar.testing import TestClient

from combat.app.application import Encounters
from combat.bench.fixtures import long_fight, store_fight
from combat.kernel.errors import RuleError
from combat.service import create_app
from combat.stats.answers import Scope
from combat.stats.projection import FOLLOWER
from combat.store.party import tracking_name
from combat.store.settings import DB_ENV
from combat.store.stats_tables import COLUMNS
from tests.stats.helpers import play_two_fights

ROOT = Path(__file__).resolve().parents[2]
pytestmark = pytest.mark.skipif(sys.platform == "win32", reason="SIGTERM and kill -9 are POSIX")


def _follow(env: Mapping[str, str], *args: str) -> subprocess.Popen[str]:
    """`combat stats follow` started, once it has taken in what was stored."""
    proc = subprocess.Popen(
        [sys.executable, "-m", "combat.cli", "stats", "follow", *args],
        env={**os.environ, "PYTHONPATH": str(ROOT), **env},
        stdout=subprocess.PIPE,
        text=True,
        cwd=ROOT,
    )
    assert proc.stdout is not None and proc.stdout.readline().startswith("following: ")
    return proc


def _until(done: Callable[[], bool], timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while not done():
        assert time.monotonic() < deadline, "the follower did not get there"
        time.sleep(0.005)


def _taken_in(encounters: Encounters) -> bool:
    """Has every partition's last event been committed into the tables?"""
    tables = encounters.stats.tables
    return all(
        tables.position(tracking_name(FOLLOWER, part)) >= (part.recorder.max_notification_id() or 0)
        for part in encounters.log.parts
    )


def _rows(encounters: Encounters) -> dict[str, list[dict[str, object]]]:
    return {t: encounters.stats.tables.select(t, counted=False) for t in COLUMNS}


def _brann(encounters: Encounters) -> tuple[int, int, int]:
    brann = encounters.stats.gm(Scope(character="Brann")).characters[0]
    return brann.attacks, brann.damage_dealt, brann.d20.rolls


def test_combat_stats_follow_takes_in_new_fights_and_stops_on_sigterm_at_its_position(tmp_path):
    """A follower started on an empty store takes in both fights as they are played (polling
    the SQLite file: nothing pokes it from here); SIGTERM stops it cleanly, its position at
    the log's head, and the tables hold what a rebuild from the logs gives."""
    db = tmp_path / "combat.db"
    encounters = Encounters(db)
    try:
        encounters.stats  # noqa: B018  (its tables made before the follower starts)
        proc = _follow({DB_ENV: str(db)}, "--interval", "0.02")
        play_two_fights(encounters)
        _until(lambda: _taken_in(encounters))
        proc.send_signal(signal.SIGTERM)
        out, _ = proc.communicate(timeout=30)
        assert proc.returncode == 0 and out.startswith("stopped: ")
        head = encounters.log.home.recorder.max_notification_id()
        assert encounters.stats.tables.position(tracking_name(FOLLOWER, encounters.log.home)) == head
        followed = _rows(encounters)
        assert encounters.stats.fresh() == 0  # nothing was left for an answer to take in
        encounters.stats.rebuild()
        assert _rows(encounters) == followed
        assert _brann(encounters) == (3, 32, 6)
    finally:
        encounters.close()


def test_kill_9_of_combat_stats_follow_mid_stream_then_a_restart_counts_nothing_twice(tmp_path):
    """Issue 34: "a kill -9 of the follower mid-stream followed by a restart gives the same
    rows (nothing double-counted)", for the command: killed as soon as it has committed part of
    a long log, then started again, it reads on from its last committed batch."""
    db = tmp_path / "combat.db"
    encounters = Encounters(db)
    try:
        play_two_fights(encounters)
        store_fight(encounters, long_fight(20_000), snapshots=False)  # a backlog of many batches
        head = encounters.log.home.recorder.max_notification_id() or 0
        name = tracking_name(FOLLOWER, encounters.log.home)
        proc = subprocess.Popen(
            [sys.executable, "-m", "combat.cli", "stats", "follow"],
            env={**os.environ, "PYTHONPATH": str(ROOT), DB_ENV: str(db)},
            stdout=subprocess.DEVNULL,
            cwd=ROOT,
        )
        _until(lambda: encounters.stats.tables.position(name) > 0, timeout=60)
        proc.send_signal(signal.SIGKILL)
        proc.wait()
        killed_at = encounters.stats.tables.position(name)
        assert 0 < killed_at < head  # killed mid-stream
        again = _follow({DB_ENV: str(db)})
        again.send_signal(signal.SIGTERM)
        again.communicate(timeout=30)
        assert encounters.stats.tables.position(name) == head
        followed = _rows(encounters)
        encounters.stats.rebuild()
        assert _rows(encounters) == followed
        assert _brann(encounters) == (3, 32, 6)  # nothing counted twice
    finally:
        encounters.close()


def test_combat_stats_follow_refuses_a_store_in_memory():
    """A store in memory is one process's alone: there is nothing another process could follow."""
    from combat.stats.follower import StatsFollower

    encounters = Encounters(env={"PERSISTENCE_MODULE": "eventsourcing.sqlite", "SQLITE_DBNAME": ":memory:"})
    try:
        with pytest.raises(RuleError) as refused:
            StatsFollower(encounters)
        assert refused.value.code == "stats/follow-in-memory"
    finally:
        encounters.close()


def test_serve_with_the_stats_follower_in_a_child_process(encounters: Encounters, monkeypatch):
    """`--stats-follower process`: the service starts `combat stats follow` on its own store,
    the GM's answer counts both fights, and the child is stopped (cleanly) with the service."""
    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    played = play_two_fights(encounters)
    app = create_app(encounters, stats_follower="process")
    service = app.state["service"]
    with TestClient(app) as http:  # type: ignore[arg-type]
        child = service.stats_process
        assert child is not None and child.ready(60)
        _until(lambda: _taken_in(encounters))  # taken in by the child, not by a request
        assert encounters.stats.runner is None and service.followers is not None  # the campaigns' thread still runs
        gm = http.get(f"/campaigns/{played.campaign}/stats").json()
    brann = next(c for c in gm["characters"] if c["name"] == "Brann")
    assert (brann["attacks"], brann["damage_dealt"], brann["d20"]["rolls"]) == (3, 32, 6)
    assert child.process.returncode == 0 and service.stats_process is None


def test_serve_with_the_stats_follower_off_answers_from_what_the_request_takes_in(encounters: Encounters):
    """`--stats-follower off`: nothing follows in the background; an answer takes in what is new itself."""
    played = play_two_fights(encounters)
    app = create_app(encounters, stats_follower="off")
    with TestClient(app) as http:  # type: ignore[arg-type]
        service = app.state["service"]
        assert service.stats_process is None and encounters.stats.runner is None
        assert encounters.stats.tables.position(tracking_name(FOLLOWER, encounters.log.home)) == 0
        gm = http.get(f"/campaigns/{played.campaign}/stats").json()
    brann = next(c for c in gm["characters"] if c["name"] == "Brann")
    assert (brann["attacks"], brann["damage_dealt"]) == (3, 32)


def test_an_unknown_stats_follower_is_refused(encounters: Encounters):
    with pytest.raises(RuleError) as refused:
        create_app(encounters, stats_follower="fork")
    assert refused.value.code == "serve/stats-follower" and "thread, process, off" in (refused.value.allowed or "")


def test_the_services_child_follower_stops_when_the_service_dies(encounters: Encounters, monkeypatch):
    """A service killed with -9 cannot SIGTERM its child: the child's stdin (a pipe from the
    service) closes with it, and the child stops on its own, cleanly, rather than follow on."""
    from combat.app.follower_process import FollowerProcess

    monkeypatch.setenv("PYTHONPATH", str(ROOT))
    child = FollowerProcess(encounters.settings)
    assert child.ready(60)
    assert child.process.stdin is not None
    child.process.stdin.close()  # what the service's death does to the pipe
    assert child.process.wait(timeout=30) == 0
    child.stop()


def test_combat_serve_reads_the_stats_follower_from_its_flag_or_the_environment(monkeypatch, tmp_path):
    """`--stats-follower` wins over COMBAT_STATS_FOLLOWER, which wins over the default
    (`process`); a value not among thread, process and off is refused before anything starts."""
    from click.testing import CliRunner

    from combat.cli import cli
    from combat.service import app as service_app

    asked: list[str] = []
    monkeypatch.setattr(service_app, "serve", lambda *args, stats_follower, **kwargs: asked.append(stats_follower))
    db = str(tmp_path / "combat.db")
    runner = CliRunner()
    assert runner.invoke(cli, ["serve", "--db", db]).exit_code == 0
    assert runner.invoke(cli, ["serve", "--db", db], env={"COMBAT_STATS_FOLLOWER": "thread"}).exit_code == 0
    assert (
        runner.invoke(cli, ["serve", "--db", db, "--stats-follower", "off"], env={"COMBAT_STATS_FOLLOWER": "thread"}).exit_code
        == 0
    )
    assert asked == ["process", "thread", "off"]
    refused = runner.invoke(cli, ["serve", "--db", db, "--stats-follower", "fork"])
    assert refused.exit_code == 2 and "'fork' is not one of 'thread', 'process', 'off'" in refused.output
