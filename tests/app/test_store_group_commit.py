"""Several tables' commands committed together (combat.store.group_commit): each stored
whole, in order, and one that lost its seq to another writer refused alone."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from combat.app.application import Encounters, VersionConflict
from combat.kernel.commands import AddCombatant
from combat.store import SeqTaken
from combat.store.group_commit import GroupWriter, _Append
from combat.store.sqlite import SQLiteFileLog
from tests.helpers import pc


def test_eight_tables_adding_their_party_at_once_each_keep_a_gapless_log(tmp_path):
    """Eight GMs at eight tables add four characters each, all at the same moment: every
    table's log holds its creation and its four additions, seq 1 to 5, and reads back as the
    state the GM was shown."""
    encounters = Encounters(tmp_path / "c.db")
    try:
        tables = [encounters.create("srd-2024", f"table {n}", seed=n) for n in range(8)]
        shown: dict[int, object] = {}
        start = threading.Barrier(len(tables))

        def gm(n: int) -> None:
            start.wait()
            for who in ("aria", "bram", "cato", "dara"):
                shown[n] = encounters.execute(tables[n], AddCombatant(combatant=pc(who))).state

        threads = [threading.Thread(target=gm, args=(n,)) for n in range(len(tables))]
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join()
        assert isinstance(encounters.log.home, SQLiteFileLog)  # the group writer wrote them
        reopened = Encounters(tmp_path / "c.db")
        try:
            for n, eid in enumerate(tables):
                assert [r.seq for r in reopened.records(eid)] == [1, 2, 3, 4, 5]
                assert reopened.state(eid) == shown[n]
        finally:
            reopened.close()
    finally:
        encounters.close()


def test_a_stale_append_in_a_group_is_refused_alone_and_the_others_are_stored(tmp_path):
    """Two appends share one transaction; the second wants a seq another writer already
    took. It is refused with SeqTaken (the application reads that as a
    version conflict and decides again); the first is stored all the same."""
    encounters = Encounters(tmp_path / "c.db")
    try:
        first = encounters.create("srd-2024", "first", seed=1)
        second = encounters.create("srd-2024", "second", seed=2)
        writer = encounters.log.home.writer  # type: ignore[attr-defined]
        assert writer is not None
        stored = encounters.log.home.recorder.events_table_name
        with sqlite3.connect(tmp_path / "c.db") as db:
            (row,) = db.execute(
                f"SELECT originator_id, originator_version, topic, state FROM {stored} WHERE originator_id = ?", (second.hex,)
            )
        fresh = _Append([(first.hex, 2, row[2], row[3])], None)
        stale = _Append([(second.hex, 1, row[2], row[3])], None)  # seq 1 of the second table is taken
        writer._commit([fresh, stale])
        assert fresh.done and fresh.error is None
        assert isinstance(stale.error, SeqTaken)
        with sqlite3.connect(tmp_path / "c.db") as db:
            versions = {
                eid: [
                    v
                    for (v,) in db.execute(
                        f"SELECT originator_version FROM {stored} WHERE originator_id = ? ORDER BY originator_version", (eid.hex,)
                    )
                ]
                for eid in (first, second)
            }
        assert versions == {first: [1, 2], second: [1]}
    finally:
        encounters.close()


def test_a_command_decided_on_a_stale_state_is_a_version_conflict_not_a_lost_write(tmp_path):
    """Two services on one file: the second adds Aria while the first still holds the old
    state. The first's next command with the version it knew is refused as a conflict, and
    nothing it sent is stored."""
    one, two = Encounters(tmp_path / "c.db"), Encounters(tmp_path / "c.db")
    try:
        eid = one.create("srd-2024", "shared", seed=1)
        one.state(eid)
        two.execute(eid, AddCombatant(combatant=pc("aria")))
        with pytest.raises(VersionConflict):
            one.execute(eid, AddCombatant(combatant=pc("bram")), expected_version=1)
        assert [r.seq for r in two.records(eid)] == [1, 2]
    finally:
        one.close()
        two.close()


def test_a_closed_writer_refuses_rather_than_drops(tmp_path):
    """After the store is closed an append is an error, never a reply for a write that did
    not happen."""
    encounters = Encounters(tmp_path / "c.db")
    writer: GroupWriter | None = encounters.log.home.writer  # type: ignore[attr-defined]
    assert writer is not None
    encounters.close()
    with pytest.raises(Exception):  # noqa: B017  (whatever a closed connection raises)
        writer.append([("0" * 32, 1, "t", b"{}")])
