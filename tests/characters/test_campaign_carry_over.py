"""Carry-over from fights to a campaign's characters: exactly once, after a crash too; a
tampered or unreadable record refused for its character alone; a party stored before
campaigns moved into the default campaign with what its last fight left it."""

from __future__ import annotations

import sqlite3
import sys
import textwrap
import uuid
from datetime import UTC, datetime
from pathlib import Path

import msgspec
import pytest
from eventsourcing.persistence import StoredEvent
from eventsourcing.sqlite import SQLiteApplicationRecorder, SQLiteDatastore

from combat.app.application import Encounters, run_sync
from combat.campaigns.carry_over import FOLLOWER
from combat.campaigns.records import DEFAULT_CAMPAIGN, CharacterJoined, CharacterSaved, PartyRecord, character_id
from combat.characters.sheet import CharacterSheet
from combat.common.commands import Damage
from combat.fivee.casts import CastSpell
from combat.fivee.characters import AddCharacter, CharacterStatus
from combat.fivee.gm_edit_commands import SetHp
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndCombat
from combat.kernel.errors import RuleError
from combat.store.party import TABLE, TOPIC, tracking_name
from tests.helpers import killed_mid_stream, member, monster

ROOT = Path(__file__).resolve().parents[2]

FIGHTER = member("Brann", armor="Chain Mail", weapons=("Longsword",))
WIZARD = member("Elara", 5, "Fireball", weapons=("Dagger",))


def _fight(encounters: Encounters, campaign: uuid.UUID, *names: str) -> uuid.UUID:
    eid = encounters.create("srd-2024", "the goblin ambush", seed=3, campaign=campaign)
    for name in names:
        encounters.execute(eid, AddCharacter(character=name, side="party"))
    encounters.execute(eid, AddCombatant(combatant=monster("goblin-1", max_hp=40)))
    encounters.execute(eid, BeginCombat())
    for i, cid in enumerate((*(n.lower() for n in names), "goblin-1")):
        encounters.execute(eid, RollInitiative(combatant=cid, faces=(20 - 5 * i,)))
    return eid


def _campaign_saved(db: Path, *sheets: CharacterSheet) -> uuid.UUID:
    """A store at `db` with a campaign "Greyhawk" holding `sheets`; the campaign's id."""
    encounters = Encounters(db)
    try:
        camp = encounters.campaigns.create("Greyhawk").id
        for sheet in sheets:
            encounters.campaigns.save(camp, sheet)
        return camp
    finally:
        encounters.close()


def test_a_long_rest_mid_fight_is_refused_and_the_fight_is_carried_exactly(encounters: Encounters):
    """Issue 30, item 4: "a Long Rest during a fight, 10 HP and a 3rd-level slot lost". The rest
    is refused while Elara is in the fight; what the fight did (a Fireball's slot, 10 damage) is
    carried, and the Long Rest after it gives back "all lost Hit Points" and the slot."""
    camp = encounters.campaigns.create("Greyhawk").id
    encounters.campaigns.save(camp, WIZARD)
    eid = _fight(encounters, camp, "Elara")
    encounters.execute(
        eid, CastSpell(caster="elara", spell="Fireball", targets=("goblin-1",), damage_faces=((1,) * 8,)), actor="sam"
    )
    encounters.execute(eid, Damage(target="elara", amount=10, damage_type="slashing"))
    with pytest.raises(RuleError) as caught:
        encounters.campaigns.rest(camp, "Elara", "long")
    assert caught.value.code == "rest/in-fight" and str(eid) in caught.value.message
    encounters.execute(eid, EndCombat(reason="the goblin flees"))
    encounters.campaigns.carry_over()
    elara = encounters.campaigns.get(camp, "Elara")
    assert (elara.status.hp, elara.status.slots_spent, elara.fight) == (17, (0, 0, 1), None)
    stored, rest = encounters.campaigns.rest(camp, "Elara", "long")
    assert rest.healed == 10 and stored.status == CharacterStatus()


