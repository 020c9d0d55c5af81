"""Hidden information (issue 14, finding 12: "A viewer token sees every monster's HP, AC and
attacks"). Players and viewers see the HP, AC, attacks and hidden conditions only of player
characters, their own combatants and what the GM revealed (a `reveal` command, an event);
the GM sees everything, on every read path: state, events, stream, log, audit, export."""

from __future__ import annotations

import json

import httpx
import pytest

from combat.common.commands import ApplyCondition
from combat.fivee.attack_commands import Attack
from combat.kernel.commands import EndTurn, Reveal
from combat.kernel.events import ConditionSpec
from tests.service.helpers import LiveServer, bearer, open_fight, read_events, set_the_scene

SECRET = ConditionSpec(name="poisoned", source="the GM's trap", hidden=True)


def _scene(client):
    fight = set_the_scene(open_fight(client))
    fight.do(ApplyCondition(target="goblin", condition=SECRET))
    return fight


def test_a_viewer_does_not_see_the_goblins_hp_ac_attacks_or_hidden_condition(client):
    fight = _scene(client)
    viewer = fight.token("viewer", "Table display")
    goblin = fight.get(token=viewer).json()["combatants"]["goblin"]
    assert goblin["name"] == "Goblin" and goblin["status"] == "active"
    assert not {"hp", "max_hp", "ac", "attacks", "con_save"} & set(goblin)
    assert goblin["conditions"] == []
    aria = fight.get(token=viewer).json()["combatants"]["aria"]  # a player character: on the table
    assert aria["hp"] == 30 and aria["ac"] == 15
    gm_goblin = fight.state()["combatants"]["goblin"]
    assert gm_goblin["hp"] == 7 and gm_goblin["ac"] == 15 and gm_goblin["conditions"][0]["name"] == "poisoned"


def test_the_log_events_and_audit_leave_them_out_too(client):
    fight = _scene(client)
    sam = fight.token("player", "Sam", ("aria",))
    fight.do(Attack(attacker="aria", target="goblin", faces=(12,), damage_faces=(2,)), token=sam)
    events = fight.get("/events", token=sam).json()
    added = next(e for e in events if e["type"] == "CombatantAdded" and e["combatant"]["id"] == "goblin")
    assert added["combatant"]["max_hp"] is None and added["combatant"]["ac"] is None and added["combatant"]["attacks"] == []
    attack = next(e for e in events if e["type"] == "AttackMade")
    assert attack["target_ac"] is None and attack["hit"] is True
    condition = next(e for e in events if e["type"] == "ConditionApplied")
    assert condition["condition"]["name"] == "a hidden condition"
    jsonl = fight.get("/events", token=sam, format="jsonl").text
    assert "poisoned" not in jsonl and '"target_ac":15' not in jsonl
    log = [line["text"] for line in fight.get("/log", token=sam).json()]
    assert "Goblin joins the monsters side (monster)" in log
    attack_line = next(line for line in log if "Aria attacks Goblin" in line)
    assert "AC" not in attack_line and "hit, 5 slashing rolled" in attack_line
    assert not any("poisoned" in line for line in log)
    audit = json.dumps(fight.get("/audit", token=sam).json())
    assert "poisoned" not in audit and "7/7 HP" not in audit
    gm_log = " ".join(line["text"] for line in fight.get("/log").json())
    assert "Goblin joins the monsters side (monster, 7/7 HP, AC 15)" in gm_log and "vs AC 15" in gm_log


def test_the_goblins_own_rolls_do_not_give_its_bonus_away(client):
    fight = _scene(client)
    viewer = fight.token("viewer", "Table display")
    fight.do(Attack(attacker="aria", target="goblin", faces=(1,)))
    fight.do(EndTurn(combatant="aria"))
    fight.do(EndTurn(combatant="brom"))
    fight.do(Attack(attacker="goblin", target="aria", faces=(10, 12), damage_faces=(3,)))  # poisoned: Disadvantage
    events = fight.get("/events", token=viewer).json()
    rolls = [e for e in events if e["type"] == "DiceRolled" and e["roller"] == "goblin"]
    assert rolls and all(r["notation"] is None and r["dice"] == [] and r["total"] is None for r in rolls)
    # the attack's total is said aloud at the table: its AttackMade says it, not its roll (a roll's
    # total may be its rolled HP)
    assert [e["total"] for e in events if e["type"] == "AttackMade" and e["attacker"] == "goblin"] == [14]
    assert "2d20kl1+4" in fight.get("/events").text


