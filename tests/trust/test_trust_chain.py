"""A chain that can't be stripped (issue 25, finding 2): "remove `"hash"` from rows 1..k of
the store, edit row k, restart: the edit is served everywhere and new commands are chained
onto it ... An edited snapshot is served, and `combat verify` still exits 0 ... A row with
`"hash": null` gives a 500 ... A fully stripped export verifies with exit 0. `combat verify
ENCOUNTER` always opens the SQLite default and can't reach a PostgreSQL store."""

from __future__ import annotations

import json
import sqlite3
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from click.testing import CliRunner
from litestar.testing import TestClient
from structlog.testing import capture_logs

from combat.app import application, chain
from combat.app.application import Encounters
from combat.app.interchange import to_jsonl
from combat.cli import cli
from combat.demos import get_demo
from combat.kernel.commands import Ruling
from combat.kernel.errors import RuleError
from combat.service import create_app
from tests.service.helpers import bearer, open_fight, set_the_scene

Row = dict


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def _demo(db: Path, monkeypatch: pytest.MonkeyPatch, every: int = 10_000) -> uuid.UUID:
    monkeypatch.setattr(application, "SNAPSHOT_INTERVAL", every)
    encounters = Encounters(db)
    try:
        return get_demo("srd-2024")(encounters, seed=3, report=lambda outcome: None)
    finally:
        encounters.close()


def _rows(db: Path, eid: uuid.UUID, table: str = "stored_events") -> list[tuple[int, dict]]:
    with sqlite3.connect(db) as conn:
        return [
            (seq, json.loads(state))
            for seq, state in conn.execute(
                f"SELECT originator_version, state FROM {table} WHERE originator_id = ? ORDER BY originator_version", (eid.hex,)
            )
        ]


def _rewrite(db: Path, eid: uuid.UUID, change: Callable[[int, Row], None], table: str = "stored_events") -> None:
    """`change(seq, row)` on every row of the encounter, written back."""
    with sqlite3.connect(db) as conn:
        for seq, row in _rows(db, eid, table):
            before = json.dumps(row)
            change(seq, row)
            if json.dumps(row) != before:
                conn.execute(
                    f"UPDATE {table} SET state = ? WHERE originator_version = ? AND originator_id = ?",
                    (json.dumps(row).encode(), seq, eid.hex),
                )


def _as_a_release_before_the_census_left_it(db: Path) -> None:
    """The store as a release before issue 30 left it: no record of which logs predate
    hashes (combat.store.prehash), so the next open takes the census of the logs it holds."""
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE stored_prehash")


def _first_hit(db: Path, eid: uuid.UUID, after: int = 0) -> int:
    return next(seq for seq, row in _rows(db, eid) if seq > after and row["event"].get("hit") is True)


def _refused(db: Path, eid: uuid.UUID) -> list[chain.TamperedLog]:
    """Every way the application reads the encounter, each refused: the errors raised."""
    encounters = Encounters(db)
    errors = []
    try:
        for read in (
            lambda: encounters.state(eid),
            lambda: list(encounters.records(eid)),
            lambda: encounters.execute(eid, Ruling(text="the GM rules on it")),
        ):
            with pytest.raises(chain.TamperedLog) as caught:
                read()
            errors.append(caught.value)
    finally:
        encounters.close()
    return errors


@pytest.mark.parametrize("every", [10_000, 40], ids=["no snapshot", "snapshot every 40"])
def test_rows_stripped_of_their_hash_up_to_an_edited_one_are_refused_on_load(tmp_path, monkeypatch, every):
    """The issue's attack: hashes removed from rows 1..k, row k edited. The encounter's first
    event says its log is chained (`EncounterCreated.chained`), so its row without a hash is
    refused at once, on every read, never chained onto, with or without a snapshot before the
    edit; `verify` reports it there too."""
    db = tmp_path / "c.db"
    eid = _demo(db, monkeypatch, every)
    last = len(_rows(db, eid))
    snapshots = [seq for seq, _ in _rows(db, eid, "stored_snapshots")]
    k = max(snapshots, default=last - 5) + 1  # after the last snapshot: the load reads it
    assert k < last

    def strip_and_edit(seq: int, row: Row) -> None:
        if seq <= k:
            row.pop("hash")
        if seq == k:
            row["actor"] = "Sam"

    _rewrite(db, eid, strip_and_edit)
    for error in _refused(db, eid):
        assert error.code == "log/hash-missing" and error.broken.seq == 1
    assert len(_rows(db, eid)) == last  # nothing appended
    done = run("verify", str(eid), "--db", str(db))
    assert done.exit_code == 1 and "at seq 1" in done.output


def test_a_log_written_before_hashes_still_loads_and_its_stripped_rows_are_caught_at_the_next_hash(tmp_path, monkeypatch):
    """A log whose first event does not say it is chained (written before hashes, or before
    the marker) reads rows without a hash as it always did: the chain runs through them, so an
    edit among them breaks the next hashed row."""
    db = tmp_path / "c.db"
    eid = _demo(db, monkeypatch)
    k = _first_hit(db, eid)

    def as_before_the_marker(seq: int, row: Row) -> None:
        if seq == 1:
            row["event"].pop("chained")
            row.pop("hash")
        elif seq < k:
            row.pop("hash")
        elif seq == k:
            row.pop("hash")
            row["actor"] = "Sam"

    _rewrite(db, eid, as_before_the_marker)
    _as_a_release_before_the_census_left_it(db)
    for error in _refused(db, eid):
        assert error.code == "log/tampered" and error.broken.seq == k + 1


