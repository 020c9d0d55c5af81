"""What a 5e fight holds open between events, kept in the 5e state's slots (combat/fivee/state.py):
the Help given and not yet used, the opportunity attacks a creature may still make, the hits
whose damage waits to be rolled, an open reaction window, and the attackers whose waiting hit's
damage is halved (Uncanny Dodge).

Each slot is unset while it holds nothing, so it is absent from the state's JSON and a state
that holds nothing open equals a fresh one: `holding` (combat/kernel/state.py) stores an
emptied slot as unset. They were fields of every ruleset's state (`SharedState`) until only
the 5e family was seen to use them; a log folds to the same values here as it did there.
"""

from __future__ import annotations

from typing import Any

import msgspec

from combat.fivee.attack_events import AttackRolled
from combat.kernel.decider import Rules
from combat.kernel.events import TurnEnded, TurnStarted
from combat.kernel.state import EncounterState, holding, slot_of

__all__ = [
    "Help",
    "ReactionWindow",
    "HelpsSlot",
    "OpportunitiesSlot",
    "PendingDamageSlot",
    "ReactionWindowSlot",
    "HalvedHitsSlot",
    "helps_of",
    "opportunities_of",
    "pending_damage_of",
    "reaction_window_of",
    "halved_hits_of",
    "opportunities_offered",
    "opportunity_taken",
    "RULES",
]


class Help(msgspec.Struct, frozen=True, kw_only=True):
    """The Help action: the next ally attack against `against` has Advantage."""

    helper: str
    against: str


class ReactionWindow(msgspec.Struct, frozen=True, kw_only=True):
    """A moment the fight waits for reactions (combat/fivee/reactions.py): an attack hit and
    its damage waits, a spell is being cast, a creature took damage. Nothing else happens
    until every creature offered a reaction has reacted or passed, or the GM closes it."""

    kind: str  # hit, spell or damage
    trigger: str  # what happened, in words
    reactors: dict[str, tuple[str, ...]] = {}  # who may react -> with what
    answered: tuple[str, ...] = ()  # who reacted or passed
    source: str | None = None  # the attacker, the caster, the creature that dealt the damage
    subject: str | None = None  # the creature hit or damaged
    held: dict[str, Any] = {}  # what waits for the window: the hit's damage faces, the spell's command


HelpsSlot = tuple[Help, ...] | msgspec.UnsetType
OpportunitiesSlot = tuple[tuple[str, str], ...] | msgspec.UnsetType  # (who may react, who left its reach)
PendingDamageSlot = tuple[AttackRolled, ...] | msgspec.UnsetType  # hits whose damage faces are still to come
ReactionWindowSlot = ReactionWindow | msgspec.UnsetType  # set: the fight waits for reactions
HalvedHitsSlot = tuple[str, ...] | msgspec.UnsetType  # attackers whose waiting hit's damage is halved


def helps_of(state: EncounterState) -> tuple[Help, ...]:
    return slot_of(state, "helps") or ()


def opportunities_of(state: EncounterState) -> tuple[tuple[str, str], ...]:
    return slot_of(state, "opportunities") or ()


def pending_damage_of(state: EncounterState) -> tuple[AttackRolled, ...]:
    return slot_of(state, "pending_damage") or ()


def reaction_window_of(state: EncounterState) -> ReactionWindow | None:
    window: ReactionWindow | None = slot_of(state, "reaction_window")
    return window


def halved_hits_of(state: EncounterState) -> tuple[str, ...]:
    return slot_of(state, "halved_hits") or ()


def opportunities_offered(state: EncounterState, provoked: tuple[str, ...], mover: str) -> EncounterState:
    """`state` where each creature in `provoked` may make an opportunity attack on `mover`."""
    return holding(state, opportunities=opportunities_of(state) + tuple((f, mover) for f in provoked)) if provoked else state


def opportunity_taken(state: EncounterState, attacker: str, target: str) -> EncounterState:
    """`state` without `attacker`'s opportunity to attack `target`: it was used."""
    return holding(state, opportunities=tuple(o for o in opportunities_of(state) if o != (attacker, target)))


def _helps_expire(state: EncounterState, e: TurnStarted) -> EncounterState:
    """A creature's Help lasts until the start of its next turn."""
    helps = getattr(state.rules, "helps", None)  # at every turn's start: read in place (UNSET is false)
    return holding(state, helps=tuple(h for h in helps if h.helper != e.combatant)) if helps else state


def _opportunities_lapse(state: EncounterState, e: TurnEnded) -> EncounterState:
    """The opportunity attacks a creature's move offered lapse when its turn ends."""
    return holding(state, opportunities=()) if getattr(state.rules, "opportunities", None) else state


RULES = Rules(after={TurnStarted: (_helps_expire,), TurnEnded: (_opportunities_lapse,)})
