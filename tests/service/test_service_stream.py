"""The live stream over a real socket: a subscriber sees every event of a fight in order,
with the state after each, and picks up after a disconnect without a gap."""

from __future__ import annotations

import threading
import uuid

import httpx
import msgspec
import pytest

from combat.app.application import Encounters
from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn, Ruling
from combat.service import create_app
from projections.state import state_view
from tests.helpers import monster, pc
from tests.service.helpers import LiveServer, bearer, live_client, open_fight, read_events, set_the_scene


@pytest.fixture
def server(encounters):
    with LiveServer(create_app(encounters)) as live:
        yield live


@pytest.fixture
def http(server):
    with live_client(server) as client:
        yield client


def _play_out(fight) -> None:
    """Aria moves and misses, Brom waits, the goblin swings, then Aria cuts it down."""
    fight.do(Move(combatant="aria", feet=10))
    fight.do(Attack(attacker="aria", target="goblin", faces=(4,)))
    fight.do(EndTurn(combatant="aria"))
    fight.do(EndTurn(combatant="brom"))
    fight.do(Attack(attacker="goblin", target="aria", faces=(16,), damage_faces=(3,)))
    fight.do(EndTurn(combatant="goblin"))
    fight.do(Attack(attacker="aria", target="goblin", faces=(19,), damage_faces=(6,)))


def test_a_subscriber_sees_every_event_of_a_fight_in_order_with_the_state_after_each(server, http, encounters):
    fight = open_fight(http)
    with http.stream("GET", fight.url("/stream"), headers=bearer(fight.gm)) as stream:
        assert stream.headers["content-type"].startswith("text/event-stream")
        lines = stream.iter_lines()
        first = read_events(lines, 1)
        assert first[0]["id"] == "1" and first[0]["data"]["event"]["type"] == "EncounterCreated"
        set_the_scene(fight)
        _play_out(fight)
        log = fight.events()
        assert log[-1]["type"] == "CombatEnded"
        rest = read_events(lines, len(log) - 1)
    seen = first + rest
    assert [m["data"]["event"] for m in seen] == log
    assert [int(m["id"]) for m in seen] == list(range(1, len(log) + 1))
    eid = uuid.UUID(fight.id)
    for message in (seen[5], seen[-1]):
        at = int(message["id"])
        expected = msgspec.json.decode(msgspec.json.encode(state_view(encounters.state(eid, at=at))))
        assert message["data"]["state"] == expected
    assert seen[-1]["data"]["state"]["phase"] == "ended"


def test_a_subscriber_resumes_after_a_disconnect_from_the_last_event_id_without_a_gap(http):
    fight = set_the_scene(open_fight(http))
    with http.stream("GET", fight.url("/stream"), headers=bearer(fight.gm)) as stream:
        before = read_events(stream.iter_lines(), 5)
    last_seen = before[-1]["id"]
    _play_out(fight)  # the fight goes on while the overlay is disconnected
    log = fight.events()
    with http.stream("GET", fight.url("/stream"), headers={**bearer(fight.gm), "Last-Event-ID": last_seen}) as stream:
        after = read_events(stream.iter_lines(), len(log) - 5)
    assert [m["data"]["event"] for m in before + after] == log


def test_a_stream_can_start_after_a_seq_and_leave_out_the_state(http):
    fight = set_the_scene(open_fight(http))
    with http.stream("GET", fight.url("/stream"), params={"after": 3, "state": "false"}, headers=bearer(fight.gm)) as stream:
        messages = read_events(stream.iter_lines(), 2)
    assert [m["id"] for m in messages] == ["4", "5"]
    assert all("state" not in m["data"] for m in messages)


def test_an_overlay_in_a_browser_follows_with_its_viewer_token_in_the_url(http):
    fight = set_the_scene(open_fight(http))
    overlay = fight.token("viewer", "overlay")
    with http.stream("GET", fight.url("/stream"), params={"access_token": overlay, "after": 2}) as stream:
        assert stream.status_code == 200
        assert read_events(stream.iter_lines(), 1)[0]["id"] == "3"


def test_the_stream_follows_events_appended_by_another_process_on_the_same_store(server, http, tmp_path):
    """Another writer on the SQLite file (here a second store object, like `combat do`) is
    picked up by the notification-log pull."""
    fight = open_fight(http)
    other = Encounters(tmp_path / "combat.db")
    try:
        with http.stream("GET", fight.url("/stream"), params={"state": "false"}, headers=bearer(fight.gm)) as stream:
            lines = stream.iter_lines()
            read_events(lines, 1)
            other.execute(uuid.UUID(fight.id), Ruling(text="the bridge collapses"))
            [ruling] = read_events(lines, 1)
        assert ruling["data"]["event"]["text"] == "the bridge collapses"
    finally:
        other.close()


def test_a_stream_refuses_a_bad_last_event_id_or_one_beyond_the_log(http):
    fight = open_fight(http)
    reply = http.get(fight.url("/stream"), headers={**bearer(fight.gm), "Last-Event-ID": "twelve"})
    fight.rejects(reply, 400, "stream/bad-last-event-id")
    reply = http.get(fight.url("/stream"), headers={**bearer(fight.gm), "Last-Event-ID": "99"})
    fight.rejects(reply, 409, "stream/after-beyond")
    fight.rejects(http.get(fight.url("/stream")), 401, "auth/missing")


