"""Hidden information: what players and viewers are not shown.

At the table the GM keeps the monsters' sheets behind the screen. A combatant is *hidden*
from a reader unless the reader is the GM, it is one of the reader's own (a player's
characters), it is a player character (`kind: pc`), or the GM revealed it or its side with
the `reveal` command (a `Revealed` event: undo it to hide them again). Of a hidden
combatant a reader does not see its HP, AC, attack profiles (with the dice of its rolls,
whose notation gives its bonuses away), stat-block numbers and bestiary stat block, or its
conditions marked `hidden`; its name, side, status, position and what it does stay visible, as at the table.

Every read path calls this one module: state, events, stream, log, audit, export and
command replies (combat/service/routes). Which combatants are hidden is judged on the
encounter's current state (a reveal shows the past too). A redacted log no longer matches
its hash chain: only the GM's export can be verified.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator
from typing import Any, Protocol

import msgspec

from combat.kernel.records import Recorded
from combat.kernel import events as ev
from combat.kernel.state import EncounterState

__all__ = ["Reader", "Redaction"]

# Stat-block fields of a combatant (state and CombatantAdded) that a hidden one does not show.
HIDDEN_STATS = (
    "max_hp", "hp", "temp_hp", "ac", "attacks", "attacks_per_action", "con_save", "initiative_bonus",
    "resistances", "vulnerabilities", "immunities",
)
# segments-1e creature stats (CreatureAdded and the ledger) that a hidden one does not show.
HIDDEN_CREATURE_STATS = ("ac", "hp", "hit_dice", "character_class", "level", "aac0", "routines", "routines_per_round")
# Per event type: the field naming the combatant, and the fields that give its numbers away.
HIDDEN_FIELDS: dict[str, tuple[str, tuple[str, ...]]] = {
    "AttackMade": ("target", ("target_ac",)),
    "TableAttackRolled": ("target", ("target_ac", "needed")),
    "TraitsNoted": ("combatant", ("strength", "proficiency")),
    "D10TraitsSet": ("combatant", ("traits",)),
    "D10DamageDealt": ("target", ("dr",)),
    "InitiativeCheckCalled": ("combatant", ("bonus",)),
    "CreatureAdded": ("", ("hp", "attacks_as", "saves_as")),
}
HIDDEN_CONDITION = "a hidden condition"


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
        elif kind is None:  # neither in the fight nor described: nothing of it to hide
            return False
        return kind != "pc" and side not in self.state.revealed_sides

    # -- the log ---------------------------------------------------------------------------

    def records(self, records: Iterable[Recorded]) -> Iterator[Recorded]:
        for rec in records:
            yield self.record(rec)

    def record(self, rec: Recorded) -> Recorded:
        if self.sees_all:
            return rec
        event = self._event(rec.event)
        return rec if event is rec.event else msgspec.structs.replace(rec, event=event)

    def _event(self, e: Any) -> Any:
        if isinstance(e, ev.CombatantAdded):
            spec = e.combatant
            if self.hidden(spec.id, spec.kind, spec.side):
                return msgspec.structs.replace(e, combatant=_blank(spec, HIDDEN_STATS))
            return e
        if isinstance(e, ev.DiceRolled):
            # The notation and faces of a hidden creature's roll give its bonuses and damage dice away.
            return msgspec.structs.replace(e, notation=None, dice=()) if self.hidden(e.roller) else e
        if isinstance(e, ev.ConditionApplied) and e.condition.hidden:
            if self.hidden(e.target):
                self._hidden_conditions.add((e.target, e.condition.name))
                return msgspec.structs.replace(e, condition=ev.ConditionSpec(name=HIDDEN_CONDITION, hidden=True))
            return e
        if isinstance(e, ev.ConditionEnded) and (e.target, e.condition) in self._hidden_conditions:
            return msgspec.structs.replace(e, condition=HIDDEN_CONDITION, entry=msgspec.UNSET)  # the entry names it too
        if type(e).__name__ == "StatBlockAttached":  # a creature added from the bestiary
            return msgspec.structs.replace(e, stat_block=None) if self.hidden(e.combatant) else e
        rule = HIDDEN_FIELDS.get(type(e).__name__)
        if rule is None:
            return e
        field, names = rule
        if not field:  # segments-1e CreatureAdded: the creature's stats are inside it
            stats = e.creature
            if not self.hidden(stats.id, stats.kind, stats.side):
                return e
            return msgspec.structs.replace(_blank(e, names), creature=_blank(stats, HIDDEN_CREATURE_STATS))
        return _blank(e, names) if self.hidden(getattr(e, field)) else e

    # -- the state ---------------------------------------------------------------------------

    def view(self, view: Any) -> Any:
        """A state projection (projections.state.state_view) as this reader may see it."""
        if self.sees_all:
            return view
        combatants = dict(view.get("combatants", {}))
        for cid, c in combatants.items():
            if self.hidden(cid):
                shown = {k: v for k, v in c.items() if k not in HIDDEN_STATS}
                shown["conditions"] = [x for x in c.get("conditions", []) if not x.get("hidden")]
                combatants[cid] = shown
        view = {**view, "combatants": combatants}
        for key, block in list(view.items()):
            if not isinstance(block, dict):
                continue
            # A ruleset's stat-block notes by combatant (d10 and variant traits), and the
            # sheets of creatures added from the bestiary (a 5e ruleset's `monsters`).
            traits = block.get("traits")
            if isinstance(traits, dict):
                block = {**block, "traits": {cid: t for cid, t in traits.items() if not self.hidden(cid)}}
            monsters = block.get("monsters")
            if isinstance(monsters, dict) and isinstance(monsters.get("sheets"), dict):
                sheets = {cid: sheet for cid, sheet in monsters["sheets"].items() if not self.hidden(cid)}
                block = {**block, "monsters": {**monsters, "sheets": sheets}}
            view[key] = block
        ledger = view.get("segments_1e", {}).get("creatures")
        if ledger:
            creatures = {
                cid: ({**c, "stats": {k: v for k, v in c["stats"].items() if k not in HIDDEN_CREATURE_STATS},
                       "attacks_as": None, "saves_as": None} if self.hidden(cid) else c)
                for cid, c in ledger.items()
            }
            view["segments_1e"] = {**view["segments_1e"], "creatures": creatures}
        return view


def _blank(struct: Any, names: Iterable[str]) -> Any:
    """The struct with these fields emptied: None, or () for a list (not shown, not zero)."""
    fields = set(struct.__struct_fields__)
    return msgspec.structs.replace(
        struct, **{n: () if isinstance(getattr(struct, n), tuple) else None for n in names if n in fields}
    )
