"""The pages follow the fight over the live stream, with the token in a header, and resume
after a dropped connection where they left off."""

from __future__ import annotations

import inspect
import uuid

import httpx
import pytest

from combat.app.application import Encounters
from combat.kernel.commands import Ruling
from combat.service import create_app
from tests.service.helpers import LiveServer, bearer, free_port
from tests.web.helpers import Table


def test_the_overlay_resumes_with_last_event_id_after_the_server_restarts(chromium, tmp_path):
    """'Live everywhere through the SSE stream; reconnects resume with Last-Event-ID.' Rulings
    made while the server was down reach the page once it is back, each exactly once."""
    encounters = Encounters(tmp_path / "combat.db")
    port = free_port()
    with LiveServer(create_app(encounters), port=port) as server, httpx.Client(base_url=server.url) as http:
        opened = http.post("/encounters", json={"ruleset": "srd-2024", "name": "Stormy night"}).json()
        viewer = http.post(
            f"/encounters/{opened['id']}/tokens", json={"role": "viewer", "name": "Stream"}, headers=bearer(opened["gm_token"])
        ).json()["token"]
        overlay = Table(chromium.new_page())
        streams: list[dict[str, str]] = []
        overlay.page.on("request", lambda r: "/stream" in r.url and streams.append({**r.headers, "url": r.url}))
        overlay.page.goto(f"{server.url}/app/overlay.html#e={opened['id']}&t={viewer}&role=viewer")
        overlay.page.locator("ol.strip[data-version='1']").wait_for()
        http.post(
            f"/encounters/{opened['id']}/commands",
            json={"command": {"type": "ruling", "text": "thunder"}},
            headers=bearer(opened["gm_token"]),
        )
        overlay.page.locator("ol.strip[data-version='2']").wait_for()

    # The server is down: the GM's tools write straight to the store meanwhile.
    encounter_id = uuid.UUID(opened["id"])
    encounters.execute(encounter_id, Ruling(text="the lights go out"), actor="gm")
    encounters.execute(encounter_id, Ruling(text="a door slams"), actor="gm")

    with LiveServer(create_app(encounters), port=port):
        overlay.page.locator("ol.strip[data-version='4']").wait_for(timeout=20_000)
    assert streams[0]["authorization"] == f"Bearer {viewer}" and "last-event-id" not in streams[0]
    assert streams[-1].get("last-event-id") == "2"  # resumed after the last event it had
    assert all(viewer not in r.get("referer", "") + r.get("url", "") for r in streams)
    assert overlay.errors == []
    overlay.page.close()
    encounters.close()


def _app_allowing(encounters: Encounters, origin: str):
    """The service with CORS open to `origin`, however this version of create_app takes it."""
    options = [name for name in inspect.signature(create_app).parameters if "cors" in name]
    if not options:
        pytest.skip("the service has no CORS setting yet (the trust issue adds --cors-origin)")
    return create_app(encounters, **{options[0]: [origin]})


def test_an_overlay_on_another_origin_follows_the_stream(chromium, tmp_path, other_origin):
    """'An overlay page on another origin follows the stream': the page and its scripts come
    from one origin, the API and the stream from the service's, allowed by CORS."""
    encounters = Encounters(tmp_path / "combat.db")
    with LiveServer(_app_allowing(encounters, other_origin)) as server, httpx.Client(base_url=server.url) as http:
        opened = http.post("/encounters", json={"ruleset": "srd-2024", "name": "On stream"}).json()
        viewer = http.post(
            f"/encounters/{opened['id']}/tokens", json={"role": "viewer", "name": "OBS"}, headers=bearer(opened["gm_token"])
        ).json()["token"]
        overlay = Table(chromium.new_page())
        overlay.page.goto(f"{other_origin}/overlay.html#e={opened['id']}&t={viewer}&role=viewer&api={server.url}")
        overlay.page.locator("ol.strip[data-version='1']").wait_for()
        assert viewer not in overlay.page.url  # the token moved from the address bar to the session
        http.post(
            f"/encounters/{opened['id']}/commands",
            json={"command": {"type": "ruling", "text": "live!"}},
            headers=bearer(opened["gm_token"]),
        )
        overlay.page.locator("ol.strip[data-version='2']").wait_for()
        assert overlay.errors == []
        overlay.page.close()
    encounters.close()
