"""Tokens that can be listed, expire and be revoked; who may create encounters and how many;
browsers on other origins (findings 9 and 12 of issue 14); quotas that hold under a race
(finding 3 of issue 25)."""

from __future__ import annotations

import sqlite3
from concurrent.futures import ThreadPoolExecutor
from contextlib import closing

import httpx
import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from combat.app.application import Encounters
from combat.cli import cli
from combat.kernel.errors import RuleError
from combat.service import create_app
from combat.service.admission import is_loopback
from combat.service.app import serve
from combat.service.limits import Limits
from combat.store.tokens import QUOTAS
from tests.service.helpers import LiveServer, bearer, open_fight, set_the_scene


def test_the_gm_lists_the_tokens_without_their_secrets(client):
    fight = set_the_scene(open_fight(client))
    sam = fight.token("player", "Sam", ("aria",))
    fight.token("viewer", "Stream overlay")
    reply = fight.get("/tokens")
    assert reply.status_code == 200
    listed = reply.json()
    assert [(t["role"], t["name"]) for t in listed] == [("gm", "gm"), ("player", "Sam"), ("viewer", "Stream overlay")]
    assert all(t["active"] and len(t["token_id"]) == 16 for t in listed)
    assert fight.gm not in reply.text and sam not in reply.text
    fight.rejects(fight.get("/tokens", token=sam), 403, "auth/gm-only")


def test_a_revoked_token_is_refused_at_once(client):
    fight = set_the_scene(open_fight(client))
    issued = client.post(
        fight.url("/tokens"), json={"role": "player", "name": "Sam", "combatants": ["aria"]}, headers=bearer(fight.gm)
    ).json()
    assert fight.get(token=issued["token"]).status_code == 200
    reply = client.delete(fight.url(f"/tokens/{issued['token_id']}"), headers=bearer(fight.gm))
    assert reply.status_code == 204
    fight.rejects(fight.get(token=issued["token"]), 401, "auth/revoked")
    fight.rejects(fight.send({"type": "end_turn", "combatant": "aria"}, token=issued["token"]), 401, "auth/revoked")
    listed = {t["token_id"]: t for t in fight.get("/tokens").json()}
    assert not listed[issued["token_id"]]["active"] and listed[issued["token_id"]]["revoked_at"]
    fight.rejects(client.delete(fight.url("/tokens/0000000000000000"), headers=bearer(fight.gm)), 404, "token/unknown")


def test_a_revocation_on_one_process_holds_on_another(tmp_path):
    """Two apps on one store stand for two processes: neither remembers a token it has seen."""
    db = tmp_path / "combat.db"
    one, two = Encounters(db), Encounters(db)
    try:
        with TestClient(create_app(one)) as a, TestClient(create_app(two)) as b:
            fight = set_the_scene(open_fight(a))
            issued = a.post(fight.url("/tokens"), json={"role": "viewer", "name": "Overlay"}, headers=bearer(fight.gm)).json()
            assert b.get(fight.url(), headers=bearer(issued["token"])).status_code == 200
            assert a.delete(fight.url(f"/tokens/{issued['token_id']}"), headers=bearer(fight.gm)).status_code == 204
            assert b.get(fight.url(), headers=bearer(issued["token"])).json()["error"] == "auth/revoked"
    finally:
        one.close()
        two.close()


def test_a_token_expires(client, monkeypatch):
    fight = set_the_scene(open_fight(client))
    issued = client.post(
        fight.url("/tokens"), json={"role": "viewer", "name": "Tonight only", "expires_in": 60}, headers=bearer(fight.gm)
    ).json()
    assert issued["expires_at"] and fight.get(token=issued["token"]).status_code == 200
    import combat.service.auth as auth

    later = auth.datetime.fromisoformat(issued["expires_at"].replace("Z", "+00:00"))

    class Later(auth.datetime):
        @classmethod
        def now(cls, tz=None):
            return later

    monkeypatch.setattr(auth, "datetime", Later)
    fight.rejects(fight.get(token=issued["token"]), 401, "auth/expired")
    short = client.post(fight.url("/tokens"), json={"role": "viewer", "name": "x", "expires_in": 5}, headers=bearer(fight.gm))
    assert short.status_code == 422


