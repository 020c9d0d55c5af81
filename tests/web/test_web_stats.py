"""The Stats view on the table screen (issue 34: "the Stats view renders in Chromium"): the
GM's charts drawn by the vendored Chart.js, served by the service (no network), with a table of
every number; a viewer's view leaves a hidden creature's numbers out."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from combat.app.application import Encounters
from combat.service import create_app
from tests.helpers import DOCS
from tests.service.helpers import LiveServer
from tests.stats.helpers import Played, play_two_fights
from tests.web.helpers import Table

SCREENSHOT = DOCS / "screenshots" / "stats-view.png"


@pytest.fixture
def played(tmp_path: Path) -> Iterator[tuple[LiveServer, Played, Any]]:
    encounters = Encounters(tmp_path / "combat.db")
    fights = play_two_fights(encounters)
    app = create_app(encounters)
    with LiveServer(app) as server:
        yield server, fights, app.state["service"].tokens
    encounters.close()


def _open(chromium: Any, url: str) -> Table:
    context = chromium.new_context(viewport={"width": 1280, "height": 900})
    context.route("**/*", lambda route: route.continue_() if route.request.url.startswith(url) else route.abort())  # offline
    return Table(context.new_page())


def _stats_shown(chromium: Any, url: str, encounter: object, token: str, role: str) -> tuple[Table, Any]:
    """The table screen of `encounter` opened with `token` as `role`, and its Stats region once shown."""
    table = _open(chromium, url)
    table.page.goto(f"{url}/app/#e={encounter}&t={token}&role={role}")
    stats = table.page.get_by_role("region", name="Stats")
    stats.get_by_role("button", name="Show stats").click()
    return table, stats


def test_the_stats_view_renders_its_charts(chromium, played):
    """Fight 1's GM opens Stats: Brann dealt 9 + 12 = 21 with 2 hits and 1 critical, Elara 48 with
    one 3rd-level slot; damage per round, by character and three rollers' d20 charts are drawn."""
    server, fights, tokens = played
    gm_token, _ = tokens.issue(fights.first, "gm", "dm")
    table, stats = _stats_shown(chromium, server.url, fights.first, gm_token, "gm")
    page = table.page
    brann = stats.locator("tr[data-stats='Brann'] td")
    brann.first.wait_for()
    assert brann.all_inner_texts()[:5] == ["21", "24", "2", "0", "1"]
    assert stats.locator("tr[data-stats='Elara'] td").all_inner_texts()[5] == "1 x level 3"
    page.wait_for_function("() => typeof window.Chart === 'function'")  # from /app/vendor: nothing else is reachable
    labels = stats.locator("canvas").evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
    assert labels[:2] == ["Damage per round, by side", "Damage by character"]
    assert [label.split(":")[0] for label in labels[2:]] == ["Brann", "Elara", "Goblin 1"]
    # Each chart drew on its canvas (some pixel is not blank).
    page.wait_for_function(
        "() => [...document.querySelectorAll('section.stats canvas')].every(c => c.width > 0 && "
        "c.getContext('2d').getImageData(0, 0, c.width, c.height).data.some(v => v !== 0))"
    )
    assert table.errors == []
    SCREENSHOT.parent.mkdir(exist_ok=True)
    stats.screenshot(path=str(SCREENSHOT))


def test_a_viewers_stats_view_leaves_hidden_numbers_out(chromium, played):
    """A viewer of fight 2 sees that Goblin 2 took damage it may not see (11, after its
    resistances, is its sheet's): "(+1 not shown)", and no chart of its d20."""
    server, fights, tokens = played
    viewer, _ = tokens.issue(fights.second, "viewer", "screen")
    _, stats = _stats_shown(chromium, server.url, fights.second, viewer, "viewer")
    goblin = stats.locator("tr[data-stats='Goblin 2'] td")
    goblin.first.wait_for()
    assert goblin.all_inner_texts()[1] == "0 (+1 not shown)"
    assert stats.get_by_text("Hidden creatures' numbers are left out.").count() == 1
    labels = stats.locator("canvas").evaluate_all("cs => cs.map(c => c.getAttribute('aria-label'))")
    assert not [label for label in labels if label.startswith("Goblin 2")]
