"""Snapshots: a shortcut to the folded state that is never misread, whatever shape it was stored in."""

from __future__ import annotations

import sqlite3

import msgspec
import pytest
from eventsourcing.persistence import StoredEvent
from structlog.testing import capture_logs

from combat.app import application, chain
from combat.demos import DEMOS, get_demo
from combat.fivee.attack_commands import Attack
from combat.fivee.held_open import pending_damage_of
from combat.rulesets import RULESETS
from combat.store.log import STALE_SNAPSHOT_TOPICS, TOPICS, Snapshot
from tests.helpers import monster, pc, stored_fight


# Each ruleset with a demo (an installed plug-in need not ship one: combat.demos).
@pytest.mark.parametrize("ruleset", [r for r in DEMOS if r != "srd-2024"])
def test_a_demo_fight_loads_from_its_snapshots_with_the_rulesets_own_state(encounters, monkeypatch, ruleset):
    """A ruleset's own state (declarations, the world's spent actions, the segment clock...)
    comes back from a snapshot as its typed value, exactly as a full fold gives it."""
    monkeypatch.setattr(application, "SNAPSHOT_INTERVAL", 5)
    eid = get_demo(ruleset)(encounters, seed=3, report=lambda outcome: None)
    assert list(encounters.log.of(eid).snapshots.get(eid))
    encounters._cache.clear()
    loaded = encounters.state(eid)
    assert type(loaded.rules) is RULESETS[ruleset].state_type
    assert loaded == application.fold_records(encounters.records(eid))


def test_a_snapshot_of_the_old_shape_is_passed_over_not_misread(encounters, monkeypatch):
    """Snapshots stored before each ruleset's state became one typed field kept it as loose
    JSON under the ruleset's own key ("d10": {...}). One of those, even one that disagrees
    with the log, is ignored: the state is the fold of the log."""
    monkeypatch.setattr(application, "SNAPSHOT_INTERVAL", 10_000)
    eid = get_demo("declared-d10")(encounters, seed=3, report=lambda outcome: None)
    state = encounters.state(eid)
    old = msgspec.to_builtins(state)
    old["d10"] = old.pop("rules")
    some = next(iter(old["combatants"]))
    old["combatants"][some]["hp"] = 999  # a snapshot that was wrong would show
    stored = msgspec.json.encode(
        {"originator_id": eid, "originator_version": state.version, "timestamp": "2026-01-01T00:00:00Z", "state": old}
    )
    topic = "combat.store:Snapshot"
    assert topic in STALE_SNAPSHOT_TOPICS
    encounters.log.of(eid).snapshots.recorder.insert_events(
        [StoredEvent(originator_id=eid, originator_version=state.version, topic=topic, state=stored)]
    )
    assert topic != TOPICS[Snapshot]
    encounters._cache.clear()
    assert encounters.state(eid) == state
    assert encounters.state(eid).combatants[some].hp != 999


def test_a_snapshot_from_when_the_shared_fields_held_what_a_5e_fight_holds_open_is_passed_over(encounters, monkeypatch):
    """Issue 32: `helps`, `opportunities`, `pending_damage`, `reaction_window` and
    `halved_hits` moved from the shared state into the 5e slice. A snapshot stored before
    (topic "/2", bound to the log) holds them at the top level, where a state read now has no
    such fields: read as a current one it would lose Aria's hit whose damage waits, and its
    digest would no longer match (a warning at each load, a snapshot break in `verify`). It
    is passed over quietly instead: the state is the fold of the log, the hit still waiting."""
    monkeypatch.setattr(application, "SNAPSHOT_INTERVAL", 10_000)
    eid = stored_fight(encounters, "a hit waits", [pc("aria"), monster("goblin")], {"aria": 20, "goblin": 1})
    encounters.execute(eid, Attack(attacker="aria", target="goblin", faces=(15,)))
    state = encounters.state(eid)
    assert [p.attacker for p in pending_damage_of(state)] == ["aria"]
    old = msgspec.to_builtins(state)
    for key in ("helps", "opportunities", "pending_damage", "reaction_window", "halved_hits"):
        old[key] = old["rules"].pop(key, [] if key != "reaction_window" else None)
    head = chain.head_of(encounters.records(eid))
    stored = msgspec.json.encode(
        {
            "originator_id": eid,
            "originator_version": state.version,
            "timestamp": "2026-01-01T00:00:00Z",
            "state": old,
            "head": head,
            "digest": chain.snapshot_digest(eid, state.version, head, old),
        }
    )
    misread = msgspec.json.decode(stored, type=Snapshot[type(state.rules)])  # type: ignore[misc]
    assert pending_damage_of(misread.state) == ()  # why the old shape needs its own topic
    topic = "combat.store:Snapshot/2"
    assert topic in STALE_SNAPSHOT_TOPICS and topic != TOPICS[Snapshot]
    encounters.log.of(eid).snapshots.recorder.insert_events(
        [StoredEvent(originator_id=eid, originator_version=state.version, topic=topic, state=stored)]
    )
    encounters._cache.clear()
    with capture_logs() as logs:
        assert encounters.state(eid) == state
    assert [p.attacker for p in pending_damage_of(encounters.state(eid))] == ["aria"]
    assert not [e for e in logs if e["event"] == "snapshot passed over"]
    assert encounters.verify(eid).ok and not encounters.verify(eid).snapshots


