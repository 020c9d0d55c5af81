"""The HTTP API in-process: a GM runs a fight with curl-like requests and reads it back."""

from __future__ import annotations

import json
import uuid

import msgspec

from combat.app.interchange import to_line
from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack
from combat.kernel.commands import EndTurn, Ruling
from projections.narrative import narrate
from projections.state import state_view
from tests.service.helpers import bearer, open_fight, set_the_scene


def test_creating_an_encounter_returns_its_id_and_a_gm_token(client, encounters):
    reply = client.post("/encounters", json={"ruleset": "srd-2024", "name": "Goblin ambush", "seed": 7})
    assert reply.status_code == 201
    opened = reply.json()
    assert opened["ruleset"] == "srd-2024" and opened["name"] == "Goblin ambush" and opened["version"] == 1
    assert len(opened["gm_token"]) >= 40
    assert encounters.state(uuid.UUID(opened["id"])).seed == 7


def test_a_gm_runs_an_attack_and_the_reply_holds_the_events_and_the_new_version(client):
    """'On a hit, you roll damage': 1d8+3 with a 5 entered is 8, the goblin (7 HP) drops."""
    fight = set_the_scene(open_fight(client))
    done = fight.do(Attack(attacker="aria", target="goblin", faces=(12,), damage_faces=(5,)))
    types = [e["type"] for e in done["events"]]
    assert "AttackMade" in types and "CombatEnded" in types
    attack = next(e for e in done["events"] if e["type"] == "AttackMade")
    assert attack["hit"] and attack["damage"] == 8 and attack["actor"] == "gm"
    assert done["version"] == done["events"][-1]["seq"] and "state" not in done
    assert fight.state()["combatants"]["goblin"]["hp"] == 0


def test_a_command_sent_with_state_true_also_has_the_state_after_it(client):
    """'On a hit, you roll damage': 1d8+3 with a 5 entered is 8, the goblin (7 HP) drops;
    the reply asked for with ?state=true carries the state GET gives after it."""
    fight = set_the_scene(open_fight(client))
    reply = client.post(
        fight.url("/commands"),
        params={"state": "true"},
        headers=bearer(fight.gm),
        json={"command": {"type": "attack", "attacker": "aria", "target": "goblin", "faces": [12], "damage_faces": [5]}},
    )
    done = reply.json()
    assert reply.status_code == 200, reply.text
    assert done["state"]["combatants"]["goblin"]["hp"] == 0
    assert done["state"]["phase"] == "ended" and done["version"] == done["events"][-1]["seq"]
    assert done["state"] == fight.state()
    undone = client.post(
        fight.url("/undo"), params={"state": "true"}, headers=bearer(fight.gm), json={"reason": "the goblin ducked"}
    ).json()
    assert undone["state"]["combatants"]["goblin"]["hp"] == 7 and undone["state"] == fight.state()
    fight.rejects(
        client.post(
            fight.url("/commands"),
            params={"state": "yes"},
            headers=bearer(fight.gm),
            json={"command": {"type": "ruling", "text": "no"}},
        ),
        400,
        "request/bad-parameter",
    )


def test_the_state_is_the_projection_of_the_log(client, encounters):
    fight = set_the_scene(open_fight(client))
    fight.do(Move(combatant="aria", feet=10))
    expected = state_view(encounters.state(uuid.UUID(fight.id)))
    assert fight.state() == msgspec.json.decode(msgspec.json.encode(expected))
    assert fight.state()["turn"] == "aria" and fight.state()["commands"]


def test_time_travel_shows_the_state_as_it_was_at_a_seq(client):
    fight = set_the_scene(open_fight(client))
    before = fight.state()
    fight.do(Move(combatant="aria", feet=10))
    fight.do(EndTurn(combatant="aria"))
    assert fight.state()["turn"] == "brom"
    assert fight.state(at=before["version"]) == before
    assert fight.state(at=1)["combatants"] == {} and fight.state(at=1)["phase"] == "setup"


