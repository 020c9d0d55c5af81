"""A GM never locked out of the fight, in a real browser: the GM link shown as the secret it is,
the token remembered on this device when asked (a closed tab comes back to the fight) and
forgotten again, a page that says a token is missing and takes a pasted link, gm in Share, a
QR code of a player's link, the Reveal button, no Amend where the service can only refuse it,
and the page in dark mode with the same contrast."""

from __future__ import annotations

import re

import httpx

from tests.service.helpers import Fight, open_fight, set_the_scene
from tests.web.helpers import Table


def _fight(service) -> Fight:
    http = httpx.Client(base_url=service.url, timeout=10)
    return set_the_scene(open_fight(http, name="Goblins at the ford"))


def _open(page, service, fight: Fight) -> Table:
    table = Table(page)
    page.goto(f"{service.url}/app/#e={fight.id}&t={fight.gm}&role=gm")
    page.get_by_role("heading", name=re.compile("Goblins at the ford")).wait_for()
    return table


def _as_gm(chromium, service, fight: Fight, **options):
    """A browser context of its own (a laptop's window; `options` as new_context's) and the GM's
    table screen open in it."""
    context = chromium.new_context(viewport={"width": 1280, "height": 900}, **options)
    return context, _open(context.new_page(), service, fight)


def _gm_link(page) -> str:
    page.get_by_text("GM link: anyone with it runs this fight").click()
    return page.locator("#gm-link").input_value()


def test_the_gm_closes_the_tab_and_comes_back_through_the_remembered_token(chromium, service):
    fight = _fight(service)
    context, gm = _as_gm(chromium, service, fight)
    link = _gm_link(gm.page)
    assert f"e={fight.id}" in link and f"t={fight.gm}" in link and link.startswith(f"{service.url}/app/#")
    assert fight.gm not in gm.page.url
    gm.page.get_by_label(re.compile("^Remember on this device")).check()
    gm.page.close()

    # The tab is gone (and its sessionStorage with it); the address alone opens the fight.
    back = Table(context.new_page())
    back.page.goto(f"{service.url}/app/#e={fight.id}")
    back.page.get_by_role("heading", name=re.compile("Goblins at the ford")).wait_for()
    back.page.get_by_role("group", name="commands allowed now").wait_for()

    # Forget: the next tab has no token, says so, and the pasted GM link opens the fight.
    back.page.get_by_role("button", name="Forget on this device").click()
    assert back.page.evaluate("() => localStorage.getItem('combat-log.encounters')") == "{}"
    back.page.close()
    again = Table(context.new_page())
    again.page.goto(f"{service.url}/app/#e={fight.id}")
    again.page.get_by_role("heading", name="No token for this encounter").wait_for()
    assert fight.id in again.page.locator("main").inner_text()
    again.page.get_by_label("link or token").fill(link)
    again.page.get_by_role("button", name="Open", exact=True).click()
    again.page.get_by_role("heading", name=re.compile("Goblins at the ford")).wait_for()
    assert fight.gm not in again.page.url
    assert gm.errors == [] and back.errors == [] and again.errors == []
    context.close()


def test_without_a_remembered_token_the_page_says_so_and_takes_a_bare_token(chromium, service):
    fight = _fight(service)
    context = chromium.new_context()
    table = Table(context.new_page())
    table.page.goto(f"{service.url}/")  # GET / sends the browser on to the table screen
    assert table.page.url == f"{service.url}/app/"
    table.page.get_by_role("heading", name="New encounter").wait_for()
    table.page.goto(f"{service.url}/app/#e={fight.id}")
    table.page.get_by_role("heading", name="No token for this encounter").wait_for()
    assert table.accessibility_violations() == []
    table.page.get_by_label("link or token").fill("not-a-token")
    table.page.get_by_role("button", name="Open", exact=True).click()
    table.page.get_by_role("heading", name="The service did not take this browser's token").wait_for()
    table.page.get_by_label("link or token").fill(fight.gm)
    table.page.get_by_label("Remember on this device").check()
    table.page.get_by_role("button", name="Open", exact=True).click()
    table.page.get_by_role("heading", name=re.compile("Goblins at the ford")).wait_for()
    assert fight.id in table.page.evaluate("() => localStorage.getItem('combat-log.encounters')")
    assert table.errors == []
    context.close()


