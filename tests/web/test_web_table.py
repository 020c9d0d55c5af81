"""The table screen in a real browser: a GM plays a short fight through the GM view, a player
follows on a second browser context, and a stream overlay on another origin follows live."""

from __future__ import annotations

import re

import httpx

from tests.web.helpers import Table, fill

ARIA = {
    "combatant > id (required)": "aria",
    "combatant > name (required)": "Aria",
    "combatant > kind (required)": "pc",
    "combatant > side (required)": "party",
    "combatant > max hp (required)": "30",
    "combatant > ac (required)": "15",
    "combatant > player": "Sam",
}
LONGSWORD = {
    "attacks 1 > name (required)": "Longsword",
    "attacks 1 > bonus (required)": "5",
    "attacks 1 > damage (required)": "1d8+3",
    "attacks 1 > damage type (required)": "slashing",
}


def _add_by_hand(table: Table, who: dict[str, str], attack: dict[str, str]) -> None:
    form = table.open_command("add combatant")
    fill(form, who)
    form.get_by_role("button", name="Add attacks").click()
    fill(form, attack)
    form.get_by_role("button", name="Send", exact=True).click()
    form.wait_for(state="detached")


def _add_goblin(table: Table) -> int:
    """A goblin by its bestiary name (the form suggests the names GET /bestiary lists); its HP."""
    form = table.open_command("add creature")
    assert table.page.locator("datalist#combatant-ids-creature option[value='Goblin Warrior']").count() == 1
    assert form.get_by_label("creature (required)").get_attribute("list") == "combatant-ids-creature"
    fill(form, {"creature (required)": "Goblin Warrior", "side (required)": "monsters", "id prefix": "goblin"})
    form.get_by_role("button", name="Send", exact=True).click()
    form.wait_for(state="detached")
    return 10  # 'Goblin Warrior ... AC 15 ... HP 10 (3d6) ... Scimitar. Melee Attack Roll: +4 ... 5 (1d6 + 2)'


def _issue(table: Table, role: str, name: str, combatants: tuple[str, ...] = ()) -> str:
    form = table.page.get_by_role("form", name="issue a token")
    form.get_by_label("role").select_option(role)
    form.get_by_label("name").fill(name)
    for cid in combatants:
        form.get_by_label(cid, exact=True).check()
    form.get_by_role("button", name="Issue token").click()
    link = table.page.locator(f"input.share-link[data-role='{role}']").last
    link.wait_for()
    return link.input_value()


def _history_group(table: Table, text: str):
    return table.page.locator("section.history li.group:not(.retracted)", has_text=text).first


