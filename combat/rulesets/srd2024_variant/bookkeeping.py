"""Reading the variant's own part of the state (`state.rules`), and the size table its rules share."""

from __future__ import annotations

from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant, EncounterState

from .state import VariantMount, VariantTraits

__all__ = [
    "SIZES",
    "SPACE_FEET",
    "size_steps",
    "traits_of",
    "strength_and_proficiency",
    "mount_of",
    "rider_of",
    "is_controlled_mount",
]

SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")
# "Entity Size and Space": the width of the square an entity controls. A Tiny creature's
# space is never Difficult Terrain for others and never big enough to carry a rider, so its
# 2.5 ft never enters a cost.
SPACE_FEET = {"tiny": 0, "small": 5, "medium": 5, "large": 10, "huge": 15, "gargantuan": 20}


def size_steps(smaller: Combatant, larger: Combatant) -> int:
    """How many size categories `larger` is above `smaller` (negative if below)."""
    return SIZES.index(larger.size) - SIZES.index(smaller.size)


def traits_of(state: EncounterState, cid: str) -> VariantTraits:
    return state.rules.traits.get(cid, VariantTraits())


def strength_and_proficiency(state: EncounterState, c: Combatant, doing: str) -> tuple[int, int]:
    """The Strength modifier and Proficiency Bonus a rule needs; the GM notes them with note_traits."""
    t = traits_of(state, c.id)
    if t.strength is None or t.proficiency is None:
        raise RuleError(
            "traits/missing",
            f"{c.name}'s Strength modifier and Proficiency Bonus are not noted, and {doing} depends on them",
            allowed=f"note_traits for {c.id} with strength and proficiency",
        )
    return t.strength, t.proficiency


def mount_of(state: EncounterState, rider: str) -> VariantMount | None:
    return next((m for m in state.rules.mounts if m.rider == rider), None)


def rider_of(state: EncounterState, mount: str) -> VariantMount | None:
    return next((m for m in state.rules.mounts if m.mount == mount), None)


def is_controlled_mount(state: EncounterState, cid: str) -> bool:
    m = rider_of(state, cid)
    return m is not None and m.controlled