def test_the_cli_lists_and_revokes_tokens(tmp_path):
    db = str(tmp_path / "combat.db")
    encounters = Encounters(db)
    eid = encounters.create("srd-2024", "cli tokens")
    encounters.close()
    runner = CliRunner()
    secret = runner.invoke(cli, ["token", str(eid), "--role", "viewer", "--name", "Overlay", "--db", db]).output.strip()
    listed = runner.invoke(cli, ["token", str(eid), "--list", "--db", db])
    assert listed.exit_code == 0 and "Overlay" in listed.output and secret not in listed.output
    token_id = listed.output.split()[0]
    revoked = runner.invoke(cli, ["token", str(eid), "--revoke", token_id, "--db", db])
    assert revoked.exit_code == 0, revoked.output
    assert "revoked" in runner.invoke(cli, ["token", str(eid), "--list", "--db", db]).output
    with TestClient(create_app(db=db)) as http:
        assert http.get(f"/encounters/{eid}", headers=bearer(secret)).json()["error"] == "auth/revoked"
    assert runner.invoke(cli, ["token", str(eid), "--revoke", "ffffffffffffffff", "--db", db]).exit_code != 0


def test_a_closed_server_creates_encounters_only_for_its_admin_token(encounters):
    with TestClient(create_app(encounters, admin_token="s3cret-admin-token", open_creation=False)) as http:
        refused = http.post("/encounters", json={"name": "x"})
        assert refused.status_code == 401 and refused.json()["error"] == "auth/admin-required"
        wrong = http.post("/encounters", json={"name": "x"}, headers=bearer("not-it"))
        assert wrong.status_code == 401
        made = http.post("/encounters", json={"name": "x"}, headers=bearer("s3cret-admin-token"))
        assert made.status_code == 201 and made.json()["gm_token_id"]


def test_each_credential_creates_only_so_many_encounters_forks_included(encounters):
    with TestClient(create_app(encounters, limits=Limits(max_encounters=2))) as http:
        fight = open_fight(http)
        open_fight(http)
        refused = http.post("/encounters", json={"name": "third"})
        assert refused.status_code == 429 and refused.json()["error"] == "limits/encounters"
        fork = http.post(fight.url("/fork"), json={"at": 1}, headers=bearer(fight.gm))
        assert fork.status_code == 429


def _rows(db) -> int:
    """Every row of the store: events, snapshots, tokens."""
    with closing(sqlite3.connect(db)) as connection:
        tables = [name for (name,) in connection.execute("SELECT name FROM sqlite_master WHERE type = 'table'")]
        return sum(connection.execute(f'SELECT COUNT(*) FROM "{name}"').fetchone()[0] for name in tables if name != QUOTAS)


def test_concurrent_creations_never_pass_the_quota(tmp_path):
    """Finding 3 of issue 25: 40 creations at once under a quota of 5 made 9 encounters.
    The slot is taken by one conditional UPDATE, so at most 5 get through, however they race."""
    db = tmp_path / "combat.db"
    with LiveServer(create_app(db=db, limits=Limits(max_encounters=5))) as server:

        def create(n: int) -> int:
            with httpx.Client(base_url=server.url, timeout=30) as http:
                return http.post("/encounters", json={"name": f"rush {n}"}).status_code

        with ThreadPoolExecutor(max_workers=40) as pool:
            statuses = list(pool.map(create, range(40)))
    assert sorted(set(statuses)) == [201, 429] and statuses.count(201) == 5, statuses
    with closing(sqlite3.connect(db)) as connection:
        made = connection.execute("SELECT COUNT(DISTINCT originator_id) FROM stored_events").fetchone()[0]
    assert made == 5


def test_a_fork_over_the_quota_writes_nothing(tmp_path):
    """Finding 3 of issue 25: 40 forks refused with 429 wrote 40 encounters and 1,240 rows.
    The quota is checked before the branch is written; a repeat of a fork already made
    takes no new slot."""
    db = tmp_path / "combat.db"
    with TestClient(create_app(db=db, limits=Limits(max_encounters=2))) as http:
        fight = set_the_scene(open_fight(http))
        made = http.post(fight.url("/fork"), json={"at": 3, "command_id": "what-if-quota-1"}, headers=bearer(fight.gm))
        assert made.status_code == 201
        assert fight.get("/stats").status_code == 200  # the followers' rows of what was written so far
        before = _rows(db)
        for _ in range(40):
            refused = http.post(fight.url("/fork"), json={"at": 3}, headers=bearer(fight.gm))
            fight.rejects(refused, 429, "limits/encounters")
        assert _rows(db) == before
        again = http.post(fight.url("/fork"), json={"at": 3, "command_id": "what-if-quota-1"}, headers=bearer(fight.gm))
        assert again.status_code == 201 and again.json()["id"] == made.json()["id"]


