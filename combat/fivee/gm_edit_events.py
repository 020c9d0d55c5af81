"""The 5e family's events of the GM's moves at a real table: hit points set, a stat block
edited, an action granted. Their rules are combat/fivee/gm_edits.py; they stand apart from it
because modules it imports read them too (a spell's extra action, the checks of a changed
past)."""

from __future__ import annotations

from typing import ClassVar, Literal

from combat.fivee.gm_edit_commands import StatChanges
from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden

__all__ = ["HitPointsSet", "StatBlockChanged", "ActionGranted"]


class HitPointsSet(Event, frozen=True, kw_only=True):
    """The GM set a combatant's HP directly (temporary HP are left as they were)."""

    combatant: str
    hp: int
    previous: int
    reason: str = ""
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("hp", "previous"))


class StatBlockChanged(Event, frozen=True, kw_only=True):
    combatant: str
    changes: StatChanges
    reason: str = ""
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("changes",))


class ActionGranted(Event, frozen=True, kw_only=True):
    """An extra action, bonus action or reaction (Action Surge, Haste): it is available again."""

    combatant: str
    kind: Literal["action", "bonus_action", "reaction"]
    reason: str = ""
    hidden: ClassVar[Hidden] = PUBLIC