def test_share_offers_gm_and_draws_a_player_link_as_a_qr_code(chromium, service):
    fight = _fight(service)
    context, gm = _as_gm(chromium, service, fight)
    form = gm.page.get_by_role("form", name="issue a token")
    roles = form.get_by_label("role").locator("option").evaluate_all("os => os.map((o) => o.value)")
    assert roles == ["player", "viewer", "gm"]
    form.get_by_label("role").select_option("gm")
    form.get_by_label("name").fill("Jo")
    form.get_by_role("button", name="Issue token").click()
    co_gm = gm.page.locator("input.share-link[data-role='gm']")
    co_gm.wait_for()
    assert "role=gm" in co_gm.input_value() and gm.page.locator("svg.qr").count() == 0

    form.get_by_label("role").select_option("player")
    form.get_by_label("name").fill("Sam")
    form.get_by_label("aria", exact=True).check()
    form.get_by_role("button", name="Issue token").click()
    qr = gm.page.get_by_role("img", name="QR code of Sam's player link")
    qr.wait_for()
    size = int(qr.get_attribute("viewBox").split()[2])
    assert size >= 21 + 8 and (size - 8 - 17) % 4 == 0  # a QR version's side, 4n + 17, and the quiet zone
    assert len(qr.locator("path").get_attribute("d")) > 1000
    assert gm.accessibility_violations() == []
    gm.shot("gm-share-qr")
    assert gm.errors == []
    context.close()


def test_the_reveal_button_shows_a_hidden_monster_to_the_table(chromium, service):
    fight = _fight(service)
    viewer = fight.token("viewer", "Stream")
    assert fight.state(token=viewer)["combatants"]["goblin"].get("hp") is None
    context, gm = _as_gm(chromium, service, fight)
    assert gm.row("aria").get_by_role("button", name=re.compile("^Reveal")).count() == 0  # a player character is never hidden
    gm.row("goblin").get_by_role("button", name=re.compile("^Reveal")).click()
    gm.row("goblin").get_by_role("button", name=re.compile("^Reveal")).wait_for(state="detached")
    assert fight.state(token=viewer)["combatants"]["goblin"]["hp"] == 7
    assert gm.errors == []
    context.close()


def test_amend_is_offered_on_rulings_but_not_on_an_undo(chromium, service):
    fight = _fight(service)
    context, gm = _as_gm(chromium, service, fight)
    gm.send("ruling", {"text (required)": "the river rises"})
    gm.page.get_by_label("Undo the last command, because").fill("said too soon")
    gm.page.get_by_role("button", name="Undo", exact=True).click()
    gm.page.locator("section.history li.group.retracted", has_text="the river rises").wait_for()
    undo = gm.page.locator("section.history li.group").first  # the newest: the undo
    undo.get_by_role("button", name=re.compile("^Retract seq")).wait_for()
    assert undo.get_by_role("button", name=re.compile("^Amend seq")).count() == 0
    initiative = gm.page.locator("section.history li.group:not(.retracted)", has_text="initiative").first
    assert initiative.get_by_role("button", name=re.compile("^Amend seq")).count() == 1
    assert gm.errors == []
    context.close()


def test_dark_mode_keeps_the_contrast(chromium, service):
    fight = _fight(service)
    context, gm = _as_gm(chromium, service, fight, color_scheme="dark")
    gm.send("ruling", {"text (required)": "night falls"})
    _gm_link(gm.page)
    background = gm.page.evaluate("() => getComputedStyle(document.body).backgroundColor")
    assert background == "rgb(19, 21, 24)"
    assert gm.accessibility_violations() == []
    gm.shot("gm-view-dark")
    assert gm.errors == []
    context.close()