def test_an_edit_before_the_snapshot_with_stripped_hashes_is_never_served_as_events(tmp_path, monkeypatch):
    """The state loads from the snapshot (which the edit does not touch); every read of the
    events walks the chain from seq 1 and refuses."""
    db = tmp_path / "c.db"
    eid = _demo(db, monkeypatch, every=10)
    k = _first_hit(db, eid)
    _rewrite(
        db,
        eid,
        lambda seq, row: (
            (row.pop("hash"), seq == k and row["event"].update(damage=row["event"]["damage"] + 7)) if seq <= k else None
        ),
    )
    encounters = Encounters(db)
    try:
        with pytest.raises(chain.TamperedLog) as caught:
            list(encounters.records(eid))
        assert caught.value.broken.seq == 1  # its first event says the log is chained
        assert encounters.verify(eid).broken.seq == 1
    finally:
        encounters.close()


@pytest.mark.parametrize("how", ["removed", "null"])
def test_a_row_without_its_hash_in_a_chained_log_is_refused_with_a_code_of_its_own(tmp_path, how):
    """A hash removed from one row, or set to null: refused on every read, over HTTP with a
    409 naming it (a null was a 500 on every request), and by the CLI in one line."""
    db = tmp_path / "c.db"
    encounters = Encounters(db)
    try:
        with TestClient(create_app(encounters)) as http:  # type: ignore[arg-type]
            fight = set_the_scene(open_fight(http))
    finally:
        encounters.close()
    eid = uuid.UUID(fight.id)
    k = len(_rows(db, eid)) - 2
    _rewrite(db, eid, lambda seq, row: seq == k and (row.pop("hash") if how == "removed" else row.update(hash=None)))
    code = {"removed": "log/hash-missing", "null": "log/unreadable-row"}[how]
    encounters = Encounters(db)
    try:
        for read in (
            lambda: encounters.state(eid),
            lambda: list(encounters.records(eid)),
            lambda: encounters.execute(eid, Ruling(text="the GM rules on it")),
        ):
            with pytest.raises(RuleError) as caught:
                read()
            assert caught.value.code == code and f"seq {k}" in str(caught.value)
        with TestClient(create_app(encounters)) as http:  # type: ignore[arg-type]
            for reply in (
                http.get(fight.url(), headers=bearer(fight.gm)),
                http.get(fight.url("/events"), headers=bearer(fight.gm)),
                http.post(
                    fight.url("/commands"), headers=bearer(fight.gm), json={"command": {"type": "ruling", "text": "on it"}}
                ),
            ):
                assert reply.status_code == 409 and reply.json()["error"] == code, reply.text
    finally:
        encounters.close()
    done = run("show", str(eid), "--db", str(db))
    assert done.exit_code == 2 and f"seq {k}" in done.stderr


def test_an_edited_snapshot_is_passed_over_logged_and_reported_by_verify(tmp_path, monkeypatch):
    db = tmp_path / "c.db"
    eid = _demo(db, monkeypatch, every=10)
    encounters = Encounters(db)
    try:
        truth = encounters.state(eid)
        assert encounters.verify(eid).ok
    finally:
        encounters.close()
    snapshots = _rows(db, eid, "stored_snapshots")
    seq, latest = snapshots[-1]
    some = next(iter(latest["state"]["combatants"]))

    def edit(at: int, row: Row) -> None:
        if at == seq:
            row["state"]["combatants"][some]["hp"] = 999

    _rewrite(db, eid, edit, "stored_snapshots")
    encounters = Encounters(db)
    try:
        with capture_logs() as logs:
            assert encounters.state(eid) == truth
        assert [(e["event"], e["seq"]) for e in logs if e["log_level"] == "warning"] == [("snapshot passed over", seq)]
        report = encounters.verify(eid)
        assert report.broken is None and [b.seq for b in report.snapshots] == [seq] and not report.ok
    finally:
        encounters.close()
    done = run("verify", str(eid), "--db", str(db))
    assert done.exit_code == 1 and f"snapshot at seq {seq}" in done.stderr and "digest" in done.stderr

    # A forger who works the digest out again gets the edit past the load's cheap check,
    # but not past verify, which folds the log (docs/trust.md says so).
    def forge(at: int, row: Row) -> None:
        if at == seq:
            encounters = Encounters(db)
            try:
                forged = encounters.log.latest_snapshot(eid)
            finally:
                encounters.close()
            assert forged is not None
            row["digest"] = chain.snapshot_digest(eid, seq, row["head"], forged.state)

    _rewrite(db, eid, forge, "stored_snapshots")
    done = run("verify", str(eid), "--db", str(db))
    assert done.exit_code == 1 and "not the fold of the log" in done.stderr


