"""Commands decided on the service's event loop and committed together once per turn of the
loop (combat.store.group_commit): each table's log stays whole and in order, a table's own
commands are taken one at a time, and a refusal or a lost race touches only its own command.

The rule every scenario leans on (SRD 5.2, Damage and Healing): "Whenever a creature takes
damage, that damage is subtracted from its Hit Points." Damage sent at once must all land."""

from __future__ import annotations

import asyncio
from uuid import UUID

import pytest

from combat.app.application import Encounters, VersionConflict
from combat.common.commands import Damage
from combat.fivee.attack_commands import Attack
from combat.kernel.commands import AddCombatant
from combat.kernel.errors import RuleError
from combat.store.group_commit import LoopCommits
from tests.helpers import monster, pc, stored_fight

BASE = 12  # the version a table is at once its fight has begun


def _ogre_table(encounters: Encounters, name: str) -> UUID:
    """Aria against an ogre of 59 hit points, past initiative (at version BASE)."""
    eid = stored_fight(encounters, name, (monster("ogre", max_hp=59), pc("aria")), {"aria": 15, "ogre": 5})
    assert encounters.state(eid).version == BASE
    return eid


def _fire(amount: int) -> Damage:
    return Damage(target="ogre", amount=amount, damage_type="fire")


async def _send(encounters: Encounters, commits: LoopCommits, eid, command, **kw):
    return await encounters.executing(eid, command, commits, **kw)


def _counting(commits: LoopCommits, encounters: Encounters) -> list[int]:
    """The number of appends in each transaction the loop commits."""
    writer = commits._writer
    sizes: list[int] = []
    commit_all = writer.commit_all

    def counted(appends):
        sizes.append(len(appends))
        return commit_all(appends)

    writer.commit_all = counted  # type: ignore[method-assign]
    return sizes


def test_eight_tables_damaging_their_ogre_at_once_share_one_commit_and_keep_whole_logs(tmp_path):
    """Eight GMs each deal fire damage to their own ogre in the same moment: one transaction
    stores all eight, and each table's ogre has lost exactly its own GM's damage."""
    encounters = Encounters(tmp_path / "c.db")
    try:
        tables = [_ogre_table(encounters, f"table {n}") for n in range(8)]

        async def play():
            commits = encounters.log.commits(asyncio.get_running_loop())
            assert commits is not None
            sizes = _counting(commits, encounters)
            outcomes = await asyncio.gather(*(_send(encounters, commits, eid, _fire(n + 1)) for n, eid in enumerate(tables)))
            return sizes, outcomes

        sizes, outcomes = asyncio.run(play())
        assert sizes == [8]
        reopened = Encounters(tmp_path / "c.db")
        try:
            for n, (eid, outcome) in enumerate(zip(tables, outcomes)):
                assert [r.seq for r in reopened.records(eid)] == list(range(1, BASE + 2))
                assert reopened.state(eid).combatants["ogre"].hp == 59 - (n + 1)
                assert outcome.state == reopened.state(eid)
        finally:
            reopened.close()
    finally:
        encounters.close()


def test_damage_sent_to_one_ogre_at_once_is_taken_one_command_at_a_time(tmp_path):
    """Five players' fire damage reaches the same ogre together, without expected versions:
    each is decided on the state the one before it left, so all five land (59 - 15 = 44) and
    the log goes on by five seqs with no gap."""
    encounters = Encounters(tmp_path / "c.db")
    try:
        eid = _ogre_table(encounters, "one table")

        async def play():
            commits = encounters.log.commits(asyncio.get_running_loop())
            return await asyncio.gather(*(_send(encounters, commits, eid, _fire(amount)) for amount in (1, 2, 3, 4, 5)))

        outcomes = asyncio.run(play())
        assert sorted(o.state.version for o in outcomes) == [BASE + n for n in (1, 2, 3, 4, 5)]
        assert [r.seq for r in encounters.records(eid)] == list(range(1, BASE + 6))
        assert encounters.state(eid).combatants["ogre"].hp == 44
    finally:
        encounters.close()


def test_a_command_the_rules_refuse_leaves_the_others_of_its_turn_stored(tmp_path):
    """In one turn of the loop a GM deals 6 fire damage at one table while, at another, an
    attack names a creature that is not in the fight: the attack is refused with the rule's
    reason and appends nothing; the damage is stored."""
    encounters = Encounters(tmp_path / "c.db")
    try:
        first, second = _ogre_table(encounters, "first"), _ogre_table(encounters, "second")

        async def play():
            commits = encounters.log.commits(asyncio.get_running_loop())
            return await asyncio.gather(
                _send(encounters, commits, first, _fire(6)),
                _send(encounters, commits, second, Attack(attacker="nobody", target="ogre")),
                return_exceptions=True,
            )

        stored, refused = asyncio.run(play())
        assert isinstance(refused, RuleError)
        assert stored.state.combatants["ogre"].hp == 53
        assert encounters.state(second).version == BASE
        assert encounters.state(first).version == BASE + 1
    finally:
        encounters.close()