def test_a_tampered_record_is_refused_for_its_character_alone(tmp_path):
    """The party's log is hash-chained: a StatusCarried edited in the store (HP 33 made 44)
    breaks Brann's chain; Elara still reads, and the roster lists Brann as unreadable."""
    db = tmp_path / "combat.db"
    encounters = Encounters(db)
    try:
        camp = encounters.campaigns.create("Greyhawk").id
        encounters.campaigns.save(camp, FIGHTER)
        encounters.campaigns.save(camp, WIZARD)
        eid = _fight(encounters, camp, "Brann")
        encounters.execute(eid, Damage(target="brann", amount=11, damage_type="slashing"))
        encounters.execute(eid, EndCombat(reason="done"))
        encounters.campaigns.carry_over()
        assert encounters.campaigns.get(camp, "Brann").status.hp == 33
    finally:
        encounters.close()
    with sqlite3.connect(db) as con:
        rows = con.execute(f"SELECT rowid, state FROM {TABLE} WHERE CAST(state AS TEXT) LIKE '%StatusCarried%'").fetchall()
        (rowid, state), *_ = rows
        con.execute(f"UPDATE {TABLE} SET state = ? WHERE rowid = ?", (bytes(state).replace(b'"hp":33', b'"hp":44'), rowid))
    encounters = Encounters(db)
    try:
        with pytest.raises(RuleError) as caught:
            encounters.campaigns.get(camp, "Brann")
        assert caught.value.code == "party/tampered" and "hash does not match" in caught.value.message
        roster = encounters.campaigns.roster(camp)
        assert [c.name for c in roster.characters] == ["Elara"]
        assert [u.id for u in roster.unreadable] == [character_id(camp, "Brann")]
        assert [b.id for b in encounters.campaigns.verify()] == [character_id(camp, "Brann")]
    finally:
        encounters.close()


def test_an_unreadable_row_is_reported_for_its_character_and_the_roster_still_lists(tmp_path):
    """Issue 30, item 3: one record that could not be decoded broke the list for everyone."""
    db = tmp_path / "combat.db"
    camp = _campaign_saved(db, FIGHTER, WIZARD)
    with sqlite3.connect(db) as con:
        con.execute(f"UPDATE {TABLE} SET state = ? WHERE CAST(state AS TEXT) LIKE '%\"Brann\"%'", (b'{"max_hp": 1000000000000}',))
    encounters = Encounters(db)
    try:
        roster = encounters.campaigns.roster(camp)
        assert [c.name for c in roster.characters] == ["Elara"] and len(roster.unreadable) == 1
    finally:
        encounters.close()


def test_a_party_stored_before_campaigns_moves_into_the_default_campaign(tmp_path):
    """A store of the last release: Brann saved, joined a fight (the old `CharacterJoined`
    pointer, no hash), was set to 35 HP there, and nothing was read back yet. Opened by this
    release, Brann is the default campaign's, carries the 35 HP, and is in that fight still."""
    db = tmp_path / "combat.db"
    encounters = Encounters(db)
    encounters.on_appended = lambda *_: None  # the last release carried nothing over as it wrote
    try:
        eid = encounters.create("srd-2024", "an old fight", seed=1)
        # As the last release wrote it: the service filled in the stored name, no campaign.
        run_sync(
            encounters.executing(eid, AddCharacter(character=FIGHTER, side="party", stored_as="Brann"), encounters.log.commits())
        )
        encounters.execute(eid, SetHp(combatant="brann", hp=35))
        cid = character_id(DEFAULT_CAMPAIGN, "Brann")
        now = datetime.now(UTC)
        _write_as_the_last_release_did(
            db,
            [
                PartyRecord(
                    originator_id=cid, originator_version=1, timestamp=now, actor="gm", event=CharacterSaved(sheet=FIGHTER)
                ),
                PartyRecord(
                    originator_id=cid,
                    originator_version=2,
                    timestamp=now,
                    actor="gm",
                    event=CharacterJoined(encounter=eid, combatant="brann"),
                ),
            ],
        )
    finally:
        encounters.close()
    encounters = Encounters(db)
    try:
        brann = encounters.campaigns.get(DEFAULT_CAMPAIGN, "Brann")
        assert (brann.status.hp, brann.fight, brann.unsettled) == (35, eid, None)
        encounters.execute(eid, SetHp(combatant="brann", hp=30))
        encounters.campaigns.carry_over()
        assert encounters.campaigns.get(DEFAULT_CAMPAIGN, "Brann").status.hp == 30
        assert encounters.campaigns.verify() == []
    finally:
        encounters.close()


