"""A real browser page on another origin follows a fight (finding 12 of issue 14): the
README's overlay, served from one origin, opens an EventSource on the service at another
with a viewer token in the URL, and shows each event as it is appended. Without the origin
named by `--cors-origin` the browser blocks it.

Needs Playwright (a test dependency) and a Chromium: /usr/bin/chromium (Debian's package) or
Playwright's own. Without either the test is skipped with the reason, except under CI."""

from __future__ import annotations

import functools
import os
import shutil
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, SimpleHTTPRequestHandler, ThreadingHTTPServer

import httpx
import pytest

from combat.kernel.commands import Ruling
from combat.service import create_app
from tests.helpers import DOCS
from tests.service.helpers import Fight, LiveServer, bearer, open_fight

OVERLAY = """<!doctype html><html><body><ol id="log"></ol><script>
const params = new URLSearchParams(location.search);
const stream = new EventSource(params.get("api") + "/encounters/" + params.get("id") +
                               "/stream?state=false&access_token=" + params.get("token"));
stream.onmessage = (message) => {
  const line = JSON.parse(message.data).event;
  const item = document.createElement("li");
  item.textContent = line.seq + " " + line.type + (line.text ? " " + line.text : "");
  document.getElementById("log").appendChild(item);
};
stream.onerror = () => { document.body.dataset.error = "yes"; };
</script></body></html>"""


class _Page(BaseHTTPRequestHandler):
    def do_GET(self) -> None:  # the stdlib's name
        body = OVERLAY.encode()
        self.send_response(200)
        self.send_header("Content-Type", "text/html; charset=utf-8")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *args: object) -> None:
        pass


@pytest.fixture
def page_origin() -> Iterator[str]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), _Page)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{server.server_address[1]}"
    finally:
        server.shutdown()


@pytest.fixture
def browser():
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as exc:
        if os.environ.get("CI"):
            pytest.fail(f"playwright is a test dependency: {exc}")
        pytest.skip(f"playwright not installed: {exc}")
    chromium = shutil.which("chromium") or shutil.which("chromium-browser")
    with sync_playwright() as playwright:
        try:
            launched = playwright.chromium.launch(executable_path=chromium, args=["--no-sandbox"])
        except Exception as exc:  # no browser at all
            if os.environ.get("CI"):
                raise
            pytest.skip(f"no Chromium to run: {exc}")
        try:
            yield launched
        finally:
            launched.close()


def _overlay(browser, page_origin: str, api: str, fight: Fight, viewer: str):
    page = browser.new_page()
    page.goto(f"{page_origin}/?api={api}&id={fight.id}&token={viewer}")
    return page


def test_an_overlay_on_another_origin_follows_the_stream(browser, page_origin, tmp_path):
    app = create_app(db=tmp_path / "combat.db", cors_origins=[page_origin])
    with LiveServer(app) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        fight = open_fight(http)
        viewer = fight.token("viewer", "Stream overlay")
        page = _overlay(browser, page_origin, server.url, fight, viewer)
        page.wait_for_function("document.querySelectorAll('#log li').length >= 1", timeout=10_000)
        fight.do(Ruling(text="the bridge creaks"))
        page.wait_for_function("document.querySelectorAll('#log li').length >= 2", timeout=10_000)
        lines = page.locator("#log li").all_inner_texts()
        assert lines == ["1 EncounterCreated", "2 RulingMade the bridge creaks"]
        page.close()


def test_without_the_origin_named_the_browser_blocks_the_overlay(browser, page_origin, tmp_path):
    app = create_app(db=tmp_path / "combat.db")
    with LiveServer(app) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        fight = open_fight(http)
        viewer = fight.token("viewer", "Stream overlay")
        page = _overlay(browser, page_origin, server.url, fight, viewer)
        page.wait_for_function("document.body.dataset.error === 'yes'", timeout=10_000)
        assert page.locator("#log li").count() == 0
        assert http.get(fight.url(), headers=bearer(viewer)).status_code == 200  # the token itself is fine
        page.close()


def _tutorial_page() -> str:
    """The overlay of docs/tutorials/follow-a-fight.md ("In a browser"), as written there."""
    section = (DOCS / "tutorials" / "follow-a-fight.md").read_text().split("## In a browser")[1]
    return section.split("```html\n")[1].split("```")[0]


def test_the_tutorials_browser_overlay_works_as_written_with_its_origin_named(browser, tmp_path):
    """The tutorial's page, served from another origin as it says (`python -m http.server`)
    with the service started as it says (`combat serve --cors-origin ORIGIN`): it lists each
    event as it is appended. Only the tutorial's placeholders are filled in."""
    assert "combat serve --cors-origin http://127.0.0.1:8080" in (DOCS / "tutorials" / "follow-a-fight.md").read_text()
    (tmp_path / "page").mkdir()
    handler = functools.partial(SimpleHTTPRequestHandler, directory=str(tmp_path / "page"))
    handler.log_message = lambda *args: None  # type: ignore[method-assign]
    pages = ThreadingHTTPServer(("127.0.0.1", 0), handler)
    threading.Thread(target=pages.serve_forever, daemon=True).start()
    origin = f"http://127.0.0.1:{pages.server_address[1]}"
    app = create_app(db=tmp_path / "combat.db", cors_origins=[origin + "/"])  # as typed, slash and all
    try:
        with LiveServer(app) as server, httpx.Client(base_url=server.url, timeout=10) as http:
            fight = open_fight(http)
            viewer = fight.token("viewer", "overlay")
            page_text = _tutorial_page()
            for placeholder, value in (
                ("http://127.0.0.1:8000", server.url),
                ("ENCOUNTER-ID", fight.id),
                ("VIEWER-TOKEN", viewer),
            ):
                assert placeholder in page_text
                page_text = page_text.replace(placeholder, value)
            (tmp_path / "page" / "overlay.html").write_text(page_text)
            page = browser.new_page()
            page.goto(f"{origin}/overlay.html")
            page.wait_for_function("document.querySelectorAll('#log li').length >= 1", timeout=10_000)
            fight.do(Ruling(text="the bridge creaks"))
            page.wait_for_function("document.querySelectorAll('#log li').length >= 2", timeout=10_000)
            assert page.locator("#log li").all_inner_texts() == ["1 EncounterCreated", "2 RulingMade"]
            page.close()
    finally:
        pages.shutdown()


def test_the_openapi_page_renders_with_no_other_host_reachable(browser, tmp_path):
    """/schema at a table without the internet: every request to another host is refused by
    the browser, and the page still shows the API (Redoc, served by the service)."""
    with LiveServer(create_app(db=tmp_path / "combat.db")) as server:
        page = browser.new_page()
        elsewhere: list[str] = []

        def offline(route) -> None:
            if route.request.url.startswith(server.url):
                route.continue_()
            else:
                elsewhere.append(route.request.url)
                route.abort()

        page.route("**/*", offline)
        page.goto(f"{server.url}/schema")
        page.wait_for_selector("h1:has-text('combat-log')", timeout=20_000)
        assert page.get_by_text("Create an encounter", exact=False).count() >= 1
        assert page.locator("[data-section-id]").count() > 10  # the operations are listed
        # Redocly's logo under the menu is the one address in the bundle; hidden when it fails.
        assert all(url.startswith("https://cdn.redoc.ly/redoc/logo") for url in elsewhere), elsewhere
        page.close()