def test_the_events_come_as_json_or_as_the_jsonl_export_and_after_a_seq(client, encounters):
    fight = set_the_scene(open_fight(client))
    records = list(encounters.records(uuid.UUID(fight.id)))
    export = b"".join(to_line(r) + b"\n" for r in records)
    assert fight.events() == [msgspec.json.decode(line) for line in export.splitlines()]
    jsonl = fight.get("/events", format="jsonl")
    assert jsonl.headers["content-type"].startswith("application/x-ndjson") and jsonl.content == export
    by_accept = fight.http.get(
        fight.url("/events"), headers={"Authorization": f"Bearer {fight.gm}", "Accept": "application/x-ndjson"}
    )
    assert by_accept.content == export
    assert [e["seq"] for e in fight.get("/events", after=5).json()] == list(range(6, len(records) + 1))
    assert [e["seq"] for e in fight.get("/events", after=5, limit=2).json()] == [6, 7]


def test_the_narrative_log_has_one_line_per_event(client, encounters):
    fight = set_the_scene(open_fight(client))
    fight.do(Ruling(text="the goblin is behind a tree"))
    lines = fight.get("/log").json()
    records = list(encounters.records(uuid.UUID(fight.id)))
    assert lines == [{"seq": r.seq, "text": t} for r, t in zip(records, narrate(records))]
    assert lines[-1]["text"].endswith("GM ruling: the goblin is behind a tree")


def test_the_rulesets_are_listed_with_their_phases_and_commands(client):
    rulesets = client.get("/rulesets").json()
    srd = next(r for r in rulesets if r["id"] == "srd-2024")
    assert srd["initial"] == "setup" and "turns" in srd["phases"]
    assert "attack" in srd["commands"]["turns"] and "attack" not in srd["commands"]["setup"]


def test_health_says_ok_and_which_store(client):
    assert client.get("/health").json() == {"status": "ok", "store": "sqlite"}


def test_the_openapi_document_and_the_json_schemas_are_published(client):
    document = client.get("/schema/openapi.json").json()
    assert document["openapi"].startswith("3.1")
    for path in (
        "/encounters",
        "/encounters/{encounter_id}/tokens",
        "/encounters/{encounter_id}/commands",
        "/encounters/{encounter_id}",
        "/encounters/{encounter_id}/events",
        "/encounters/{encounter_id}/log",
        "/encounters/{encounter_id}/audit",
        "/encounters/{encounter_id}/stream",
        "/rulesets",
        "/health",
    ):
        assert path in document["paths"], path
    commands = client.get("/schemas/commands/srd-2024").json()
    assert {"$ref": "#/$defs/Attack"} in commands["oneOf"]
    assert commands["$defs"]["AddCreature"]["properties"]["count"]["default"] == 1
    first_edition = client.get("/schemas/commands/segments-1e").json()
    assert first_edition["$defs"]["AddCreature"]["properties"]["creature"] == {"$ref": "#/$defs/CreatureStats"}
    assert client.get("/schemas/commands/chess").json()["error"] == "ruleset/unknown"
    assert client.get("/schema").status_code == 200
    events = client.get("/schemas/events").json()
    assert {"$ref": "#/$defs/AttackMade"} in events["oneOf"]
    state = client.get("/schemas/state").json()
    assert "initiative_order" in state["$defs"]["Srd2024StateView"]["properties"]
    stream = client.get("/schemas/stream").json()
    assert stream["required"] == ["event"]


def test_the_gm_undoes_the_last_command_and_redoes_it(client):
    fight = set_the_scene(open_fight(client))
    fight.do(Move(combatant="aria", feet=10))
    assert fight.state()["combatants"]["aria"]["economy"]["moved"] == 10
    undone = client.post(
        fight.url("/undo"), json={"reason": "she meant to stay put"}, headers={"Authorization": f"Bearer {fight.gm}"}
    )
    assert undone.status_code == 200, undone.text
    assert undone.json()["events"][0]["type"] == "EventsRetracted"
    assert fight.state()["combatants"]["aria"]["economy"]["moved"] == 0
    redone = client.post(
        fight.url("/undo"), json={"reason": "she did move after all"}, headers={"Authorization": f"Bearer {fight.gm}"}
    )
    assert redone.status_code == 200 and fight.state()["combatants"]["aria"]["economy"]["moved"] == 10