def _write_as_the_last_release_did(db: Path, records: list[PartyRecord]) -> None:
    """Party rows as the release before campaigns wrote them: its table, no hash, no census."""
    datastore = SQLiteDatastore(str(db))
    try:
        recorder = SQLiteApplicationRecorder(datastore, events_table_name=TABLE)
        recorder.create_table()
        recorder.insert_events(
            [
                StoredEvent(
                    originator_id=r.originator_id,
                    originator_version=r.originator_version,
                    topic=TOPIC,
                    state=msgspec.json.encode(r),
                )
                for r in records
            ]
        )
    finally:
        datastore.close()


def test_a_character_log_stripped_of_its_hashes_is_refused(tmp_path):
    """A log begun by this release is chained from its first record: stripping every hash of
    Brann's log (so that it reads as a log from before hashes) does not make it old, because
    the store's record of the logs written before hashes, taken when this release first
    opened the store, does not list it."""
    db = tmp_path / "combat.db"
    camp = _campaign_saved(db, FIGHTER, FIGHTER)
    with sqlite3.connect(db) as con:
        for rowid, state in con.execute(f"SELECT rowid, state FROM {TABLE}").fetchall():
            plain = msgspec.json.decode(bytes(state))
            plain.pop("hash", None)
            con.execute(f"UPDATE {TABLE} SET state = ? WHERE rowid = ?", (msgspec.json.encode(plain), rowid))
    encounters = Encounters(db)
    try:
        with pytest.raises(RuleError) as caught:
            encounters.campaigns.get(camp, "Brann")
        assert caught.value.code == "party/tampered" and "carries no hash" in caught.value.message
    finally:
        encounters.close()


_WRITER = textwrap.dedent(
    """
    import sys
    from uuid import UUID
    from combat.app.application import Encounters
    from combat.fivee.gm_edit_commands import SetHp

    encounters = Encounters(sys.argv[1])
    camp, eid = UUID(sys.argv[2]), UUID(sys.argv[3])
    print("ready", flush=True)
    for i in range(200):
        encounters.execute(eid, SetHp(combatant="brann", hp=20 + i % 17))
        encounters.campaigns.carry_over()
    """
)


@pytest.mark.skipif(sys.platform == "win32", reason="kill -9 is POSIX")
def test_kill_9_during_party_writes_loses_and_repeats_nothing(tmp_path):
    """Issue 30, item 4: after kill -9, characters pointed at fights that never got them. A
    process carrying a fight over is killed mid-write, again and again; the next process reads
    on from the last position committed with the last record, and Brann carries exactly what
    the fight's log says: no event applied twice, none lost."""
    db = tmp_path / "combat.db"
    encounters = Encounters(db)
    try:
        camp = encounters.campaigns.create("Greyhawk").id
        encounters.campaigns.save(camp, FIGHTER)
        eid = _fight(encounters, camp, "Brann")
    finally:
        encounters.close()
    killed_mid_stream(_WRITER, str(db), str(camp), str(eid))
    encounters = Encounters(db)
    try:
        encounters.campaigns.carry_over()
        hp = encounters.state(eid).combatants["brann"].hp
        brann = encounters.campaigns.get(camp, "Brann")
        assert brann.status.hp == (None if hp == 44 else hp) and brann.fight == eid
        carried = [r.event for r in encounters.campaigns.history(camp, "Brann")]
        # Every StatusCarried is as of a later event than the one before it: none repeated.
        seqs = [e.seq for e in carried if type(e).__name__ == "StatusCarried"]
        assert seqs == sorted(set(seqs))
        tracked = encounters.campaigns.log.position(tracking_name(FOLLOWER, encounters.log.home))
        assert tracked == encounters.log.home.recorder.max_notification_id()
    finally:
        encounters.close()


def test_combat_verify_campaigns_names_the_broken_log(tmp_path):
    """`combat verify --campaigns`: exit 0 while every chain holds, 1 naming the log that breaks."""
    from click.testing import CliRunner

    from combat.cli import cli

    db = tmp_path / "combat.db"
    camp = _campaign_saved(db, FIGHTER)
    run = CliRunner().invoke
    ok = run(cli, ["verify", "--campaigns", "--db", str(db)])
    assert ok.exit_code == 0 and "ok: 2 campaign and character logs" in ok.output, ok.output
    with sqlite3.connect(db) as con:
        con.execute(f"UPDATE {TABLE} SET state = replace(CAST(state AS TEXT), '\"max_hp\":44', '\"max_hp\":45')")
    broken = run(cli, ["verify", "--campaigns", "--db", str(db)])
    assert broken.exit_code == 1 and f"broken: log {character_id(camp, 'Brann')}" in broken.output, broken.output