def test_a_snapshot_bound_to_the_log_is_used(tmp_path, monkeypatch):
    db = tmp_path / "c.db"
    eid = _demo(db, monkeypatch, every=10)
    encounters = Encounters(db)
    try:
        folded = []
        monkeypatch.setattr(
            application.history, "replay", lambda records, _r=application.history.replay: folded.append(1) or _r(records)
        )
        state = encounters.state(eid)
        assert folded == [] and state.version == len(_rows(db, eid))
    finally:
        encounters.close()


def test_an_export_stripped_of_its_hashes_fails_verify(tmp_path, monkeypatch):
    db = tmp_path / "c.db"
    eid = _demo(db, monkeypatch)
    encounters = Encounters(db)
    try:
        lines = [json.loads(line) for line in b"".join(to_jsonl(encounters.records(eid))).splitlines()]
    finally:
        encounters.close()
    stripped = tmp_path / "stripped.jsonl"
    stripped.write_text("".join(json.dumps({k: v for k, v in line.items() if k != "hash"}) + "\n" for line in lines))
    done = run("verify", str(stripped))
    assert done.exit_code == 1 and "at seq 1" in done.stderr and "hash was removed" in done.stderr
    partly = tmp_path / "partly.jsonl"
    k = 5
    partly.write_text(
        "".join(
            json.dumps(
                {kk: v for kk, v in line.items() if kk != "hash" or line["seq"] > k}
                if line["seq"] != k
                else {**{kk: v for kk, v in line.items() if kk != "hash"}, "actor": "Sam"}
            )
            + "\n"
            for line in lines
        )
    )
    done = run("verify", str(partly))
    assert done.exit_code == 1 and "at seq 1" in done.stderr


def test_verify_reaches_an_encounter_in_postgresql_by_url(postgres, tmp_path):
    encounters = Encounters(env={**postgres, "COMBAT_PARTITIONS": "2"})
    try:
        eid = get_demo("srd-2024")(encounters, seed=3, report=lambda outcome: None)
        head = encounters.state(eid).version
    finally:
        encounters.close()
    url = (
        f"postgresql://{postgres['POSTGRES_USER']}@{postgres['POSTGRES_HOST']}:{postgres['POSTGRES_PORT']}/"
        f"{postgres['POSTGRES_DBNAME']}?schema={postgres['POSTGRES_SCHEMA']}"
    )
    done = run("verify", str(eid), "--db", url)
    assert done.exit_code == 0, done.output
    assert f"{head} events, chained from seq 1" in done.stdout


@pytest.mark.parametrize("every", [10_000, 40], ids=["no snapshot", "snapshot every 40"])
def test_a_log_relabelled_as_written_before_hashes_is_refused(tmp_path, monkeypatch, every):
    """Issue 30: "a store whose event hashes are all stripped and whose EncounterCreated says
    chained=false (relabelled 'pre-hash') is served, chained onto and then verified". The
    store made now lists no log as written before hashes, in a table the event rows do not
    touch: the relabelled log is refused on every read, nothing is appended, `combat verify`
    names seq 1, and opening the store again does not list it."""
    db = tmp_path / "c.db"
    eid = _demo(db, monkeypatch, every)
    last = len(_rows(db, eid))

    def relabel(seq: int, row: Row) -> None:
        row.pop("hash")
        if seq == 1:
            row["event"]["chained"] = False

    _rewrite(db, eid, relabel)
    for _ in range(2):  # the record is written once: a second open does not take it again
        for error in _refused(db, eid):
            assert (error.code, error.broken.seq) == ("log/not-pre-hash", 1)
    assert len(_rows(db, eid)) == last  # nothing appended
    done = run("verify", str(eid), "--db", str(db))
    assert done.exit_code == 1 and "at seq 1" in done.output and "does not list this encounter" in done.output


def test_rows_appended_to_an_old_log_must_keep_their_hashes(tmp_path, monkeypatch):
    """A log written before hashes, in a store an older release left, is listed with the
    seqs that had no hash then; the rows this release appends are hashed, and stripping them
    all (and the first event relabelled) does not make them old: refused at the first of them."""
    db = tmp_path / "c.db"
    eid = _demo(db, monkeypatch)
    old = len(_rows(db, eid))

    def as_before_hashes(seq: int, row: Row) -> None:
        row.pop("hash")
        if seq == 1:
            row["event"].pop("chained")

    _rewrite(db, eid, as_before_hashes)
    _as_a_release_before_the_census_left_it(db)
    encounters = Encounters(db)
    try:
        assert encounters.log.unhashed_through(eid) == old
        encounters.execute(eid, Ruling(text="the ogre's club splinters"))
        assert encounters.verify(eid).ok
    finally:
        encounters.close()
    _rewrite(db, eid, lambda seq, row: row.pop("hash", None))
    for error in _refused(db, eid):
        assert (error.code, error.broken.seq) == ("log/not-pre-hash", old + 1)
    done = run("verify", str(eid), "--db", str(db))
    assert done.exit_code == 1 and f"at seq {old + 1}" in done.output and f"only seq 1-{old}" in done.output
