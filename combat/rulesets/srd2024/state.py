"""What srd-2024 remembers beyond the shared encounter state (`EncounterState.rules`)."""

from __future__ import annotations

import msgspec

from combat.fivee.banked_actions import BankedSlot
from combat.fivee.characters import CharactersSlot
from combat.fivee.dying import DyingSlot
from combat.fivee.judged_saves import RolledSavesSlot
from combat.fivee.monsters import MonstersSlot

__all__ = ["Srd2024State"]


class Srd2024State(msgspec.Struct, frozen=True, kw_only=True):
    """Its monsters' sheets and the 0 HP rules' bookkeeping, each unset until used."""

    monsters: MonstersSlot = msgspec.UNSET  # creatures added from stat blocks (combat/fivee/monsters.py)
    banked: BankedSlot = msgspec.UNSET  # actions granted for a turn to come (combat/fivee/banked_actions.py)
    rolled_saves: RolledSavesSlot = msgspec.UNSET  # saves awaiting their DC (combat/fivee/judged_saves.py)
    dying: DyingSlot = msgspec.UNSET  # the 0 HP rules (combat/fivee/dying.py)
    characters: CharactersSlot = msgspec.UNSET  # characters added by sheet (combat/fivee/characters.py)
