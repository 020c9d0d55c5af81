"""The store reads an encounter's log from SQLite with its own query (`SQLiteLogRecorder.
select_records`), not through eventsourcing's reader: both must give the same records.

The contract the log keeps (combat/store/log.py): "Each stored record is a `Recorded`
envelope ... around one domain event", read back in seq order, after `gt` and up to `lte`.
"""

from __future__ import annotations

import sqlite3
import tempfile
import zlib
from pathlib import Path
from typing import Any

import pytest
from eventsourcing.compressor import ZlibCompressor
from eventsourcing.persistence import Mapper, StoredEvent
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat.app import application, history
from combat.app.application import Encounters
from combat.app.catalog import record_decoder
from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn
from combat.kernel.errors import RuleError
from combat.kernel.records import Recorded
from combat.store.log import TOPICS, EventLog, MsgspecMapper
from combat.store.sqlite import SQLiteFileLog
from tests.helpers import monster, pc


def _through_eventsourcing(log: EventLog, eid: Any, gt: int | None, lte: int | None) -> list[Recorded]:
    return list(log.events.get(eid, gt=gt, lte=lte))


def _play(live: Encounters, draw: Any) -> Any:
    """A short fight: moves, attacks with the dice entered, turns ended, some of it undone."""
    eid = live.create("srd-2024", "direct read", seed=draw(st.integers(0, 2**31 - 1)))
    for spec in (pc("aria", max_hp=30), pc("bron", max_hp=30), monster("goblin-1", max_hp=30)):
        live.execute(eid, AddCombatant(combatant=spec))
    live.execute(eid, BeginCombat())
    live.execute(eid, RollInitiative(combatant="aria", faces=(18,)))
    live.execute(eid, RollInitiative(combatant="bron", faces=(11,)))
    live.execute(eid, RollInitiative(combatant="goblin-1", faces=(4,)))
    for _ in range(draw(st.integers(0, 25))):
        state = live.state(eid)
        cid = state.turn
        if cid is None:  # an initiative roll was undone: undoing the undo brings it back
            live.undo_last(eid, reason="the GM changed her mind again")
            continue
        target = "goblin-1" if cid != "goblin-1" else "aria"
        step = draw(st.sampled_from(["move", "attack", "end", "undo"]))
        try:
            if step == "move":
                live.execute(eid, Move(combatant=cid, feet=5))
            elif step == "attack":
                live.execute(eid, Attack(attacker=cid, target=target, faces=(draw(st.integers(1, 20)),), damage_faces=(3,)))
            elif step == "end":
                live.execute(eid, EndTurn(combatant=cid))
            else:
                live.undo_last(eid, reason="the GM changed her mind")
        except RuleError:
            pass
    return eid


@settings(max_examples=20, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.data())
def test_any_fight_reads_back_the_same_through_the_direct_query_as_through_eventsourcing(data):
    """Whatever the table did (undos included, a snapshot every 7 events beside the log), each
    stretch of the log read with the direct query is the records eventsourcing's reader gives,
    and the state replayed from either is the state the table played to."""
    draw = data.draw
    with tempfile.TemporaryDirectory() as tmp, pytest.MonkeyPatch.context() as patch:
        patch.setattr(application, "SNAPSHOT_INTERVAL", 7)
        live = Encounters(Path(tmp) / "combat.db")
        try:
            eid = _play(live, draw)
            played = live.state(eid)
            log = live.log.home  # SQLite: one partition
            assert isinstance(log, SQLiteFileLog)  # the direct query reads it
            version = played.version
            for _ in range(3):
                gt = draw(st.one_of(st.none(), st.integers(0, version + 1)))
                lte = draw(st.one_of(st.none(), st.integers(0, version + 1)))
                direct = list(log.recorded(eid, gt=gt, lte=lte))
                assert direct == _through_eventsourcing(log, eid, gt, lte)
                assert [r.seq for r in direct] == list(
                    range((gt or 0) + 1, min(lte if lte is not None else version, version) + 1)
                )
            assert history.replay(log.recorded(eid)) == played
            assert live.state(eid, at=version) == played  # from the latest snapshot and what follows it
        finally:
            live.close()


