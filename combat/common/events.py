"""The events of the rules every ruleset with hit points and conditions shares: damage and
healing, temporary hit points, dropping to 0 HP and coming back, saving throws, and
concentration.

Tagged by class name like every event (combat/kernel/events.py): a type's module is no part of
its JSON, so these are stored and read as they always were. They reach the public union
through each ruleset whose rules apply them (combat/app/catalog.py).
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden

__all__ = [
    "DamageTaken",
    "Healed",
    "TempHPGranted",
    "CombatantDowned",
    "CombatantRevived",
    "SaveMade",
    "SaveRolled",
    "ConcentrationStarted",
    "ConcentrationEnded",
    "ConcentrationCheckRequired",
    "ConcentrationChecked",
]


class DamageTaken(Event, frozen=True, kw_only=True):
    target: str
    amount: int
    damage_type: str
    rolled: int
    source: str | None = None
    custom: bool = False  # a damage type the ruleset does not know, so no resistance applied
    hidden: ClassVar[Hidden] = Hidden.of(
        target=("amount",), aloud=("rolled", "damage_type")
    )  # amount next to rolled: its resistances


class Healed(Event, frozen=True, kw_only=True):
    target: str
    amount: int
    source: str | None = None
    hidden: ClassVar[Hidden] = Hidden.of(target=("amount",))  # healing stops at its hit point maximum


class TempHPGranted(Event, frozen=True, kw_only=True):
    target: str
    amount: int
    source: str | None = None
    hidden: ClassVar[Hidden] = Hidden.of(target=("amount",))


class CombatantDowned(Event, frozen=True, kw_only=True):
    """Reduced to 0 HP: a monster dies, a character falls unconscious."""

    combatant: str
    status: Literal["dead", "unconscious"]
    hidden: ClassVar[Hidden] = PUBLIC


class CombatantRevived(Event, frozen=True, kw_only=True):
    combatant: str
    hidden: ClassVar[Hidden] = PUBLIC


class SaveMade(Event, frozen=True, kw_only=True):
    combatant: str
    ability: str
    dc: int
    total: int
    success: bool
    reason: str = ""
    cover: Literal["none", "half", "three-quarters"] = "none"  # its bonus is in `total`
    judged_later: bool = False  # the DC of a save rolled without one (`SaveRolled`), set by judge_save
    # Whose DC it is, when a combatant's sheet set it (a spell's caster, a monster's action, the
    # caster of a condition whose save repeats): a player does not see a hidden one's DC. Unset
    # (and absent from the JSON) when the GM named the DC, and in saves recorded before it.
    source: str | msgspec.UnsetType = msgspec.UNSET
    hidden: ClassVar[Hidden] = Hidden.of(
        source=("dc",), aloud=("total",)
    )  # a hidden caster's or monster's DC is its stat block's


class SaveRolled(Event, frozen=True, kw_only=True):
    """A saving throw rolled with no DC yet: the GM or the effect rules on it later.
    `awaits_dc`: it waits in the state for `judge_save` (logs from before that command have
    none, and their saves wait for nothing)."""

    combatant: str
    ability: str
    total: int
    natural: int
    reason: str = ""
    awaits_dc: bool = False
    hidden: ClassVar[Hidden] = Hidden.of(
        combatant=("natural",), aloud=("total", "awaits_dc")
    )  # total minus natural is its save bonus


class ConcentrationStarted(Event, frozen=True, kw_only=True):
    combatant: str
    effect: str
    hidden: ClassVar[Hidden] = PUBLIC


class ConcentrationEnded(Event, frozen=True, kw_only=True):
    combatant: str
    effect: str
    reason: str
    hidden: ClassVar[Hidden] = PUBLIC


class ConcentrationCheckRequired(Event, frozen=True, kw_only=True):
    combatant: str
    dc: int
    damage: int
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("dc", "damage"))  # the damage it took, after its resistances


class ConcentrationChecked(Event, frozen=True, kw_only=True):
    combatant: str
    dc: int
    total: int
    success: bool
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("dc",), aloud=("total",))
