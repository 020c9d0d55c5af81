"""Client command ids: a request retried after a timeout is applied once.

Every record carries the `command_id` of the command that appended it: a client's own id
when it sent one, else a fresh random one. A repeat of a client's id finds the records
already there and returns them instead of deciding again. The ids are read from the log
itself, so a repeat is recognised by any process and after a restart; a process keeps an
index per encounter, read once and brought up to the version it decides on.

Why a lookup is enough without a lock across processes: the index covers the log up to
the version the command is decided on, and the append takes the next seq. If the same id
were stored meanwhile by another process, that seq would be taken (the log has no gaps),
so the append fails, the state is reloaded and the repeat is found then.
"""

from __future__ import annotations

import re
import threading
from collections.abc import Callable, Iterable
from uuid import UUID

from combat.kernel.errors import RuleError
from combat.app.store import Recorded

__all__ = ["CLIENT_ID", "check_client_id", "CommandIndex"]

# Distinct from the service's own ids (32 hex digits) only by use: a client may send any id
# of this form; a UUID or a random string of 16 or more characters is what one should send.
CLIENT_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._:-]{7,99}$")


def check_client_id(command_id: str) -> str:
    if not CLIENT_ID.match(command_id):
        raise RuleError("command-id/invalid", f"{command_id[:40]!r} is not usable as a command id",
                        allowed="8 to 100 letters, digits, '.', '_', ':' or '-', e.g. a UUID")
    return command_id


class CommandIndex:
    """Where each command of each encounter sits in its log: id -> (first seq, last seq, actor)."""

    def __init__(self, read: Callable[[UUID, int, int], Iterable[Recorded]]):
        self._read = read  # (encounter, after seq, up to seq) -> records
        self._by_encounter: dict[UUID, tuple[int, dict[str, tuple[int, int, str]]]] = {}
        self._guard = threading.Lock()

    def find(self, encounter_id: UUID, command_id: str, version: int) -> tuple[int, int, str] | None:
        """The seqs and actor of `command_id` in the log up to `version`, or None."""
        with self._guard:
            covered, ids = self._by_encounter.get(encounter_id, (0, {}))
        if version > covered:
            ids = dict(ids)
            self._add(ids, self._read(encounter_id, covered, version))
            with self._guard:
                if version > self._by_encounter.get(encounter_id, (0, {}))[0]:
                    self._by_encounter[encounter_id] = (version, ids)
        return ids.get(command_id)

    def forget(self, encounter_id: UUID) -> None:
        with self._guard:
            self._by_encounter.pop(encounter_id, None)

    @staticmethod
    def _add(ids: dict[str, tuple[int, int, str]], records: Iterable[Recorded]) -> None:
        for rec in records:
            first, _, _ = ids.get(rec.command_id, (rec.seq, rec.seq, rec.actor))
            ids[rec.command_id] = (first, rec.seq, rec.actor)