def test_a_row_of_another_topic_is_refused_not_misread(encounters):
    """Only records are ever stored in the events table; a row under any other topic (say, a
    hand-edited store) stops the read with a clear error rather than passing for a record."""
    eid = encounters.create("srd-2024", "tampered")
    encounters.execute(eid, AddCombatant(combatant=pc("aria")))
    table = encounters.log.home.recorder.events_table_name
    with sqlite3.connect(encounters.log.home.recorder.datastore.pool.db_name) as db:
        db.execute(
            f"UPDATE {table} SET topic = 'someone.else:Event' WHERE originator_id = ? AND originator_version = 2", (eid.hex,)
        )
    with pytest.raises(ValueError, match=r"topic is not 'combat\.store:Recorded'"):
        list(encounters.log.recorded(eid))
    assert len(list(encounters.log.recorded(eid, lte=1))) == 1


class _ZippedMapper(MsgspecMapper):
    """A mapper that compresses what it stores, as eventsourcing's own does with a compressor."""

    def to_stored_event(self, domain_event: Any) -> StoredEvent:
        plain = super().to_stored_event(domain_event)
        assert self.compressor is not None
        return StoredEvent(
            originator_id=plain.originator_id,
            originator_version=plain.originator_version,
            topic=plain.topic,
            state=self.compressor.compress(plain.state),
        )

    def to_domain_event(self, stored_event: StoredEvent) -> Any:
        assert self.compressor is not None
        return super().to_domain_event(
            StoredEvent(
                originator_id=stored_event.originator_id,
                originator_version=stored_event.originator_version,
                topic=stored_event.topic,
                state=self.compressor.decompress(stored_event.state),
            )
        )


class _ZippedLog(EventLog):
    def construct_mapper(self) -> Mapper[Any]:
        return _ZippedMapper(record_decoder, transcoder=self.construct_transcoder(), compressor=ZlibCompressor())


def test_a_store_whose_mapper_compresses_is_read_through_that_mapper(tmp_path):
    """The direct query decodes rows as the plain JSON `MsgspecMapper` writes. A log given a
    mapper that compresses (or a cipher) is read through eventsourcing and that mapper instead:
    the fight reads back as it was played, not as a decoding error."""
    encounters = Encounters(tmp_path / "combat.db")
    home = encounters.log.home
    home.close()
    encounters.log.parts[0] = _ZippedLog(env=home.env, records=record_decoder)
    try:
        eid = encounters.create("srd-2024", "zipped")
        encounters.execute(eid, AddCombatant(combatant=pc("aria")))
        played = encounters.state(eid)
        table = encounters.log.home.recorder.events_table_name
        with sqlite3.connect(encounters.log.home.recorder.datastore.pool.db_name) as db:
            (row,) = db.execute(f"SELECT state FROM {table} WHERE originator_id = ? AND originator_version = 2", (eid.hex,))
        assert zlib.decompress(row[0]).startswith(b"{")  # stored compressed: the direct query could not read it

        assert not isinstance(encounters.log.home, SQLiteFileLog)  # read through eventsourcing and its mapper
        records = list(encounters.log.recorded(eid))
        assert [type(r.event).__name__ for r in records] == ["EncounterCreated", "CombatantAdded"]
        assert history.replay(records) == played
    finally:
        encounters.close()


def test_the_records_are_read_when_first_iterated(encounters):
    """`recorded` defers the read to the first iteration (inside the fold's collector pause):
    what is read is the log as it stands then, and reading it twice gives nothing more."""
    eid = encounters.create("srd-2024", "deferred")
    pending = encounters.log.recorded(eid)
    encounters.execute(eid, AddCombatant(combatant=pc("aria")))
    assert [r.seq for r in pending] == [1, 2]
    assert list(pending) == []
    assert TOPICS[Recorded] == "combat.store:Recorded"


@pytest.mark.parametrize("setting", ["COMPRESSOR_TOPIC", "CIPHER_TOPIC"])
def test_a_store_asked_to_compress_or_encrypt_refuses_to_open(tmp_path, monkeypatch, setting):
    """eventsourcing compresses or encrypts through its mapper; this store's mapper does neither,
    so the setting is refused when the store opens rather than silently ignored."""
    monkeypatch.setenv(setting, "eventsourcing.compressor:ZlibCompressor")
    with pytest.raises(RuleError) as refused:
        Encounters(tmp_path / "combat.db")
    assert refused.value.code == "store/unsupported-setting" and setting in refused.value.message
    assert f"unset {setting}" in refused.value.allowed
