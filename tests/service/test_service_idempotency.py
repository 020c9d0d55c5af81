"""Retries and repeats: a client that timed out sends the same request again with the same
command id (the `command_id` field or the `Idempotency-Key` header). The first outcome comes
back, nothing is appended twice (finding 3 of issue 14), the same id with another request is
refused (finding 4 of issue 25), and writes without
`expected_version` are taken one at a time by the server, never refused for a version."""

from __future__ import annotations

import threading
import uuid

import pytest
from litestar.testing import TestClient

from combat.app.application import Encounters
from combat.fivee.attack_commands import Attack
from combat.kernel.commands import Ruling
from combat.kernel.errors import RuleError
from combat.kernel.events import RulingMade
from combat.service import create_app
from tests.service.helpers import bearer, body, open_fight, set_the_scene


def _attack(fight, key: str, params: dict | None = None, **extra):
    payload = {"command": body(Attack(attacker="aria", target="goblin", faces=(12,), damage_faces=(3,))), **extra}
    return fight.http.post(
        fight.url("/commands"), json=payload, params=params, headers={**bearer(fight.gm), "Idempotency-Key": key}
    )


def test_a_retried_attack_deals_its_damage_once(client):
    """'On a hit, you roll damage': 1d8+3 with a 3 entered is 6, dealt once however often the
    request is retried after a timeout."""
    fight = set_the_scene(open_fight(client))
    first = _attack(fight, "retry-attack-0001")
    again = _attack(fight, "retry-attack-0001")
    assert first.status_code == again.status_code == 200
    assert "idempotent-replayed" not in first.headers and again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()
    assert fight.state()["combatants"]["goblin"]["hp"] == 1
    attacks = [e for e in fight.events() if e["type"] == "AttackMade"]
    assert len(attacks) == 1 and attacks[0]["command_id"] == "retry-attack-0001"


def test_a_repeat_answers_with_the_state_it_had_then(client):
    fight = set_the_scene(open_fight(client))
    first = _attack(fight, "first-blow-0001", {"state": "true"}).json()
    fight.do(Ruling(text="the goblin shrieks"))
    again = _attack(fight, "first-blow-0001", {"state": "true"}).json()
    assert again["version"] == first["version"] < fight.state()["version"]
    assert again["state"] == first["state"]


def test_a_retried_undo_is_not_taken_for_a_redo(client):
    """'Undoing an undo is a redo': but the same undo sent twice is one undo."""
    fight = set_the_scene(open_fight(client))
    fight.do(Ruling(text="the bridge collapses"))
    before = fight.state()["version"]
    for _ in range(3):
        reply = client.post(
            fight.url("/undo"), json={"reason": "misheard", "command_id": "undo-bridge-1"}, headers=bearer(fight.gm)
        )
        assert reply.status_code == 200, reply.text
    log = fight.events()
    assert [e["type"] for e in log[before:]] == ["EventsRetracted"]
    assert log[-1]["seqs"] == [before]


def test_undo_and_the_other_history_writes_take_an_expected_version(client):
    fight = set_the_scene(open_fight(client))
    fight.do(Ruling(text="rain"))
    version = fight.state()["version"]
    stale = client.post(fight.url("/undo"), json={"reason": "x", "expected_version": version - 1}, headers=bearer(fight.gm))
    fight.rejects(stale, 409, "version/conflict")
    assert fight.state()["version"] == version
    fine = client.post(fight.url("/undo"), json={"reason": "x", "expected_version": version}, headers=bearer(fight.gm))
    assert fine.status_code == 200, fine.text
    for path, payload in (
        ("/retract", {"seqs": [version], "reason": "x"}),
        ("/override", {"seqs": [2], "ruling": "x"}),
        ("/fork", {"at": 2}),
    ):
        reply = client.post(fight.url(path), json={**payload, "expected_version": 1}, headers=bearer(fight.gm))
        fight.rejects(reply, 409, "version/conflict")


def test_a_retried_fork_returns_the_same_branch(client):
    fight = set_the_scene(open_fight(client))
    replies = [
        client.post(fight.url("/fork"), json={"at": 3, "command_id": "what-if-0001"}, headers=bearer(fight.gm)) for _ in range(2)
    ]
    assert [r.status_code for r in replies] == [201, 201]
    assert replies[0].json()["id"] == replies[1].json()["id"]
    other = client.post(fight.url("/fork"), json={"at": 3, "command_id": "what-if-0002"}, headers=bearer(fight.gm))
    assert other.json()["id"] != replies[0].json()["id"]
    for reply in replies:  # each reply's GM token works on the branch
        assert client.get(f"/encounters/{reply.json()['id']}", headers=bearer(reply.json()["gm_token"])).status_code == 200


