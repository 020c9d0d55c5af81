"""The pages follow the fight over the live stream, with the token in a header, and resume
after a dropped connection where they left off."""

from __future__ import annotations

import uuid

import httpx

from combat.app.application import Encounters
from combat.kernel.commands import Ruling
from combat.service import create_app
from tests.test_service_fixtures import LiveServer, bearer, free_port
from tests.test_web_fixtures import Table, chromium  # noqa: F401  (fixture)


def test_the_overlay_resumes_with_last_event_id_after_the_server_restarts(chromium, tmp_path):
    """'Live everywhere through the SSE stream; reconnects resume with Last-Event-ID.' Rulings
    made while the server was down reach the page once it is back, each exactly once."""
    encounters = Encounters(tmp_path / "combat.db")
    port = free_port()
    with LiveServer(create_app(encounters), port=port) as server, httpx.Client(base_url=server.url) as http:
        opened = http.post("/encounters", json={"ruleset": "srd-2024", "name": "Stormy night"}).json()
        viewer = http.post(f"/encounters/{opened['id']}/tokens", json={"role": "viewer", "name": "Stream"},
                           headers=bearer(opened["gm_token"])).json()["token"]
        overlay = Table(chromium.new_page())
        streams: list[dict[str, str]] = []
        overlay.page.on("request", lambda r: "/stream" in r.url and streams.append(r.headers))
        overlay.page.goto(f"{server.url}/app/overlay.html#e={opened['id']}&t={viewer}&role=viewer")
        overlay.page.locator("ol.strip[data-version='1']").wait_for()
        http.post(f"/encounters/{opened['id']}/commands", json={"command": {"type": "ruling", "text": "thunder"}},
                  headers=bearer(opened["gm_token"]))
        overlay.page.locator("ol.strip[data-version='2']").wait_for()

    # The server is down: the GM's tools write straight to the store meanwhile.
    encounter_id = uuid.UUID(opened["id"])
    encounters.execute(encounter_id, Ruling(text="the lights go out"), actor="gm")
    encounters.execute(encounter_id, Ruling(text="a door slams"), actor="gm")

    with LiveServer(create_app(encounters), port=port):
        overlay.page.locator("ol.strip[data-version='4']").wait_for(timeout=20_000)
    assert streams[0]["authorization"] == f"Bearer {viewer}" and "last-event-id" not in streams[0]
    assert streams[-1].get("last-event-id") == "2"  # resumed after the last event it had
    assert all("t=" not in r.get("referer", "") for r in streams)
    assert overlay.errors == []
    overlay.page.close()
    encounters.close()
