"""Shell sessions written in the docs, run as written: the ```sh blocks of a page, in bash,
with every `# => ...` line checked against what the commands print."""

from __future__ import annotations

import os
import re
import shutil
import signal
import subprocess
from pathlib import Path

import pytest


def sh_block(page: Path, heading: str) -> str:
    """The first ```sh block after `heading`."""
    text = page.read_text()
    after = text[text.index(heading) :]
    return re.search(r"```sh\n(.*?)```", after, re.S).group(1)  # type: ignore[union-attr]


def sh_blocks(page: Path) -> list[str]:
    return re.findall(r"```sh\n(.*?)```", page.read_text(), re.S)


def shell_commands(block: str) -> list[str]:
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


def need(*tools: str) -> None:
    for tool in tools:
        if shutil.which(tool) is None:
            pytest.skip(f"the docs' session needs {tool}, which is not installed")


def run_bash(script: str, cwd: Path, timeout: float | None = None, env: dict[str, str] | None = None) -> str:
    """Run `script` in bash; with a timeout, stop it (and what it runs) and keep its output."""
    process = subprocess.Popen(
        ["bash", "-c", script],
        cwd=cwd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
        env=env,
    )
    try:
        out, err = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGTERM)
        out, err = process.communicate()
        return out
    assert process.returncode == 0, f"the documented commands failed:\n{err}"
    return out


def assert_shows(session: str, printed: list[str]) -> None:
    """Every result the session shows (`# => line`), in order, among what its commands printed."""
    position = 0
    expected = re.findall(r"^# => (.*)$", session, re.M)
    assert expected, "the session shows no results"
    for line in expected:
        assert line in printed[position:], f"the docs show {line!r}, the commands printed {printed}"
        position = printed.index(line, position) + 1