def test_the_gm_retracts_amends_and_forks_and_the_audit_lists_it_all(client):
    fight = set_the_scene(open_fight(client))
    ruled = fight.do(Ruling(text="the goblin has half cover"))["version"]
    gm = {"Authorization": f"Bearer {fight.gm}"}
    amended = client.post(
        fight.url("/amend"),
        headers=gm,
        json={
            "seqs": [ruled],
            "command": {"type": "ruling", "text": "the goblin has three-quarters cover"},
            "reason": "the tree is wider than I said",
        },
    )
    assert amended.status_code == 200, amended.text
    assert [e["type"] for e in amended.json()["events"]] == ["RulingAmended", "RulingMade"]
    moved = fight.do(Move(combatant="aria", feet=5))["version"]
    retracted = client.post(fight.url("/retract"), headers=gm, json={"seqs": [moved], "reason": "misclick"})
    assert retracted.status_code == 200, retracted.text
    forked = client.post(fight.url("/fork"), headers=gm, json={"at": ruled, "name": "what if no cover"})
    assert forked.status_code == 201, forked.text
    branch = forked.json()
    assert branch["name"] == "what if no cover" and branch["id"] != fight.id
    branch_state = client.get(f"/encounters/{branch['id']}", headers={"Authorization": f"Bearer {branch['gm_token']}"})
    assert branch_state.status_code == 200 and branch_state.json()["turn"] == "aria"
    report = fight.get("/audit").json()
    assert [c["kind"] for c in report["changes"]] == ["amendment", "retraction"]
    assert any(not e["counts"] for e in report["entries"])


def test_a_tool_author_reads_the_character_sheet_schema_the_docs_name(client):
    """docs/characters.md: "`GET /schemas/character` give[s] its JSON Schema" (issue 33: it
    answered 404, the handler written but left out of the routes)."""
    from combat.characters.sheet import sheet_schema

    reply = client.get("/schemas/character")
    assert reply.status_code == 200
    assert reply.json() == json.loads(json.dumps(sheet_schema()))
    assert "max_hp" in reply.json()["$defs"]["CharacterSheet"]["properties"]
    assert "/schemas/character" in client.get("/schema/openapi.json").json()["paths"]


def test_every_handler_written_in_a_routes_module_is_served():
    """A handler is written once, in its resource's module, and served: every route handler
    of every module of combat/service/routes is in the service's routes (a handler left out
    of a module's ROUTES list answers 404, as /schemas/character did)."""
    import importlib
    import pkgutil

    from litestar.handlers import HTTPRouteHandler

    from combat.service import routes

    modules = [importlib.import_module(f"{routes.__name__}.{m.name}") for m in pkgutil.iter_modules(routes.__path__)]
    written = {
        f"{module.__name__}.{name}"
        for module in modules
        for name, value in vars(module).items()
        if isinstance(value, HTTPRouteHandler) and value.fn.__module__ == module.__name__
    }
    served = {f"{h.fn.__module__}.{h.fn.__name__}" for h in routes.ROUTES}
    assert len(written) >= 30
    assert written - served == set()


def test_the_openapi_page_loads_nothing_from_another_host_and_its_assets_are_served(client):
    """Issue 33: /schema loaded its script, fonts and favicon from CDNs, so without the
    internet (a table in a cellar) it was blank. Every address the page names is a path on
    this service, and each is served."""
    from html.parser import HTMLParser

    class Addresses(HTMLParser):
        found: list[str] = []

        def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
            self.found.extend(value for name, value in attrs if name in ("src", "href") and value)

    for page in ("/schema", "/schema/redoc"):
        reply = client.get(page)
        assert reply.status_code == 200 and reply.headers["content-type"].startswith("text/html")
        parser = Addresses()
        parser.found = []
        parser.feed(reply.text)
        assert parser.found == ["/app/vendor/redoc/redoc.standalone.js"]
        assert "googleapis" not in reply.text and "cdn." not in reply.text and "//" not in reply.text.split("Redoc.init(")[0]
        for address in parser.found:
            asset = client.get(address)
            assert asset.status_code == 200 and "javascript" in asset.headers["content-type"]
            assert b"Redoc" in asset.content and len(asset.content) > 500_000
    assert client.get("/schema/swagger").status_code == 404  # a CDN-bound page is not offered
