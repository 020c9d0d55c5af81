"""A plug-in uninstalled leaves its encounters as they were: each is refused by name
(`ruleset/not-installed`, saying how to install it), never as a tampered log; `combat list`
marks it and lists the rest; `combat verify` checks its chain, in the store and in an export,
without decoding the plug-in's event types. Uninstalling is the registry losing the id, as
it does when the plug-in's entry point is gone (combat.rulesets)."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from uuid import UUID

import pytest
from click.testing import CliRunner
from litestar.testing import TestClient

from combat.app import application
from combat.app.application import Encounters
from combat.app.interchange import to_jsonl
from combat.cli import cli
from combat.kernel.commands import Ruling
from combat.kernel.errors import RuleError
from combat.rulesets import RULESETS, register
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
    assert "'twenty-one'" in err.message and "not installed" in err.message
    assert "install the plug-in that provides 'twenty-one'" in (err.allowed or "")
    assert "combat.rulesets" in (err.allowed or "")  # the entry-point group it must name
    assert "restore" not in str(err)  # nothing of the log is to be restored


def test_an_encounter_holding_only_the_kernels_events_is_refused_the_same_way(installed, tmp_path):
    """Its rows all decode (EncounterCreated is the kernel's): the fold names the ruleset."""
    eid = _game(tmp_path / "c.db", counts=())
    uninstall()
    assert _refused(tmp_path / "c.db", eid).code == NOT_INSTALLED


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
