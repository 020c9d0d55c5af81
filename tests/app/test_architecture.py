"""The route-to-commit walk on the architecture page (docs/architecture.md) is the path a
command takes: a command sent to the service on an SQLite file is traced call by call, and
the page's steps must be calls it made, in that order, about ten of them."""

from __future__ import annotations

import re
import sys
import threading
from types import FrameType
from typing import Any
from uuid import UUID

import msgspec
from litestar.testing import TestClient

from combat.app.application import Encounters
from combat.kernel.commands import AddCombatant
from combat.service import create_app
from tests.helpers import DOCS, pc

PAGE = DOCS / "architecture.md"


def walk() -> list[str]:
    """The page's steps, as `module:qualified name`."""
    text = PAGE.read_text()
    listed = text[text.index("<!-- walk -->") : text.index("<!-- /walk -->")]
    return re.findall(r"^\d+\. `([\w.]+:[\w.]+)`", listed, flags=re.MULTILINE)


def test_the_pages_walk_is_the_path_a_command_takes(tmp_path):
    """'A newcomer follows a command from the route to the commit in about 10 calls, and an
    architecture page in docs/ draws that path ... matching the code' (issue 24)."""
    steps = walk()
    assert 8 <= len(steps) <= 12, steps
    calls: list[str] = []
    recording = threading.Event()

    def profile(frame: FrameType, event: str, arg: Any) -> None:
        if event == "call" and recording.is_set():
            module = frame.f_globals.get("__name__", "")
            if module.startswith("combat."):
                calls.append(f"{module}:{frame.f_code.co_qualname}")

    encounters = Encounters(tmp_path / "c.db")
    threading.setprofile(profile)  # the threads the client starts (its event loop's) are profiled
    sys.setprofile(profile)
    try:
        with TestClient(create_app(encounters)) as http:  # type: ignore[arg-type]
            command = msgspec.to_builtins(AddCombatant(combatant=pc("aria", max_hp=12)))
            made = http.post("/encounters", json={"ruleset": "srd-2024", "name": "traced"}).json()
            recording.set()
            try:
                reply = http.post(
                    f"/encounters/{made['id']}/commands",
                    json={"command": command},
                    headers={"Authorization": f"Bearer {made['gm_token']}"},
                )
            finally:
                recording.clear()
            assert reply.status_code == 200, reply.text
        assert encounters.state(UUID(made["id"])).combatants["aria"].hp == 12  # it was committed
    finally:
        sys.setprofile(None)
        threading.setprofile(None)  # type: ignore[arg-type]
        encounters.close()
    position = 0
    for step in steps:
        assert step in calls[position:], f"{step} is not called after {steps[: steps.index(step)]}"
        position = calls.index(step, position) + 1
