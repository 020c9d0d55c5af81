"""After a change to the past: which later events of a variant fight could not have happened.

combat.app.history runs these on every event after an undo or an amended ruling, with the state
just before the event; each says what no longer fits, or None. Nothing is rewritten: the GM
retracts, amends further or overrides.

srd-2024's checks stand for the shared events that mean the same here (damage, healing, a
creature dropping, reactions, whose turn came when, over the variant's acting order). The
variant adds what its own rules make impossible:
- an action, bonus action, attack or move by a creature whose turn it was not (a controlled
  mount acts on its rider's turn), by a controlled mount beyond Dash, Disengage and Dodge, or
  an opportunity attack against a creature that never left the reach;
- the swaps before round 1: a surprised combatant swapping, a player proposing out of turn,
  counts exchanged that are no longer the two counts, a queue that is not the players' order;
- a tied player rerolling a tie that no longer exists;
- extended communication without the action, bonus action or reaction it costs, or a reply
  to a conversation no one opened;
- a grapple or shove whose DC the noted Strength and Proficiency no longer give, a grapple
  without a free hand, an escape from a grapple that no longer holds or at another DC;
- movement, a jump, standing up or mounting without the movement left for it; a rider moving
  on its own; a Prone creature walking; a running jump without its run-up;
- a dismount, a fall or a ride of a pair that is not mounted, a save to stay mounted that is
  not owed, a controlled mount's Initiative that is not its rider's;
- a fight ended because a side was down, when someone on it stands now.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from combat.common.consistency import first_of
from combat.common.turns import blocked_by
from combat.fivee import consistency as shared
from combat.fivee.action_events import ActionTaken, BonusActionTaken, Moved, ObjectInteracted
from combat.fivee.actions import used_up
from combat.fivee.attack_events import AttackMade, AttackRolled
from combat.fivee.attacks import already_dead, no_opportunity
from combat.fivee.initiative import units
from combat.fivee.standing import not_prone
from combat.kernel import events as ev
from combat.kernel.decider import Check, Rules
from combat.kernel.state import Combatant, EncounterState

from . import communication, jumping, mounts, reorder, unarmed
from .bookkeeping import mount_of, rider_of, traits_of
from .initiative import TieRerolled, no_reroll
from .movement import ExtraFeetSpent, StoodUp
from .speeds import MODES, movement_left, movement_short, prone_crawls, speed_used
from .traits import SPECIAL_SPEEDS, TraitsNoted
from .unarmed import grapple_dc

__all__ = ["CHECKS", "RULES"]


def _name(state: EncounterState, cid: str) -> str:
    c = state.combatants.get(cid)
    return c.name if c is not None else cid


def _missing(state: EncounterState, *cids: str) -> str | None:
    gone = [cid for cid in cids if cid not in state.combatants]
    return f"{gone[0]} is not in the fight any more" if gone else None


def _unable(c: Combatant, doing: str) -> str | None:
    blocking = blocked_by(c)
    return f"{c.name} is {blocking} now and could not {doing}" if blocking else None


_not_their_turn = mounts.not_their_turn


def _movement_for(state: EncounterState, c: Combatant, feet: int, speeds: tuple[str, ...], doing: str) -> str | None:
    """The movement `doing` cost, out of whichever of `speeds` had the most left."""
    best = max(speeds, key=lambda s: movement_left(state, c, s), default="walk")
    return movement_short(state, c, feet, best, doing)


def _speeds_of(state: EncounterState, c: Combatant) -> tuple[str, ...]:
    return ("walk", *(s for s in SPECIAL_SPEEDS if traits_of(state, c.id).speeds.get(s)))


# -- turn-bound deeds: shared events, with the variant's turn and controlled-mount rules ----


def _acts_on_turn(field: str) -> Check:
    def check(state: EncounterState, e: Any, ctx: dict[str, Any]) -> str | None:
        cid = getattr(e, field)
        if cid not in state.combatants:
            return None  # the shared check says so
        if getattr(e, "opportunity", False) or getattr(e, "uses", None) == "reaction":
            return None
        return _not_their_turn(state, cid)

    return check


def _mount_limits(field: str, allowed: Callable[[Any], bool]) -> Check:
    def check(state: EncounterState, e: Any, ctx: dict[str, Any]) -> str | None:
        return None if allowed(e) else mounts.controlled_mount_limit(state, getattr(e, field))

    return check


def _opportunity_open(state: EncounterState, e: Any, ctx: dict[str, Any]) -> str | None:
    if not e.opportunity or _missing(state, e.attacker, e.target):
        return None
    return no_opportunity(state, e.attacker, e.target)


def _moved(state: EncounterState, e: Moved, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    problem = _unable(c, "move") or _not_their_turn(state, c.id)
    if problem:
        return problem
    problem = mounts.riding(state, c) or prone_crawls(c, e.mode)
    if problem:
        return problem
    mode = e.mode if e.mode in MODES else "walk"
    if mode in ("fly", "burrow") and not traits_of(state, c.id).speeds.get(mode):
        return f"{c.name} has no {mode.title()} Speed"
    return movement_short(state, c, e.feet, speed_used(state, c, mode), f"{e.feet} ft ({e.mode})")


def _extra_feet(state: EncounterState, e: ExtraFeetSpent, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    return _movement_for(state, c, e.feet, _speeds_of(state, c), "of " + ", ".join(e.reasons))


def _stood_up(state: EncounterState, e: StoodUp, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    return (
        not_prone(c)
        or _unable(c, "stand up")
        or _not_their_turn(state, c.id)
        or _movement_for(state, c, e.cost, ("walk",), "of standing up")
    )


def _jumped(state: EncounterState, e: jumping.Jumped, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    problem = _unable(c, "jump") or _not_their_turn(state, c.id)
    if problem:
        return problem
    return (
        mounts.riding(state, c)
        or prone_crawls(c, "jump")
        or jumping.out_of_reach(state, c, e.kind, e.feet)
        or _movement_for(state, c, e.feet, ("walk",), f"a {e.feet} ft {e.kind} jump")
    )


# -- initiative ties and the swaps before round 1 ----------------------------------------


def _rerolled(state: EncounterState, e: TieRerolled, ctx: dict[str, Any]) -> str | None:
    return no_reroll(state, e.combatant, e.total)


def _reorder_opened(state: EncounterState, e: reorder.ReorderOpened, ctx: dict[str, Any]) -> str | None:
    queue = reorder.proposal_queue(state, mounts.turn_order)
    if queue == e.queue:
        return None
    names = ", ".join(_name(state, cid) for cid in queue) or "no one"
    return f"the players who may propose a swap would now be {names}, in that order"


def _swap_proposed(state: EncounterState, e: reorder.SwapProposed, ctx: dict[str, Any]) -> str | None:
    return (
        _missing(state, e.proposer, e.asked)
        or reorder.surprised_among(state, e.proposer, e.asked)
        or reorder.not_their_chance(state, e.proposer)
    )


def _swap_answered(state: EncounterState, e: reorder.SwapAnswered, ctx: dict[str, Any]) -> str | None:
    return reorder.not_asked(state, e.asked, e.proposer)


def _swap_passed(state: EncounterState, e: reorder.SwapPassed, ctx: dict[str, Any]) -> str | None:
    return _missing(state, e.combatant) or reorder.not_their_chance(state, e.combatant)


def _places_swapped(state: EncounterState, e: reorder.PlacesSwapped, ctx: dict[str, Any]) -> str | None:
    members = units(state)
    for unit, total in ((e.first, e.first_total), (e.second, e.second_total)):
        if unit not in members:
            return f"{unit} is not in the fight any more"
        now = members[unit][0].initiative
        if now is None:
            return f"{members[unit][0].name} had no Initiative yet, so there was no place to swap"
        if now != total:
            return f"{members[unit][0].name} acted at {now} then, not {total}: the swap exchanged other counts"
    return reorder.surprised_among(state, e.first, e.second)


def _reorder_ended(state: EncounterState, e: reorder.ReorderEnded, ctx: dict[str, Any]) -> str | None:
    return reorder.proposal_open(state) or reorder.players_waiting(state)


def _initiative_set(state: EncounterState, e: ev.InitiativeSet, ctx: dict[str, Any]) -> str | None:
    for cid in e.combatants:
        pair = rider_of(state, cid)
        if pair is None or not pair.controlled or pair.rider not in state.combatants:
            continue
        rider = state.combatants[pair.rider]
        if rider.initiative is not None and rider.initiative != e.total:
            return f"{_name(state, cid)} is controlled by {rider.name} and takes {rider.initiative}, not {e.total}"
    return None


# -- communication ------------------------------------------------------------------------


def _addressed(state: EncounterState, e: communication.AlliesAddressed, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    problem = _unable(c, "communicate at length") or _not_their_turn(state, c.id) or used_up(c, e.uses)
    if problem:
        return problem
    for cid in e.listeners:
        other = state.combatants.get(cid)
        if other is None or other.status == "dead":
            return f"{_name(state, cid)} was dead or gone and could not listen"
    return None


def _replied(state: EncounterState, e: communication.AllyReplied, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    problem = communication.nothing_to_reply(state, c)
    if problem:
        return problem
    talk = state.rules.talk
    if talk is not None and talk.speaker != e.to:
        return f"{_name(state, talk.speaker)} was talking with {c.name}, not {_name(state, e.to)}"
    return _unable(c, "reply") or used_up(c, "reaction")


# -- grapples and shoves ------------------------------------------------------------------


def _dc_now(state: EncounterState, cid: str) -> int | None:
    t = traits_of(state, cid)
    return None if t.strength is None or t.proficiency is None else grapple_dc(t.strength, t.proficiency)


def _strike(state: EncounterState, e: unarmed.UnarmedStrikeMade, ctx: dict[str, Any]) -> str | None:
    problem = _missing(state, e.attacker, e.target)
    if problem:
        return problem
    attacker, target = state.combatants[e.attacker], state.combatants[e.target]
    problem = _unable(attacker, "strike") or (
        no_opportunity(state, e.attacker, e.target) if e.opportunity else _not_their_turn(state, e.attacker)
    )
    if problem:
        return problem
    problem = already_dead(target) or mounts.controlled_mount_limit(state, attacker.id) or used_up(attacker, e.uses)
    if problem:
        return problem
    dc = _dc_now(state, e.attacker)
    if dc is None:
        return f"{attacker.name}'s Strength modifier and Proficiency Bonus are no longer noted, and the DC depends on them"
    if dc != e.dc:
        return f"{attacker.name}'s {e.option} DC would be {dc} with the Strength and Proficiency noted now, not {e.dc}"
    return unarmed.cannot_grapple(state, attacker, target) if e.option == "grapple" else None


def _grapple_started(state: EncounterState, e: unarmed.GrappleStarted, ctx: dict[str, Any]) -> str | None:
    problem = _missing(state, e.grappler, e.target)
    if problem:
        return problem
    return unarmed.already_grappling(state, e.grappler, e.target)


def _grapple_ended(state: EncounterState, e: unarmed.GrappleEnded, ctx: dict[str, Any]) -> str | None:
    return unarmed.not_grappling(state, e.grappler, e.target)


def _escape(state: EncounterState, e: unarmed.EscapeAttempted, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    problem = _unable(c, "try to escape") or _not_their_turn(state, c.id) or used_up(c, "action")
    if problem:
        return problem
    problem = unarmed.not_grappled(state, c, e.grappler)
    if problem:
        return problem
    hold = next(g for g in state.rules.grapples if (g.grappler, g.target) == (e.grappler, c.id))
    if hold.dc != e.dc:
        escapes = e.total >= hold.dc
        outcome = "still escapes" if escapes == e.success else ("would escape" if escapes else "would not escape")
        return f"the escape DC of {_name(state, e.grappler)}'s grapple is {hold.dc}, not {e.dc} ({e.total} {outcome})"
    return None


def _shoved(state: EncounterState, e: unarmed.Shoved, ctx: dict[str, Any]) -> str | None:
    return _missing(state, e.attacker, e.target)


# -- mounts -------------------------------------------------------------------------------


def _pair(state: EncounterState, rider: str, mount: str, what: str) -> str | None:
    m = mount_of(state, rider)
    if m is not None and m.mount == mount:
        return None
    return f"{_name(state, rider)} was not riding {_name(state, mount)}, so {what}"


def _mounted(state: EncounterState, e: mounts.Mounted, ctx: dict[str, Any]) -> str | None:
    problem = _missing(state, e.rider, e.mount)
    if problem:
        return problem
    rider, mount = state.combatants[e.rider], state.combatants[e.mount]
    problem = _unable(rider, "mount")
    if problem:
        return problem
    problem = (
        mounts.rider_taken(state, rider)
        or mounts.mount_taken(state, mount)
        or mounts.cannot_carry(mount)
        or (mounts.untrained(state, mount) if e.controlled else None)
    )
    if problem:
        return problem
    if e.cost:
        return _not_their_turn(state, rider.id) or _movement_for(state, rider, e.cost, ("walk",), f"of mounting {mount.name}")
    return None


def _dismounted(state: EncounterState, e: mounts.Dismounted, ctx: dict[str, Any]) -> str | None:
    problem = _pair(state, e.rider, e.mount, "could not leave it")
    if problem or not e.cost or e.rider not in state.combatants:
        return problem
    rider = state.combatants[e.rider]
    return _not_their_turn(state, rider.id) or _movement_for(state, rider, e.cost, ("walk",), "of dismounting")


def _unseat_required(state: EncounterState, e: mounts.UnseatSaveRequired, ctx: dict[str, Any]) -> str | None:
    return _pair(state, e.rider, e.mount, "there was no saddle to fall from")


def _stayed(state: EncounterState, e: mounts.StayedMounted, ctx: dict[str, Any]) -> str | None:
    return mounts.no_save_owed(state, e.rider)


def _carried(state: EncounterState, e: mounts.Carried, ctx: dict[str, Any]) -> str | None:
    return _pair(state, e.rider, e.mount, "it could not carry them")


def _traits_noted(state: EncounterState, e: TraitsNoted, ctx: dict[str, Any]) -> str | None:
    return _missing(state, e.combatant)


# -- the end of the fight -----------------------------------------------------------------


def _fight_ended(state: EncounterState, e: ev.CombatEnded, ctx: dict[str, Any]) -> str | None:
    # Only the automatic end (combat.common.turns.end_fight_if_decided) claims a side is down; the
    # GM's end_combat (a surrender, a flight) may end a fight with everyone standing.
    if not e.automatic:
        return None
    standing = [c for c in state.combatants.values() if c.status == "active" and c.side != e.winner]
    if not standing:
        return None
    return f"{standing[0].name} of the {standing[0].side} side is standing now, so the fight was not decided"


_ACTION_OPTIONS = frozenset(mounts.CONTROLLED_MOUNT_ACTIONS)

# The variant's own checks, and where they replace or build on a shared one (after
# fivee.core's in the assembly).
CHECKS: dict[type, Check] = {
    AttackMade: first_of(
        shared.CHECKS[AttackMade],
        _acts_on_turn("attacker"),
        _opportunity_open,
        _mount_limits("attacker", lambda e: False),
    ),
    AttackRolled: first_of(  # the first step of an attack in two steps: the same limits
        shared.CHECKS[AttackRolled],
        _acts_on_turn("attacker"),
        _opportunity_open,
        _mount_limits("attacker", lambda e: False),
    ),
    ActionTaken: first_of(
        _mount_limits("combatant", lambda e: e.action in _ACTION_OPTIONS and e.uses == "action"),
        shared.CHECKS[ActionTaken],
        _acts_on_turn("combatant"),
    ),
    BonusActionTaken: first_of(
        shared.CHECKS[BonusActionTaken],
        _acts_on_turn("combatant"),
        _mount_limits("combatant", lambda e: False),
    ),
    ObjectInteracted: first_of(shared.CHECKS[ObjectInteracted], _acts_on_turn("combatant")),
    Moved: _moved,
    ev.InitiativeSet: _initiative_set,
    ev.CombatEnded: _fight_ended,
    ExtraFeetSpent: _extra_feet,
    StoodUp: _stood_up,
    jumping.Jumped: _jumped,
    TieRerolled: _rerolled,
    reorder.ReorderOpened: _reorder_opened,
    reorder.SwapProposed: _swap_proposed,
    reorder.SwapAnswered: _swap_answered,
    reorder.SwapPassed: _swap_passed,
    reorder.PlacesSwapped: _places_swapped,
    reorder.ReorderEnded: _reorder_ended,
    communication.AlliesAddressed: _addressed,
    communication.AllyReplied: _replied,
    unarmed.UnarmedStrikeMade: _strike,
    unarmed.GrappleStarted: _grapple_started,
    unarmed.GrappleEnded: _grapple_ended,
    unarmed.EscapeAttempted: _escape,
    unarmed.Shoved: _shoved,
    mounts.Mounted: _mounted,
    mounts.Dismounted: _dismounted,
    mounts.UnseatSaveRequired: _unseat_required,
    mounts.StayedMounted: _stayed,
    mounts.Carried: _carried,
    TraitsNoted: _traits_noted,
}
RULES = Rules(checks=CHECKS)
