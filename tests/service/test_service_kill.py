"""A `combat serve` process killed with SIGKILL in the middle of a busy evening loses nothing
it told a table was stored: the service decides commands on its event loop and commits each
turn's writes together (combat.store.group_commit), and it answers a command only once the
transaction holding it has committed."""

from __future__ import annotations

import asyncio
import signal
from pathlib import Path
from uuid import UUID

import msgspec

from combat.app.application import Encounters
from combat.bench.http import Connection
from combat.bench.servers import Server
from combat.bench.service import open_table

TABLES = 8


def test_every_command_a_table_was_told_was_stored_survives_a_kill_9(tmp_path: Path):
    """Eight tables play move / attack / end turn as fast as the service answers; the
    process is killed outright mid-play. Reopened, each table's log runs from seq 1 with no
    gap, holds at least every event a reply carried, with the same seq and chained hash, and
    replays to a state of its own version."""
    db = tmp_path / "combat.db"
    server = Server(tmp_path / "serve.log", {}, db=db).wait_ready("sqlite")
    replied: dict[str, dict[int, str]] = {}  # table -> seq -> hash, as the replies gave them

    async def evening() -> None:
        setup = await Connection(server.port).open()
        tables = [await open_table(setup, f"table {n}") for n in range(TABLES)]
        await setup.close()

        async def play(table) -> None:
            connection = await Connection(server.port).open()
            seen = replied.setdefault(table.id, {})
            try:
                while True:
                    status, body = await connection.send(table.next_request())
                    assert status == 200, body
                    table.advance(body)
                    for line in msgspec.json.decode(body)["events"]:
                        seen[line["seq"]] = line["hash"]
            except (ConnectionError, asyncio.IncompleteReadError):
                return  # the process is gone

        async def kill_soon() -> None:
            await asyncio.sleep(1.0)
            server.process.send_signal(signal.SIGKILL)

        await asyncio.gather(kill_soon(), *(play(t) for t in tables))

    try:
        asyncio.run(evening())
    finally:
        server.stop()
    assert server.process.returncode == -signal.SIGKILL
    assert sum(len(seen) for seen in replied.values()) > 100  # the kill came mid-play, not before it

    reopened = Encounters(db)
    try:
        for table_id, seen in replied.items():
            records = list(reopened.records(UUID(table_id)))
            assert [r.seq for r in records] == list(range(1, len(records) + 1))
            stored = {r.seq: r.hash for r in records}
            assert {seq: stored.get(seq) for seq in seen} == seen
            assert reopened.state(UUID(table_id)).version == len(records)
    finally:
        reopened.close()
