"""Shards on two database servers: a store of 4 partitions, 0 and 2 on the PostgreSQL at
127.0.0.1:5432 and 1 and 3 on a second PostgreSQL started here (the machine's own `initdb`
and `pg_ctl`, in a temporary directory, on another port), configured apart with
COMBAT_P1_POSTGRES_HOST/PORT/... as docs/scaling.md tells an operator to. Two
`combat serve` processes share the store: commands sent to either process reach the
encounter's server, each stored once with its seqs gapless; a command id sent again to the
other process (or to both at once) is replayed, not appended; streams on either process are
woken by appends made through the other, on either server; `combat verify` checks each
encounter wherever it lives; and each server's tables hold exactly its partitions' encounters.

Needs what tests/service/test_service_postgres.py needs (the server at 127.0.0.1:5432, trust auth,
database `test`) and PostgreSQL's server binaries on this machine (Debian's `postgresql`
package puts them in /usr/lib/postgresql/VERSION/bin). Without either it is skipped with the
reason, except under CI (the CI variable set), where it fails. Run as root, the second
server runs as the `postgres` user (initdb refuses root).
"""

from __future__ import annotations

import glob
import os
import pwd
import shutil
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from typing import Any, NoReturn
from urllib.parse import quote
from uuid import UUID

import httpx
import pytest

from combat.app.application import Encounters
from combat.kernel.errors import RuleError
from combat.service.stream import KEEP_ALIVE
from combat.store.partitions import partition_of
from tests.helpers import POSTGRES_SETTINGS as SETTINGS
from tests.helpers import connect_postgres
from tests.service.helpers import SMALL_POOL, Fight, bearer, free_port, open_fight, serving_two, set_the_scene

PARTITIONS = 4
ON_SECOND = (1, 3)  # the partitions configured apart, on the second server
COMMANDS = 12  # rulings per encounter, each sent twice (to both processes)

HOW_TO_GET_IT = (
    "the project's way: `pip install -e '.[test,postgres]'` and PostgreSQL's server on this machine "
    "(Debian: `apt-get install postgresql`, which brings initdb and pg_ctl under "
    "/usr/lib/postgresql/VERSION/bin), running at 127.0.0.1:5432 with trust auth and a database `test` "
    "(README.md, the tests)"
)


def _unavailable(reason: str) -> NoReturn:
    reason = f"{reason}; to run it, {HOW_TO_GET_IT}"
    if os.environ.get("CI"):
        pytest.fail(f"{reason} (CI requires it)")
    pytest.skip(reason)


def _binaries() -> Path | None:
    """The directory holding initdb and pg_ctl: the newest /usr/lib/postgresql/*/bin, else PATH's."""

    def version(bindir: Path) -> int:
        return int(bindir.parent.name) if bindir.parent.name.isdigit() else 0

    candidates = sorted((Path(p) for p in glob.glob("/usr/lib/postgresql/*/bin")), key=version, reverse=True)
    on_path = shutil.which("initdb")
    if on_path:
        candidates.append(Path(on_path).parent)
    return next((d for d in candidates if (d / "initdb").is_file() and (d / "pg_ctl").is_file()), None)


def _run_as() -> dict[str, Any]:
    """How to run the server's binaries: as this user, or as `postgres` if this is root."""
    if os.geteuid() != 0:
        return {}
    try:
        user = pwd.getpwnam("postgres")
    except KeyError:
        _unavailable("running as root, which initdb refuses, and there is no `postgres` user to run it as")
    return {"user": user.pw_uid, "group": user.pw_gid, "extra_groups": []}


