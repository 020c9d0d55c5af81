"""Tamper evidence (issue 14, finding 6): "`combat replay` accepts an exported log with a
changed damage number, dice faces that no longer add up to their total, a changed actor,
deleted or reordered lines with renumbered seqs, or truncation ... A row edited in the store
is served without complaint." Each event's hash is now chained to the one before it."""

from __future__ import annotations

import json
import sqlite3
import uuid
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner
from hypothesis import given, settings
from hypothesis import strategies as st

from combat.app import chain
from combat.app.application import Encounters
from combat.app.interchange import from_line, read_jsonl, to_jsonl
from combat.cli import cli
from combat.demos import get_demo
from tests.helpers import REPLAYS

REPLAYS = sorted(REPLAYS.glob("*.jsonl"))


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def exported(tmp_path_factory) -> list[dict]:
    """A whole srd-2024 demo fight, exported: one dict per line, hashes included."""
    db = tmp_path_factory.mktemp("tamper") / "combat.db"
    encounters = Encounters(db)
    try:
        eid = get_demo("srd-2024")(encounters, seed=3, report=lambda outcome: None)
        lines = b"".join(to_jsonl(encounters.records(eid)))
    finally:
        encounters.close()
    return [json.loads(line) for line in lines.splitlines()]


def write(path: Path, lines: list[dict]) -> Path:
    path.write_text("".join(json.dumps(line) + "\n" for line in lines))
    return path


def broken_at(lines: list[dict], head: str | None = None) -> int | None:
    report = chain.verify((from_line(json.dumps(line)) for line in lines), head=head)
    return None if report.broken is None else report.broken.seq


def renumbered(lines: list[dict]) -> list[dict]:
    return [{**line, "seq": seq} for seq, line in enumerate(lines, start=1)]


def first(lines: list[dict], kind: str, start: int = 3) -> int:
    return next(i for i, line in enumerate(lines) if line["type"] == kind and i >= start)


def first_hit(lines: list[dict]) -> int:
    return next(i for i, line in enumerate(lines) if line["type"] == "AttackMade" and line["hit"])


def test_an_untouched_export_verifies_and_states_its_head(exported, tmp_path):
    log = write(tmp_path / "fight.jsonl", exported)
    done = run("verify", str(log), "--head", exported[-1]["hash"])
    assert done.exit_code == 0, done.output
    assert f"head {exported[-1]['hash']}" in done.stdout and "chained from seq 1" in done.stdout
    assert all(line["hash"] for line in exported)


def test_a_changed_damage_number_breaks_the_chain_there(exported, tmp_path):
    i = first_hit(exported)
    tampered = [*exported[:i], {**exported[i], "damage": exported[i]["damage"] + 5}, *exported[i + 1 :]]
    assert broken_at(tampered) == i + 1
    done = run("verify", str(write(tmp_path / "t.jsonl", tampered)))
    assert done.exit_code == 1 and f"at seq {i + 1}" in done.output
    replayed = run("replay", str(tmp_path / "t.jsonl"))
    assert replayed.exit_code != 0 and f"seq {i + 1}" in replayed.output


def test_a_changed_face_is_caught_even_with_the_total_fixed_to_match(exported):
    i = first(exported, "DiceRolled")
    line = exported[i]
    dice = [dict(d) for d in line["dice"]]
    dice[0]["face"] = 20 if dice[0]["face"] != 20 else 19
    fixed_total = line["total"] + dice[0]["face"] - line["dice"][0]["face"]
    assert broken_at([*exported[:i], {**line, "dice": dice}, *exported[i + 1 :]]) == i + 1
    assert broken_at([*exported[:i], {**line, "dice": dice, "total": fixed_total}, *exported[i + 1 :]]) == i + 1


def test_a_changed_actor_breaks_the_chain(exported):
    i = first(exported, "DiceRolled")
    assert broken_at([*exported[:i], {**exported[i], "actor": "Sam"}, *exported[i + 1 :]]) == i + 1


