"""The statistics use case: keep the read model up to date, rebuild it, and answer for a scope
(a campaign, an encounter, a character) as the GM or as a player may see it.

The GM's answer reads the SQL tables (combat.store.stats_tables), brought up to date first by
the follower (combat.store.party.follow, pulled here, under a lock per process; other processes'
followers may carry a batch first and this one reads on from there). A player's answer never
reads those rows: it is computed by the same policy (combat.stats.rows) from the encounter's log
as that player may read it (projections/redaction.py, which applies each event type's
hidden-information declaration), so a hidden monster's numbers are None before they are
counted and what a player sees follows the declarations, a later `reveal` included.
"""

from __future__ import annotations

import threading
import time
from collections.abc import Callable
from typing import Any
from uuid import UUID

from combat.kernel.errors import RuleError
from combat.stats.answers import Scope, Stats, answer
from combat.stats.projection import FOLLOWER, StatsProjection, not_counted
from combat.stats.rows import rows_of
from combat.store.party import behind, follow
from combat.store.stats_tables import COLUMNS, EVENT_TABLES, StatsTables
from projections.redaction import Reader, Redaction

__all__ = ["StatsReads", "PlayerReader"]


class PlayerReader:
    """A player's view of one encounter: their own combatants (a campaign character's ids there)."""

    def __init__(self, combatants: frozenset[str], role: str = "player"):
        self.role = role
        self.combatants = combatants


class StatsReads:
    def __init__(self, encounters: Any, datastore: Any):
        self._encounters = encounters
        self.tables = StatsTables(datastore)
        self._step = StatsProjection(self.tables, lambda eid, upto: encounters.records(eid, upto=upto))
        self._following = threading.Lock()
        # The service's follower thread (combat.app.followers), when one runs this follower;
        # None where each answer takes in what is new itself (the CLI; a service whose
        # follower is a process of its own, or off: combat.stats.settings).
        self.runner: Any = None

    def behind(self) -> bool:
        """Are there events stored that the read model has not taken in yet?"""
        return behind(self._encounters.log.parts, self.tables, FOLLOWER)

    def caught_up(self, timeout: float = 5.0) -> None:
        """Before an answer: where a follower thread runs, wait for it to take in what was
        stored when the answer began (the answer writes nothing); elsewhere (the CLI) take it
        in now."""
        if self.runner is not None:
            self.runner.caught_up(timeout)
        else:
            self.fresh()

    def fresh(self, stopping: Callable[[], bool] | None = None) -> int:
        """Apply every event written so far (or until `stopping`, between batches); how many were read."""
        with self._following:
            return follow(self._encounters.log.parts, self.tables, FOLLOWER, self._step, stopping=stopping)

    def rebuild(self) -> tuple[int, float]:
        """Drop every row and position, and build the model again from the logs: (events read, seconds)."""
        with self._following:
            began = time.perf_counter()
            self.tables.clear(FOLLOWER)
            read = follow(self._encounters.log.parts, self.tables, FOLLOWER, self._step)
            return read, time.perf_counter() - began

    # -- scopes -------------------------------------------------------------------------------

    def encounters_of(self, scope: Scope) -> list[str]:
        """The encounters a scope covers, brought up to date: one encounter (any kind); else the
        fights (not practice fights, not what-if forks) of the campaign, or of the store."""
        known = self.tables.select("stats_encounters")
        if scope.encounter is not None:
            ids = [e["encounter"] for e in known if e["encounter"] == scope.encounter]
            if not ids:
                raise RuleError(
                    "stats/unknown-encounter", f"no encounter {scope.encounter[:80]} in this store",
                    allowed="an encounter id from `combat list`",
                )  # fmt: skip
        else:
            ids = [
                e["encounter"]
                for e in known
                if e["kind"] == "fight" and (scope.campaign is None or e["campaign"] == scope.campaign)
            ]
        if scope.character is not None:
            wanted = scope.character.lower()
            cast = self.tables.select("stats_combatants", encounters=ids)
            holding = {
                c["encounter"]
                for c in cast
                if wanted in {(c["character"] or "").lower(), (c["name"] or "").lower(), c["combatant"].lower()}
            }
            ids = [e for e in ids if e in holding]
        return ids

    def gm(self, scope: Scope) -> Stats:
        """Everything, from the read model's tables."""
        self.caught_up()
        ids = self.encounters_of(scope)
        rows = {t: self.tables.select(t, encounters=ids) for t in COLUMNS}
        if scope.encounter is None:  # what-ifs forked from these fights count among its history moves
            forks = [e["encounter"] for e in self.tables.select("stats_encounters") if e["kind"] == "fork"]
            rows["stats_history"] += [
                h for h in self.tables.select("stats_history", encounters=forks) if h["kind"] == "fork" and h["about"] in ids
            ]
        return answer(rows, scope, "gm")

    def player(self, scope: Scope, reader_for: Callable[[UUID, list[dict[str, Any]]], Reader]) -> Stats:
        """What `reader_for(encounter, its combatants' rows)` may see: each encounter's log,
        redacted for that reader, through the same policy and arithmetic as the tables."""
        self.caught_up()
        ids = self.encounters_of(scope)
        out: dict[str, list[dict[str, Any]]] = {t: [] for t in COLUMNS}
        for eid in ids:
            encounter = UUID(eid)
            records = list(self._encounters.records(encounter))
            state = self._encounters.state(encounter)
            cast = self.tables.select("stats_combatants", encounters=[eid])
            redaction = Redaction(state, reader_for(encounter, cast))
            rows = rows_of(list(redaction.records(records)), {})
            gone = set(not_counted(records))
            for table, found in rows.tables.items():
                if table in EVENT_TABLES:
                    found = [r for r in found if r["seq"] not in gone]
                elif table in ("stats_encounters", "stats_combatants"):
                    last: dict[Any, dict[str, Any]] = {}
                    for r in found:
                        last[(r["encounter"], r.get("combatant"))] = r
                    found = list(last.values())
                out[table].extend(found)
        return answer(out, scope, "player")
