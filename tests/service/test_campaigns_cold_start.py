"""Issue 30, item 1: a party built lazily on first use, without a lock, raced concurrent
requests on a fresh process (and other processes) creating its tables, and the failure closed
the pool the encounters share: every later request, /health included, failed until a restart.
Every application and its tables are now built before the first request is served."""

from __future__ import annotations

import concurrent.futures
from pathlib import Path

import httpx

from combat.app.application import Encounters
from combat.service import create_app
from tests.service.helpers import SMALL_POOL, LiveServer, ServeProcess, live_client

FIGHTER = {
    "name": "Brann",
    "class": "Fighter",
    "level": 5,
    "scores": "STR 16 DEX 12 CON 14 INT 10 WIS 12 CHA 8",
    "weapons": ["Longsword"],
}


def _sixteen_at_once(base: str, campaign: str, gm: str, who: int) -> list[int]:
    """A GM's screen and phones opening together: 16 character requests at once."""
    auth = {"Authorization": f"Bearer {gm}"}

    def one(i: int) -> int:
        with httpx.Client(base_url=base, timeout=30, headers=auth) as http:
            if i % 4 == 0:
                reply = http.post(
                    f"/campaigns/{campaign}/characters/build", json={**FIGHTER, "name": f"Hero {who}-{i}", "save": True}
                )
            elif i % 4 == 1:
                reply = http.get(f"/campaigns/{campaign}/characters")
            elif i % 4 == 2:
                reply = http.get(f"/campaigns/{campaign}")
            else:
                reply = http.get("/characters", headers={"Authorization": ""})
            return reply.status_code

    with concurrent.futures.ThreadPoolExecutor(16) as pool:
        return list(pool.map(one, range(16)))


def test_a_cold_process_answers_sixteen_concurrent_character_requests(tmp_path: Path):
    """A fresh store, a fresh process: 16 character requests at once, 0 errors, /health 200 after."""
    encounters = Encounters(tmp_path / "combat.db")
    try:
        with LiveServer(create_app(encounters)) as server, live_client(server) as http:
            opened = http.post("/campaigns", json={"name": "Cold start"}).json()
            statuses = _sixteen_at_once(server.url, opened["id"], opened["gm_token"], 0)
            assert statuses.count(200) + statuses.count(201) == 16, statuses
            assert http.get("/health").status_code == 200
            assert (
                len(
                    http.get(
                        f"/campaigns/{opened['id']}/characters", headers={"Authorization": f"Bearer {opened['gm_token']}"}
                    ).json()["characters"]
                )
                == 4
            )
    finally:
        encounters.close()


def test_eight_processes_start_at_once_on_one_postgresql_and_serve_the_party(postgres, tmp_path: Path):
    """Eight `combat serve` processes started together on one fresh PostgreSQL schema, each
    then answering 16 character requests at once: 0 errors, /health 200 on every one after."""
    env = {**postgres, **SMALL_POOL}
    servers = [ServeProcess(env, tmp_path / f"{i}.log") for i in range(8)]
    try:
        for server in servers:
            server.wait_ready()
        opened = httpx.post(f"{servers[0].url}/campaigns", json={"name": "Eight at once"}, timeout=30).json()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            results = list(
                pool.map(lambda s: _sixteen_at_once(s[1].url, opened["id"], opened["gm_token"], s[0]), enumerate(servers))
            )
        errors = [code for statuses in results for code in statuses if code not in (200, 201)]
        assert errors == [], results
        for server in servers:
            assert httpx.get(f"{server.url}/health", timeout=10).status_code == 200
        # Issue 30, item 5: 28 of 40 concurrent reads across two processes lost with 409.
        auth = {"Authorization": f"Bearer {opened['gm_token']}"}
        url = f"/campaigns/{opened['id']}/characters/Hero 0-0"
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            reads = list(pool.map(lambda i: httpx.get(servers[i % 2].url + url, headers=auth, timeout=30).status_code, range(40)))
        assert reads == [200] * 40
    finally:
        for server in servers:
            server.stop()
