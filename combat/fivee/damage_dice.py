"""The damage dice an attack rolls, as the ruleset's own state may change them.

A ruleset whose own state (`state.rules`) has a `damage_dice(notation, damage_type)` method
says there what its circumstances add to damage of a type: a5e's cavernous Echo adds a point
per die to thunder damage (combat/rulesets/a5e/echo.py). Asked once per damage roll, after a
Critical Hit has doubled the dice, so an addition per die counts the dice actually rolled.
"""

from __future__ import annotations

from combat.kernel.state import EncounterState

__all__ = ["as_rolled"]


def as_rolled(state: EncounterState, notation: str, damage_type: str) -> str:
    adds = getattr(state.rules, "damage_dice", None)
    return adds(notation, damage_type) if adds is not None else notation