def test_a_player_cannot_take_over_the_gms_command_id(client):
    fight = set_the_scene(open_fight(client))
    fight.do(Ruling(text="night falls"))
    gm_id = fight.events()[-1]["command_id"]
    sam = fight.token("player", "Sam", ("aria",))
    reply = client.post(
        fight.url("/commands"),
        json={"command": {"type": "end_turn", "combatant": "aria"}, "command_id": gm_id},
        headers=bearer(sam),
    )
    fight.rejects(reply, 422, "command-id/taken")


def test_the_header_and_the_body_must_agree(client):
    fight = set_the_scene(open_fight(client))
    reply = client.post(
        fight.url("/commands"),
        json={"command": {"type": "ruling", "text": "x"}, "command_id": "aaaaaaaa1"},
        headers={**bearer(fight.gm), "Idempotency-Key": "bbbbbbbb2"},
    )
    fight.rejects(reply, 400, "command-id/mismatch")
    reply = client.post(
        fight.url("/commands"),
        json={"command": {"type": "ruling", "text": "x"}, "command_id": "no spaces!"},
        headers=bearer(fight.gm),
    )
    assert reply.status_code == 422


def test_a_repeat_is_recognised_after_a_restart(tmp_path):
    db = tmp_path / "combat.db"
    with TestClient(create_app(db=db)) as http:
        fight = set_the_scene(open_fight(http))
        first = _attack(fight, "before-restart-1").json()
    with TestClient(create_app(db=db)) as http:
        fight.http = http
        again = _attack(fight, "before-restart-1")
        assert again.headers["idempotent-replayed"] == "true" and again.json()["events"] == first["events"]
        assert len([e for e in fight.events() if e["type"] == "AttackMade"]) == 1


