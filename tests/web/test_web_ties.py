"""Initiative ties reordered on the board, in a real browser: a tied row is dragged onto another
of its tie, or moved with its Earlier and Later buttons from the keyboard; either sends
order_tie, and the board shows the order the service keeps."""

from __future__ import annotations

import re

from tests.web.helpers import Table, party_by_sheet


def _board_order(table: Table) -> list[str]:
    """The board's rows top to bottom: a lone combatant's id, or a group's id."""
    return table.page.evaluate("""() => [...document.querySelectorAll('section.board ol.order > li')]
        .map((li) => li.dataset.group || li.dataset.combatant)""")


def test_the_gm_orders_a_tie_by_keyboard_and_by_dragging_until_the_rounds_begin(chromium, service):
    """SRD 5.2 Initiative: "If a tie occurs, the GM decides the order among tied monsters, and
    the players decide the order among tied characters. The GM decides the order if the tie is
    between a monster and a player character." The issue: "initiative groups shown (and ties
    reordered by dragging)"; every main action reachable by keyboard. A settled tie stays
    settled once the rounds begin (order_tie answers initiative/fixed), so the tools go."""
    fight = party_by_sheet(service, "Ties at the ford", 2, boss=True, initiative=False)
    fight.do({"type": "begin_combat"})
    # Elara 18+2 = 20; Brann 12+1 = 13; the goblins 11+2 = 13: a tie the GM decides.
    for cid, face in (("elara", 18), ("brann", 12), ("goblin-warrior-1", 11)):
        fight.do({"type": "roll_initiative", "combatant": cid, "faces": [face]})
    assert fight.state()["unresolved_ties"][0]["decided_by"] == "gm"

    gm = Table(chromium.new_context(viewport={"width": 1280, "height": 900}).new_page())
    page = gm.page
    page.goto(f"{service.url}/app/#e={fight.id}&t={fight.gm}&role=gm")
    page.get_by_role("heading", name=re.compile("Ties at the ford")).wait_for()
    notice = page.locator("section.board .notice", has_text="Unresolved ties")
    notice.filter(has_text="initiative 13: Brann vs Goblin Warrior 1 + Goblin Warrior 2 (gm decides)").wait_for()
    assert _board_order(gm)[:3] == ["elara", "brann", "goblin-warrior"]
    assert gm.row("elara").get_attribute("draggable") is None  # not tied: nothing to drag
    assert gm.row("brann").get_attribute("draggable") == "true"
    assert notice.get_by_role("button", name="Keep this order (13)").is_visible()  # settles it as listed
    assert gm.accessibility_violations() == []

    # By keyboard: Tab to Brann's Later button, Enter.
    later = page.get_by_role("button", name="Move Brann later in the tie at 13")
    later.focus()
    page.keyboard.press("Enter")
    page.wait_for_function(
        "() => document.querySelector('section.board ol.order > li:nth-child(2)')?.dataset.group === 'goblin-warrior'"
    )
    assert _board_order(gm)[:3] == ["elara", "goblin-warrior", "brann"]
    ordered = [e for e in fight.events() if e["type"] == "TieOrdered"]
    assert [(e["total"], e["order"]) for e in ordered] == [(13, ["goblin-warrior", "brann"])]
    notice.wait_for(state="detached")  # settled, though the Goblin Boss has still to roll

    # By dragging: Brann's row onto the goblins' group puts him back before them.
    gm.row("brann").drag_to(page.locator("section.board li.init-group[data-group='goblin-warrior']"))
    page.wait_for_function(
        "() => document.querySelector('section.board ol.order > li:nth-child(2)')?.dataset.combatant === 'brann'"
    )
    ordered = [e for e in fight.events() if e["type"] == "TieOrdered"]
    assert [e["order"] for e in ordered] == [["goblin-warrior", "brann"], ["brann", "goblin-warrior"]]
    assert [e["combatant"] for e in fight.state()["initiative_order"]][:4] == [
        "elara",
        "brann",
        "goblin-warrior-1",
        "goblin-warrior-2",
    ]

    # The boss rolls (1+2 = 3, no tie): round 1 begins and the tie is fixed, so no tools.
    fight.do({"type": "roll_initiative", "combatant": "goblin-boss", "faces": [1]})
    page.locator("li.combatant.current[data-combatant='elara']").wait_for()
    assert page.locator("section.board .tie-tools").count() == 0
    assert page.locator("section.board [draggable=true]").count() == 0
    assert gm.errors == []
    page.context.close()
