"""The README's curl session works as written against `combat serve`: its commands run in
bash against a real server process, and every `# => ...` line it shows is what they print."""

from __future__ import annotations

import json
import os
import re
import shutil
import signal
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest

from tests.test_service_fixtures import free_port

README = Path(__file__).parent.parent / "README.md"
DEFAULT_API = "http://127.0.0.1:8000"


def _block(heading: str) -> str:
    """The first ```sh block after `heading`."""
    text = README.read_text()
    after = text[text.index(heading):]
    return re.search(r"```sh\n(.*?)```", after, re.S).group(1)  # type: ignore[union-attr]


def _commands(block: str) -> list[str]:
    """Shell commands, a line ending in | or \\ continuing on the next."""
    commands: list[str] = []
    current = ""
    for line in block.splitlines():
        if not line.strip() or (line.lstrip().startswith("#") and not current):
            continue
        current += line + "\n"
        if not line.rstrip().endswith(("|", "\\")):
            commands.append(current)
            current = ""
    return commands


@pytest.fixture
def served(tmp_path) -> Iterator[str]:
    for tool in ("curl", "jq"):
        if shutil.which(tool) is None:
            pytest.skip(f"the README's session needs {tool}, which is not installed")
    port = free_port()
    environ = {k: v for k, v in os.environ.items() if k not in ("COMBAT_DB", "PERSISTENCE_MODULE")}
    server = subprocess.Popen(
        [sys.executable, "-m", "combat.cli", "serve", "--db", str(tmp_path / "readme.db"), "--port", str(port)],
        env=environ, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
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


def _bash(script: str, cwd: Path, timeout: float | None = None) -> str:
    """Run `script` in bash; with a timeout, stop it (and the curl it runs) and keep its output."""
    process = subprocess.Popen(["bash", "-c", script], cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                               text=True, start_new_session=True)
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGTERM)
        out, err = process.communicate()
        return out
    assert process.returncode == 0, f"the README's commands failed:\n{err}"
    return out


def test_the_readme_curl_session_and_stream_examples_work_as_written(served, tmp_path):
    session = _block("### A fight with curl").replace(DEFAULT_API, served)
    assert "curl" in session and "# =>" in session
    printed = _bash("set -eo pipefail\n" + session + "\ndeclare -p API ENC GM > vars.sh\n", tmp_path).splitlines()
    # Every result the README shows, in order, among what the commands printed.
    position = 0
    for expected in re.findall(r"^# => (.*)$", session, re.M):
        assert expected in printed[position:], f"README shows {expected}, the commands printed {printed}"
        position = printed.index(expected, position) + 1
    narrative = [line for line in printed if re.match(r"^\d+  ", line)]
    assert narrative[0].startswith("1  Encounter 'Goblin ambush'") and "Combat ends" in narrative[-1]
    exported = (tmp_path / "goblin-ambush.jsonl").read_text().splitlines()
    assert len(exported) == len(narrative) and json.loads(exported[-1])["type"] == "CombatEnded"

    everything, resumed, compact = (
        _bash(f"set -a; source vars.sh; set +a\n{command}", tmp_path, timeout=2)
        for command in _commands(_block("### Following a fight live"))
    )
    ids = [int(n) for n in re.findall(r"^id: (\d+)$", everything, re.M)]
    assert ids and ids == list(range(1, len(ids) + 1))
    assert re.findall(r"^id: (\d+)$", resumed, re.M)[0] == "13"
    assert [json.loads(line) for line in compact.splitlines()][:2] == [[1, "EncounterCreated"], [2, "CombatantAdded"]]


def test_the_readme_test_command_is_the_one_ci_runs():
    ci = (Path(__file__).parent.parent / ".ci" / "run").read_text()
    command = next(line for line in ci.splitlines() if line.startswith("python3 -m venv"))
    assert f"```sh\n{command}\n```" in README.read_text()
    assert "'.[test,postgres]'" in command
