"""One click per move, measured in a real browser: an attack with entered dice in at most two
clicks plus the faces (the attack by name on the attacker's row, the target), next turn in one
key, damage in one click plus the amount and Enter, the outcome in the service's words next to
the board with the touched rows flashing, the hotkeys (not while typing), and a whole attack by
keyboard alone."""

from __future__ import annotations

import re

from tests.service.helpers import Fight
from tests.web.helpers import Table, party_by_sheet

# Every press of a pointer and every key, counted by the page itself.
COUNT = """() => { window.__clicks = 0; window.__keys = [];
  if (window.__counting) return;
  window.__counting = true;
  document.addEventListener('pointerdown', () => window.__clicks++, true);
  document.addEventListener('keydown', (e) => window.__keys.push(e.key), true); }"""


def _fight(service) -> Fight:
    """Elara (wizard 5, a Dagger) and Brann (fighter 5) by sheet, two Goblin Warriors (AC 15,
    10 HP); round 1, Elara's turn (initiative 20, Brann 13, the goblins 7)."""
    return party_by_sheet(service, "Goblins at the ford", 2)


def _counted(page) -> tuple[int, list[str]]:
    return page.evaluate("() => [window.__clicks, window.__keys]")


def _focused(page, selector: str) -> None:
    """Waits until the focus is on `selector` inside an open quick action."""
    page.wait_for_function("s => document.activeElement.matches(`.quick-panel ${s}`)", arg=selector)


