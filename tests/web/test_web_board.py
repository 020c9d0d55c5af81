"""The board a GM reads at a glance and the player's view on a phone, in a real browser: AC,
death-save pips, a condition's duration and what ends it, spell slots and resources of a
character by sheet, goblins that rolled one initiative shown as one group, the stat-block /
character-sheet popover (Escape closes it, the focus goes back); a 360 px player page with only
that player's commands, health words for hidden monsters, and no horizontal scroll even after a
long refusal."""

from __future__ import annotations

import re

from tests.service.helpers import Fight
from tests.web.helpers import Table, party_by_sheet

GOBLINS = ("goblin-warrior-1", "goblin-warrior-2", "goblin-warrior-3")


def _party_and_goblins(service) -> Fight:
    """Elara (Sam's wizard 5) and Brann (Ana's fighter 5) by sheet, three Goblin Warriors added
    together (one initiative for the group); round 1, Elara's turn."""
    return party_by_sheet(service, "Goblins at the mill", 3)


def _open(chromium, url: str, **context) -> Table:
    table = Table(chromium.new_context(**context).new_page())
    table.page.goto(url)
    table.page.get_by_role("heading", name=re.compile("Goblins at the mill")).wait_for()
    return table


def _no_horizontal_scroll(table: Table) -> int:
    return table.page.evaluate("() => document.documentElement.scrollWidth")


def test_a_gms_board_shows_ac_death_saves_durations_slots_resources_groups_and_the_stat_block(chromium, service):
    """Hold Person on the Bandit ("Choose a Humanoid that you can see within range"): "a Wisdom
    saving throw or have the Paralyzed condition for the duration. At the end of each of its
    turns, the target repeats the save" (concentration, up to 1 minute); Brann drops to 0 HP
    and fails his first death save (a 3)."""
    fight = party_by_sheet(service, "Goblins at the mill", 3, bandit=True)
    fight.do(
        {
            "type": "cast_spell",
            "caster": "elara",
            "spell": "Hold Person",
            "targets": ["bandit"],
            "save_faces": {"bandit": [2]},
        }
    )
    fight.do(
        {
            "type": "apply_condition",
            "target": "brann",
            "custom": True,
            "condition": {"name": "blessed", "rounds": 10, "ends_on": "elara"},
        }
    )
    fight.do({"type": "end_turn", "combatant": "elara"})
    fight.do({"type": "use_resource", "combatant": "brann", "resource": "Second Wind", "faces": [5]})
    fight.do({"type": "damage", "target": "brann", "amount": 60, "damage_type": "slashing"})
    while (state := fight.state())["turn"] != "brann" or state["round"] < 2:
        fight.do({"type": "end_turn", "combatant": state["turn"]})
    fight.do({"type": "death_save", "combatant": "brann", "faces": [3]})
    fight.do(
        {
            "type": "apply_condition",
            "target": "elara",
            "custom": True,
            "condition": {"name": "shielded", "ends": "start", "ends_on": "elara"},
        }
    )

    gm = _open(chromium, f"{service.url}/app/#e={fight.id}&t={fight.gm}&role=gm", viewport={"width": 1280, "height": 900})
    elara, brann, held = gm.row("elara"), gm.row("brann"), gm.row("bandit")
    assert "AC 12" in elara.inner_text() and "AC 12" in held.inner_text()
    pips = brann.get_by_role("img", name="Brann death saves: 0 successes, 1 failure")
    assert pips.count() == 1 and pips.locator(".pip.failure.on").count() == 1
    assert (
        "paralyzed — 10 rounds, until round 11; save WIS DC 14 at end of turn; ends with Elara's concentration on Hold Person"
        in held.inner_text()
    )
    assert "blessed — 10 rounds, until round 11" in brann.inner_text()
    assert "shielded — until the start of Elara's turn" in elara.inner_text()
    assert "concentrating on Hold Person" in elara.inner_text()
    slots = elara.get_by_label("spell slots left").inner_text()
    assert "1st 4/4" in slots and "2nd 2/3" in slots and "3rd 2/2" in slots  # Hold Person took a 2nd-level slot
    assert "Second Wind 2/3" in brann.inner_text() and "Action Surge 1/1" in brann.inner_text()
    group = gm.page.locator("section.board li.init-group[data-group='goblin-warrior']")
    assert "3 × Goblin Warrior" in group.inner_text() and group.locator("li.combatant").count() == 3
    assert group.locator(".group-head .init").inner_text() == "7"
    assert gm.accessibility_violations() == []
    gm.shot("gm-board")

    # The stat block at a click; Escape closes it and the focus is back on its button.
    opener = gm.row("goblin-warrior-1").get_by_role("button", name="Stat block of Goblin Warrior 1")
    opener.click()
    dialog = gm.page.get_by_role("dialog", name="Stat block: Goblin Warrior 1")
    dialog.wait_for()
    assert "Scimitar" in dialog.inner_text() and "CR 1/4" in dialog.inner_text() and "Nimble Escape" in dialog.inner_text()
    assert gm.accessibility_violations() == []
    gm.page.keyboard.press("Escape")
    dialog.wait_for(state="detached")
    assert gm.page.evaluate("() => document.activeElement.getAttribute('aria-label')") == "Stat block of Goblin Warrior 1"

    # Elara's sheet: her numbers and what she has left; Close closes it.
    elara.get_by_role("button", name="Sheet of Elara").click()
    sheet = gm.page.get_by_role("dialog", name="Character sheet: Elara")
    assert "Level 5 Wizard 5" in sheet.inner_text() and "Slots left: 1st 4/4 · 2nd 2/3 · 3rd 2/2" in sheet.inner_text()
    assert "Fireball" in sheet.inner_text()
    sheet.get_by_role("button", name="Close").click()
    sheet.wait_for(state="detached")
    assert gm.errors == []
    gm.page.context.close()