@pytest.fixture
def second_server(request: pytest.FixtureRequest) -> Iterator[dict[str, str]]:
    """A PostgreSQL server of its own in a temporary directory, on a free port, stopped and
    removed afterwards (even if the test fails): its connection settings."""
    try:
        connect_postgres().close()
    except Exception as exc:  # ImportError without the extra, OperationalError without the server
        _unavailable(
            f"PostgreSQL not reachable at {SETTINGS['POSTGRES_HOST']}:{SETTINGS['POSTGRES_PORT']}: "
            f"{type(exc).__name__}: {exc}".strip()
        )
    bindir = _binaries()
    if bindir is None:
        _unavailable("PostgreSQL's initdb and pg_ctl not found (in /usr/lib/postgresql/*/bin or on PATH)")
    as_user = _run_as()
    base = Path(tempfile.mkdtemp(prefix="combat-shard-"))
    if as_user:
        os.chown(base, as_user["user"], as_user["group"])
    data, port = base / "data", free_port()

    def run(*args: str) -> None:
        done = subprocess.run([*args], cwd=base, capture_output=True, text=True, timeout=60, check=False, **as_user)
        assert done.returncode == 0, f"{' '.join(args)} failed:\n{done.stdout}\n{done.stderr}"

    try:
        run(
            str(bindir / "initdb"),
            "-D",
            str(data),
            "--auth=trust",
            "--username=postgres",
            "--encoding=UTF8",
            "--locale=C",
            "--no-sync",
        )
        options = f"-p {port} -k {base} -c listen_addresses=127.0.0.1 -c fsync=off -c shared_buffers=16MB -c max_connections=60"
        try:
            run(str(bindir / "pg_ctl"), "-D", str(data), "-l", str(base / "server.log"), "-w", "-t", "30", "-o", options, "start")
        except AssertionError as failed:
            log = (base / "server.log").read_text() if (base / "server.log").exists() else ""
            raise AssertionError(f"{failed}\n{log[-3000:]}") from None
        try:
            yield {
                "POSTGRES_HOST": "127.0.0.1",
                "POSTGRES_PORT": str(port),
                "POSTGRES_USER": "postgres",
                "POSTGRES_PASSWORD": "",
                "POSTGRES_DBNAME": "postgres",
            }
        finally:
            run(str(bindir / "pg_ctl"), "-D", str(data), "-m", "fast", "-w", "-t", "30", "stop")
    finally:
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
def sharded(second_server: dict[str, str], request: pytest.FixtureRequest) -> dict[str, str]:
    """The store's settings: a fresh schema on the main server (the `postgres` fixture) and
    one of the same name on the second, partitions 1 and 3 configured to live there."""
    main: dict[str, str] = request.getfixturevalue("postgres")
    schema = main["POSTGRES_SCHEMA"]
    with connect_postgres(second_server) as connection:
        connection.execute(f'CREATE SCHEMA "{schema}"')
    apart = {
        f"COMBAT_P{k}_{key}": value for k in ON_SECOND for key, value in {**second_server, "POSTGRES_SCHEMA": schema}.items()
    }
    return {**main, **SMALL_POOL, "COMBAT_PARTITIONS": str(PARTITIONS), **apart}


def _server_of(encounter_id: str) -> str:
    return "second" if partition_of(UUID(encounter_id), PARTITIONS) in ON_SECOND else "main"


def _stored(connection: Any, schema: str) -> dict[str, dict[str, list[int]]]:
    """{events table: {encounter id: its seqs}} for every events table in `schema`."""
    tables = [
        name
        for (name,) in connection.execute(
            "SELECT table_name FROM information_schema.tables WHERE table_schema = %s AND table_name LIKE %s", (schema, "%events")
        )
    ]
    found: dict[str, dict[str, list[int]]] = {}
    for table in tables:
        rows = connection.execute(
            f'SELECT originator_id, originator_version FROM "{schema}"."{table}" ORDER BY originator_id, originator_version'
        ).fetchall()
        for originator, seq in rows:
            found.setdefault(table, {}).setdefault(str(originator), []).append(seq)
    return found


def _listening(connection: Any) -> int:
    """Connections to this server that are LISTENing (a process's follower of one pool)."""
    return connection.execute("SELECT count(*) FROM pg_stat_activity WHERE query LIKE 'LISTEN %%'").fetchone()[0]


class Stream:
    """An encounter's /stream on one process, read in a thread: when each seq arrived."""

    def __init__(self, url: str, fight: Fight):
        self.url, self.fight = url, fight
        self.arrived: dict[int, float] = {}
        self.ready = threading.Event()
        self.wanted = 0
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        import msgspec

        with (
            httpx.Client(base_url=self.url, timeout=60) as http,
            http.stream("GET", self.fight.url("/stream"), params={"state": "false"}, headers=bearer(self.fight.gm)) as stream,
        ):
            data = ""
            for line in stream.iter_lines():
                if line.startswith("data:"):
                    data = line[5:].strip()
                elif line == "" and data:
                    seq = msgspec.json.decode(data)["event"]["seq"]
                    self.arrived[seq] = time.monotonic()
                    data = ""
                    self.ready.set()
                    if self.wanted and len(self.arrived) >= self.wanted:
                        return