def test_many_subscribers_each_see_every_event_while_commands_arrive_concurrently(server, http):
    fight = set_the_scene(open_fight(http))
    texts = [f"ruling {i}" for i in range(20)]
    results: list[list[dict]] = []

    def subscriber() -> None:
        with (
            live_client(server) as own,
            own.stream("GET", fight.url("/stream"), params={"state": "false"}, headers=bearer(fight.gm)) as stream,
        ):
            results.append(read_events(stream.iter_lines(), total))

    start = len(fight.events())
    total = start + len(texts)
    readers = [threading.Thread(target=subscriber) for _ in range(3)]
    for reader in readers:
        reader.start()
    senders = [threading.Thread(target=lambda t=t: _send_ruling(server, fight, t)) for t in texts]
    for sender in senders:
        sender.start()
    for thread in senders + readers:
        thread.join(timeout=30)
    log = fight.events()
    assert len(log) == total and sorted(e["text"] for e in log[start:]) == sorted(texts)
    assert len(results) == 3 and all([m["data"]["event"] for m in r] == log for r in results)


def _send_ruling(server: LiveServer, fight, text: str) -> None:
    with httpx.Client(base_url=server.url, timeout=10) as own:
        reply = own.post(fight.url("/commands"), json={"command": {"type": "ruling", "text": text}}, headers=bearer(fight.gm))
        assert reply.status_code == 200, reply.text


def test_after_an_undo_the_stream_carries_the_state_with_the_past_changed(http):
    """An undo is an appended event; the state after it no longer has Aria's move."""
    fight = set_the_scene(open_fight(http))
    fight.do(Move(combatant="aria", feet=15))
    start = len(fight.events())
    undone = http.post(fight.url("/undo"), json={"reason": "she stays behind the wagon"}, headers=bearer(fight.gm))
    assert undone.status_code == 200, undone.text
    with http.stream("GET", fight.url("/stream"), params={"after": start - 1}, headers=bearer(fight.gm)) as stream:
        moved, retracted = read_events(stream.iter_lines(), 2)
    assert moved["data"]["state"]["combatants"]["aria"]["economy"]["moved"] == 15
    assert retracted["data"]["event"]["type"] == "EventsRetracted"
    assert retracted["data"]["state"]["combatants"]["aria"]["economy"]["moved"] == 0
    assert retracted["data"]["state"] == fight.state()


def test_an_amendment_streams_its_corrected_events_in_place_with_the_conflicts_it_raises(http):
    """'Amended events take effect where the replaced ones stood': the stream's state after
    the last corrected event is what GET gives, with the conflict the change raised (the
    goblin lives after all, and its turn was skipped)."""
    fight = open_fight(http)
    for spec in (pc("aria", player="Sam", max_hp=30), monster("goblin", max_hp=7), monster("orc", max_hp=15)):
        fight.do(AddCombatant(combatant=spec))
    fight.do(BeginCombat())
    for cid, face in (("aria", 18), ("goblin", 5), ("orc", 2)):
        fight.do(RollInitiative(combatant=cid, faces=(face,)))
    killing = fight.do(Attack(attacker="aria", target="goblin", faces=(11,), damage_faces=(6,)))
    fight.do(EndTurn(combatant="aria"))
    assert fight.state()["turn"] == "orc"
    start = len(fight.events())
    seqs = [e["seq"] for e in killing["events"]]
    amended = http.post(
        fight.url("/amend"),
        headers=bearer(fight.gm),
        json={
            "seqs": seqs,
            "reason": "the goblin had three-quarters cover",
            "command": {"type": "attack", "attacker": "aria", "target": "goblin", "faces": [11], "cover": "three-quarters"},
        },
    )
    assert amended.status_code == 200, amended.text
    count = len(fight.events()) - start
    with http.stream("GET", fight.url("/stream"), params={"after": start}, headers=bearer(fight.gm)) as stream:
        streamed = read_events(stream.iter_lines(), count)
    assert streamed[0]["data"]["event"]["type"] == "RulingAmended"
    last = streamed[-1]["data"]["state"]
    assert last["combatants"]["goblin"]["status"] == "active" and last["conflicts"]
    assert last == fight.state()


def test_the_stream_answers_a_named_browser_origin_and_no_other(tmp_path):
    """docs/tutorials/follow-a-fight.md: a page on another origin reads the stream only when
    `combat serve --cors-origin ORIGIN` names it (the browser checks the reply's
    Access-Control-Allow-Origin); the `EventSource` sends the viewer token in the URL."""
    overlay = "http://127.0.0.1:8080"
    with LiveServer(create_app(db=tmp_path / "c.db", cors_origins=[overlay])) as server, live_client(server) as http:
        fight = open_fight(http)
        viewer = fight.token("viewer", "overlay")
        url = f"{fight.url()}/stream?state=false&access_token={viewer}"
        for origin, allowed in ((overlay, overlay), ("http://127.0.0.1:8081", None)):
            with http.stream("GET", url, headers={"Origin": origin, "Accept": "text/event-stream"}) as reply:
                assert reply.status_code == 200
                assert reply.headers["content-type"].startswith("text/event-stream")
                assert reply.headers.get("access-control-allow-origin") == allowed
    with LiveServer(create_app(db=tmp_path / "d.db")) as server, live_client(server) as http:
        fight = open_fight(http)
        viewer = fight.token("viewer", "overlay")
        url = f"{fight.url()}/stream?state=false&access_token={viewer}"
        with http.stream("GET", url, headers={"Origin": overlay}) as reply:
            assert reply.status_code == 200 and "access-control-allow-origin" not in reply.headers
