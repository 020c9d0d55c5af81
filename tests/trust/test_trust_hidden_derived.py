"""Hidden facts by construction, round two (issue 30: "hidden facts reach players through
derived fields"). A hidden monster's numbers leaked through what is computed from them: its
rolled HP in its roll's total, its resistances in the damage it took next to the damage
rolled, its save DC, its attack's name. Each event type now declares those fields too
(`hidden`, combat/kernel/hidden.py), and every path a player reads goes through the one
Redaction (projections/redaction.py), the narrative included. Each scenario below is one leak
the issue found, read as a player at the table on every read path; its docstring says what
the player must not learn."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager

import httpx

from combat.app.catalog import ALL_EVENT_TYPES
from combat.common.commands import Damage
from combat.fivee.attack_commands import Attack, RollDamage
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn
from combat.kernel.events import AttackProfile
from combat.kernel.hidden import carries_numbers, undeclared_numbers
from combat.service import create_app
from tests.helpers import monster, pc
from tests.plugins.twenty_one import Counted
from tests.service.helpers import Fight, LiveServer, bearer, open_fight, read_events

# Every GET route under an encounter, and whether a player or viewer may read it. A new read
# route fails `test_every_read_path_of_an_encounter_is_read_by_these_scenarios` until it is
# read below (through the one Redaction) or refused to all but the GM.
PLAYER_READS = {
    "/encounters/{encounter_id:str}": ("state", "state at a seq"),
    "/encounters/{encounter_id:str}/events": ("events", "events as JSON Lines", "events after a seq"),
    "/encounters/{encounter_id:str}/log": ("log",),
    "/encounters/{encounter_id:str}/audit": ("audit",),
    "/encounters/{encounter_id:str}/stream": ("stream", "stream without the state"),
    "/encounters/{encounter_id:str}/stats": ("stats",),
}
GM_ONLY_READS = {"/encounters/{encounter_id:str}/tokens"}


@contextmanager
def _served(encounters) -> Iterator[httpx.Client]:
    with LiveServer(create_app(encounters)) as server, httpx.Client(base_url=server.url, timeout=10) as http:
        yield http


def _every_read(http: httpx.Client, fight: Fight, token: str | None, after: int) -> dict[str, str]:
    """What the reader fetches on each read path, by path: the JSON compact (a number reads
    `:78`), the narrative as its lines. `after`: the seq before the scenario's secret."""
    version = fight.state()["version"]
    reads = {
        "state": fight.get(token=token).json(),
        "state at a seq": fight.get(token=token, at=version).json(),
        "events": fight.get("/events", token=token).json(),
        "events as JSON Lines": [json.loads(x) for x in fight.get("/events", token=token, format="jsonl").text.splitlines()],
        "events after a seq": fight.get("/events", token=token, after=after).json(),
        "audit": fight.get("/audit", token=token).json(),
        "stats": fight.get("/stats", token=token).json(),
    }
    stats = fight.get("/stats", token=token)
    assert stats.status_code == 200, stats.text
    reads["stats"] = stats.json()
    for path, with_state in (("stream", "true"), ("stream without the state", "false")):
        headers = bearer(token or fight.gm)
        with http.stream("GET", fight.url("/stream"), headers=headers, params={"after": after, "state": with_state}) as reply:
            reads[path] = read_events(reply.iter_lines(), version - after)
    texts = {path: json.dumps(read, separators=(",", ":")) for path, read in reads.items()}
    texts["log"] = "\n".join(line["text"] for line in fight.get("/log", token=token).json())
    assert set(texts) == {path for paths in PLAYER_READS.values() for path in paths}
    return texts


def _leaks(texts: dict[str, str], *secrets: str | re.Pattern[str]) -> dict[str, list[str]]:
    """The paths on which any of the secrets is found, with the secrets found there."""
    found = {}
    for path, text in texts.items():
        hits = [s if isinstance(s, str) else s.pattern for s in secrets if (s in text if isinstance(s, str) else s.search(text))]
        if hits:
            found[path] = hits
    return found


def _facing(fight: Fight, *monsters) -> Fight:
    """Aria (Sam's fighter, 40 HP) and the GM's monsters, none revealed; Aria acts first."""
    fight.do(AddCombatant(combatant=pc("aria", player="Sam", max_hp=40)))
    for m in monsters:
        fight.do(AddCombatant(combatant=m))
    fight.do(BeginCombat())
    fight.do(RollInitiative(combatant="aria", faces=(20,)))
    for m in monsters:
        fight.do(RollInitiative(combatant=m.id, faces=(2,)))
    return fight