def test_encounters_on_two_servers_served_by_two_processes_lose_nothing(sharded, second_server, tmp_path):
    """Partitions 0 and 2 on the main server, 1 and 3 on the second; two processes started at
    once on the new store. For one encounter in each partition, 12 rulings alternate between
    the processes, each with a command id: sent again to the other process it is replayed
    (Idempotent-Replayed, the first reply, nothing appended), and every third is sent to both
    at once and stored once. Then: every accepted command stored once, in order, seqs
    gapless; both processes serve the same logs and states; a stream on either process saw
    every event of an encounter on either server, each within a few seconds of its command
    (a missed NOTIFY would leave it for the 10 s re-read); each process listens on both
    servers; each server's tables hold exactly the encounters of its partitions; and
    `combat verify` passes every encounter."""
    schema = sharded["POSTGRES_SCHEMA"]
    servers = serving_two(sharded, tmp_path)
    a, b = next(servers)
    try:
        with httpx.Client(base_url=a.url, timeout=30) as http_a, httpx.Client(base_url=b.url, timeout=30) as http_b:
            clients = (http_a, http_b)
            # Encounters opened through either process until each partition holds one (ids are random).
            chosen: dict[int, Fight] = {}
            for n in range(200):
                fight = open_fight(clients[n % 2], name=f"table {n}")
                chosen.setdefault(partition_of(UUID(fight.id), PARTITIONS), fight)
                if len(chosen) == PARTITIONS:
                    break
            assert len(chosen) == PARTITIONS, "ids never reached every partition"
            fights = [set_the_scene(chosen[k]) for k in range(PARTITIONS)]
            start = {f.id: len(f.events()) for f in fights}
            # A stream for each encounter, on process A for partitions 0 and 1, B for 2 and 3:
            # each follows one server's encounter, and each hears appends made through the other.
            streams = [Stream((a, b)[k // 2].url, fight) for k, fight in enumerate(fights)]
            for stream in streams:
                stream.wanted = start[stream.fight.id] + COMMANDS
                assert stream.ready.wait(10), "a stream sent nothing"
            answered: dict[str, dict[int, float]] = {f.id: {} for f in fights}

            def send(http: httpx.Client, fight: Fight, text: str, key: str, as_header: bool) -> httpx.Response:
                payload: dict[str, Any] = {"command": {"type": "ruling", "text": text}}
                headers = bearer(fight.gm)
                if as_header:
                    headers["Idempotency-Key"] = key
                else:
                    payload["command_id"] = key
                return http.post(fight.url("/commands"), json=payload, headers=headers)

            def play(fight: Fight) -> None:
                with ThreadPoolExecutor(max_workers=2) as both:
                    for i in range(COMMANDS):
                        text, key = f"{fight.id[:6]} ruling {i}", f"shard-{fight.id[:8]}-{i:02d}"
                        first, other = clients[i % 2], clients[1 - i % 2]
                        header = i % 4 < 2  # the id as the Idempotency-Key header, or as the body's command_id
                        if i % 3 == 2:  # to both processes at once: one appends, the other replays
                            sent = [both.submit(send, http, fight, text, key, header) for http in (first, other)]
                            replies = [future.result() for future in sent]
                        else:
                            replies = [send(first, fight, text, key, header)]
                            replies.append(send(other, fight, text, key, header))  # a retry, to the other process
                        assert [r.status_code for r in replies] == [200, 200], [r.text for r in replies]
                        replayed = sorted(r.headers.get("idempotent-replayed", "false") for r in replies)
                        assert replayed == ["false", "true"], replayed
                        assert replies[0].json() == replies[1].json()
                        answered[fight.id][replies[0].json()["version"]] = time.monotonic()

            with ThreadPoolExecutor(max_workers=PARTITIONS) as players:
                list(players.map(play, fights))
            for stream in streams:
                stream.thread.join(timeout=15)

            for k, fight in enumerate(fights):
                log = Fight(http_a, fight.id, fight.gm).events()
                assert log == Fight(http_b, fight.id, fight.gm).events()
                total = start[fight.id] + COMMANDS
                assert [e["seq"] for e in log] == list(range(1, total + 1))  # gapless, nothing lost
                assert [e["text"] for e in log if e["type"] == "RulingMade"] == [
                    f"{fight.id[:6]} ruling {i}" for i in range(COMMANDS)
                ]  # each once, in order
                assert Fight(http_a, fight.id, fight.gm).state() == Fight(http_b, fight.id, fight.gm).state()
                stream = streams[k]
                assert sorted(stream.arrived) == list(range(1, total + 1)), f"partition {k}'s stream"
                lags = [stream.arrived[seq] - when for seq, when in answered[fight.id].items()]
                assert max(lags) < KEEP_ALIVE / 2, f"partition {k}'s stream was not woken: lags {lags}"

        # Each process listens on each server: the main pool (partitions 0 and 2) and one pool per
        # partition configured apart; so does each one's statistics follower, a child process
        # (`--stats-follower process`, `combat serve`'s default) woken by the same NOTIFYs.
        with connect_postgres() as main, connect_postgres(second_server) as second:
            assert _listening(second) == 2 * 2 * len(ON_SECOND)
            assert _listening(main) >= 2  # the main server may be shared with other test runs
            stored = {"main": _stored(main, schema), "second": _stored(second, schema)}
        assert set(stored["main"]) == {"combat_events", "combat_p2_events"}
        assert set(stored["second"]) == {"combat_p1_events", "combat_p3_events"}
        for k, fight in enumerate(fights):
            table = "combat_events" if k == 0 else f"combat_p{k}_events"
            where = _server_of(fight.id)
            assert stored[where][table][fight.id] == list(range(1, start[fight.id] + COMMANDS + 1))
            elsewhere = [t for server in stored.values() for t, ids in server.items() if fight.id in ids and t != table]
            assert elsewhere == [], f"{fight.id} also in {elsewhere}"
    finally:
        servers.close()  # stops both processes

    # `combat verify` opens the store as an operator would, the partitions apart in its
    # environment, and checks each encounter on its own server.
    password = f":{quote(SETTINGS['POSTGRES_PASSWORD'])}" if SETTINGS["POSTGRES_PASSWORD"] else ""
    url = (
        f"postgresql://{quote(SETTINGS['POSTGRES_USER'])}{password}@{SETTINGS['POSTGRES_HOST']}:"
        f"{SETTINGS['POSTGRES_PORT']}/{SETTINGS['POSTGRES_DBNAME']}?schema={schema}"
    )
    environ = {k: v for k, v in os.environ.items() if k != "COMBAT_DB" and not k.startswith("POSTGRES_")}
    environ.update({k: v for k, v in sharded.items() if k.startswith("COMBAT_P") or k in SMALL_POOL})
    for fight in fights:
        done = subprocess.run(
            [sys.executable, "-m", "combat.cli", "verify", fight.id, "--db", url],
            env=environ,
            capture_output=True,
            text=True,
            timeout=60,
            check=False,
        )
        events = start[fight.id] + COMMANDS
        assert done.returncode == 0, done.stdout + done.stderr
        assert f"ok: encounter {fight.id}: {events} events" in done.stdout + done.stderr

    # A process started without partition 1's and 3's settings would find no tables for them
    # on the main server and serve empty ones: it is refused before it reads or writes there.
    stale = {k: v for k, v in sharded.items() if not k.startswith("COMBAT_P")}
    with pytest.raises(RuleError, match="partition 1 is not where this store keeps it") as refused:
        Encounters(env=stale)
    assert refused.value.code == "partitions/misplaced"
    assert "COMBAT_P1_POSTGRES_HOST" in (refused.value.allowed or "")
    with connect_postgres(SETTINGS) as connection:  # nothing was written on the main server for them
        for k in ON_SECOND:
            assert connection.execute(f'SELECT count(*) FROM "{schema}".combat_p{k}_events').fetchone()[0] == 0
