"""A creature's type (Fiend, Undead, Humanoid...), as its ruleset knows it: a part the shared
condition rule leaves open. Protection from Evil and Good's immunity holds only against a
source of the types it names, so applying a condition asks the source's type
(combat/common/rider_reads.py's `immune`). The plain rules know no types; the 5e family reads
them from the stat block or the character sheet (combat/fivee/spell_targets.py's
`SheetTypes`)."""

from __future__ import annotations

from combat.kernel.decider import Tx
from combat.kernel.events import ConditionSpec
from combat.kernel.state import Combatant

__all__ = ["CreatureTypes", "creature_type", "source_type"]


class CreatureTypes:
    """The plain rules: no creature has a type."""

    def of(self, tx: Tx, c: Combatant) -> str | None:
        """Its creature type in lower case, None where the rules know none."""
        return None


_PLAIN = CreatureTypes()


def creature_type(tx: Tx, c: Combatant) -> str | None:
    return (tx.ruleset.port(CreatureTypes) or _PLAIN).of(tx, c)


def source_type(tx: Tx, condition: ConditionSpec) -> str | None:
    """The creature type of whoever gives `condition` (its `source`, when a combatant)."""
    source = tx.state.combatants.get(condition.source) if condition.source else None
    return creature_type(tx, source) if source is not None else None
