"""What the 5e rulesets show the generic readers (combat/kernel/views.py): of a hidden
creature, a player or viewer does not see the stat block it was added from (`monsters`), the
sheet of a character the GM keeps hidden (`characters`), the natural roll of its save that
waits for a DC (`rolled_saves`), what its hit that waits for its damage keeps back
(`pending_damage`, as `AttackRolled` declares) or its concentration save owed
(`pending_checks`, as `ConcentrationCheckRequired` declares), or the reactions an open window
offers it and the dice the window holds for it (`reaction_window`); and the board prints
spell slots left and death saves."""

from __future__ import annotations

import dataclasses
from typing import Any

import msgspec

from combat.common.events import ConcentrationCheckRequired
from combat.fivee.attack_events import AttackRolled
from combat.fivee.board import death_saves, slot_words
from combat.kernel.events import Event
from combat.kernel.views import Hidden, Views

__all__ = ["FIVEE_VIEWS", "fivee_block", "views_with"]

# The fields a hidden creature's copy of these types leaves blank.
FIVEE_HIDDEN_FIELDS = {
    "RolledSave": ("natural",),
    "SheetAttached": ("sheet", "status"),
    "PendingCheck": ConcentrationCheckRequired.hidden.fields(),  # held as that event records it
}


def fivee_block(block: dict[str, Any], hidden: Hidden) -> dict[str, Any]:
    for key in ("monsters", "characters"):
        held = block.get(key)
        if isinstance(held, dict) and isinstance(held.get("sheets"), dict):
            sheets = {cid: sheet for cid, sheet in held["sheets"].items() if not hidden(cid)}
            block = {**block, key: {**held, "sheets": sheets}}
    # A state view (projections/state.py) holds a tuple slot as a tuple, its JSON as a list.
    saves = block.get("rolled_saves")
    if isinstance(saves, (list, tuple)):
        block = {**block, "rolled_saves": [{**s, "natural": None} if hidden(s.get("combatant")) else s for s in saves]}
    # What the block holds as events is shown as that event's declaration says: a hit whose
    # damage waits, a concentration save still to make (its DC is half the damage a hidden
    # creature took, after its resistances).
    judge = _Judge(hidden)
    for key, event_type in (("pending_damage", AttackRolled), ("pending_checks", ConcentrationCheckRequired)):
        held = block.get(key)
        if isinstance(held, (list, tuple)):
            block = {**block, key: [_as_declared(event_type, entry, judge) for entry in held]}
    window = block.get("reaction_window")
    if isinstance(window, dict):  # a hidden creature's reactions are its stat block's; a hidden source's dice the GM's
        reactors = {cid: ([] if hidden(cid) else options) for cid, options in window.get("reactors", {}).items()}
        held = {} if window.get("source") is not None and hidden(window["source"]) else window.get("held", {})
        block = {**block, "reaction_window": {**window, "reactors": reactors, "held": held}}
    return block


def _as_declared(event_type: type[Event], entry: dict[str, Any], judge: _Judge) -> dict[str, Any]:
    """`entry`, held as the event `event_type` records it, as that event's declaration shows it."""
    shown = msgspec.to_builtins(event_type.hidden.apply(msgspec.convert(entry, event_type), judge))
    return shown if "type" in entry else {k: v for k, v in shown.items() if k != "type"}


class _Judge:
    """The judge an event's declaration asks (combat/kernel/hidden.py), from the block's
    `hidden`. A hit's declaration names only combatants; were one to ask of a hidden
    condition, it is taken as hidden whenever its creature is: more kept back, never less."""

    def __init__(self, hidden: Hidden):
        self._hidden = hidden

    def hidden(self, cid: str | None, kind: str | None = None, side: str | None = None) -> bool:
        return self._hidden(cid)

    def hidden_condition(self, target: str, name: str) -> bool:
        return self._hidden(target)


# What the rules read and no reader needs: each creature's last attack this turn
# (combat/fivee/last_attacks.py), the round each dead creature died in (combat/fivee/dying.py).
FIVEE_BOOKKEEPING = ("last_attacks", "deaths")
FIVEE_VIEWS = Views(
    player_block=fivee_block,
    hidden_fields=FIVEE_HIDDEN_FIELDS,
    slots_left=slot_words,
    death_saves=death_saves,
    bookkeeping=FIVEE_BOOKKEEPING,
)


def views_with(*also: Any) -> Views:
    """The 5e views with a ruleset's own redaction of its block run after them."""

    def block(view: dict[str, Any], hidden: Hidden) -> dict[str, Any]:
        view = fivee_block(view, hidden)
        for more in also:
            view = more(view, hidden)
        return view

    return dataclasses.replace(FIVEE_VIEWS, player_block=block)
