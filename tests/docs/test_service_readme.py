"""The "follow a fight" tutorial's curl session works as written against `combat serve`: its
commands run in bash against a real server process, and every `# => ...` line it shows is
what they print; its Python follower reads the stream as the page says. And the README's
test command is the one CI runs."""

from __future__ import annotations

import json
import os
import re
import subprocess
import sys
from collections.abc import Iterator

import httpx
import pytest

from combat.service.app import create_app
from tests.docs.doc_sessions import assert_shows, need, run_bash, sh_block, shell_commands
from tests.helpers import DOCS, ROOT
from tests.service.helpers import LiveServer, free_port, open_fight, set_the_scene

README = ROOT / "README.md"
TUTORIAL = DOCS / "tutorials" / "follow-a-fight.md"
DEFAULT_API = "http://127.0.0.1:8000"


@pytest.fixture
def served(tmp_path) -> Iterator[str]:
    need("curl", "jq")
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if k not in ("COMBAT_DB", "PERSISTENCE_MODULE")}
    server = subprocess.Popen(
        [sys.executable, "-m", "combat.cli", "serve", "--db", str(tmp_path / "readme.db"), "--port", str(port)],
        env=environ,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}"
    try:
        for _ in range(300):
            try:
                httpx.get(f"{url}/health", timeout=1)
                break
            except httpx.HTTPError:
                assert server.poll() is None, "combat serve exited"
                subprocess.run(["sleep", "0.05"])
        yield url
    finally:
        server.terminate()
        server.wait(timeout=10)


def test_the_tutorials_curl_session_and_stream_examples_work_as_written(served, tmp_path):
    session = sh_block(TUTORIAL, "## A fight with curl").replace(DEFAULT_API, served)
    assert "curl" in session
    printed = run_bash("set -eo pipefail\n" + session + "\ndeclare -p API ENC GM > vars.sh\n", tmp_path).splitlines()
    assert_shows(session, printed)
    narrative = [line for line in printed if re.match(r"^\d+  ", line)]
    assert narrative[0].startswith("1  Encounter 'Goblin ambush'") and "Combat ends" in narrative[-1]
    exported = (tmp_path / "goblin-ambush.jsonl").read_text().splitlines()
    assert len(exported) == len(narrative) and json.loads(exported[-1])["type"] == "CombatEnded"

    everything, resumed, compact = (
        run_bash(f"set -a; source vars.sh; set +a\n{command}", tmp_path, timeout=2)
        for command in shell_commands(sh_block(TUTORIAL, "## Following a fight live"))
    )
    ids = [int(n) for n in re.findall(r"^id: (\d+)$", everything, re.M)]
    assert ids and ids == list(range(1, len(ids) + 1))
    assert re.findall(r"^id: (\d+)$", resumed, re.M)[0] == "13"
    assert [json.loads(line) for line in compact.splitlines()][:2] == [[1, "EncounterCreated"], [2, "CombatantAdded"]]


def test_the_readme_test_command_is_the_one_ci_runs():
    ci = (ROOT / ".ci" / "run").read_text()
    command = next(line for line in ci.splitlines() if line.startswith("python3 -m venv"))
    assert f"```sh\n{command}\n```" in README.read_text()
    assert "'.[test,postgres]'" in command


def test_the_tutorials_python_follower_reads_the_stream_and_resumes(encounters):
    """The page's `follow` as written: every event with the state after it, and from a seq on."""
    code = re.search(r"## From Python.*?```python\n(.*?)```", TUTORIAL.read_text(), re.S).group(1)  # type: ignore[union-attr]
    namespace: dict = {}
    exec(compile(code, str(TUTORIAL), "exec"), namespace)
    with LiveServer(create_app(encounters)) as live, httpx.Client(base_url=live.url) as http:
        fight = set_the_scene(open_fight(http))
        seen = []
        for event, state in namespace["follow"](live.url, fight.id, fight.gm):
            seen.append((event["seq"], event["type"], state["version"]))
            if len(seen) == 3:
                break
        assert seen == [(1, "EncounterCreated", 1), (2, "CombatantAdded", 2), (3, "CombatantAdded", 3)]
        resumed = next(namespace["follow"](live.url, fight.id, fight.gm, after=5))
        assert resumed[0]["seq"] == 6
