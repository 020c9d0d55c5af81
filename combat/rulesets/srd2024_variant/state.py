"""What srd-2024-variant remembers beyond the shared encounter state (`EncounterState.rules`)."""

from __future__ import annotations

import msgspec

from combat.fivee.state import FiveEState

__all__ = ["VariantTraits", "VariantGrapple", "VariantMount", "VariantTalk", "SrdVariantState"]


class VariantTraits(msgspec.Struct, frozen=True, kw_only=True):
    """What the core stat block lacks and the variant's rules read."""

    strength: int | None = None  # Strength modifier
    proficiency: int | None = None  # Proficiency Bonus
    speeds: dict[str, int] = {}  # special speeds: fly, climb, swim, burrow
    hands: int = 2  # free hands (or equivalent parts) to grapple with
    trained_mount: bool = False  # trained to accept a rider, so it can be controlled


class VariantGrapple(msgspec.Struct, frozen=True, kw_only=True):
    grappler: str
    target: str
    dc: int


class VariantMount(msgspec.Struct, frozen=True, kw_only=True):
    rider: str
    mount: str
    controlled: bool


class VariantTalk(msgspec.Struct, frozen=True, kw_only=True):
    """Extended communication among allies, open until the speaker's turn ends."""

    speaker: str
    listeners: tuple[str, ...]
    replied: tuple[str, ...] = ()


class SrdVariantState(FiveEState, frozen=True, kw_only=True):
    """The 5e slice (combat/fivee/state.py) and the variant's own rules' bookkeeping."""

    traits: dict[str, VariantTraits] = {}
    reorder_queue: tuple[str, ...] = ()  # players who may still propose a swap, first first
    swap_proposal: tuple[str, str] | None = None  # (proposer, asked)
    tie_rerolls: dict[str, tuple[int, ...]] = {}  # tied player -> d20 rerolls so far
    talk: VariantTalk | None = None
    grapples: tuple[VariantGrapple, ...] = ()
    mounts: tuple[VariantMount, ...] = ()
    falls_pending: tuple[str, ...] = ()  # riders who owe a DC 10 Dexterity save to stay mounted
    run_up: tuple[str, int] | None = None  # (who, feet just moved) for a running jump
