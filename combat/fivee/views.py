"""What the 5e rulesets show the generic readers (combat/kernel/views.py): of a hidden
creature, a player or viewer does not see the stat block it was added from (`monsters`), the
sheet of a character the GM keeps hidden (`characters`), or the natural roll of its save that
waits for a DC (`rolled_saves`); and the board prints spell slots left and death saves."""

from __future__ import annotations

import dataclasses
from typing import Any

from combat.fivee.board import death_saves, slot_words
from combat.kernel.views import Hidden, Views

__all__ = ["FIVEE_VIEWS", "fivee_block", "views_with"]

# The fields a hidden creature's copy of these types leaves blank.
FIVEE_HIDDEN_FIELDS = {"RolledSave": ("natural",), "SheetAttached": ("sheet", "status")}


def fivee_block(block: dict[str, Any], hidden: Hidden) -> dict[str, Any]:
    for key in ("monsters", "characters"):
        held = block.get(key)
        if isinstance(held, dict) and isinstance(held.get("sheets"), dict):
            sheets = {cid: sheet for cid, sheet in held["sheets"].items() if not hidden(cid)}
            block = {**block, key: {**held, "sheets": sheets}}
    saves = block.get("rolled_saves")
    if isinstance(saves, list):
        block = {**block, "rolled_saves": [{**s, "natural": None} if hidden(s.get("combatant")) else s for s in saves]}
    return block


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