def test_two_stores_on_one_file_apply_a_duplicate_once(tmp_path):
    """Two processes on one SQLite file (two Encounters here), the same command id sent to both
    at once, again and again: each id is applied once and the log has no gaps."""
    db = tmp_path / "combat.db"
    one, two = Encounters(db), Encounters(db)
    try:
        eid = one.create("srd-2024", "race")
        errors: list[Exception] = []

        def send(store: Encounters, n: int) -> None:
            for i in range(15):
                try:
                    store.execute(eid, Ruling(text=f"ruling {i}"), command_id=f"ruling-{i:04d}")
                except Exception as exc:
                    errors.append(exc)

        threads = [threading.Thread(target=send, args=(store, n)) for n, store in enumerate((one, two, one, two))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert errors == []
        records = list(one.records(eid))
        assert [r.seq for r in records] == list(range(1, 17))
        assert sorted(r.event.text for r in records[1:]) == sorted(f"ruling {i}" for i in range(15))
    finally:
        one.close()
        two.close()


def test_an_id_that_is_not_usable_is_refused_by_the_application(encounters):
    eid = encounters.create("srd-2024", "ids")
    for bad in ("short", "has space in it", "x" * 101):
        try:
            encounters.execute(eid, Ruling(text="x"), command_id=bad)
        except Exception as exc:
            assert getattr(exc, "code", None) == "command-id/invalid"
        else:
            raise AssertionError(f"{bad!r} was accepted")
    assert encounters.state(eid).version == 1
    assert uuid.UUID(str(eid))


# -- a key is bound to its request (finding 4 of issue 25) ---------------------------------


def _heal_then(fight, key: str, second: dict):
    heal = {"command": {"type": "heal", "target": "goblin", "amount": 1}, "command_id": key}
    first = fight.http.post(fight.url("/commands"), json=heal, headers=bearer(fight.gm))
    assert first.status_code == 200, first.text
    return first, fight.http.post(fight.url("/commands"), json={**second, "command_id": key}, headers=bearer(fight.gm))


def test_the_same_key_with_another_command_is_refused_and_appends_nothing(client):
    """As Stripe's keys: a key names one request. A damage sent under a heal's key is not
    answered with the heal's events; it is refused and nothing is appended."""
    fight = set_the_scene(open_fight(client))
    first, reused = _heal_then(
        fight, "heal-goblin-0001", {"command": {"type": "damage", "target": "goblin", "damage_type": "fire", "amount": 5}}
    )
    version = fight.state()["version"]
    refusal = fight.rejects(reused, 422, "command-id/reused")
    assert "another request" in refusal["detail"] and "new id" in refusal["allowed"]
    assert "idempotent-replayed" not in reused.headers
    assert fight.state()["version"] == version
    # The same request again, its keys in another order and 1.0 for 1, is still a repeat.
    again = client.post(
        fight.url("/commands"),
        headers={**bearer(fight.gm), "Idempotency-Key": "heal-goblin-0001"},
        json={"command": {"amount": 1.0, "target": "goblin", "type": "heal"}},
    )
    assert again.status_code == 200 and again.headers["idempotent-replayed"] == "true"
    assert again.json() == first.json()


def test_an_undo_under_a_used_key_with_another_body_is_refused(client):
    fight = set_the_scene(open_fight(client))
    fight.do(Ruling(text="the bridge collapses"))
    undo = {"reason": "misheard", "command_id": "undo-bridge-0001"}
    assert client.post(fight.url("/undo"), json=undo, headers=bearer(fight.gm)).status_code == 200
    version = fight.state()["version"]
    other = client.post(fight.url("/undo"), json={**undo, "reason": "changed my mind"}, headers=bearer(fight.gm))
    fight.rejects(other, 422, "command-id/reused")
    # Another kind of write under the undo's key is another request too.
    retract = client.post(
        fight.url("/retract"),
        json={"seqs": [version], "reason": "misheard", "command_id": "undo-bridge-0001"},
        headers=bearer(fight.gm),
    )
    fight.rejects(retract, 422, "command-id/reused")
    assert fight.state()["version"] == version
    same = client.post(fight.url("/undo"), json={**undo, "expected_version": version - 1}, headers=bearer(fight.gm))
    assert same.status_code == 200 and same.headers["idempotent-replayed"] == "true"


def test_a_fork_under_a_used_key_with_another_seq_is_refused(client):
    fight = set_the_scene(open_fight(client))
    made = client.post(fight.url("/fork"), json={"at": 3, "command_id": "what-if-0003"}, headers=bearer(fight.gm))
    assert made.status_code == 201
    other = client.post(fight.url("/fork"), json={"at": 2, "command_id": "what-if-0003"}, headers=bearer(fight.gm))
    fight.rejects(other, 422, "command-id/reused")
    again = client.post(fight.url("/fork"), json={"at": 3, "command_id": "what-if-0003"}, headers=bearer(fight.gm))
    assert again.status_code == 201 and again.json()["id"] == made.json()["id"]


def test_a_reused_key_is_refused_after_the_store_is_reopened(tmp_path):
    db = tmp_path / "combat.db"
    store = Encounters(db)
    eid = store.create("srd-2024", "restart")
    store.execute(eid, Ruling(text="a heal, say"), command_id="before-close-0001")
    store.close()
    store = Encounters(db)
    try:
        with pytest.raises(RuleError) as refused:
            store.execute(eid, Ruling(text="something else"), command_id="before-close-0001")
        assert refused.value.code == "command-id/reused" and store.state(eid).version == 2
        assert store.execute(eid, Ruling(text="a heal, say"), command_id="before-close-0001").repeated
    finally:
        store.close()


def test_a_key_stored_before_requests_were_hashed_is_still_a_repeat(encounters):
    """Records written before `request_hash` carry "": a repeat of their key is answered
    as it was then (the first outcome), whatever the body."""
    eid = encounters.create("srd-2024", "old log")
    state = encounters.state(eid)
    encounters._append(eid, state, [RulingMade(text="written by an older version")], "gm", "old-key-000001")
    again = encounters.execute(eid, Ruling(text="another ruling"), command_id="old-key-000001")
    assert again.repeated and again.records[0].event.text == "written by an older version"
    assert encounters.state(eid).version == 2


def test_only_the_first_record_of_a_command_carries_its_request_hash(encounters):
    eid = encounters.create("srd-2024", "hashes")
    done = encounters.execute(eid, Ruling(text="x"), command_id="hashed-0000001")
    plain = encounters.execute(eid, Ruling(text="y"))
    assert len(done.records[0].request_hash) == 32 and plain.records[0].request_hash == ""