def test_the_gm_reveals_a_side_and_then_everyone_sees_it(client):
    fight = _scene(client)
    viewer = fight.token("viewer", "Table display")
    fight.rejects(fight.send(Reveal(sides=("monsters",)), token=fight.token("player", "Sam", ("aria",))), 403, "auth/gm-command")
    done = fight.do(Reveal(sides=("monsters",)))
    assert done["events"][-1]["type"] == "Revealed"
    goblin = fight.get(token=viewer).json()["combatants"]["goblin"]
    assert goblin["hp"] == 7 and goblin["ac"] == 15 and goblin["conditions"][0]["name"] == "poisoned"
    fight.rejects(fight.send(Reveal(sides=("dragons",))), 409, "reveal/unknown")


def test_the_stream_leaves_them_out_for_a_viewer(encounters):
    from combat.service import create_app

    with LiveServer(create_app(encounters)) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        fight = _scene(http)
        viewer = fight.token("viewer", "Table display")
        with http.stream("GET", fight.url("/stream"), headers=bearer(viewer)) as reply:
            messages = read_events(reply.iter_lines(), fight.state()["version"])
    goblin = messages[-1]["data"]["state"]["combatants"]["goblin"]
    assert "hp" not in goblin and "ac" not in goblin
    added = next(
        m["data"]["event"]
        for m in messages
        if m["data"]["event"]["type"] == "CombatantAdded" and m["data"]["event"]["combatant"]["id"] == "goblin"
    )
    assert added["combatant"]["ac"] is None


class _Reader:
    def __init__(self, role: str, combatants: frozenset[str] = frozenset()):
        self.role, self.combatants = role, combatants


@pytest.mark.parametrize("ruleset", ["srd-2024", "srd-2024-variant", "a5e", "declared-d10", "segments-1e"])
def test_no_read_path_of_any_ruleset_shows_an_unrevealed_monsters_numbers(tmp_path, ruleset):
    """Each ruleset's whole demo fight, read as a viewer: no monster's HP, AC, attacks, roll
    notation or stat notes anywhere in the state, the events or the narrative."""
    from combat.app.application import Encounters
    from combat.app.interchange import to_line
    from combat.demos import get_demo
    from projections.narrative import narrate
    from projections.redaction import HIDDEN_STATS, Redaction
    from projections.state import state_view

    encounters = Encounters(tmp_path / "c.db")
    try:
        eid = get_demo(ruleset)(encounters, seed=4, report=lambda outcome: None)
        state = encounters.state(eid)
        records = list(encounters.records(eid))
    finally:
        encounters.close()
    shown = Redaction(state, _Reader("viewer"))
    monsters = {cid for cid, c in state.combatants.items() if c.kind != "pc"}
    assert monsters
    view = shown.view(state_view(state))
    for cid in monsters:
        assert not set(HIDDEN_STATS) & set(view["combatants"][cid]), cid
        for block in view.values():
            if isinstance(block, dict):
                assert cid not in (block.get("traits") or {})
                assert cid not in ((block.get("monsters") or {}).get("sheets") or {})
    for rec in shown.records(records):
        line = json.loads(to_line(rec))
        spec = line.get("combatant") if isinstance(line.get("combatant"), dict) else line.get("creature")
        if isinstance(spec, dict) and spec["id"] in monsters:
            assert spec.get("ac") is None and spec.get("hp") is None and not spec.get("attacks"), line
        if line["type"] == "StatBlockAttached" and line["combatant"] in monsters:
            assert line["stat_block"] is None, line
        if line["type"] == "DiceRolled" and line["roller"] in monsters:
            assert line["notation"] is None and line["dice"] == [], line
        if line.get("target") in monsters and "target_ac" in line:
            assert line["target_ac"] is None, line
    lines = list(narrate(list(shown.records(records))))
    names = {state.combatants[cid].name for cid in monsters}
    assert not [
        line
        for line in lines
        if " joins the " in line and " HP" in line and any(line.removeprefix("Round 0 - ").startswith(n) for n in names)
    ]
    # The GM reads everything as it is.
    assert Redaction(state, _Reader("gm")).view(state_view(state)) == state_view(state)
