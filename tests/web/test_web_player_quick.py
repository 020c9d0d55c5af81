"""A player's quick actions on a phone, in a real browser: their own combatant's row offers its
attacks by name, its sheet's spells and a death save, only those the player may send now (on
that combatant's turn; a death save when one is owed), and nobody else's row offers any."""

from __future__ import annotations

import re

from tests.web.helpers import Table, fill, party_by_sheet

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def _wide(table: Table) -> int:
    return table.page.evaluate("() => document.documentElement.scrollWidth")


def test_a_players_own_row_offers_what_they_may_send_now(chromium, service):
    """The issue: "Player view for phones: only the commands this player may send now for their
    own combatants". The command reference: attack and cast_spell are sent by "GM, or the
    player of the combatant named in `caster`" (only the GM sets `save_faces`); death_save is
    "The Death Saving Throw owed at the start of the turn". SRD 5.2 Magic Missile: "three
    glowing darts ... Each dart strikes a creature of your choice ... 1d4 + 1 Force damage"."""
    fight = party_by_sheet(service, "Goblins at the ford", 2)  # round 1, Elara's turn
    sam = fight.token("player", "Sam", ("elara",))
    player = Table(chromium.new_context(**PHONE).new_page())
    page = player.page
    page.goto(f"{service.url}/app/#e={fight.id}&t={sam}&role=player&name=Sam&c=elara")
    page.get_by_role("heading", name=re.compile("Your moves")).wait_for()

    # Her turn: her attacks and her sheet's spells; no damage, heal or condition (the GM's).
    bar = player.row("elara").get_by_role("group", name="Quick actions for Elara")
    offered = bar.get_by_role("button").all_inner_texts()
    assert {"Dagger", "Dagger (thrown)", "Hold Person", "Magic Missile", "Shield", "Fireball"} <= set(offered), offered
    assert not {"damage", "heal", "condition", "death save"} & set(offered)
    assert page.locator("section.board .quick-bar").count() == 1  # Brann's and the goblins' rows offer nothing
    assert _wide(player) <= 360

    # Magic Missile, three darts at one goblin, each 1+1 = 2 force: 6 of its 10 HP.
    bar.get_by_role("button", name="Magic Missile", exact=True).tap()
    spell = player.row("elara").get_by_role("region", name="Elara casts Magic Missile")
    assert spell.get_by_label("save faces").count() == 0  # only the GM enters the targets' saves
    fill(spell, {"target ids": "goblin-warrior-1, goblin-warrior-1, goblin-warrior-1", "damage faces": "1; 1; 1"})
    assert _wide(player) <= 360
    assert player.accessibility_violations() == []
    spell.get_by_role("button", name="Send", exact=True).tap()
    spell.wait_for(state="detached")
    player.row("goblin-warrior-1").locator(".hidden-hp", has_text="bloodied").wait_for()
    assert fight.state()["combatants"]["goblin-warrior-1"]["hp"] == 4
    cast = [e for e in fight.events() if e["type"] == "SpellCast"]
    assert [(e["caster"], e["spell"], e["actor"]) for e in cast] == [("elara", "Magic Missile", "Sam")]
    page.locator("section.board .outcome", has_text="Goblin Warrior 1 takes").wait_for()

    # Not her turn: nothing to offer on her row.
    player.send("end turn", {})
    page.locator("li.combatant.current[data-combatant='brann']").wait_for()
    assert player.row("elara").locator(".quick-bar").count() == 0

    # Down at 0 HP, at the start of her next turn: a death save, and only that.
    fight.do({"type": "damage", "target": "elara", "amount": 27, "damage_type": "slashing"})
    for cid in ("brann", "goblin-warrior-1", "goblin-warrior-2"):
        fight.do({"type": "end_turn", "combatant": cid})
    page.locator("li.combatant.current[data-combatant='elara']").wait_for()
    bar.get_by_role("button", name="death save", exact=True).wait_for()
    assert bar.get_by_role("button").all_inner_texts() == ["death save"]
    bar.get_by_role("button", name="death save", exact=True).tap()
    page.wait_for_function("() => document.activeElement.id === 'qds-elara'")
    page.keyboard.type("15")
    page.keyboard.press("Enter")
    player.row("elara").get_by_role("img", name="Elara death saves: 1 success, 0 failures").wait_for()
    made = [e for e in fight.events() if e["type"] == "DeathSaveMade"]
    assert [(e["natural"], e["outcome"], e["actor"]) for e in made] == [(15, "success", "Sam")]
    assert _wide(player) <= 360
    assert player.errors == []
    page.context.close()