def test_a_gm_plays_a_short_fight_and_a_player_and_an_overlay_follow(chromium, service):
    """'On a hit, you roll damage' (1d8+3: a 1 entered is 4, an 8 is 11 and drops the SRD's
    Goblin Warrior, 10 HP); an undo retracts the attack and gives it back; an amended ruling re-checks what
    came after it, and the GM lets the goblin's later deeds stand by a ruling."""
    gm_context = chromium.new_context(viewport={"width": 1280, "height": 900})
    gm = Table(gm_context.new_page())
    page = gm.page
    page.goto(f"{service.url}/app/")
    page.get_by_label("name (required)").fill("Goblin ambush")
    page.get_by_label("dice seed (optional)").fill("7")
    page.get_by_role("button", name="Create encounter").click()
    page.get_by_role("heading", name=re.compile("Goblin ambush")).wait_for()
    encounter_id = page.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('e')")
    assert "&t=" not in page.url and "#t=" not in page.url  # the token is in sessionStorage, not the address bar

    _add_by_hand(gm, ARIA, LONGSWORD)
    hp = _add_goblin(gm)
    full, hurt = f"{hp}/{hp} HP", f"{hp - 4}/{hp} HP"
    assert gm.row("aria").is_visible() and gm.row("goblin").is_visible()
    assert full in gm.row("goblin").inner_text()

    gm.send("begin combat", {})
    gm.send("roll initiative", {"combatant": "aria", "faces": "18"})
    gm.send("roll initiative", {"combatant": "goblin", "faces": "5"})
    page.locator("li.combatant.current[data-combatant='aria']").wait_for()
    assert "Round 1" in gm.board().inner_text()
    gm.shot("gm-view")
    assert gm.accessibility_violations() == []

    # A player (Sam, Aria) sees forms for Aria only and none of the goblin's HP.
    player_link = _issue(gm, "player", "Sam", ("aria",))
    player_context = chromium.new_context(viewport={"width": 390, "height": 844}, is_mobile=True, has_touch=True)
    player = Table(player_context.new_page())
    player.page.goto(player_link)
    player.page.get_by_role("heading", name=re.compile("Your moves")).wait_for()
    assert player_link.split("&t=")[1].split("&")[0] not in player.page.url
    goblin_row = player.row("goblin").inner_text()
    assert "HP" not in goblin_row and f"/{hp}" not in goblin_row
    assert "unhurt" in goblin_row and "hidden" not in goblin_row  # the service's word for a hidden creature
    assert "30/30 HP" in player.row("aria").inner_text()
    buttons = player.page.get_by_role("group", name="commands allowed now").get_by_role("button").all_inner_texts()
    assert "attack" in buttons and "end turn" in buttons
    assert "add combatant" not in buttons and "ruling" not in buttons and "damage" not in buttons
    form = player.open_command("attack")
    assert form.get_by_label("attacker (required)").locator("option").all_inner_texts() == ["aria"]
    # What the player is typing survives the GM's moves arriving over the stream.
    form.get_by_label("target (required)").fill("goblin")
    gm.send("ruling", {"text (required)": "the goblin snarls"})
    player.page.locator("section.history", has_text="the goblin snarls").wait_for()
    assert form.get_by_label("target (required)").input_value() == "goblin"
    assert player.page.get_by_role("form", name="issue a token").count() == 0
    assert player.page.get_by_role("button", name="Undo").count() == 0
    player.shot("player-view")
    assert player.accessibility_violations() == []

    # An attack with entered faces: 15+5 hits AC 15, 1+3 = 4 damage.
    gm.send("attack", {"target (required)": "goblin", "faces": "15", "damage faces": "1"})
    page.locator("li[data-combatant='goblin'] .hp-text", has_text=hurt).wait_for()

    # A wrong command is refused next to its form, saying what is allowed; nothing is appended.
    before = gm.seq()
    form = gm.open_command("attack")
    fill(form, {"target (required)": "nobody", "faces": "15", "damage faces": "1"})
    form.get_by_role("button", name="Send", exact=True).click()
    alert = form.get_by_role("alert")
    alert.wait_for()
    assert "Refused" in alert.inner_text() and "Allowed" in alert.inner_text()
    assert gm.seq() == before
    gm.open_command("attack")  # closes it again

    # Undo: the attack is retracted and the goblin has its HP back.
    page.get_by_label("Undo the last command, because").fill("the goblin was behind the door")
    page.get_by_role("button", name="Undo", exact=True).click()
    page.locator("li[data-combatant='goblin'] .hp-text", has_text=full).wait_for()
    page.locator("section.history li.group.retracted", has_text="Aria attacks").wait_for()

    # Again, then the goblin's turn: it strikes back.
    gm.send("attack", {"target (required)": "goblin", "faces": "15", "damage faces": "1"})
    page.locator("li[data-combatant='goblin'] .hp-text", has_text=hurt).wait_for()
    gm.send("end turn", {})
    page.locator("li.combatant.current[data-combatant='goblin']").wait_for()
    gm.send("attack", {"target (required)": "aria", "faces": "14", "damage faces": "3"})
    page.locator("li[data-combatant='aria'] .hp-text", has_text="25/30 HP").wait_for()

    # Amend Aria's attack in the same form, prefilled from the log: an 8 on the damage die.
    group = _history_group(gm, "Aria attacks")
    group.get_by_role("button", name=re.compile("^Amend seq")).click()
    amend = group.get_by_role("form", name="attack")
    assert amend.get_by_label("faces", exact=True).input_value() == "15"
    assert amend.get_by_label("target (required)").input_value() == "goblin"
    fill(amend, {"damage faces": "8", "reason for the amendment (required)": "it was an 8, not a 1"})
    amend.get_by_role("button", name="Amend", exact=True).click()
    page.locator("li[data-combatant='goblin'] .status", has_text="dead").wait_for()

    # The goblin's later deeds no longer fit: highlighted with their events, then overridden.
    conflicts = page.locator("section.history li.group.conflict")
    conflicts.first.wait_for()
    assert "Goblin" in page.locator("section.history .problem").first.inner_text()
    conflicts.first.scroll_into_view_if_needed()
    gm.shot("gm-history-conflict")
    assert gm.accessibility_violations() == []
    while open_conflicts := conflicts.count():
        conflicted = conflicts.first
        conflicted.get_by_role("button", name="Override conflict").click()
        conflicted.get_by_label("ruling: why these events stand").fill("the goblin struck as it fell")
        conflicted.get_by_role("button", name="Let it stand").click()
        page.wait_for_function("n => document.querySelectorAll('li.group.conflict').length < n", arg=open_conflicts)
    assert page.locator("section.history p.conflicts").count() == 0

    # The overlay follows the stream with a viewer token.
    viewer_link = _issue(gm, "viewer", "Stream")
    overlay_context = chromium.new_context(viewport={"width": 900, "height": 120})
    overlay = Table(overlay_context.new_page())
    overlay.page.goto(viewer_link)
    strip = overlay.page.locator("ol.strip")
    strip.wait_for()
    version = int(strip.get_attribute("data-version"))
    gm.send("ruling", {"text (required)": "the rain gets heavier"})
    overlay.page.wait_for_function("v => Number(document.querySelector('ol.strip').dataset.version) > v", arg=version)
    assert "Aria" in strip.inner_text() and f"/{hp}" not in strip.inner_text()
    overlay.shot("overlay", omit_background=True)  # transparent, as a streaming tool shows it
    assert overlay.accessibility_violations() == []
    # The player's page followed the whole fight.
    player.page.locator("section.history", has_text="the rain gets heavier").wait_for()
    assert "dead" in player.row("goblin").inner_text() and "HP" not in player.row("goblin").inner_text()
    assert "25/30 HP" in player.row("aria").inner_text()

    # Time travel: the board as it stood before the first attack (read-only), then a fork.
    first_attack = page.locator("section.history li.group", has_text="Aria rolls 1d20+5 for attack").last
    at = int(first_attack.get_attribute("data-seq")) - 1
    page.locator("#scrub").fill(str(at))
    page.get_by_role("status").filter(has_text=f"after seq {at}").wait_for()
    page.locator("li[data-combatant='goblin'] .hp-text", has_text=full).wait_for()
    assert page.get_by_role("group", name="commands allowed now").count() == 0
    page.get_by_role("button", name=f"Fork from seq {at}").click()
    page.get_by_role("heading", name=re.compile("what if")).wait_for()
    fork_id = page.evaluate("() => new URLSearchParams(location.hash.slice(1)).get('e')")
    assert fork_id != encounter_id
    assert full in gm.row("goblin").inner_text() and gm.seq() >= 1

    # In the what-if, the GM lets the service roll: the same form, dice left out.
    form = gm.open_command("attack")
    fill(form, {"target (required)": "goblin", "faces": "20", "damage faces": "8"})
    form.get_by_role("button", name="Roll for me").click()
    form.wait_for(state="detached")
    rolled = page.locator("section.history li.group", has_text="Aria rolls 1d20+5 for attack").first
    rolled.wait_for()
    assert "(entered)" not in rolled.inner_text()

    # The original is untouched by the fork, read over the API as a tool would.
    with httpx.Client(base_url=service.url) as http:
        token = page.evaluate(f"() => JSON.parse(sessionStorage.getItem('combat-log.encounters'))['{encounter_id}'].token")
        state = http.get(f"/encounters/{encounter_id}", headers={"Authorization": f"Bearer {token}"}).json()
    assert state["combatants"]["goblin"]["status"] == "dead" and state["conflicts"] == []
    assert gm.errors == [] and player.errors == [] and overlay.errors == []
    for context in (gm_context, player_context, overlay_context):
        context.close()