def test_one_click_per_move_at_the_table(chromium, service):
    fight = _fight(service)
    context = chromium.new_context(viewport={"width": 1280, "height": 720})
    gm = Table(context.new_page())
    page = gm.page
    page.goto(f"{service.url}/app/#e={fight.id}&t={fight.gm}&role=gm")
    page.get_by_role("heading", name=re.compile("Goblins at the ford")).wait_for()
    elara, goblin = gm.row("elara"), gm.row("goblin-warrior-1")
    # Each row offers its attacks by name and its sheet's spells.
    bar = elara.get_by_role("group", name="Quick actions for Elara")
    bar.wait_for()
    for name in ("Dagger", "Fireball", "Magic Missile", "damage", "heal", "condition"):
        assert bar.get_by_role("button", name=name, exact=True).count() == 1, name
    assert (
        goblin.get_by_role("group", name="Quick actions for Goblin Warrior 1").get_by_role("button", name="Scimitar").count() == 1
    )

    # An attack with entered dice: the Dagger on Elara's row, the goblin, the faces, Enter.
    page.evaluate(COUNT)
    bar.get_by_role("button", name="Dagger", exact=True).click()
    panel = elara.get_by_role("region", name="Elara attacks with Dagger")
    panel.wait_for()
    _focused(page, "input[type=radio]")  # the focus is in its first field, the target
    assert panel.evaluate("e => e.closest('li.combatant').dataset.combatant") == "elara"  # in its row, not below the board
    page.wait_for_function(
        "e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.bottom <= innerHeight + 1; }",
        arg=panel.element_handle(),
    )  # on screen, on a 1280x720 laptop
    panel.get_by_text("Goblin Warrior 1").click()
    page.wait_for_function(
        "() => document.activeElement.labels?.[0]?.textContent.startsWith('d20')"
    )  # the click moved the focus on
    gm.shot("gm-quick-attack")  # not a click nor a key
    page.keyboard.type("15")
    page.keyboard.press("Tab")
    page.keyboard.type("4")
    page.keyboard.press("Enter")
    goblin.locator(".hp-text", has_text="4/10 HP").wait_for()  # 15+5 hits AC 15; 4+2 = 6 piercing
    clicks, keys = _counted(page)
    assert clicks <= 2 and keys == ["1", "5", "Tab", "4", "Enter"], (clicks, keys)
    outcome = page.locator("section.board .outcome")
    # The outcome where the GM looks, in the service's words (the dice lines left out).
    outcome.filter(has_text="Elara attacks Goblin Warrior 1 (Dagger): 20 vs AC 15, hit, 6 piercing").wait_for()
    assert panel.count() == 0
    assert "flash" in goblin.get_attribute("class") and "flash" in elara.get_attribute("class")

    # Hotkeys do nothing while typing; next turn in one key.
    page.get_by_label("Undo the last command, because").fill("n")
    assert "Elara's turn" in page.locator("#board-title").inner_text()
    page.evaluate("() => document.activeElement.blur()")
    page.evaluate(COUNT)
    page.keyboard.press("n")
    page.locator("li.combatant.current[data-combatant='brann']").wait_for()
    assert _counted(page) == [0, ["n"]]
    outcome.filter(has_text="Elara ends the turn · Brann's turn").wait_for()

    # Damage in one click plus the amount and Enter; the type is the last attack's (piercing).
    page.evaluate(COUNT)
    goblin.get_by_role("button", name="damage", exact=True).click()
    _focused(page, "#qdamage-goblin-warrior-1-amount")
    assert goblin.get_by_label("damage type").input_value() == "piercing"
    page.keyboard.type("4")
    page.keyboard.press("Enter")
    goblin.locator(".status", has_text="dead").wait_for()
    assert _counted(page) == [1, ["4", "Enter"]]
    outcome.filter(has_text="Goblin Warrior 1 takes 4 piercing damage · Goblin Warrior 1 drops to 0 HP and dies").wait_for()

    # ? lists the hotkeys; a opens the current combatant's attack, Escape closes it; h heals.
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("?")
    assert "Next turn" in page.get_by_role("region", name="Keyboard shortcuts").inner_text()
    page.keyboard.press("Escape")
    page.get_by_role("region", name="Keyboard shortcuts").wait_for(state="detached")
    page.keyboard.press("a")
    attack = gm.row("brann").get_by_role("region", name="Brann attacks with Longsword")
    attack.wait_for()
    _focused(page, "input[type=radio]")
    page.keyboard.press("Escape")
    attack.wait_for(state="detached")
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("h")
    gm.row("brann").get_by_role("region", name="Heal Brann").wait_for()
    _focused(page, "#qheal-brann-amount")
    page.keyboard.press("Escape")

    # A whole attack by keyboard alone: a, the target's radio (arrows), Tab, faces, Enter.
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("a")
    attack.wait_for()
    _focused(page, "input[type=radio]")
    checked = page.evaluate("() => document.activeElement.value")
    assert checked == "goblin-warrior-2"  # the only goblin standing
    page.keyboard.press("Space")
    page.keyboard.press("Tab")
    page.keyboard.type("2")
    page.keyboard.press("Enter")
    outcome.filter(has_text="Brann attacks Goblin Warrior 2 (Longsword)").wait_for()
    assert "miss" in outcome.inner_text()

    # d: damage to the current combatant's last target; a death save once Brann is down.
    page.evaluate("() => document.activeElement.blur()")
    page.keyboard.press("d")
    gm.row("goblin-warrior-2").get_by_role("region", name="Damage to Goblin Warrior 2").wait_for()
    assert gm.row("goblin-warrior-2").get_by_label("damage type").input_value() == "slashing"  # the Longsword's
    page.keyboard.press("Escape")
    brann = gm.row("brann")
    brann.get_by_role("button", name="damage", exact=True).click()
    _focused(page, "#qdamage-brann-amount")
    page.keyboard.type("60")
    page.keyboard.press("Enter")
    brann.locator(".death-saves").wait_for()
    assert brann.get_by_role("button", name="death save", exact=True).count() == 0  # owed at the start of his turn
    for now in ("goblin-warrior-2", "elara", "brann"):  # n, n, n: round 2, Brann's turn
        page.evaluate("() => document.activeElement.blur()")
        page.keyboard.press("n")
        page.locator(f"li.combatant.current[data-combatant='{now}']").wait_for()
    page.evaluate(COUNT)
    brann.get_by_role("button", name="death save", exact=True).click()
    _focused(page, "#qds-brann")
    page.keyboard.type("15")
    page.keyboard.press("Enter")
    brann.get_by_role("img", name="Brann death saves: 1 success, 0 failures").wait_for()
    assert _counted(page) == [1, ["1", "5", "Enter"]]
    outcome.filter(has_text="Brann rolls 15 on a Death Saving Throw: success").wait_for()

    # The flash respects reduced motion: no animation, a steady outline instead.
    flashing = page.locator("section.board li.combatant.flash").first
    assert flashing.evaluate("e => getComputedStyle(e).animationName") != "none"
    page.emulate_media(reduced_motion="reduce")
    assert flashing.evaluate("e => getComputedStyle(e).animationName") == "none"
    page.emulate_media(reduced_motion="no-preference")

    # The spell quick action opens cast_spell's own form, prefilled by its row.
    gm.row("elara").get_by_role("button", name="Magic Missile", exact=True).click()
    spell = gm.row("elara").get_by_role("region", name="Elara casts Magic Missile")
    assert spell.get_by_label("spell (required)").input_value() == "Magic Missile"
    assert spell.get_by_label("caster (required)").input_value() == "elara"
    assert gm.accessibility_violations() == []
    spell.get_by_role("button", name="Close").click()
    spell.wait_for(state="detached")

    # Pickers by name: a condition from the SRD's list, a damage type, a spell from the sheets.
    gm.row("goblin-warrior-2").get_by_role("button", name="condition", exact=True).click()
    condition = gm.row("goblin-warrior-2").get_by_role("region", name="A condition on Goblin Warrior 2")
    assert condition.get_by_label("name (required)").get_attribute("list") == "condition-names"
    assert page.locator("datalist#condition-names option[value='paralyzed']").count() == 1
    condition.get_by_role("button", name="Close").click()
    form = gm.open_command("damage")
    assert form.get_by_label("damage type (required)").get_attribute("list") == "combatant-ids-damage_type"
    assert page.locator("datalist#combatant-ids-damage_type option[value='necrotic']").count() == 1
    assert page.locator("datalist#combatant-ids-spell option[value='Fireball']").count() == 1
    assert page.locator("datalist#combatant-ids option[value='goblin-warrior-2']").inner_text() == "Goblin Warrior 2"
    assert gm.errors == []
    context.close()


