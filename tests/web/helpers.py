"""Helpers for the browser tests: a GM at the table screen who fills the schema-built forms by
their labels, and a party built from sheets. The fixtures (chromium, the service, a second
origin) are in conftest.py."""

from __future__ import annotations

import os
from pathlib import Path
from typing import Any

from tests.service.helpers import Fight, open_campaign

__all__ = ["Table", "fill", "SCREENSHOTS", "ELARA", "BRANN", "party_by_sheet", "CHROMIUM", "FLAGS"]

CHROMIUM = "/usr/bin/chromium"
FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
]
TIMEOUT_MS = 15_000
# `WEB_SCREENSHOTS=docs/screenshots pytest tests/web/test_web_table.py` refreshes the docs' pictures.
SCREENSHOTS = os.environ.get("WEB_SCREENSHOTS")


class Table:
    """One browser page on the table screen, used as a person at the table would."""

    def __init__(self, page: Any):
        self.page = page
        self.errors: list[str] = []
        page.set_default_timeout(TIMEOUT_MS)
        page.on("pageerror", lambda err: self.errors.append(str(err)))

    def open_command(self, name: str) -> Any:
        """Press a command's button (under "More commands" when it is not what the phase calls
        for); the form it opens."""
        button = self.page.get_by_role("group", name="commands allowed now").get_by_role("button", name=name, exact=True)
        more = self.page.locator("details.more-commands:not([open])")
        if more.get_by_role("button", name=name, exact=True, include_hidden=True).count():
            more.locator("summary").click()
        button.click()
        return self.page.get_by_role("form", name=name)

    def send(self, name: str, fields: dict[str, str], *, button: str = "Send") -> None:
        """Fill a command's form by its labels and send it; waits until the form closes (accepted)."""
        form = self.open_command(name)
        fill(form, fields)
        form.get_by_role("button", name=button, exact=True).click()
        form.wait_for(state="detached")

    def board(self) -> Any:
        return self.page.locator("section.board")

    def row(self, combatant: str) -> Any:
        return self.page.locator(f"section.board li[data-combatant='{combatant}']")

    def seq(self) -> int:
        text = self.page.locator(".live").inner_text()
        return int(text.rsplit("seq", 1)[1])

    def accessibility_violations(self) -> list[tuple[str, str, int]]:
        """axe-core's WCAG 2 A and AA rules on the page as it is now: (rule, impact, nodes)."""
        from axe_playwright_python.sync_playwright import Axe

        options = {"runOnly": {"type": "tag", "values": ["wcag2a", "wcag2aa"]}, "resultTypes": ["violations"]}
        results = Axe().run(self.page, options=options)
        return [(v["id"], v["impact"], len(v["nodes"])) for v in results.response["violations"]]

    def shot(self, name: str, **options: Any) -> None:
        if SCREENSHOTS:
            Path(SCREENSHOTS).mkdir(parents=True, exist_ok=True)
            self.page.screenshot(path=str(Path(SCREENSHOTS) / f"{name}.png"), full_page=True, **options)


def fill(form: Any, fields: dict[str, str]) -> None:
    """`{"label": value}`; a label may be scoped as "fieldset legend > label"."""
    for label, value in fields.items():
        scope = form
        if " > " in label:
            legend, label = label.split(" > ")
            scope = form.locator("fieldset", has=form.page.locator(f"legend:has-text('{legend}')")).last
        field = scope.get_by_label(label, exact=True).first
        tag = field.evaluate("e => e.tagName.toLowerCase() + (e.type ? ':' + e.type : '')")
        if tag.startswith("select"):
            field.select_option(value)
        elif tag == "input:checkbox":
            field.set_checked(value == "yes")
        else:
            field.fill(value)


# Two level 5 characters as `POST /characters/build` makes them (the board and quick-action tests).
ELARA = {
    "name": "Elara",
    "class": "Wizard",
    "level": 5,
    "scores": "STR 8 DEX 14 CON 12 INT 16 WIS 12 CHA 10",
    "weapons": ["Dagger"],
    "spells": ["Hold Person", "Magic Missile", "Shield", "Fireball"],
}
BRANN = {
    "name": "Brann",
    "class": "Fighter",
    "level": 5,
    "scores": "STR 16 DEX 12 CON 14 INT 8 WIS 10 CHA 10",
    "weapons": ["Longsword"],
}


def party_by_sheet(
    service: Any, name: str, goblins: int, *, boss: bool = False, bandit: bool = False, initiative: bool = True
) -> Fight:
    """Elara (Sam's) and Brann (Ana's) saved in a campaign of their own and added by name,
    `goblins` Goblin Warriors added together (one initiative count), a Goblin Boss if asked;
    with `initiative`, round 1 at Elara's turn (20, Brann 13, the goblins 7); a Bandit if
    asked (a Humanoid, which Hold Person holds: SRD 5.2 Goblins are Fey), at initiative 4."""
    import httpx

    http = httpx.Client(base_url=service.url, timeout=10)
    campaign = open_campaign(http, name)
    for sheet in (ELARA, BRANN):
        campaign.build(**sheet)
    fight = campaign.fight(name=name)
    fight.do({"type": "add_character", "character": "elara", "side": "party", "player": "Sam"})
    fight.do({"type": "add_character", "character": "brann", "side": "party", "player": "Ana"})
    fight.do({"type": "add_creature", "creature": "Goblin Warrior", "side": "monsters", "count": goblins})
    if boss:
        fight.do({"type": "add_creature", "creature": "Goblin Boss", "side": "monsters"})
    if bandit:
        fight.do({"type": "add_creature", "creature": "Bandit", "side": "monsters"})
    if initiative:
        fight.do({"type": "begin_combat"})
        rolls = [("elara", 18), ("brann", 12), ("goblin-warrior-1", 5)] + ([("bandit", 3)] if bandit else [])
        for cid, face in rolls:
            fight.do({"type": "roll_initiative", "combatant": cid, "faces": [face]})
    return fight
