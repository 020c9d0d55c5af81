"""A plug-in uninstalled leaves its encounters as they were: each is refused by name
(`ruleset/not-installed`, saying how to install it), never as a tampered log; `combat list`
marks it and lists the rest; `combat verify` checks its chain, in the store and in an export,
without decoding the plug-in's event types. Uninstalling is the registry losing the id, as
it does when the plug-in's entry point is gone (combat.rulesets)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from datetime import UTC, datetime
from pathlib import Path
from typing import ClassVar
from uuid import UUID, uuid4

import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from combat.app import application, chain
from combat.app.application import Encounters
from combat.app.interchange import to_jsonl
from combat.app.undecoded import known_types, read_line
from combat.cli import cli
from combat.kernel.commands import Ruling
from combat.kernel.errors import RuleError
from combat.kernel.events import EncounterCreated, Event, RulingMade
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.records import Recorded
from combat.rulesets import RULESETS, PluginError, register
from combat.service import create_app
from tests.plugins import twenty_one
from tests.plugins.twenty_one import Count
from tests.service.helpers import bearer

NOT_INSTALLED = "ruleset/not-installed"


@pytest.fixture
def installed() -> Iterator[None]:
    """twenty-one installed for the test; each test uninstalls it with `uninstall()`."""
    register(twenty_one.RULESET)
    yield
    if "twenty-one" not in RULESETS:
        register(twenty_one.RULESET)
    del RULESETS["twenty-one"]


def uninstall() -> None:
    del RULESETS["twenty-one"]


def _game(db: Path, counts: tuple[int, ...] = (3, 2, 1)) -> UUID:
    """A game of twenty-one and, before it, a fight of a built-in ruleset, in one store."""
    encounters = Encounters(db)
    try:
        encounters.create("srd-2024", "the ford", seed=1)
        eid = encounters.create("twenty-one", "after supper", seed=1)
        for player, by in zip(("ann", "bo", "ann", "bo", "ann"), counts, strict=False):
            encounters.execute(eid, Count(player=player, by=by))
        return eid
    finally:
        encounters.close()


def _refused(db: Path, eid: UUID) -> RuleError:
    encounters = Encounters(db)  # a fresh process's view: nothing cached
    try:
        with pytest.raises(RuleError) as caught:
            encounters.state(eid)
        return caught.value
    finally:
        encounters.close()


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_an_encounter_of_an_uninstalled_plugin_is_refused_by_its_ruleset_not_as_tampered(installed, tmp_path):
    eid = _game(tmp_path / "c.db")
    uninstall()
    err = _refused(tmp_path / "c.db", eid)
    assert err.code == NOT_INSTALLED, err
    assert f"encounter {eid} is of the ruleset 'twenty-one', which is not installed here" in err.message
    assert "install the plug-in that provides 'twenty-one'" in (err.allowed or "")
    assert "combat.rulesets" in (err.allowed or "")  # the entry-point group it must name
    assert "restore" not in str(err)  # nothing of the log is to be restored


def test_a_plugin_installed_but_failing_to_load_is_named_with_why(installed, tmp_path, monkeypatch):
    """The same refusal, saying the plug-in is there but did not load (combat rulesets lists it too)."""
    eid = _game(tmp_path / "c.db")
    uninstall()
    failed = PluginError("twenty-one", "combat_twenty_one:RULESET", "ModuleNotFoundError: No module named 'combat_twenty_one'")
    monkeypatch.setattr(RULESETS, "errors", [failed])
    err = _refused(tmp_path / "c.db", eid)
    assert err.code == NOT_INSTALLED and f"whose plug-in did not load ({failed.why})" in err.message


def test_an_encounter_holding_only_the_kernels_events_is_refused_the_same_way(installed, tmp_path):
    """Its rows all decode (EncounterCreated is the kernel's): the fold names the ruleset."""
    eid = _game(tmp_path / "c.db", counts=())
    uninstall()
    err = _refused(tmp_path / "c.db", eid)
    assert err.code == NOT_INSTALLED and f"encounter {eid} is of the ruleset 'twenty-one'" in err.message


def test_an_encounter_with_a_snapshot_is_refused_by_its_ruleset_not_passed_over(installed, tmp_path, monkeypatch):
    """A snapshot's state is the ruleset's type: without the ruleset it says so at once."""
    monkeypatch.setattr(application, "SNAPSHOT_INTERVAL", 3)
    eid = _game(tmp_path / "c.db", counts=(3, 3, 3, 3))
    with sqlite3.connect(tmp_path / "c.db") as conn:
        assert conn.execute("SELECT count(*) FROM stored_snapshots WHERE originator_id = ?", (eid.hex,)).fetchone()[0] >= 1
    uninstall()
    assert _refused(tmp_path / "c.db", eid).code == NOT_INSTALLED


def test_the_service_answers_503_naming_the_ruleset(installed, tmp_path):
    db = tmp_path / "c.db"
    encounters = Encounters(db)
    try:
        with TestClient(create_app(encounters)) as http:  # type: ignore[arg-type]
            opened = http.post("/encounters", json={"ruleset": "twenty-one", "name": "after supper", "seed": 1}).json()
    finally:
        encounters.close()
    uninstall()
    encounters = Encounters(db)
    try:
        with TestClient(create_app(encounters)) as http:  # type: ignore[arg-type]
            reply = http.get(f"/encounters/{opened['id']}", headers=bearer(opened["gm_token"]))
    finally:
        encounters.close()
    assert reply.status_code == 503, reply.text
    assert reply.json()["error"] == NOT_INSTALLED and "'twenty-one'" in reply.json()["detail"]


def test_combat_list_marks_it_and_lists_the_rest(installed, tmp_path):
    db = str(tmp_path / "c.db")
    eid = _game(tmp_path / "c.db")
    uninstall()
    listed = run("list", "--json", "--db", db)
    assert listed.exit_code == 0, listed.output
    by_name = {e["name"]: e for e in json.loads(listed.stdout)}
    assert by_name["the ford"]["phase"] == "setup" and "error" not in by_name["the ford"]
    game = by_name["after supper"]
    # Five events: created, the phase changed, three counts.
    assert game["id"] == str(eid) and game["ruleset"] == "twenty-one" and game["version"] == 5
    assert game["phase"] is None and game["error"]["code"] == NOT_INSTALLED

    table = run("list", "--db", db)
    assert table.exit_code == 0
    assert "ruleset not installed" in table.stdout and "the ford" in table.stdout
    assert f"note: {NOT_INSTALLED}" in table.stderr
    assert run("show", "the ford", "--db", db).exit_code == 0  # found by name past the other


def test_combat_verify_checks_its_chain_in_the_store_without_decoding_its_events(installed, tmp_path):
    db = str(tmp_path / "c.db")
    eid = _game(tmp_path / "c.db")
    uninstall()
    checked = run("verify", str(eid), "--db", db)
    assert checked.exit_code == 0, checked.output
    assert checked.stdout.startswith(f"ok: encounter {eid}: 5 events, chained from seq 1")
    assert "events of Counted not decoded" in checked.stdout
    assert "its ruleset 'twenty-one' is not installed" in checked.stdout


def _exported(db: Path, eid: UUID, path: Path) -> list[dict]:
    encounters = Encounters(db)
    try:
        path.write_bytes(b"".join(to_jsonl(encounters.records(eid))))
    finally:
        encounters.close()
    return [json.loads(line) for line in path.read_text().splitlines()]


def test_combat_verify_of_its_export_holds_and_a_changed_line_is_not_passed(installed, tmp_path):
    """'It proves the log is the one whose head hash you hold, unchanged' (docs/trust.md):
    without the ruleset an edited event of it is never called ok."""
    eid = _game(tmp_path / "c.db")
    lines = _exported(tmp_path / "c.db", eid, tmp_path / "game.jsonl")
    head = lines[-1]["hash"]
    uninstall()
    checked = run("verify", str(tmp_path / "game.jsonl"), "--head", head)
    assert checked.exit_code == 0, checked.output
    assert "ok: game.jsonl: 5 events" in checked.stdout and "events of Counted not decoded" in checked.stdout

    said = next(i for i, line in enumerate(lines) if line.get("total") == 5)
    lines[said]["total"] = 4  # bo said 5, not 4
    (tmp_path / "edited.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    edited = run("verify", str(tmp_path / "edited.jsonl"), "--head", head)
    assert edited.exit_code == 1 and "ok:" not in edited.stdout
    assert f"unchecked: edited.jsonl: seq {said + 1} not checked" in edited.stderr
    assert "Install the ruleset and verify again" in edited.stderr

    lines[said]["total"] = 5
    lines[0]["name"] = "before supper"  # the kernel's event: checked as ever
    (tmp_path / "renamed.jsonl").write_text("".join(json.dumps(line) + "\n" for line in lines))
    renamed = run("verify", str(tmp_path / "renamed.jsonl"))
    assert renamed.exit_code == 1 and "broken: renamed.jsonl at seq 1" in renamed.stderr


def test_reinstalled_it_reads_as_before(installed, tmp_path):
    eid = _game(tmp_path / "c.db")
    uninstall()
    assert _refused(tmp_path / "c.db", eid).code == NOT_INSTALLED
    register(twenty_one.RULESET)
    encounters = Encounters(tmp_path / "c.db")
    try:
        assert encounters.state(eid).rules.total == 6
        encounters.execute(eid, Ruling(text="ann's turn"))
    finally:
        encounters.close()


class Shouted(Event, frozen=True, kw_only=True):
    """A plug-in's event with a field that has a default: never in any ruleset here."""

    player: str
    loud: bool = False  # left out of the hashed bytes when it holds its default
    hidden: ClassVar[Hidden] = PUBLIC


def _sealed_log(*events: Event) -> list[bytes]:
    """A chained log of `events` after its EncounterCreated, as exported."""
    at = datetime(2026, 11, 28, 20, 0, tzinfo=UTC)
    created = EncounterCreated(ruleset="shouting", name="in the hall", seed=1, chained=True)
    records = [
        Recorded(originator_id=uuid4(), originator_version=n, timestamp=at, actor="gm", command_id=f"c{n}", event=e)
        for n, e in enumerate((created, *events), start=1)
    ]
    return b"".join(to_jsonl(chain.seal(chain.GENESIS, records))).splitlines()


def _verified(lines: list[bytes]) -> chain.Report:
    known = known_types()
    return chain.verify([read_line(line, n, known) for n, line in enumerate(lines, start=1)])


def test_an_undecoded_event_holding_a_default_is_unchecked_and_the_chain_is_checked_past_it():
    """The hashed bytes leave out a field at its default, and only its type knows the
    default: a Shouted with `loud` false, read where no ruleset has that type, is listed
    unchecked (never ok, never broken); one with `loud` true is checked over its fields as
    stored; an edit after them is still caught."""
    lines = _sealed_log(Shouted(player="ann"), Shouted(player="bo", loud=True), RulingMade(text="the hall is quiet"))
    assert b'"loud":false' in lines[1]  # exported with every field, as the store keeps it
    report = _verified(lines)
    assert report.broken is None and report.undecoded == ("Shouted",) and report.ruleset == "shouting"
    assert report.unchecked == (2,) and not report.ok  # seq 3 bore its hash out
    assert report.head == json.loads(lines[-1])["hash"]

    ruled = json.loads(lines[3])
    ruled["text"] = "the hall is loud"
    report = _verified([*lines[:3], json.dumps(ruled).encode()])
    assert report.broken is not None and report.broken.seq == 4

    shouted = json.loads(lines[2])
    shouted["player"] = "cy"  # an edit of an event that was checkable: unchecked, never ok
    report = _verified([lines[0], lines[1], json.dumps(shouted).encode(), lines[3]])
    assert report.broken is None and report.unchecked == (2, 3) and not report.ok


def test_the_followers_read_on_past_its_fights(installed, tmp_path, capsys):
    """The campaigns' carry-over and the statistics follow every encounter of the store: with
    the plug-in gone, its game's rows are passed over (with a warning), not a wall that stops
    every fight after it; installed again, `combat stats rebuild` counts the game too."""
    db = tmp_path / "c.db"
    game = _game(db)
    uninstall()
    encounters = Encounters(db)
    try:
        later = encounters.create("srd-2024", "the ford, again", seed=2)
        encounters.execute(later, Ruling(text="the river is in flood"))
        encounters.campaigns.carry_over()  # refused before: ruleset/not-installed at the game's first row
        encounters.stats.fresh()  # refused before, at the same row
        assert str(later) in {e["encounter"] for e in encounters.stats.tables.select("stats_encounters")}
        warned = capsys.readouterr().out
        assert warned.count("row passed over") == 6 and warned.count(f"encounter={game}") == 6  # its 3 counts, twice
        register(twenty_one.RULESET)
        encounters.stats.rebuild()
        assert "row passed over" not in capsys.readouterr().out
    finally:
        encounters.close()
