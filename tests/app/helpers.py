"""Helpers of the store and history tests: a fight played through `Encounters`."""

from __future__ import annotations

from combat.app.application import Encounters
from combat.kernel.commands import (
    AddCombatant,
    BeginCombat,
    RollInitiative,
)
from tests.helpers import monster, pc


def fight(encounters: Encounters, goblin_hp: int = 10):
    """Aria (initiative 18) against a goblin (initiative 5) with `goblin_hp` HP."""
    eid = encounters.create("srd-2024", "history", seed=11)
    encounters.execute(eid, AddCombatant(combatant=pc("aria", max_hp=20, attacks_per_action=2)))
    encounters.execute(eid, AddCombatant(combatant=monster("goblin", max_hp=goblin_hp)))
    encounters.execute(eid, AddCombatant(combatant=monster("orc", max_hp=15, side="monsters")))
    encounters.execute(eid, BeginCombat())
    encounters.execute(eid, RollInitiative(combatant="aria", faces=(18,)))
    encounters.execute(eid, RollInitiative(combatant="goblin", faces=(5,)))
    encounters.execute(eid, RollInitiative(combatant="orc", faces=(2,)))
    return eid
