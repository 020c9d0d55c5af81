"""The log on disk: append-only, ordered, versioned, and readable by other tools."""

from __future__ import annotations

import json

import pytest

from combat.app import application
from combat.app.application import Encounters, UnknownEncounter, VersionConflict
from combat.app.interchange import event_schema, from_line, read_jsonl, to_line
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat
from combat.kernel.errors import RuleError
from combat.kernel.events import EVENT_TYPES, RulingMade
from tests.helpers import monster, pc


def _fight(encounters: Encounters):
    eid = encounters.create("srd-2024", "store test", seed=3)
    encounters.execute(eid, AddCombatant(combatant=pc("aria")))
    encounters.execute(eid, AddCombatant(combatant=monster("goblin")))
    return eid


def test_events_survive_closing_and_reopening_the_store(tmp_path):
    first = Encounters(tmp_path / "c.db")
    eid = _fight(first)
    first.execute(eid, BeginCombat())
    state = first.state(eid)
    first.close()
    second = Encounters(tmp_path / "c.db")
    try:
        assert second.state(eid) == state
        assert [r.seq for r in second.records(eid)] == [1, 2, 3, 4]
    finally:
        second.close()


def test_a_command_built_on_an_old_version_is_rejected_and_appends_nothing(encounters):
    eid = _fight(encounters)
    with pytest.raises(VersionConflict) as caught:
        encounters.execute(eid, BeginCombat(), expected_version=2)
    assert caught.value.code == "version/conflict"
    assert encounters.state(eid).version == 3
    encounters.execute(eid, BeginCombat(), expected_version=3)
    assert encounters.state(eid).phase == "surprise"


def test_a_second_writer_on_the_same_file_gets_a_conflict_not_a_lost_event(tmp_path):
    """Optimistic concurrency: two processes decided on the same version; only one append wins."""
    a = Encounters(tmp_path / "c.db")
    b = Encounters(tmp_path / "c.db")
    try:
        eid = _fight(a)
        assert b.state(eid).version == 3  # b caches version 3
        a.execute(eid, AddCombatant(combatant=monster("orc")))
        stale = b.state(eid, at=3)  # what b decided on before a's append landed
        with pytest.raises(VersionConflict):
            b._append(eid, stale, [RulingMade(text="decided on a stale state")], "gm")
        assert [r.seq for r in a.records(eid)] == [1, 2, 3, 4]
        b.execute(eid, AddCombatant(combatant=monster("wolf")))  # a retry on fresh state succeeds
        assert [r.seq for r in a.records(eid)] == [1, 2, 3, 4, 5]
    finally:
        a.close()
        b.close()


def test_a_long_fight_loads_from_a_snapshot(encounters, monkeypatch):
    monkeypatch.setattr(application, "SNAPSHOT_INTERVAL", 4)
    eid = _fight(encounters)
    encounters.execute(eid, AddCombatant(combatant=monster("orc")))
    encounters.execute(eid, BeginCombat())
    encounters.execute(eid, RollInitiative())
    snapshots = list(encounters.log.of(eid).snapshots.get(eid))
    assert snapshots and snapshots[-1].originator_version >= 4
    encounters._cache.clear()
    assert encounters.state(eid) == application.fold_records(encounters.records(eid))
    assert encounters.state(eid, at=2).combatants.keys() == {"aria"}


def test_an_unknown_encounter_is_a_clear_error(encounters):
    import uuid

    with pytest.raises(UnknownEncounter):
        encounters.state(uuid.uuid4())


def test_each_line_of_the_export_has_the_documented_envelope(encounters):
    eid = _fight(encounters)
    line = json.loads(to_line(list(encounters.records(eid))[1]))
    assert list(line)[:5] == ["seq", "type", "at", "actor", "command_id"]
    assert line["seq"] == 2 and line["type"] == "CombatantAdded" and line["actor"] == "gm"
    assert line["at"].endswith("Z") and line["combatant"]["id"] == "aria"


def test_a_log_with_a_gap_or_a_bad_line_is_refused_with_the_line_number(encounters):
    eid = _fight(encounters)
    lines = [to_line(r) for r in encounters.records(eid)]
    with pytest.raises(RuleError, match="line 2: seq 3 follows seq 1"):
        read_jsonl([lines[0], lines[2]])
    with pytest.raises(RuleError) as caught:
        read_jsonl(
            [lines[0], b'{"seq": 2, "type": "NoSuchEvent", "at": "2026-01-01T00:00:00Z", "actor": "gm", "command_id": "x"}']
        )
    assert caught.value.code == "log/bad-line" and "line 2" in str(caught.value)
    with pytest.raises(RuleError):
        from_line(b"[1, 2]")


def test_the_schema_describes_every_event_type_with_its_envelope():
    schema = event_schema()
    for cls in EVENT_TYPES:
        definition = schema["$defs"][cls.__name__]
        assert {"seq", "at", "actor", "command_id", "type"} <= set(definition["properties"])
        assert "seq" in definition["required"]
