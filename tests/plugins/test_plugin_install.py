"""A ruleset installed with pip is found through its `combat.rulesets` entry point: it is
listed by `combat rulesets` and plays a fight through `combat serve`, with nothing in the
package naming it. A plug-in that fails to load is named, with why, and skipped."""

from __future__ import annotations

import json
import socket
import subprocess
import sys
from pathlib import Path

import httpx

from tests.helpers import ROOT, first_answer, fresh_venv, pip_install, plugin_env

EXAMPLE = ROOT / "examples" / "twenty_one"
COMBAT = "from combat.cli import main; main()"


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def test_pip_install_of_the_example_plugin_lists_it_and_plays_a_fight_over_http(tmp_path):
    python = fresh_venv(tmp_path / "venv")
    pip_install(python, EXAMPLE, cwd=tmp_path)

    listed = subprocess.run(
        [python, "-c", COMBAT, "rulesets", "--json"], capture_output=True, text=True, env=plugin_env(), cwd=tmp_path
    )
    assert listed.returncode == 0 and listed.stderr == "", listed.stderr
    assert {"id": "twenty-one", "title": "Twenty-one", "summary": "Count up by 1 to 3; whoever says 21 loses."} in json.loads(
        listed.stdout
    )
    commands = subprocess.run(
        [python, "-c", COMBAT, "commands", "--ruleset", "twenty-one"],
        capture_output=True,
        text=True,
        env=plugin_env(),
        cwd=tmp_path,
    )
    assert commands.returncode == 0 and "count" in commands.stdout, commands.stderr

    port = _free_port()
    server = subprocess.Popen(
        [python, "-c", COMBAT, "serve", "--port", str(port), "--db", str(tmp_path / "c.db")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.PIPE,
        text=True,
        env=plugin_env(),
        cwd=tmp_path,
    )
    try:
        base = f"http://127.0.0.1:{port}"
        rulesets = first_answer(f"{base}/rulesets", server)
        assert "twenty-one" in [r["id"] for r in rulesets.json()]  # what the table screen offers
        assert {"count", "ruling"} <= {c["type"] for c in httpx.get(f"{base}/rulesets/twenty-one/commands").json()}

        opened = httpx.post(f"{base}/encounters", json={"ruleset": "twenty-one", "name": "after supper", "seed": 1})
        assert opened.status_code == 201, opened.text
        eid, gm = opened.json()["id"], {"Authorization": f"Bearer {opened.json()['gm_token']}"}
        for player, by in [("ann", 3), ("bo", 3), ("ann", 3), ("bo", 3), ("ann", 3), ("bo", 3), ("ann", 2)]:
            done = httpx.post(
                f"{base}/encounters/{eid}/commands", headers=gm, json={"command": {"type": "count", "player": player, "by": by}}
            )
            assert done.status_code == 200, done.text
        refused = httpx.post(
            f"{base}/encounters/{eid}/commands", headers=gm, json={"command": {"type": "count", "player": "bo", "by": 2}}
        )
        assert refused.status_code == 422 and refused.json()["error"] == "count/invalid", refused.text
        last = httpx.post(
            f"{base}/encounters/{eid}/commands", headers=gm, json={"command": {"type": "count", "player": "bo", "by": 1}}
        )
        assert [(e["type"], e["total"]) for e in last.json()["events"]] == [("Counted", 21)]
        state = httpx.get(f"{base}/encounters/{eid}", headers=gm).json()
        assert state["ruleset"] == "twenty-one" and state["twenty_one"]["total"] == 21
        assert state["twenty_one"]["said_by"][-1] == "bo"  # bo said 21: bo loses
        events = httpx.get(f"{base}/encounters/{eid}/events", headers=gm)
        assert events.status_code == 200 and events.text.count('"type":"Counted"') == 8
    finally:
        server.terminate()
        server.wait(timeout=10)


def _installed_by_hand(where: Path, name: str, value: str) -> Path:
    """A distribution's metadata as pip leaves it, with one entry point in the group."""
    info = where / f"broken_{name.replace('-', '_')}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: broken-{name}\nVersion: 0.1\n")
    (info / "entry_points.txt").write_text(f"[combat.rulesets]\n{name} = {value}\n")
    return where


def test_a_plugin_that_fails_to_load_is_named_with_why_and_the_others_still_play(tmp_path):
    _installed_by_hand(tmp_path / "site", "missing", "no_such_module:RULESET")
    _installed_by_hand(tmp_path / "site", "not-a-ruleset", "json:dumps")
    listed = subprocess.run(
        [sys.executable, "-c", COMBAT, "rulesets", "--json"],
        capture_output=True,
        text=True,
        env=plugin_env(tmp_path / "site"),
        cwd=tmp_path,
    )
    assert listed.returncode == 0
    assert "srd-2024" in [r["id"] for r in json.loads(listed.stdout)]
    errors = listed.stderr.splitlines()
    assert any(
        line.startswith("error: plug-in missing (no_such_module:RULESET) not loaded: ModuleNotFoundError") for line in errors
    ), listed.stderr
    assert any(line.startswith("error: plug-in not-a-ruleset (json:dumps) not loaded: TypeError") for line in errors), (
        listed.stderr
    )
