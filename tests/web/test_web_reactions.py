"""A reaction window at the table, played in Debian's chromium: a goblin's hit on Elara waits for
her reaction; her player's phone offers, off her turn, exactly what the window offers her
(Shield, and Pass), the GM's board says who may react with what; one tap of Shield turns the hit
into a miss on both screens."""

from __future__ import annotations

import re
from pathlib import Path

from tests.web.helpers import SCREENSHOTS, Table, party_by_sheet

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}


def test_a_player_taps_shield_on_a_phone_and_the_gm_sees_the_hit_miss(chromium, service):
    """Shield: "which you take when you are hit by an attack roll ... Until the start of your
    next turn, you have a +5 bonus to AC, including against the triggering attack." The Goblin
    Warrior's 10 + 4 = 14 hits Elara's AC 12: the window offers her Shield; with it her AC is 17,
    the 14 misses and the 3 + 2 damage entered with the attack never lands. Issue 33: the phone
    shows "off-turn: the reactions the new windows offer and nothing else"."""
    fight = party_by_sheet(service, "Shield at the ford", 2)  # round 1: Elara 18, Brann 12, the goblins 5
    fight.do({"type": "end_turn", "combatant": "elara"})
    fight.do({"type": "end_turn", "combatant": "brann"})
    sam = fight.token("player", "Sam", ("elara",))

    gm = Table(chromium.new_page())
    gm.page.goto(f"{service.url}/app/#e={fight.id}&t={fight.gm}&role=gm")
    gm.page.locator("li.combatant.current[data-combatant='goblin-warrior-1']").wait_for()
    player = Table(chromium.new_context(**PHONE).new_page())
    phone = player.page
    phone.goto(f"{service.url}/app/#e={fight.id}&t={sam}&role=player&name=Sam&c=elara")
    phone.get_by_role("heading", name=re.compile("Your moves")).wait_for()
    # Off her turn, with no window open: nothing to send.
    phone.get_by_text("Not your turn: Goblin Warrior 1 acts now").wait_for()
    assert phone.get_by_role("group", name="commands allowed now").get_by_role("button").count() == 0

    fight.do({"type": "attack", "attacker": "goblin-warrior-1", "target": "elara", "faces": [10], "damage_faces": [3]})
    opened = fight.state()
    assert opened["phase"] == "reaction" and opened["srd_2024"]["reaction_window"]["reactors"] == {"elara": ["Shield"]}

    # The GM's board: who may react with what, one click each, Pass, and the GM's close.
    board_window = gm.page.get_by_role("region", name="Reaction window")
    board_window.get_by_text("Elara may react with Shield").wait_for()
    assert board_window.get_by_role("group", name="reactions for Elara").get_by_role("button").all_inner_texts() == [
        "Shield",
        "Pass",
    ]
    assert board_window.get_by_role("button", name=re.compile("Close the window")).count() == 1

    # The phone: exactly what the window offers her, Shield and Pass, and no close.
    offered = phone.get_by_role("region", name="Reaction window")
    offered.get_by_role("button", name="Shield", exact=True).wait_for()
    assert offered.get_by_role("group", name="reactions for Elara").get_by_role("button").all_inner_texts() == ["Shield", "Pass"]
    assert offered.get_by_role("button", name=re.compile("Close the window")).count() == 0
    moves = phone.get_by_role("group", name="commands allowed now").get_by_role("button").all_inner_texts()
    assert sorted(moves) == ["pass reaction", "react"], moves
    assert player.row("elara").locator(".quick-bar").count() == 0
    assert phone.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert player.accessibility_violations() == []
    if SCREENSHOTS:  # what the phone's screen shows, not the whole page
        phone.screenshot(path=str(Path(SCREENSHOTS) / "reaction-window-phone.png"))
    gm.shot("reaction-window-gm")

    offered.get_by_role("button", name="Shield", exact=True).tap()
    offered.wait_for(state="detached")
    [deflected] = [e for e in fight.events() if e["type"] == "AttackDeflected"]
    assert (deflected["total"], deflected["target_ac"], deflected["reaction"], deflected["actor"]) == (14, 17, "Shield", "Sam")
    state = fight.state()
    assert state["phase"] == "turns" and state["combatants"]["elara"]["hp"] == 27 and "reaction_window" not in state["srd_2024"]

    # The GM's board: the window gone, the miss told, Elara under Shield.
    board_window.wait_for(state="detached")
    gm.page.locator("section.board .outcome", has_text="misses after Shield: 14 against AC 17").wait_for()
    gm.row("elara").get_by_role("list", name="Elara's conditions").get_by_text("shield").wait_for()
    phone.locator("section.board .outcome", has_text="misses after Shield").wait_for()
    assert gm.errors == [] and player.errors == []
    phone.context.close()
    gm.page.close()