def test_a_player_on_a_phone_sees_only_their_moves_health_words_and_no_sideways_scroll(chromium, service):
    fight = _party_and_goblins(service)
    fight.do({"type": "damage", "target": "goblin-warrior-2", "amount": 3, "damage_type": "fire"})  # 7 of 10: hurt
    fight.do({"type": "damage", "target": "goblin-warrior-3", "amount": 5, "damage_type": "fire"})  # 5 of 10: bloodied
    sam = fight.token("player", "Sam", ("elara",))
    phone = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}
    player = _open(chromium, f"{service.url}/app/#e={fight.id}&t={sam}&role=player&name=Sam&c=elara", **phone)
    page = player.page
    page.get_by_role("heading", name=re.compile("Your moves")).wait_for()
    assert _no_horizontal_scroll(player) <= 360

    words = [player.row(cid).locator(".hidden-hp").inner_text() for cid in GOBLINS]
    assert words == ["unhurt", "hurt", "bloodied"]
    assert all("HP" not in player.row(cid).inner_text() and "AC" not in player.row(cid).inner_text() for cid in GOBLINS)

    buttons = page.get_by_role("group", name="commands allowed now").get_by_role("button").all_inner_texts()
    assert {"attack", "cast spell", "end turn", "death save"} <= set(buttons)
    gm_only = {
        "set hp",
        "reveal",
        "damage",
        "heal",
        "apply condition",
        "add creature",
        "ruling",
        "goto turn",
        "save effect",
        "end combat",
    }
    assert not gm_only & set(buttons), gm_only & set(buttons)
    cast = player.open_command("cast spell")
    assert cast.get_by_label("caster (required)").locator("option").all_inner_texts() == ["elara"]
    assert cast.get_by_label("save faces").count() == 0  # only the GM enters the targets' saves
    player.open_command("cast spell")  # closes it

    # Her own sheet at a tap, and nobody else's.
    assert player.row("brann").get_by_role("button", name=re.compile("^Sheet")).count() == 0
    assert player.row("goblin-warrior-1").get_by_role("button", name=re.compile("^Stat block")).count() == 0
    player.row("elara").get_by_role("button", name="Sheet of Elara").tap()
    sheet = page.get_by_role("dialog", name="Character sheet: Elara")
    assert "Slots left" in sheet.inner_text()
    assert _no_horizontal_scroll(player) <= 360
    page.keyboard.press("Escape")
    sheet.wait_for(state="detached")

    # A long refusal wraps: the page stays 360 px wide.
    form = player.open_command("attack")
    form.get_by_label("target (required)").fill("the-goblin-behind-the-mill-wheel-" * 6)
    form.get_by_role("button", name="Send", exact=True).click()
    alert = form.get_by_role("alert")
    alert.wait_for()
    assert "Refused" in alert.inner_text() and len(alert.inner_text()) > 150
    assert _no_horizontal_scroll(player) <= 360
    assert player.accessibility_violations() == []
    player.shot("player-phone")
    assert player.errors == []
    page.context.close()


def test_the_board_shows_a_dodge_and_a_concentration_save_owed_from_the_5e_block(chromium, service):
    """Dodge: "Until the start of your next turn, any attack roll made against you has
    Disadvantage"; concentration: "Whenever you take damage while you are concentrating on a
    spell, you must make a Constitution saving throw ... The DC equals 10 or half the damage
    you take". Elara dodges; Brann, concentrating on Bless, takes 24 damage: DC 12. Both are
    kept in the 5e block of the state (`srd_2024`), which the board reads."""
    fight = _party_and_goblins(service)
    fight.do({"type": "take_action", "combatant": "elara", "action": "dodge"})
    fight.do({"type": "start_concentration", "combatant": "brann", "effect": "Bless"})
    fight.do({"type": "damage", "target": "brann", "amount": 24, "damage_type": "slashing"})
    assert "dodging" not in fight.state()["combatants"]["elara"]

    gm = _open(chromium, f"{service.url}/app/#e={fight.id}&t={fight.gm}&role=gm", viewport={"width": 1280, "height": 900})
    assert "dodging" in gm.row("elara").inner_text() and "dodging" not in gm.row("brann").inner_text()
    notice = gm.page.get_by_role("status").filter(has_text="Pending checks")
    assert "Brann: concentration save DC 12 (took 24 damage)" in notice.inner_text()
    fight.do({"type": "concentration_save", "combatant": "brann", "faces": [15]})
    notice.wait_for(state="detached")