def test_a_deleted_line_is_caught_with_or_without_renumbering(exported):
    i = first(exported, "AttackMade")
    cut = [*exported[:i], *exported[i + 1 :]]
    assert broken_at(cut) == i + 1  # seq i+2 where i+1 belongs
    assert broken_at(renumbered(cut)) == i + 1  # the line now at i+1 does not follow seq i


def test_reordered_lines_with_renumbered_seqs_are_caught(exported):
    i = first(exported, "AttackMade")
    swapped = [*exported[:i], exported[i + 1], exported[i], *exported[i + 2 :]]
    assert broken_at(renumbered(swapped)) == i + 1


def test_a_duplicated_seq_is_caught(exported, tmp_path):
    i = first(exported, "AttackMade")
    doubled = [*exported[: i + 1], exported[i], *exported[i + 1 :]]
    assert broken_at(doubled) == i + 2
    done = run("verify", str(write(tmp_path / "d.jsonl", doubled)))
    assert done.exit_code == 1 and "repeats a seq" in done.output


def test_a_cut_tail_is_caught_when_the_head_is_known(exported, tmp_path):
    head = exported[-1]["hash"]
    short = exported[:-3]
    assert broken_at(short) is None  # a prefix of a good log is a good log...
    assert broken_at(short, head=head) == len(short) + 1  # ...but not the one published
    done = run("verify", str(write(tmp_path / "s.jsonl", short)), "--head", head)
    assert done.exit_code == 1 and "published" in done.output


def test_a_whole_chain_rewritten_after_an_edit_is_caught_by_the_published_head(exported):
    i = first_hit(exported)
    records = [from_line(json.dumps(line)) for line in exported]
    edited = msgspec.structs.replace(records[i], event=msgspec.structs.replace(records[i].event, damage=99))
    rewritten = chain.seal(records[i - 1].hash, [edited, *records[i + 1 :]])
    forged = [*records[:i], *rewritten]
    assert chain.verify(forged).ok  # a forger can re-hash everything after the edit...
    assert not chain.verify(forged, head=exported[-1]["hash"]).ok  # ...but not match the head


def test_a_stripped_hash_is_caught(exported):
    i = first(exported, "AttackMade")
    line = dict(exported[i])
    del line["hash"]
    assert broken_at([*exported[:i], line, *exported[i + 1 :]]) == i + 1


@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_any_single_changed_number_is_caught(exported, data):
    """Property: change any integer field (not seq) of any line and verify breaks at that seq."""
    candidates = [
        (i, key)
        for i, line in enumerate(exported)
        for key, value in line.items()
        if key != "seq" and isinstance(value, int) and not isinstance(value, bool)
    ]
    i, key = data.draw(st.sampled_from(candidates))
    delta = data.draw(st.integers(min_value=1, max_value=50))
    tampered = [*exported[:i], {**exported[i], key: exported[i][key] + delta}, *exported[i + 1 :]]
    assert broken_at(tampered) == i + 1


# -- logs written before hashes ----------------------------------------------------------


@pytest.mark.parametrize("log", REPLAYS, ids=lambda p: p.stem)
def test_recorded_sessions_without_hashes_verify_as_unchained_when_allowed(log: Path):
    refused = run("verify", str(log))  # nothing vouches for a log without hashes (issue 25)
    assert refused.exit_code == 1 and "no event carries a hash" in refused.stderr
    done = run("verify", str(log), "--allow-unchained")
    assert done.exit_code == 0, done.output
    assert "no event carries a hash" in done.stdout


def test_an_old_log_with_dice_that_do_not_add_up_is_refused_by_replay(tmp_path):
    lines = [json.loads(line) for line in REPLAYS[0].read_text().splitlines()]
    i = first(lines, "DiceRolled")
    lines[i]["total"] += 1
    done = run("replay", str(write(tmp_path / "old.jsonl", lines)))
    assert done.exit_code != 0 and f"seq {i + 1}" in done.output and "totals" in done.output


