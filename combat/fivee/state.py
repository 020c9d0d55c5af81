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

from combat.common.concentration import PendingChecksSlot
from combat.fivee.banked_actions import BankedSlot
from combat.fivee.characters import CharactersSlot
from combat.fivee.held_open import HalvedHitsSlot, HelpsSlot, OpportunitiesSlot, PendingDamageSlot, ReactionWindowSlot
from combat.fivee.last_attacks import LastAttacksSlot
from combat.fivee.monsters import MonstersSlot
from combat.fivee.until_next_turn import DisengagedSlot, DodgingSlot, ReadiedSlot
from combat.kernel.state import EncounterState

__all__ = ["FiveEState", "keeps_fivee", "DeathSaves", "Dying", "DyingSlot", "RolledSave", "RolledSavesSlot"]


# The slots the 0 HP rules (combat/fivee/dying.py) and the saves judged later
# (combat/fivee/judged_saves.py) keep are declared here, not beside those rules: both rules ask
# `keeps_fivee`, so their modules import this one.


class DeathSaves(msgspec.Struct, frozen=True, kw_only=True):
    """One creature's Death Saving Throws so far."""

    successes: int = 0
    failures: int = 0
    stable: bool = False


class Dying(msgspec.Struct, frozen=True, kw_only=True):
    """The 0 HP rules' bookkeeping: tallies of creatures at 0 HP, the Death Saving Throws owed
    at the start of a turn, and the monsters the GM treats like characters. A 5e-family
    ruleset's state holds it as `dying`, unset (and so absent from its JSON) until used."""

    tallies: dict[str, DeathSaves] = {}
    owed: tuple[str, ...] = ()
    as_characters: tuple[str, ...] = ()


# The 5e slice (combat/fivee/state.py) has a `dying` field, unset (and so absent from its JSON and
# equal to a fresh state) until someone drops to 0 HP or a monster is treated like a character.
DyingSlot = Dying | msgspec.UnsetType


class RolledSave(msgspec.Struct, frozen=True, kw_only=True):
    combatant: str
    ability: str
    total: int
    natural: int
    reason: str = ""
    fails: str | None = None  # the condition that failed it as it was rolled (Strength and Dexterity saves)


RolledSavesSlot = tuple[RolledSave, ...] | msgspec.UnsetType


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
    # What the fight holds open between events (combat/fivee/held_open.py).
    helps: HelpsSlot = msgspec.UNSET  # Help given and not yet used
    opportunities: OpportunitiesSlot = msgspec.UNSET  # opportunity attacks open this turn
    pending_damage: PendingDamageSlot = msgspec.UNSET  # hits whose damage is still to be rolled
    reaction_window: ReactionWindowSlot = msgspec.UNSET  # open: the fight waits for reactions
    halved_hits: HalvedHitsSlot = msgspec.UNSET  # attackers whose waiting hit's damage is halved (Uncanny Dodge)
    # What a creature's action gives it until its next turn (combat/fivee/until_next_turn.py).
    dodging: DodgingSlot = msgspec.UNSET  # who took the Dodge action
    disengaged: DisengagedSlot = msgspec.UNSET  # who took the Disengage action this turn
    readied: ReadiedSlot = msgspec.UNSET  # who readied an action -> the trigger it waits for
    pending_checks: PendingChecksSlot = msgspec.UNSET  # concentration saves owed (combat/common/concentration.py)


def keeps_fivee(state: EncounterState) -> TypeGuard[EncounterState[FiveEState]]:
    """The encounter's ruleset keeps the 5e slice. The shared damage and healing rules
    (combat/common/hitpoints.py) serve declared-d10 and segments-1e too, which keep none."""
    return isinstance(state.rules, FiveEState)
