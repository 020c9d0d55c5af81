"""The 5e family's GM moves at a real table: set hit points, edit a stat block, grant an
action, rule on a save rolled without a DC. Their rules are combat/fivee/gm_edits.py and
judged_saves.py; they stand apart from them because modules those import send them too (a
class feature's extra action: combat/fivee/resources.py)."""

from __future__ import annotations

from typing import ClassVar

import msgspec

from combat.fivee.action_commands import Using
from combat.kernel.commands import Command
from combat.kernel.events import AttackProfile

__all__ = ["StatChanges", "SetHp", "ChangeStatBlock", "GrantAction", "JudgeSave"]


class StatChanges(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """A mid-fight edit of a stat block: only the fields given change (Mage Armor's AC,
    Rage's resistances, a new attack profile)."""

    ac: int | None = None
    max_hp: int | None = None
    speed: int | None = None
    initiative_bonus: int | None = None
    con_save: int | None = None
    resistances: tuple[str, ...] | None = None
    vulnerabilities: tuple[str, ...] | None = None
    immunities: tuple[str, ...] | None = None
    attacks: tuple[AttackProfile, ...] | None = None
    attacks_per_action: int | None = None


class SetHp(Command, frozen=True, kw_only=True):
    """The GM sets HP directly ("drops to 0 hit points"); 0 drops the creature as damage would."""

    gm_only: ClassVar[bool] = True

    combatant: str
    hp: int
    reason: str = ""


class ChangeStatBlock(Command, frozen=True, kw_only=True):
    """A mid-fight edit of AC, max HP, speed, resistances, attacks... (Mage Armor, Shield, Rage);
    later events are judged against the new values."""

    gm_only: ClassVar[bool] = True

    combatant: str
    changes: StatChanges
    reason: str = ""


class GrantAction(Command, frozen=True, kw_only=True):
    """An extra action, bonus action or reaction (Action Surge, Haste), usable once the one
    the combatant has is spent. An action or bonus action granted outside the creature's turn
    is kept for its next turn and lapses when that turn ends unused."""

    combatant: str
    kind: Using
    reason: str = ""


class JudgeSave(Command, frozen=True, kw_only=True):
    """The GM sets the DC of a saving throw rolled without one (`SaveRolled`): it succeeds or
    fails now, recorded as a `SaveMade`."""

    gm_only: ClassVar[bool] = True

    combatant: str
    dc: int
    ability: str | None = None  # which of its saves still awaiting a DC; the latest if left out
    reason: str = ""