def test_an_old_log_in_a_store_from_before_hashes_gets_chained_from_where_it_stands(tmp_path):
    """Events appended to an encounter written before hashes follow the chain computed
    through its old events; verify says which part is unchained. The store held the log
    before this release first opened it (its record of old logs, combat.store.prehash, is
    taken then), so it lists it."""
    old = read_jsonl(REPLAYS[0].read_bytes().splitlines())
    db = tmp_path / "c.db"
    eid = uuid.uuid4()
    encounters = Encounters(db)
    encounters.log.append([msgspec.structs.replace(r, originator_id=eid) for r in old])
    encounters.close()
    with sqlite3.connect(db) as conn:
        conn.execute("DROP TABLE stored_prehash")  # as a release before the record left the store
    encounters = Encounters(db)
    try:
        assert encounters.log.unhashed_through(eid) == len(old)
        encounters.undo_last(eid, reason="the GM takes the last ruling back")
        report = encounters.verify(eid)
        assert report.ok and report.unchained == len(old) and report.events == len(old) + 1
    finally:
        encounters.close()


def test_an_old_log_put_into_a_store_made_now_is_refused(tmp_path):
    """Issue 30: a log without hashes is accepted only where the store lists it as written
    before hashes; a store made now lists none, so rows without a hash written into it are
    what an editor leaves, and nothing of them is served or chained onto. (An old recorded
    log still replays from its file: `combat replay`, tests/app/test_replays.py.)"""
    old = read_jsonl(REPLAYS[0].read_bytes().splitlines())
    encounters = Encounters(tmp_path / "c.db")
    try:
        eid = uuid.uuid4()
        encounters.log.append([msgspec.structs.replace(r, originator_id=eid) for r in old])
        with pytest.raises(chain.NotPreHash) as refused:
            encounters.undo_last(eid, reason="the GM takes the last ruling back")
        assert (refused.value.code, refused.value.broken.seq) == ("log/not-pre-hash", 1)
        assert len(list(encounters.log.recorded(eid))) == len(old)  # nothing chained onto it
        assert encounters.verify(eid).broken == chain.Break(1, chain.not_prehash(0))
    finally:
        encounters.close()


# -- the store ---------------------------------------------------------------------------


def _edit_row(db: Path, eid: uuid.UUID, pick, change) -> int:
    with sqlite3.connect(db) as conn:
        rows = conn.execute(
            "SELECT originator_version, state FROM stored_events WHERE originator_id = ? ORDER BY originator_version DESC",
            (eid.hex,),
        ).fetchall()
        seq, state = next((seq, state) for seq, state in rows if pick(json.loads(state)))
        record = json.loads(state)
        change(record)
        conn.execute(
            "UPDATE stored_events SET state = ? WHERE originator_version = ? AND originator_id = ?",
            (json.dumps(record).encode(), seq, eid.hex),
        )
    return seq


def test_a_row_edited_in_the_store_is_refused_when_read(tmp_path):
    """Reading the log (export, /events, /log, audit) checks each row against the one before;
    loading the state checks the rows after the latest snapshot (the cheap check)."""
    db = tmp_path / "combat.db"
    encounters = Encounters(db)
    try:
        eid = get_demo("srd-2024")(encounters, seed=3, report=lambda outcome: None)
    finally:
        encounters.close()
    hit = _edit_row(
        db, eid, lambda r: r["event"].get("hit") is True, lambda r: r["event"].update(damage=r["event"]["damage"] + 7)
    )
    encounters = Encounters(db)
    try:
        with pytest.raises(chain.TamperedLog) as caught:
            list(encounters.records(eid))
        assert caught.value.broken.seq == hit
        assert encounters.verify(eid).broken.seq == hit
    finally:
        encounters.close()
    done = run("verify", str(eid), "--db", str(db))
    assert done.exit_code == 1 and f"at seq {hit}" in done.output
    last = _edit_row(db, eid, lambda r: True, lambda r: r.update(actor="Sam"))
    encounters = Encounters(db)
    try:
        with pytest.raises(chain.TamperedLog) as caught:
            encounters.state(eid)
        assert caught.value.broken.seq == last
    finally:
        encounters.close()
