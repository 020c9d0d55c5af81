"""The 5e family's events of a combatant's turn other than attacks: it moved, took an action,
a bonus action, an object interaction, a reaction. Their rules are combat/fivee/actions.py;
they stand apart from it because modules it imports record them too (a spell cast as an
action, a reaction spell, the checks of a changed past)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Literal

from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden

__all__ = ["Moved", "ActionTaken", "BonusActionTaken", "ObjectInteracted", "ReactionTaken", "NARRATION"]


class Moved(Event, frozen=True, kw_only=True):
    combatant: str
    feet: int
    mode: str = "walk"
    provoked: tuple[str, ...] = ()
    cost: int | None = None  # movement spent, when Difficult Terrain made it more than `feet`

    @property
    def spent(self) -> int:
        return self.feet if self.cost is None else self.cost

    hidden: ClassVar[Hidden] = PUBLIC


class ActionTaken(Event, frozen=True, kw_only=True):
    """One of the SRD actions other than Attack (Dash, Dodge, Help, Hide, ...)."""

    combatant: str
    action: str
    target: str | None = None
    detail: str = ""
    uses: Literal["action", "bonus_action"] = "action"
    hidden: ClassVar[Hidden] = PUBLIC


class BonusActionTaken(Event, frozen=True, kw_only=True):
    combatant: str
    description: str
    hidden: ClassVar[Hidden] = PUBLIC


class ObjectInteracted(Event, frozen=True, kw_only=True):
    combatant: str
    description: str
    hidden: ClassVar[Hidden] = PUBLIC


class ReactionTaken(Event, frozen=True, kw_only=True):
    combatant: str
    description: str
    hidden: ClassVar[Hidden] = PUBLIC


NARRATION: dict[type, Callable[[Any, Any], str]] = {
    Moved: lambda n, e: (
        f"{n.name(e.combatant)} moves {e.feet} ft"
        + (f" through Difficult Terrain ({e.spent} ft of movement)" if e.spent != e.feet else "")
        + (f" ({e.mode})" if e.mode != "walk" else "")
        + (f", leaving the reach of {', '.join(n.name(p) for p in e.provoked)}" if e.provoked else "")
    ),
    ActionTaken: lambda n, e: (
        f"{n.name(e.combatant)} takes the {e.action.title()} action"
        + (" as a bonus action" if e.uses == "bonus_action" else "")
        + (f" against {n.name(e.target)}" if e.target else "")
        + (f": {e.detail}" if e.detail else "")
    ),
    BonusActionTaken: lambda n, e: f"{n.name(e.combatant)} uses a bonus action: {e.description}",
    ObjectInteracted: lambda n, e: f"{n.name(e.combatant)} interacts with an object: {e.description}",
    ReactionTaken: lambda n, e: f"{n.name(e.combatant)} uses its reaction: {e.description}",
}
