"""Helpers of the store and history tests: a fight played through `Encounters`."""

from __future__ import annotations

from combat.app.application import Encounters
from tests.helpers import monster, pc, stored_fight


def fight(encounters: Encounters, goblin_hp: int = 10):
    """Aria (initiative 18) against a goblin (initiative 5) with `goblin_hp` HP and an orc of another side (2)."""
    cast = (
        pc("aria", max_hp=20, attacks_per_action=2),
        monster("goblin", max_hp=goblin_hp),
        monster("orc", max_hp=15, side="monsters"),
    )
    return stored_fight(encounters, "history", cast, {"aria": 18, "goblin": 5, "orc": 2}, seed=11)
