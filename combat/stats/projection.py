"""The follower's step: a batch of records in, the rows to append with its position out.

combat.store.party.follow reads every partition's notification log and hands each batch here;
what this returns is written by combat.store.stats_tables in one transaction with the position
reached. For an encounter whose history moved in the batch (an undo, a retraction, an
amendment, an override), which of its events still count is read from its whole log up to the
batch (combat.app.history.effective: a retracted event stays, marked; an amended one is
replaced by the corrected events, which count from their own seqs).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any
from uuid import UUID

from combat.app.history import effective
from combat.fivee.reactions import AttackDeflected
from combat.kernel.records import Recorded
from combat.stats.rows import Context, Rows, rows_of
from combat.store.stats_tables import COLUMNS, StatsTables

__all__ = ["FOLLOWER", "Batch", "StatsProjection", "not_counted"]

FOLLOWER = "stats"


@dataclass
class Batch:
    tables: dict[str, list[dict[str, Any]]]
    recount: dict[str, list[int]] = field(default_factory=dict)  # encounter -> seqs that no longer count


def not_counted(records: Iterable[Recorded]) -> list[int]:
    """The seqs of a log that no longer count: retracted, or replaced by an amendment."""
    return sorted(effective(list(records)).retracted_by)


class StatsProjection:
    def __init__(self, tables: StatsTables, records: Callable[[UUID, int], Iterable[Recorded]]):
        self._tables = tables
        self._records = records  # an encounter's records up to a seq

    def _contexts(self, encounters: list[UUID]) -> dict[UUID, Context]:
        """What the tables hold of these encounters from earlier batches (read each batch:
        another process's follower may have written since)."""
        ids = [str(e) for e in encounters]
        contexts = {e: Context() for e in encounters}
        for row in self._tables.select("stats_encounters", encounters=ids):
            contexts[UUID(row["encounter"])].encounter = row
        for row in self._tables.select("stats_combatants", encounters=ids):
            contexts[UUID(row["encounter"])].combatants[row["combatant"]] = row
        return contexts

    def _hits(self, contexts: dict[UUID, Context], encounters: list[UUID]) -> None:
        """The last hit of each attacker on each target, for a batch that turns a hit into a
        miss (AttackDeflected) whose attack an earlier batch counted."""
        for row in self._tables.select("stats_attacks", encounters=[str(e) for e in encounters]):
            if row["hit"]:
                contexts[UUID(row["encounter"])].hits[(row["attacker"], row["target"])] = {
                    k: row[k] for k in COLUMNS["stats_attacks"]
                }

    def __call__(self, records: list[Recorded]) -> Batch:
        contexts = self._contexts(list(dict.fromkeys(r.originator_id for r in records)))
        self._hits(contexts, list(dict.fromkeys(r.originator_id for r in records if isinstance(r.event, AttackDeflected))))
        rows: Rows = rows_of(records, contexts)
        recount = {str(eid): not_counted(self._records(eid, upto)) for eid, upto in rows.moves.items()}
        return Batch(tables=rows.tables, recount=recount)