def test_the_phase_and_what_comes_next_initiative_for_every_monster_in_one_click_and_field_meanings(chromium, service):
    fight = party_by_sheet(service, "Goblins at the ford", 2, boss=True, initiative=False)
    gm = Table(chromium.new_context(viewport={"width": 1280, "height": 720}).new_page())
    page = gm.page
    page.goto(f"{service.url}/app/#e={fight.id}&t={fight.gm}&role=gm")
    phase = page.locator("section.board .phase-line")
    phase.filter(has_text="Phase: setup — add the combatants, then begin combat; next: surprise.").wait_for()
    gm.send("begin combat", {})
    phase.filter(has_text="Phase: surprise").wait_for()

    # Initiative for every monster in one click: one roll per group (the two goblins share one).
    page.get_by_role("button", name="Roll initiative for the monsters (3)").click()
    page.get_by_role("button", name=re.compile("Roll initiative for the monsters")).wait_for(state="detached")
    for cid in ("goblin-warrior-1", "goblin-warrior-2", "goblin-boss"):
        assert re.search(
            r"\d",
            gm.row(cid).locator(".init").inner_text()
            or page.locator(f"li.init-group:has(li[data-combatant='{cid}']) .group-head .init").inner_text(),
        ), cid
    assert gm.row("elara").locator(".init").inner_text() == "–"

    # Each field says what it means, from the command reference.
    form = gm.open_command("roll initiative")
    faces = form.get_by_label("faces", exact=True)
    described = faces.get_attribute("aria-describedby").split()
    assert any("dice faces rolled at the table" in page.locator(f"#{i}").inner_text() for i in described)
    assert gm.accessibility_violations() == []
    gm.open_command("roll initiative")  # closes it
    gm.send("roll initiative", {"combatant": "elara", "faces": "18"})
    gm.send("roll initiative", {"combatant": "brann", "faces": "12"})
    phase.filter(has_text="Phase: turns — each combatant acts on its turn, then Next turn").wait_for()

    # The commands the phase calls for first, the others under "More commands".
    commands = page.get_by_role("group", name="commands allowed now")
    assert commands.get_by_role("button", name="end turn", exact=True).is_visible()
    assert commands.get_by_role("button", name="attack", exact=True).is_visible()
    assert not commands.get_by_role("button", name="grant temp hp", exact=True).is_visible()
    form = gm.open_command("grant temp hp")  # opens "More commands" on the way
    assert form.is_visible()
    assert gm.errors == []
    page.context.close()