def test_a_segments_1e_snapshot_from_when_each_record_repeated_its_combatant_loads_as_the_fold(encounters, monkeypatch):
    """segments-1e records once repeated each creature's id, name, side, AC, hit points,
    movement and first square inside `stats` (see its ledger). A snapshot stored then holds
    them; read now, they are passed over and the state is the one the log folds to."""
    monkeypatch.setattr(application, "SNAPSHOT_INTERVAL", 10_000)
    eid = get_demo("segments-1e")(encounters, seed=3, report=lambda outcome: None)
    state = encounters.state(eid)
    old = msgspec.to_builtins(state)
    for cid, rec in old["rules"]["creatures"].items():
        c = state.combatants[cid]
        rec["stats"].update(
            id=cid, name=c.name, kind=c.kind, side=c.side, ac=c.ac, hp=None, move_ft=c.speed, player=c.player, x=0, y=0
        )
    stored = msgspec.json.encode(
        {"originator_id": eid, "originator_version": state.version, "timestamp": "2026-01-01T00:00:00Z", "state": old}
    )
    encounters.log.of(eid).snapshots.recorder.insert_events(
        [StoredEvent(originator_id=eid, originator_version=state.version, topic=TOPICS[Snapshot], state=stored)]
    )
    encounters._cache.clear()
    assert encounters.state(eid) == state


def test_a_snapshot_edited_out_of_shape_is_passed_over_and_the_log_folded(encounters, tmp_path, monkeypatch):
    """Issue 30: "A malformed snapshot row (edited out of shape in the store) today gives 500
    on every request for its encounter: it must be passed over (the log folded instead, a
    warning logged), as stale snapshots already are." Someone set a goblin's hit points to
    "lots" in the latest snapshot's row: the fight loads from the snapshot before it, equal
    to the fold of its log, and `combat verify` still walks it."""
    monkeypatch.setattr(application, "SNAPSHOT_INTERVAL", 5)
    eid = get_demo("declared-d10")(encounters, seed=3, report=lambda outcome: None)
    state = encounters.state(eid)
    part = encounters.log.of(eid)
    table = part.snapshots.recorder.events_table_name
    latest = next(iter(part.snapshots.get(eid, desc=True, limit=1)))
    row = msgspec.json.decode(msgspec.json.encode(latest))
    some = next(iter(row["state"]["combatants"]))
    row["state"]["combatants"][some]["hp"] = "lots"
    with sqlite3.connect(tmp_path / "combat.db") as db:  # the `encounters` fixture's file
        changed = db.execute(
            f"UPDATE {table} SET state = ? WHERE originator_id = ? AND originator_version = ?",
            (msgspec.json.encode(row), eid.hex, latest.originator_version),
        ).rowcount
    assert changed == 1
    encounters._cache.clear()
    with capture_logs() as logs:
        loaded = encounters.state(eid)
    assert loaded == state == application.fold_records(encounters.records(eid))
    assert [(e["event"], e["seq"]) for e in logs if e["event"] == "snapshot passed over"] == [
        ("snapshot passed over", latest.originator_version)
    ]
    assert encounters.verify(eid).ok