def test_another_process_writing_first_is_met_by_deciding_again_on_what_it_wrote(tmp_path):
    """Two services share one file. The second deals 10 fire damage to the ogre after the
    first last read it; the first's 5 fire damage, sent without an expected version, finds
    its seq taken, is decided again on the fresh state and stored after it: 59 - 10 - 5."""
    here, there = Encounters(tmp_path / "c.db"), Encounters(tmp_path / "c.db")
    try:
        eid = _ogre_table(here, "shared")
        assert here.state(eid).version == BASE  # cached here
        there.execute(eid, _fire(10))

        async def play():
            return await _send(here, here.log.commits(asyncio.get_running_loop()), eid, _fire(5))

        outcome = asyncio.run(play())
        assert outcome.state.version == BASE + 2
        assert outcome.state.combatants["ogre"].hp == 44
        assert [r.seq for r in there.records(eid)] == list(range(1, BASE + 3))
    finally:
        here.close()
        there.close()


def test_an_expected_version_another_process_overtook_is_a_version_conflict(tmp_path):
    """The same race, but the first service's GM sent the version they saw: the command
    is refused as a conflict naming the version the log is at, and nothing is appended."""
    here, there = Encounters(tmp_path / "c.db"), Encounters(tmp_path / "c.db")
    try:
        eid = _ogre_table(here, "shared")
        there.execute(eid, _fire(10))

        async def play():
            return await _send(here, here.log.commits(asyncio.get_running_loop()), eid, _fire(5), expected_version=BASE)

        with pytest.raises(VersionConflict, match=f"at version {BASE + 1}, not {BASE}"):
            asyncio.run(play())
        assert [r.seq for r in there.records(eid)] == list(range(1, BASE + 2))
    finally:
        here.close()
        there.close()


def test_a_store_without_its_own_writer_keeps_its_writes_in_threads(tmp_path):
    """SQLite in memory (and PostgreSQL) have no writer to commit a loop's group with: the
    service keeps deciding their commands in its worker threads."""
    memory = Encounters(":memory:")
    try:
        assert asyncio.run(_of(memory)) is None
    finally:
        memory.close()
    on_file = Encounters(tmp_path / "c.db")
    try:
        assert asyncio.run(_of(on_file)) is not None
    finally:
        on_file.close()


def test_a_write_made_in_a_thread_takes_its_turn_with_the_loops_writes(tmp_path):
    """The history routes write from a worker thread while the loop writes commands: one
    lock per encounter for both (combat.app.locks). A GM's undo from a thread while the loop
    deals 5 fire damage to the same ogre: both are stored, one after the other, and nothing
    is decided on a stale state (the log goes on by two seqs, no gap)."""
    encounters = Encounters(tmp_path / "c.db")
    try:
        eid = _ogre_table(encounters, "table")
        encounters.execute(eid, _fire(7))  # the undo takes this back

        async def play():
            commits = encounters.log.commits(asyncio.get_running_loop())
            undo = asyncio.to_thread(encounters.undo_last, eid, reason="wrong ogre")
            return await asyncio.gather(undo, _send(encounters, commits, eid, _fire(5)))

        asyncio.run(play())
        assert [r.seq for r in encounters.records(eid)] == list(range(1, BASE + 4))
        assert encounters.state(eid).combatants["ogre"].hp in (59 - 5, 59 - 7 - 5)  # which came first decides what was undone
        assert len(encounters._locks) == 0
    finally:
        encounters.close()


async def _of(encounters: Encounters):
    return encounters.log.commits(asyncio.get_running_loop())


def test_two_tables_are_never_held_up_by_each_other_and_no_lock_outlives_its_requests(tmp_path):
    """Two GMs whose encounters would share a lock in a fixed set of 1,024 (their ids agree
    mod 1,024) each add a character in the same moment: both additions go in the same
    commit, neither waits for the other's; afterwards no lock is kept for either table."""
    encounters = Encounters(tmp_path / "c.db")
    try:
        seen: dict[int, UUID] = {}
        while True:
            eid = encounters.create("srd-2024", "table", seed=1)
            other = seen.setdefault(eid.int % 1024, eid)
            if other != eid:
                break

        async def play():
            commits = encounters.log.commits(asyncio.get_running_loop())
            sizes = _counting(commits, encounters)
            await asyncio.gather(
                _send(encounters, commits, other, AddCombatant(combatant=pc("aria"))),
                _send(encounters, commits, eid, AddCombatant(combatant=pc("bram"))),
            )
            return sizes, encounters._locks

        sizes, locks = asyncio.run(play())
        assert sizes == [2]
        assert len(locks) == 0
    finally:
        encounters.close()
