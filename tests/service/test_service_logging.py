"""Logs: one JSON line per request with its id, encounter, command type, outcome and latency,
and never a token, not even from a URL or a traceback."""

from __future__ import annotations

import io
import json
import logging

import pytest
import structlog
from litestar.testing import TestClient

from combat.fivee.action_commands import Move
from combat.service import create_app
from combat.service.logging import configure_logging
from tests.service.helpers import bearer, open_fight, set_the_scene


@pytest.fixture
def logs():
    stream = io.StringIO()
    configure_logging(stream)
    yield stream
    structlog.reset_defaults()
    for name in ("uvicorn", "uvicorn.error", "litestar"):
        logging.getLogger(name).handlers = []
        logging.getLogger(name).propagate = True


def _lines(stream: io.StringIO) -> list[dict]:
    return [json.loads(line) for line in stream.getvalue().splitlines() if line.strip()]


def test_each_request_is_one_json_line_with_its_id_encounter_command_outcome_and_latency(logs, encounters):
    with TestClient(create_app(encounters)) as http:
        fight = set_the_scene(open_fight(http))
        http.post(
            fight.url("/commands"),
            json={"command": {"type": "move", "combatant": "aria", "feet": 10}},
            headers={**bearer(fight.gm), "X-Request-ID": "table-7-move"},
        )
        refused = fight.send(Move(combatant="goblin", feet=5))
    requests = [line for line in _lines(logs) if line["event"] == "request"]
    moved = next(line for line in requests if line["request_id"] == "table-7-move")
    assert moved["encounter"] == fight.id and moved["command"] == "move" and moved["outcome"] == "ok"
    assert moved["status"] == 200 and moved["latency_ms"] >= 0 and moved["level"] == "info"
    assert refused.headers["x-request-id"] == requests[-1]["request_id"]
    assert requests[-1]["outcome"] == "turn/not-yours" and requests[-1]["status"] == 409


def test_no_token_is_ever_logged(logs, encounters):
    with TestClient(create_app(encounters)) as http:
        fight = open_fight(http)
        viewer = fight.token("viewer", "overlay")
        http.get(fight.url(), params={"access_token": viewer})
        http.get(fight.url(), headers=bearer("a-wrong-token-from-someone"))
    text = logs.getvalue()
    assert text and fight.gm not in text and viewer not in text and "a-wrong-token-from-someone" not in text
    assert "access_token" not in text


def test_a_failure_is_a_500_json_error_logged_without_local_variables(logs, encounters, monkeypatch):
    with TestClient(create_app(encounters)) as http:
        fight = open_fight(http)

        def broken(*args, **kwargs):
            secret = fight.gm  # a local that must not reach the log
            raise ValueError("the store fell over" + secret[:0])

        monkeypatch.setattr(encounters, "records", broken)
        reply = http.get(fight.url("/log"), headers=bearer(fight.gm))
    assert reply.status_code == 500 and reply.json()["error"] == "server/internal"
    assert fight.gm not in reply.text
    failure = next(line for line in _lines(logs) if line["event"] == "unexpected error")
    assert failure["exception"][0]["exc_value"] == "the store fell over"
    assert all(not frame.get("locals") for frame in failure["exception"][0]["frames"])
    assert fight.gm not in logs.getvalue()


def test_the_lines_of_requests_finished_in_one_turn_of_the_loop_reach_the_log_in_one_write(logs):
    """A busy table finishes several requests in one turn of the service's event loop: their
    lines go to the log together, whole and in the order they finished, and none waits for
    a later request to be written."""
    import asyncio

    from combat.service.logging import _request_lines

    writes: list[str] = []
    real_write = logs.write
    logs.write = lambda text: writes.append(text) or real_write(text)  # type: ignore[method-assign]

    async def finish_three() -> None:
        for n in range(3):
            _request_lines.write({"request_id": f"r{n}", "status": 200})
        assert writes == []  # not yet: at the end of this turn
        await asyncio.sleep(0)
        assert len(writes) == 1

    asyncio.run(finish_three())
    assert [line["request_id"] for line in _lines(logs)] == ["r0", "r1", "r2"]