# -- by construction -------------------------------------------------------------------------


def test_every_field_that_can_carry_a_hidden_combatants_numbers_is_declared():
    """A total, a DC, an attack's name, damage rolled and taken: each registered event type says
    what a player sees of every such field (blanked with its combatant, or said aloud)."""
    assert undeclared_numbers(ALL_EVENT_TYPES) == []
    assert undeclared_numbers([Counted]) == []  # the plug-in ruleset's own event
    assert all(carries_numbers(f) for f in ("total", "opponent_total", "dc", "attack", "amount", "damage_rolled"))
    assert not carries_numbers("reason") and not carries_numbers("combatant")


def test_a_type_whose_total_is_not_declared_is_named():
    """The check fails on a type that blanks its AC but says nothing of its total."""
    from combat.kernel.events import Event
    from combat.kernel.hidden import Hidden

    class Struck(Event, frozen=True, kw_only=True):
        target: str
        total: int
        target_ac: int
        hidden = Hidden.of(target=("target_ac",))

    assert undeclared_numbers([Struck]) == ["Struck.total"]


def test_every_read_path_of_an_encounter_is_read_by_these_scenarios(encounters):
    """A read path cannot be forgotten: each GET under an encounter is one `_every_read` reads
    as the player (through the one Redaction), or one only the GM may read."""
    routes = {
        route.path
        for route in create_app(encounters).routes
        if route.path.startswith("/encounters/{encounter_id:str}") and "GET" in getattr(route, "methods", ())
    }
    assert routes == set(PLAYER_READS) | GM_ONLY_READS
    assert sum(len(paths) for paths in PLAYER_READS.values()) == 10


# -- the leaks the issue lists ------------------------------------------------------------------


def test_a_hidden_ogres_rolled_hit_points_are_not_in_its_rolls_total(encounters):
    """The GM adds an ogre from the bestiary with rolled HP, entering 9 on each of its 8d10:
    8 x 9 + 24 = 96 HP. Sam learns an ogre joined, not its 96: not in the roll's total, not in
    the narrative's "rolls for hit points", on no read path."""
    with _served(encounters) as http:
        fight = open_fight(http)
        fight.do(AddCombatant(combatant=pc("aria", player="Sam", max_hp=40)))
        after = fight.state()["version"]
        fight.do({"type": "add_creature", "creature": "Ogre", "side": "monsters", "hp": "rolled", "faces": [9] * 8})
        [ogre] = [cid for cid in fight.state()["combatants"] if cid != "aria"]
        sam = fight.token("player", "Sam", ("aria",))
        seen = _every_read(http, fight, sam, after)
        assert _leaks({p: t for p, t in seen.items() if p != "log"}, '"total":96', '"max_hp":96', '"hp":96') == {}
        assert not re.search(r"\b96\b", seen["log"]), seen["log"]
        assert f"{ogre} rolls for hit points (entered)" in seen["log"]  # before it joins: by its id
        gms = _every_read(http, fight, None, after)
        assert '"total":96' in gms["events"] and "= 96" in gms["log"]


def test_a_hidden_goblins_resistance_is_not_in_the_damage_it_takes(encounters):
    """The goblin resists slashing and fire. Aria's longsword rolls 10 (1d8+3, a 7) and the
    goblin takes 5; a fire trap rolls 8 and it takes 4. Sam hears what was rolled, as at the
    table, not what the goblin took: no amount next to the roll, no "(10 rolled)" after a 5,
    on any read path, his command's reply included."""
    with _served(encounters) as http:
        goblin = monster("goblin", max_hp=30, ac=12, resistances=("slashing", "fire"))
        fight = _facing(open_fight(http), goblin)
        after = fight.state()["version"]
        sam = fight.token("player", "Sam", ("aria",))
        reply = fight.send(Attack(attacker="aria", target="goblin", faces=(15,), damage_faces=(7,)), token=sam)
        assert reply.status_code == 200, reply.text
        fight.do(Damage(target="goblin", damage_type="fire", notation="2d4", faces=(4, 4)))
        seen = _every_read(http, fight, sam, after)
        seen["reply"] = reply.text
        assert _leaks(seen, '"damage":5', '"amount":4', "5 slashing", "(10 rolled)", "takes 4") == {}
        assert not re.search(r"resists|halved|resistance", seen["log"])
        assert "hit, 10 slashing rolled" in seen["log"] and "takes fire damage (8 rolled)" in seen["log"]
        attack = next(e for e in json.loads(seen["reply"])["events"] if e["type"] == "AttackMade")
        assert attack["damage"] is None and attack["damage_rolled"] == 10
        gm = [e for e in fight.events() if e["type"] in ("AttackMade", "DamageTaken")]
        assert [(e.get("damage", e.get("amount")), e.get("damage_rolled", e.get("rolled"))) for e in gm] == [(5, 10), (4, 8)]


