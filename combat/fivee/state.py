"""The state slice every 5e-family ruleset keeps (srd-2024, srd-2024-variant, a5e).

Foundry's dnd5e actor templates are the model: the shared fields are declared once here and
each ruleset's own state (its `state_type`) extends this class, so the shared 5e rules read
`state.rules.dying` with a type, `EncounterState[FiveEState]`, that says the slot exists.

Each slot is unset (and so absent from the state's JSON and equal to a fresh state) until its
rules first use it, so a log from before a slot existed folds to the state it always did.
msgspec writes a subclass's fields after its base's: a ruleset state's JSON lists these
first, which changes no decoding (fields are read by name) and nothing hashed (the hash chain
is over events, never over a state).
"""

from __future__ import annotations

from typing import TypeGuard

import msgspec

from combat.fivee.banked_actions import BankedSlot
from combat.fivee.characters import CharactersSlot
from combat.fivee.dying import DyingSlot
from combat.fivee.judged_saves import RolledSavesSlot
from combat.fivee.last_attacks import LastAttacksSlot
from combat.fivee.monsters import MonstersSlot
from combat.kernel.state import EncounterState

__all__ = ["FiveEState", "keeps_fivee"]


class FiveEState(msgspec.Struct, frozen=True, kw_only=True):
    """What the shared 5e rules keep, each slot unset until used. A new shared slot is
    declared here, beside the others."""

    monsters: MonstersSlot = msgspec.UNSET  # creatures added from stat blocks (combat/fivee/monsters.py)
    banked: BankedSlot = msgspec.UNSET  # actions granted for a turn to come (combat/fivee/banked_actions.py)
    rolled_saves: RolledSavesSlot = msgspec.UNSET  # saves awaiting their DC (combat/fivee/judged_saves.py)
    dying: DyingSlot = msgspec.UNSET  # the 0 HP rules (combat/fivee/dying.py)
    characters: CharactersSlot = msgspec.UNSET  # characters added by sheet (combat/fivee/characters.py)
    last_attacks: LastAttacksSlot = msgspec.UNSET  # each creature's last attack this turn (combat/fivee/last_attacks.py)
    deaths: dict[str, int] | msgspec.UnsetType = msgspec.UNSET  # the round each dead creature died in (combat/fivee/dying.py)


def keeps_fivee(state: EncounterState) -> TypeGuard[EncounterState[FiveEState]]:
    """The encounter's ruleset keeps the 5e slice. The shared damage and healing rules
    (combat/common/hitpoints.py) serve declared-d10 and segments-1e too, which keep none."""
    return isinstance(state.rules, FiveEState)
