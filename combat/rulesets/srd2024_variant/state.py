"""What srd-2024-variant remembers beyond the shared encounter state (`EncounterState.rules`)."""

from __future__ import annotations

import msgspec

from combat.fivee.banked_actions import BankedSlot
from combat.fivee.characters import CharactersSlot
from combat.fivee.dying import DyingSlot
from combat.fivee.judged_saves import RolledSavesSlot
from combat.fivee.monsters import MonstersSlot

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


class SrdVariantState(msgspec.Struct, frozen=True, kw_only=True):
    traits: dict[str, VariantTraits] = {}
    reorder_queue: tuple[str, ...] = ()  # players who may still propose a swap, first first
    swap_proposal: tuple[str, str] | None = None  # (proposer, asked)
    tie_rerolls: dict[str, tuple[int, ...]] = {}  # tied player -> d20 rerolls so far
    talk: VariantTalk | None = None
    grapples: tuple[VariantGrapple, ...] = ()
    mounts: tuple[VariantMount, ...] = ()
    falls_pending: tuple[str, ...] = ()  # riders who owe a DC 10 Dexterity save to stay mounted
    run_up: tuple[str, int] | None = None  # (who, feet just moved) for a running jump
    dying: DyingSlot = msgspec.UNSET  # the 0 HP rules (combat/fivee/dying.py)
    monsters: MonstersSlot = msgspec.UNSET  # creatures added from stat blocks (combat/fivee/monsters.py)
    banked: BankedSlot = msgspec.UNSET  # actions granted for a turn to come (combat/fivee/banked_actions.py)
    rolled_saves: RolledSavesSlot = msgspec.UNSET  # saves awaiting their DC (combat/fivee/judged_saves.py)
    characters: CharactersSlot = msgspec.UNSET  # characters added by sheet (combat/fivee/characters.py)