def test_a_hidden_casters_save_dc_is_not_in_the_players_save(encounters):
    """The hidden shaman's curse: Aria makes a DC 17 Wisdom save (she rolls 9, +0) and, failing,
    is paralyzed, repeating the save at the end of each of her turns. Sam sees his save fail and
    the condition she bears; not the shaman's DC 17, in the save, the condition, the state or
    the narrative ("vs DC 17", "repeating a DC 17 ...")."""
    with _served(encounters) as http:
        fight = _facing(open_fight(http), monster("shaman", max_hp=20))
        after = fight.state()["version"]
        fight.do(
            {
                "type": "save_effect",
                "source": "shaman",
                "targets": ["aria"],
                "ability": "wisdom",
                "dc": 17,
                "condition": {"name": "paralyzed", "save": {"ability": "wisdom", "dc": 17}},
                "faces": {"aria": [9]},
            }
        )
        sam = fight.token("player", "Sam", ("aria",))
        seen = _every_read(http, fight, sam, after)
        assert _leaks(seen, '"dc":17', "DC 17") == {}
        save = next(e for e in json.loads(seen["events"]) if e["type"] == "SaveMade")
        assert save["dc"] is None and save["total"] == 9 and save["success"] is False and save["source"] == "shaman"
        [held] = json.loads(seen["state"])["combatants"]["aria"]["conditions"]
        assert held["name"] == "paralyzed" and held["save"] == {"ability": "wisdom", "dc": None}
        assert "Aria wisdom save: 9 - failure" in seen["log"]
        gm = _every_read(http, fight, None, after)
        assert "vs DC 17" in gm["log"] and '"dc":17' in gm["state"]


def test_a_hidden_monsters_attack_name_is_on_no_read_path(encounters):
    """The imp's Hiddenclaw (+7, 2d9+11) hits Aria on two turns: once in one step, once with its
    damage entered later. Sam hears the totals and the damage, not the name of the imp's attack: not in
    the events, the narrative, the state's damage still to roll, the stream, the audit, his
    refused command, nor his reply."""
    claw = AttackProfile(name="Hiddenclaw", bonus=7, damage="2d9+11", damage_type="piercing")
    with _served(encounters) as http:
        fight = _facing(open_fight(http), monster("imp", max_hp=40, ac=13, attacks=(claw,)))
        sam = fight.token("player", "Sam", ("aria",))
        fight.do(EndTurn(combatant="aria"), token=sam)
        after = fight.state()["version"]
        fight.do(Attack(attacker="imp", target="aria", faces=(12,), damage_faces=(1, 1)))
        fight.do(EndTurn(combatant="imp"))
        fight.do(EndTurn(combatant="aria"), token=sam)
        fight.do(Attack(attacker="imp", target="aria", faces=(13,)))  # its damage still to roll
        pending = fight.get(token=sam, at=fight.state()["version"]).text
        refused = fight.send(Attack(attacker="aria", target="imp", faces=(10,)), token=sam)
        assert refused.status_code == 409 and refused.json()["error"] == "attack/damage-pending"
        fight.do(RollDamage(attacker="imp", faces=(2, 2)))
        seen = _every_read(http, fight, sam, after)
        seen.update({"state with damage to roll": pending, "refusal": refused.text})
        assert _leaks(seen, "Hiddenclaw") == {}
        assert "Imp attacks Aria: 19 vs AC 15, hit, 13 piercing" in seen["log"]
        assert "Imp's attack deals Aria 15 piercing" in seen["log"]
        gm = _every_read(http, fight, None, after)
        assert all("Hiddenclaw" in gm[p] for p in ("events", "log", "audit", "stream"))
