"""Fixtures of the browser tests: Debian's chromium driven by Playwright, the service on a real
socket, and the web app's files served from a second origin. The table screen as a person uses
it is in helpers.py."""

from __future__ import annotations

import functools
import http.server
import os
import shutil
import threading
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from combat.app.application import Encounters
from combat.service import create_app
from combat.web import STATIC
from tests.service.helpers import LiveServer
from tests.web.helpers import CHROMIUM, FLAGS


@pytest.fixture(scope="module")
def chromium() -> Iterator[Any]:
    """The system's chromium (never a downloaded one); skipped, visibly, where it is missing,
    except under CI=true, where a missing browser fails the run."""
    missing = None
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        missing = "playwright is not installed (pip install -e '.[test]')"
    if missing is None and not (Path(CHROMIUM).exists() or shutil.which("chromium")):
        missing = f"{CHROMIUM} is missing (apt-get install -y chromium)"
    if missing:
        if os.environ.get("CI") == "true":
            pytest.fail(f"browser tests need a browser under CI: {missing}")
        pytest.skip(f"browser tests skipped: {missing}")
    with sync_playwright() as pw:
        browser = pw.chromium.launch(
            executable_path=CHROMIUM if Path(CHROMIUM).exists() else shutil.which("chromium"), args=FLAGS
        )
        yield browser
        browser.close()


@pytest.fixture
def service(tmp_path: Path) -> Iterator[LiveServer]:
    encounters = Encounters(tmp_path / "combat.db")
    with LiveServer(create_app(encounters)) as server:
        yield server
    encounters.close()


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args: Any) -> None:
        pass


@pytest.fixture
def other_origin() -> Iterator[str]:
    """The web app's files on another port: another origin, as an overlay host would be."""
    handler = functools.partial(_Quiet, directory=str(STATIC))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    yield f"http://127.0.0.1:{server.server_address[1]}"
    server.shutdown()
    server.server_close()
