"""The encounters in one store: listing them, and finding one by a name or an id prefix.

A GM at the table types `combat show ford` or `combat show 69c4`, not a UUID; an ambiguous
or unknown reference is refused with the candidates, never guessed.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from datetime import datetime
from typing import TYPE_CHECKING, Any
from uuid import UUID

from combat.kernel.errors import RuleError
from combat.rulesets import RulesetNotInstalled

if TYPE_CHECKING:
    from combat.app.application import Encounters

__all__ = ["Summary", "encounter_ids", "summaries", "resolve"]

_HEX = re.compile(r"^[0-9a-f-]{1,36}$")


@dataclass(frozen=True)
class Summary:
    id: UUID
    name: str
    ruleset: str
    phase: str | None  # None: its ruleset is not installed (`missing`), so its state is not known
    round: int | None
    version: int
    last_activity: datetime
    missing: RulesetNotInstalled | None = None

    def as_json(self) -> dict[str, object]:
        listed: dict[str, object] = {
            "id": str(self.id),
            "name": self.name,
            "ruleset": self.ruleset,
            "phase": self.phase,
            "round": self.round,
            "version": self.version,
            "last_activity": self.last_activity.isoformat(),
        }
        if self.missing is not None:
            listed["error"] = {"code": self.missing.code, "detail": self.missing.message, "allowed": self.missing.allowed}
        return listed


def encounter_ids(encounters: Encounters) -> list[UUID]:
    """Every encounter id in the store, from every partition (one index scan each; no
    event is decoded)."""
    ids = []
    for part in encounters.log.parts:
        recorder: Any = part.recorder
        table = recorder.events_table_name
        schema = getattr(recorder.datastore, "schema", None)  # PostgreSQL: the store's schema, not the search path
        if schema is not None:
            table = f'"{schema}"."{table}"'
        with recorder.datastore.transaction(commit=False) as cursor:
            cursor.execute(f"SELECT DISTINCT originator_id FROM {table}")
            rows = cursor.fetchall()
        ids += [UUID(str(row["originator_id"] if isinstance(row, dict) else row[0])) for row in rows]
    return ids


def summaries(encounters: Encounters) -> list[Summary]:
    """Every encounter with its name, ruleset, round and last activity, most recent first."""
    found = []
    for eid in encounter_ids(encounters):
        try:
            state = encounters.state(eid)
        except RulesetNotInstalled as missing:
            found.append(_not_installed(encounters, eid, missing))
            continue
        last = next(iter(encounters.records(eid, after=state.version - 1)))
        found.append(Summary(eid, state.name, state.ruleset, state.phase, state.round, state.version, last.timestamp))
    return sorted(found, key=lambda s: s.last_activity, reverse=True)


def _not_installed(encounters: Encounters, eid: UUID, missing: RulesetNotInstalled) -> Summary:
    """An encounter whose ruleset is not installed, listed from what is read without it: its
    first event (the kernel's) and its last row's envelope."""
    from combat.app.undecoded import known_types, read_row

    created = encounters.created(eid)
    last = read_row(encounters.log.stored(eid, desc=True, limit=1)[0], eid, known_types())
    return Summary(eid, created.name, created.ruleset, None, None, last.seq, last.timestamp, missing)


def _name(encounters: Encounters, eid: UUID) -> str:
    """An encounter's name, from its first event: read whether or not its ruleset is installed."""
    return encounters.created(eid).name


def resolve(encounters: Encounters, reference: str) -> UUID:
    """The encounter a GM means: a full id, a unique id prefix, or a unique name
    (case-insensitive). Anything else is refused with what would have matched."""
    text = reference.strip()
    try:
        return UUID(text)
    except ValueError:
        pass
    ids = encounter_ids(encounters)
    if _HEX.match(text.lower()):
        prefix = text.lower().replace("-", "")
        by_prefix = [eid for eid in ids if eid.hex.startswith(prefix)]
        if len(by_prefix) == 1:
            return by_prefix[0]
        if len(by_prefix) > 1:
            raise _ambiguous(encounters, reference, by_prefix)
    by_name = [eid for eid in ids if _name(encounters, eid).casefold() == text.casefold()]
    if len(by_name) == 1:
        return by_name[0]
    if len(by_name) > 1:
        raise _ambiguous(encounters, reference, by_name)
    raise RuleError(
        "encounter/unknown",
        f"no encounter '{reference}' in this store",
        allowed="an encounter's name or the start of its id (see `combat list`)",
    )


def _ambiguous(encounters: Encounters, reference: str, candidates: list[UUID]) -> RuleError:
    named = ", ".join(f"{eid.hex[:8]} ({_name(encounters, eid)})" for eid in candidates[:10])
    return RuleError(
        "encounter/ambiguous", f"'{reference}' matches {len(candidates)} encounters", allowed=f"a longer id prefix: {named}"
    )
