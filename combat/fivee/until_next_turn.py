"""What a creature's action gives it until the start of its next turn, kept in the 5e state's
slots (combat/fivee/state.py): Dodge ("Until the start of your next turn, any attack roll made
against you has Disadvantage if you can see the attacker"), Disengage ("your movement doesn't
provoke Opportunity Attacks for the rest of the current turn") and a readied action (the
trigger it waits for, spent with the reaction).

Each slot is unset while no creature holds it, so it is absent from the state's JSON and a
state where nobody dodges equals a fresh one. They were fields of every ruleset's combatant
(`Combatant.dodging`, `.disengaged`, `.readied`) until only the 5e family was seen to use them;
a log folds to the same values here as it did there.
"""

from __future__ import annotations

import msgspec

from combat.common.condition_effects import can_see, is_incapacitated, speed_of
from combat.common.events import CombatantDowned
from combat.kernel.decider import Rules
from combat.kernel.events import TurnStarted
from combat.kernel.state import Combatant, EncounterState, holding, slot_of

__all__ = [
    "DodgingSlot",
    "DisengagedSlot",
    "ReadiedSlot",
    "is_dodging",
    "has_disengaged",
    "readied_of",
    "dodges",
    "disengages",
    "readies",
    "stops_dodging",
    "lapse",
    "dodge_disadvantage",
    "RULES",
]

DodgingSlot = tuple[str, ...] | msgspec.UnsetType  # who took the Dodge action
DisengagedSlot = tuple[str, ...] | msgspec.UnsetType  # who took the Disengage action this turn
ReadiedSlot = dict[str, str] | msgspec.UnsetType  # who readied an action -> what it waits for


def _held(state: EncounterState, slot: str) -> tuple[str, ...] | dict[str, str]:
    return slot_of(state, slot) or ()


def is_dodging(state: EncounterState, cid: str) -> bool:
    return cid in _held(state, "dodging")


def has_disengaged(state: EncounterState, cid: str) -> bool:
    return cid in _held(state, "disengaged")


def readied_of(state: EncounterState, cid: str) -> str | None:
    """The trigger `cid`'s readied action waits for, or None."""
    readied = _held(state, "readied")
    return readied.get(cid) if isinstance(readied, dict) else None


def _with_ids(state: EncounterState, slot: str, cid: str, held: bool) -> EncounterState:
    ids = _held(state, slot)
    if (cid in ids) == held:
        return state
    return holding(state, **{slot: (*ids, cid) if held else tuple(i for i in ids if i != cid)})


def dodges(state: EncounterState, cid: str) -> EncounterState:
    return _with_ids(state, "dodging", cid, True)


def disengages(state: EncounterState, cid: str) -> EncounterState:
    return _with_ids(state, "disengaged", cid, True)


def stops_dodging(state: EncounterState, cid: str) -> EncounterState:
    return _with_ids(state, "dodging", cid, False)


def readies(state: EncounterState, cid: str, trigger: str | None) -> EncounterState:
    """`state` where `cid` holds a readied action waiting for `trigger`; None: it holds none."""
    if readied_of(state, cid) == trigger:
        return state
    held = _held(state, "readied")
    readied = dict(held) if isinstance(held, dict) else {}
    if trigger is None:
        del readied[cid]
    else:
        readied[cid] = trigger
    return holding(state, readied=readied)


def lapse(state: EncounterState, cid: str) -> EncounterState:
    """`state` where `cid`'s Dodge and Disengage have ended: its next turn started, or a
    controlled mount's turn came with its rider's (its readied action is not the rider's to end)."""
    return _with_ids(_with_ids(state, "dodging", cid, False), "disengaged", cid, False)


def dodge_disadvantage(
    state: EncounterState, attacker: Combatant, target: Combatant, *, attacker_unseen: bool = False, held: bool = False
) -> list[str]:
    """The Disadvantage a dodging target gives: "You lose these benefits if you have the
    Incapacitated condition or if your Speed is 0" ... "attack rolls against you have
    Disadvantage if you can see the attacker" (a5e: "Until the start of your next turn, attacks
    against you are made with disadvantage if you can see the attacker", and no more: `held`,
    combat/common/condition_effects.py's `dodge_to_next_turn`)."""
    if not is_dodging(state, target.id):
        return []
    sees = can_see(target, attacker, unseen=attacker_unseen)
    if held:
        # An Unconscious dodger, or one at 0 Hit Points, is unaware of its surroundings: it sees no attacker.
        holds = target.status == "active" and not target.has("unconscious") and sees
    else:
        holds = not is_incapacitated(target) and speed_of(target) > 0 and sees
    return ["target is dodging"] if holds else []


def _at_turn_start(state: EncounterState, e: TurnStarted) -> EncounterState:
    """A creature's Dodge, Disengage and readied action last until the start of its next turn."""
    rules, cid = state.rules, e.combatant  # read in place: this runs at every turn's start
    if cid in (rules.dodging or ()) or cid in (rules.disengaged or ()) or cid in (rules.readied or ()):
        return readies(lapse(state, cid), cid, None)
    return state


def _downed(state: EncounterState, e: CombatantDowned) -> EncounterState:
    """An Incapacitated creature loses its Dodge; one at 0 HP does not get it back by standing."""
    return stops_dodging(state, e.combatant) if e.combatant in (state.rules.dodging or ()) else state


RULES = Rules(after={TurnStarted: (_at_turn_start,), CombatantDowned: (_downed,)})