def test_a_creation_refused_for_another_reason_gives_its_slot_back(encounters):
    with TestClient(create_app(encounters, limits=Limits(max_encounters=1))) as http:
        assert http.post("/encounters", json={"name": "x", "ruleset": "no-such-rules"}).status_code == 422
        assert http.post("/encounters", json={"name": "x"}).status_code == 201
        assert http.post("/encounters", json={"name": "y"}).status_code == 429


def test_a_store_made_before_the_quota_table_keeps_its_count(tmp_path):
    """A credential's first slot counts the encounters its tokens say it made before."""
    db = tmp_path / "combat.db"
    with TestClient(create_app(db=db, limits=Limits(max_encounters=2))) as http:
        open_fight(http)
        open_fight(http)
    with closing(sqlite3.connect(db)) as connection, connection:
        connection.execute(f"DROP TABLE {QUOTAS}")
    with TestClient(create_app(db=db, limits=Limits(max_encounters=3))) as http:
        assert http.post("/encounters", json={"name": "third"}).status_code == 201
        assert http.post("/encounters", json={"name": "fourth"}).status_code == 429


def test_serve_beyond_loopback_needs_an_admin_token_or_open():
    assert is_loopback("127.0.0.1") and is_loopback("::1") and is_loopback("localhost")
    assert not is_loopback("0.0.0.0") and not is_loopback("192.168.1.10")
    with pytest.raises(RuleError) as caught:
        serve(None, "0.0.0.0", 0)
    assert caught.value.code == "serve/admin-token" and "--open" in (caught.value.allowed or "")
    with pytest.raises(RuleError):
        serve(None, "127.0.0.1", 0, open_creation=False)


def test_cors_is_off_by_default_and_on_for_the_origins_named(encounters):
    origin = "https://overlay.example"
    with TestClient(create_app(encounters)) as http:
        fight = open_fight(http)
        reply = http.get(fight.url(), headers={**bearer(fight.gm), "Origin": origin})
        assert "access-control-allow-origin" not in reply.headers
    with TestClient(create_app(encounters, cors_origins=[origin])) as http:
        preflight = http.options(
            fight.url("/commands"),
            headers={
                "Origin": origin,
                "Access-Control-Request-Method": "POST",
                "Access-Control-Request-Headers": "authorization, content-type, idempotency-key",
            },
        )
        assert preflight.status_code in (200, 204)
        assert preflight.headers["access-control-allow-origin"] == origin
        assert "idempotency-key" in preflight.headers["access-control-allow-headers"].lower()
        reply = http.get(fight.url(), headers={**bearer(fight.gm), "Origin": origin})
        assert reply.headers["access-control-allow-origin"] == origin
        other = http.get(fight.url(), headers={**bearer(fight.gm), "Origin": "https://evil.example"})
        assert "access-control-allow-origin" not in other.headers


def test_a_stream_ends_when_its_token_is_revoked(tmp_path, monkeypatch):
    import httpx

    import combat.service.stream as stream
    from combat.kernel.commands import Ruling
    from tests.service.helpers import LiveServer, read_events

    monkeypatch.setattr(stream, "TOKEN_RECHECK", 0.0)
    with LiveServer(create_app(db=tmp_path / "combat.db")) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        fight = open_fight(http)
        issued = http.post(fight.url("/tokens"), json={"role": "viewer", "name": "Overlay"}, headers=bearer(fight.gm)).json()
        with http.stream("GET", fight.url("/stream"), params={"state": "false"}, headers=bearer(issued["token"])) as live:
            lines = live.iter_lines()
            assert read_events(lines, 1)[0]["data"]["event"]["type"] == "EncounterCreated"
            assert http.delete(fight.url(f"/tokens/{issued['token_id']}"), headers=bearer(fight.gm)).status_code == 204
            fight.do(Ruling(text="after the revocation"))  # wakes the stream, which finds its token gone
            rest = list(lines)
        assert not any("after the revocation" in line for line in rest)
        again = http.get(fight.url("/stream"), headers=bearer(issued["token"]))
        assert again.status_code == 401 and again.json()["error"] == "auth/revoked"
