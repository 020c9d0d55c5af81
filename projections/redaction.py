"""Hidden information: what players and viewers are not shown.

At the table the GM keeps the monsters' sheets behind the screen. A combatant is *hidden*
from a reader unless the reader is the GM, it is one of the reader's own (a player's
characters), it is a player character (`kind: pc`), or the GM revealed it or its side with
the `reveal` command (a `Revealed` event: undo it to hide them again). Of a hidden
combatant a reader does not see its HP, AC, attack profiles (with the dice of its rolls,
whose notation gives its bonuses away), stat-block numbers and bestiary stat block, or its
conditions marked `hidden`; its name, side, status, position and what it does stay visible, as at the table.

What each event keeps back is declared once, on its type (`hidden`, combat/kernel/hidden.py);
this module judges who is hidden and applies those declarations, to the fields derived from
a hidden combatant's numbers too (a roll's total, damage taken, a DC, an attack's name).
Every read path calls it: state (and `?at=`), events (JSON, JSON Lines, `?after=`), both
stream modes, log and audit (their lines told from the redacted events, `narrative`) and
command replies (combat/service). Which combatants are hidden is judged on the encounter's
current state (a reveal shows the past too), which also remembers removed combatants and
hidden conditions, so a read starting anywhere in the log is judged the same. A redacted log
no longer matches its hash chain: only the GM's export can be verified.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Protocol

import msgspec

from combat.kernel.events import CONDITION_NUMBERS, HIDDEN_CONDITION, SHEET_FIELDS
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState
from combat.rulesets import get_ruleset
from projections.narrative import narrate

__all__ = ["Reader", "Redaction", "HIDDEN_STATS", "HIDDEN_CONDITION", "health"]

HIDDEN_STATS = SHEET_FIELDS  # a combatant's numbers a hidden one does not show (state and CombatantAdded)


def health(hp: int, max_hp: int) -> str:
    """What the table sees of a hidden creature's wounds (docs/table-screen.md): unhurt,
    hurt, or bloodied at half its hit points or fewer."""
    if hp >= max_hp:
        return "unhurt"
    return "bloodied" if hp * 2 <= max_hp else "hurt"


class Reader(Protocol):
    """Who reads: a token's grant (role gm, player or viewer, and a player's combatants)."""

    @property
    def role(self) -> str: ...

    @property
    def combatants(self) -> frozenset[str]: ...


class Redaction:
    """What one reader may see of one encounter, judged on its current `state`."""

    def __init__(self, state: EncounterState, reader: Reader):
        self.state = state
        self.reader = reader
        self.sees_all = reader.role == "gm"
        self._hidden_conditions: set[tuple[str, str]] = set()

    def hidden(self, cid: str | None, kind: str | None = None, side: str | None = None) -> bool:
        if self.sees_all or cid is None or cid in self.reader.combatants or cid in self.state.revealed:
            return False
        c = self.state.combatants.get(cid)
        if c is not None:
            kind, side = c.kind, c.side
        elif cid in self.state.departed:  # removed from the fight: its events stay in the log
            kind, side = self.state.departed[cid]
        elif kind is None:  # neither in the fight nor described: nothing of it to hide
            return False
        return kind != "pc" and side not in self.state.revealed_sides

    def hidden_condition(self, target: str, name: str) -> bool:
        return self.hidden(target) and (target, name) in self.state.hidden_conditions

    def event(self, e: Any) -> Any:
        """One event as this reader may see it, by its type's declaration."""
        return e if self.sees_all else type(e).hidden.apply(e, self)

    # -- the log ---------------------------------------------------------------------------

    def records(self, records: Iterable[Recorded]) -> Iterator[Recorded]:
        for rec in records:
            yield self.record(rec)

    def record(self, rec: Recorded) -> Recorded:
        if self.sees_all:
            return rec
        event = self.event(rec.event)
        return rec if event is rec.event else msgspec.structs.replace(rec, event=event)

    def narrative(self, records: Iterable[Recorded]) -> Iterator[tuple[int, str]]:
        """Each record's seq and narrative line, told from the record as this reader may see
        it, never from the full one: a line's words cannot say what its event keeps back."""
        shown = list(self.records(records))
        yield from zip((rec.seq for rec in shown), narrate(shown), strict=True)

    # -- the state ---------------------------------------------------------------------------

    def view(self, view: Any) -> Any:
        """A state projection (projections.state.state_view) as this reader may see it. A hidden
        combatant shows its `health` word instead of its numbers (the redacted state schema,
        GET /schemas/state?view=redacted), and the ruleset's own block as it declares (a 5e hit's
        damage still to roll, a concentration save still to make: combat/fivee/views.py)."""
        if self.sees_all:
            return view
        combatants = dict(view.get("combatants", {}))
        for cid, c in combatants.items():
            if self.hidden(cid):
                shown = {k: v for k, v in c.items() if k not in HIDDEN_STATS}
                shown["conditions"] = [
                    self._save_shown(_condition_shown(x)) for x in c.get("conditions", []) if not x.get("hidden")
                ]
                if "hp" in c and "max_hp" in c:
                    shown["health"] = health(c["hp"], c["max_hp"])
                combatants[cid] = shown
            else:
                combatants[cid] = {**c, "conditions": [self._save_shown(x) for x in c.get("conditions", [])]}
        view = {**view, "combatants": combatants}
        # The ruleset's own block as it declares (its `views`, combat/kernel/views.py).
        ruleset = get_ruleset(view["ruleset"])
        if isinstance(view.get(ruleset.state_key), dict):
            view[ruleset.state_key] = ruleset.views.player_block(view[ruleset.state_key], self.hidden)
        return view

    def _save_shown(self, condition: dict[str, Any]) -> dict[str, Any]:
        """A condition whose save repeats against a hidden caster's DC (Hold Person), without it."""
        save = condition.get("save")
        if isinstance(save, dict) and self.hidden(condition.get("source")):
            return {**condition, "save": {**save, "dc": None}}
        return condition


def _condition_shown(condition: dict[str, Any]) -> dict[str, Any]:
    """A hidden creature's condition without what it does to its numbers (Shield's +5 AC)."""
    return {k: v for k, v in condition.items() if k not in CONDITION_NUMBERS}
