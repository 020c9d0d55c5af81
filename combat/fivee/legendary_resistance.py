"""Legendary Resistance (N/Day), from the stat block: "If the dragon fails a saving throw, it can
choose to succeed instead." The GM chooses after seeing the failed save (`use_legendary_resistance`),
or with the save's modifiers (combat/fivee/save_modifiers.py); the save's DC and ability are kept."""

from __future__ import annotations

from typing import ClassVar

from combat.common.events import SaveMade
from combat.fivee.monsters import require_sheet, sheet, with_sheet
from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import Hidden
from combat.kernel.state import EncounterState

__all__ = ["UseLegendaryResistance", "LegendaryResistanceUsed", "RULES"]


class UseLegendaryResistance(Command, frozen=True, kw_only=True):
    """Turn the creature's last failed saving throw into a success (the GM's choice)."""

    gm_only: ClassVar[bool] = True

    combatant: str


class LegendaryResistanceUsed(Event, frozen=True, kw_only=True):
    """The failed save (ability, DC) counts as a success."""

    combatant: str
    ability: str
    dc: int
    left: int
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("left",), aloud=("dc",))  # the DC of the save it resisted


def _use_legendary_resistance(tx: Tx, cmd: UseLegendaryResistance) -> None:
    c, s = require_sheet(tx, cmd.combatant)
    if s.block.legendary_resistance == 0:
        raise RuleError(
            "legendary/no-resistance", f"{c.name} has no Legendary Resistance", allowed="a creature whose stat block has it"
        )
    if s.resistance_left == 0:
        raise RuleError(
            "legendary/no-resistance-left", f"{c.name} has used all its Legendary Resistance today", allowed="let the save fail"
        )
    if s.failed_save is None:
        raise RuleError(
            "legendary/no-failed-save",
            f"{c.name} has no failed saving throw to turn into a success",
            allowed="right after a saving_throw it failed",
        )
    ability, dc = s.failed_save
    tx.emit(LegendaryResistanceUsed(combatant=c.id, ability=ability, dc=dc, left=s.resistance_left - 1))


def _on_resisted(state: EncounterState, e: LegendaryResistanceUsed) -> EncounterState:
    return with_sheet(state, e.combatant, resistance_left=e.left, failed_save=None)


def _after_save(state: EncounterState, e: SaveMade) -> EncounterState:
    """A failed save may still be turned; any later save, failed or not, replaces it."""
    s = sheet(state, e.combatant)
    if s is None or s.block.legendary_resistance == 0:
        return state
    return with_sheet(state, e.combatant, failed_save=None if e.success else (e.ability, e.dc))


RULES = Rules(
    handlers={UseLegendaryResistance: _use_legendary_resistance},
    appliers={LegendaryResistanceUsed: _on_resisted},
    # After the ruleset's own applier for the shared event: the block's own books.
    after={SaveMade: (_after_save,)},
    narration={
        LegendaryResistanceUsed: lambda n, e: (
            f"{n.name(e.combatant)} uses Legendary Resistance: the DC {e.dc} {e.ability} save succeeds instead"
            + ("" if e.left is None else f" ({e.left} left)")
        ),  # None: not revealed to this reader
    },
)
