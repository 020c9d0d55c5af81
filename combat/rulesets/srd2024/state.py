"""What srd-2024 remembers beyond the shared encounter state (`EncounterState.rules`)."""

from __future__ import annotations

from combat.fivee.state import FiveEState

__all__ = ["Srd2024State"]


class Srd2024State(FiveEState, frozen=True, kw_only=True):
    """Its monsters' sheets and the 0 HP rules' bookkeeping (the 5e slice), nothing of its own."""
