"""Mounted Combat: mounting Δ costs movement equal to the mount's size; controlling a mount;
falling off.

- "A willing entity that is at least one size larger than a rider and that has an
  appropriate anatomy can serve as a mount." Willing means an ally here.
- Δ "During your move, you can mount an entity that is within 5 feet of you or dismount.
  Doing so costs an amount of movement equal to the entity size": 5 ft for a Small or
  Medium mount, 10 for Large, 15 for Huge, 20 for Gargantuan. A rider may also start the
  fight mounted (mount during set-up, at no cost: "Establish Positions").
- "You can control a mount only if it has been trained to accept a rider" (the
  trained_mount trait). "The Initiative of a controlled mount changes to match yours when
  you mount it. It moves on your turn as you direct it, and it has only three action
  options during that turn: Dash, Disengage, and Dodge." A controlled mount has no turn of
  its own: it acts during its rider's turn (commands name the mount), its movement and
  reaction refresh when its rider's turn starts, and it is listed right after its rider.
  An independent mount keeps its place and acts on its own turn.
- "If an effect is about to move your mount against its will while you're on it, you must
  succeed on a DC 10 Dexterity saving throw or fall off, landing with the Prone condition
  ... While mounted, you must make the same save if you're knocked Prone or the mount is."
  The save is owed like a concentration save: the turn cannot end until it is made.

Where the text is silent: a rider who succeeds keeps the saddle and is not left Prone; a
rider who drops to 0 HP falls off Prone; a mount that drops to 0 HP throws its rider, who
makes the save to land on their feet; the rider moves only with the mount, and a foe whose
reach the mount leaves may make its opportunity attack against the mount or the rider.
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from combat.common.condition_effects import can_see, is_incapacitated, speed_of
from combat.common.saves import saving_throw
from combat.common.turns import require_able, require_turn
from combat.fivee import initiative as shared_initiative
from combat.fivee.action_commands import TakeAction
from combat.fivee.action_events import ActionTaken
from combat.fivee.actions import spend_check
from combat.fivee.held_open import opportunities_offered
from combat.fivee.initiative import RollInitiative
from combat.fivee.until_next_turn import has_disengaged, lapse
from combat.kernel.commands import Command, EndTurn, Faces
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionEnded, ConditionSpec, Event, InitiativeSet, TurnStarted
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, Economy, EncounterState, with_combatant, with_rules
from combat.rulesets.srd2024_variant.state import VariantMount

from .bookkeeping import SPACE_FEET, is_controlled_mount, mount_of, rider_of, size_steps, traits_of
from .speeds import require_movement

__all__ = [
    "RULES",
    "not_their_turn",
    "riding",
    "rider_taken",
    "mount_taken",
    "cannot_carry",
    "untrained",
    "no_save_owed",
    "controlled_mount_limit",
    "Mount",
    "Dismount",
    "SaveToStayMounted",
    "Mounted",
    "Dismounted",
    "UnseatSaveRequired",
    "StayedMounted",
    "Carried",
    "CONTROLLED_MOUNT_ACTIONS",
    "FALL_OFF_DC",
    "turn_order",
    "acting_order",
    "require_mover",
    "require_not_riding",
    "carry",
    "unseat_risk",
    "sync_initiative",
    "upkeep",
    "unrolled_units",
    "refuse_controlled_mount",
    "controlled_mount_action",
    "require_no_fall_pending",
]

CONTROLLED_MOUNT_ACTIONS = ("dash", "disengage", "dodge")
FALL_OFF_DC = 10


class Mount(Command, frozen=True, kw_only=True):
    actor_fields: ClassVar[tuple[str, ...]] = ("rider",)

    rider: str
    mount: str
    controlled: bool = True


class Dismount(Command, frozen=True, kw_only=True):
    actor_fields: ClassVar[tuple[str, ...]] = ("rider",)

    rider: str


class SaveToStayMounted(Command, frozen=True, kw_only=True):
    """The DC 10 Dexterity save a rider owes after their mount is moved or either is knocked Prone."""

    gm_fields: ClassVar[tuple[str, ...]] = ("bonus",)

    actor_fields: ClassVar[tuple[str, ...]] = ("rider",)

    rider: str
    bonus: int = 0  # the rider's Dexterity save bonus
    faces: Faces = None


class Mounted(Event, frozen=True, kw_only=True):
    rider: str
    mount: str
    controlled: bool
    cost: int
    hidden: ClassVar[Hidden] = PUBLIC


class Dismounted(Event, frozen=True, kw_only=True):
    rider: str
    mount: str
    cost: int
    reason: str = "dismounted"
    hidden: ClassVar[Hidden] = PUBLIC


class UnseatSaveRequired(Event, frozen=True, kw_only=True):
    rider: str
    mount: str
    reason: str
    hidden: ClassVar[Hidden] = PUBLIC


class StayedMounted(Event, frozen=True, kw_only=True):
    rider: str
    mount: str
    hidden: ClassVar[Hidden] = PUBLIC


class Carried(Event, frozen=True, kw_only=True):
    """The rider goes where the mount goes, without spending their own movement."""

    rider: str
    mount: str
    feet: int
    provoked: tuple[str, ...] = ()
    hidden: ClassVar[Hidden] = PUBLIC


# -- whose turn a controlled mount acts on ------------------------------------------------


def turn_order(state: EncounterState, include_dead: bool = False) -> list[str]:
    """The shared order, with each controlled mount listed right after its rider."""
    order = shared_initiative.turn_order(state, include_dead)
    followers = {m.rider: m.mount for m in state.rules.mounts if m.controlled}
    placed = [cid for cid in order if cid not in followers.values()]
    result: list[str] = []
    for cid in placed:
        result.append(cid)
        mount = followers.get(cid)
        if mount is not None and (include_dead or state.combatants[mount].status != "dead"):
            result.append(mount)
    return result


def acting_order(state: EncounterState, include_dead: bool = False) -> list[str]:
    """Who takes turns: a controlled mount acts within its rider's turn, not in one of its own."""
    return [cid for cid in turn_order(state, include_dead) if not is_controlled_mount(state, cid)]


def not_their_turn(state: EncounterState, cid: str) -> str | None:
    """Turn-bound deeds happen on the creature's turn; a controlled mount's on its rider's."""
    pair = rider_of(state, cid)
    if state.turn == cid or (pair is not None and pair.controlled and state.turn == pair.rider):
        return None
    whose = state.combatants[state.turn].name if state.turn in state.combatants else "nobody"
    name = state.combatants[cid].name if cid in state.combatants else cid
    return f"it is {whose}'s turn, not {name}'s"


def require_mover(tx: Tx, c: Combatant) -> Combatant:
    """The creature whose turn it is, or the controlled mount of that creature."""
    problem = not_their_turn(tx.state, c.id)
    if problem:
        whose = tx.state.combatants[tx.state.turn].name if tx.state.turn in tx.state.combatants else "nobody"
        raise RuleError("turn/not-yours", problem, allowed=f"commands for {whose}, reactions, or GM rulings")
    return c


def riding(state: EncounterState, c: Combatant) -> str | None:
    """'... you move with it': a rider does not move on its own."""
    m = mount_of(state, c.id)
    return None if m is None else f"{c.name} is riding {state.combatants[m.mount].name} and moves only with it"


def require_not_riding(tx: Tx, c: Combatant) -> None:
    problem = riding(tx.state, c)
    if problem:
        m = mount_of(tx.state, c.id)
        assert m is not None
        allowed = f"move {m.mount}" + (" (on its own turn)" if not m.controlled else "") + ", or dismount"
        raise RuleError("mount/riding", problem, allowed=allowed)


def rider_taken(state: EncounterState, rider: Combatant) -> str | None:
    taken = mount_of(state, rider.id) or rider_of(state, rider.id)
    return f"{rider.name} is already part of a mounted pair" if taken is not None else None


def mount_taken(state: EncounterState, mount: Combatant) -> str | None:
    taken = rider_of(state, mount.id) or mount_of(state, mount.id)
    return f"{mount.name} already carries a rider or rides" if taken is not None else None


def cannot_carry(mount: Combatant) -> str | None:
    return f"{mount.name} cannot carry a rider now" if is_incapacitated(mount) else None


def untrained(state: EncounterState, mount: Combatant) -> str | None:
    """'You can control a mount only if it has been trained to accept a rider.'"""
    if traits_of(state, mount.id).trained_mount:
        return None
    return f"{mount.name} is not trained to accept a rider and cannot be controlled"


def no_save_owed(state: EncounterState, rider: str) -> str | None:
    if rider in state.rules.falls_pending:
        return None
    return f"{state.combatants[rider].name if rider in state.combatants else rider} owes no save to stay mounted"


def controlled_mount_limit(state: EncounterState, cid: str) -> str | None:
    """A controlled mount moves and can only Dash, Disengage or Dodge."""
    if not is_controlled_mount(state, cid):
        return None
    name = state.combatants[cid].name if cid in state.combatants else cid
    return f"{name} is a controlled mount: it moves and can only Dash, Disengage or Dodge"


def carry(tx: Tx, mount: Combatant, feet: int, leaves_reach_of: tuple[str, ...]) -> None:
    m = rider_of(tx.state, mount.id)
    if m is None:
        return
    rider = tx.state.combatants[m.rider]
    provoked = tuple(
        fid
        for fid in leaves_reach_of
        if not has_disengaged(tx.state, rider.id)
        and tx.state.combatants[fid].side != rider.side
        and tx.state.combatants[fid].economy.reaction
        and not is_incapacitated(tx.state.combatants[fid])
        and can_see(tx.state.combatants[fid], rider)
    )
    tx.emit(Carried(rider=rider.id, mount=mount.id, feet=feet, provoked=provoked))


# -- mounting and dismounting -------------------------------------------------------------


def _mount(tx: Tx, cmd: Mount) -> None:
    in_setup = tx.state.phase == "setup"
    rider = tx.combatant(cmd.rider) if in_setup else require_turn(tx, cmd.rider)
    mount = tx.combatant(cmd.mount)
    require_able(rider, "mount")
    if mount.id == rider.id:
        raise RuleError("mount/self", f"{rider.name} cannot ride itself")
    problem = rider_taken(tx.state, rider)
    if problem:
        raise RuleError("mount/already-riding", problem, allowed="dismount first")
    problem = mount_taken(tx.state, mount)
    if problem:
        raise RuleError("mount/taken", problem, allowed="another mount")
    if mount.side != rider.side:
        raise RuleError("mount/unwilling", f"{mount.name} is not willing to carry {rider.name}", allowed="a willing ally")
    problem = cannot_carry(mount)
    if problem:
        raise RuleError("mount/unable", problem)
    if size_steps(rider, mount) < 1:
        raise RuleError(
            "mount/too-small",
            f"{mount.name} ({mount.size}) is not at least one size larger than {rider.name} ({rider.size})",
            allowed="a mount at least one size larger than the rider",
        )
    if cmd.controlled:
        problem = untrained(tx.state, mount)
        if problem:
            raise RuleError(
                "mount/untrained",
                problem,
                allowed="controlled: false (an independent mount), or note_traits with trained_mount",
            )
        if mount.group is not None and sum(c.group == mount.group for c in tx.state.combatants.values()) > 1:
            raise RuleError(
                "mount/grouped",
                f"{mount.name} shares its group's Initiative and cannot take its rider's",
                allowed="an independent mount, or a mount outside a group",
            )
    cost = 0 if in_setup else SPACE_FEET[mount.size]
    if not in_setup:
        require_movement(tx.state, rider, cost, "walk", f"mounting {mount.name} ({mount.size})")
    tx.emit(Mounted(rider=rider.id, mount=mount.id, controlled=cmd.controlled, cost=cost))


def _dismount(tx: Tx, cmd: Dismount) -> None:
    rider = require_turn(tx, cmd.rider)
    m = mount_of(tx.state, rider.id)
    if m is None:
        raise RuleError("mount/not-riding", f"{rider.name} is not mounted")
    mount = tx.state.combatants[m.mount]
    cost = SPACE_FEET[mount.size]
    require_movement(tx.state, rider, cost, "walk", f"dismounting {mount.name} ({mount.size})")
    tx.emit(Dismounted(rider=rider.id, mount=mount.id, cost=cost))


# -- falling off --------------------------------------------------------------------------


def unseat_risk(tx: Tx, cid: str, why: str) -> None:
    """The rider of a mounted pair `cid` belongs to owes the DC 10 Dexterity save."""
    m = mount_of(tx.state, cid) or rider_of(tx.state, cid)
    if m is None or m.rider in tx.state.rules.falls_pending:
        return
    if tx.state.combatants[m.rider].status != "active":
        return
    whose = "rider" if cid == m.rider else "mount"
    tx.emit(UnseatSaveRequired(rider=m.rider, mount=m.mount, reason=f"{whose} {why}"))


def _save_to_stay(tx: Tx, cmd: SaveToStayMounted) -> None:
    rider = tx.combatant(cmd.rider)
    problem = no_save_owed(tx.state, rider.id)
    if problem:
        raise RuleError("mount/no-save", problem, allowed=", ".join(tx.state.rules.falls_pending) or "no saves owed")
    m = mount_of(tx.state, rider.id)
    if m is None:  # cannot happen: a pending save is dropped when the pair parts
        raise RuleError("mount/not-riding", f"{rider.name} is not mounted")
    save = saving_throw(tx, rider.id, "dexterity", FALL_OFF_DC, cmd.bonus, "normal", cmd.faces, reason="to stay mounted")
    mount = tx.state.combatants[m.mount]
    if not save.success:
        tx.emit(Dismounted(rider=rider.id, mount=mount.id, cost=0, reason="fell off"))
        if not tx.state.combatants[rider.id].has("prone"):
            tx.emit(ConditionApplied(target=rider.id, condition=ConditionSpec(name="prone", source="fell off a mount")))
        return
    if mount.status != "active" or is_incapacitated(mount):
        tx.emit(Dismounted(rider=rider.id, mount=mount.id, cost=0, reason="landed on their feet as the mount fell"))
        return
    tx.emit(StayedMounted(rider=rider.id, mount=mount.id))
    if tx.state.combatants[rider.id].has("prone"):
        tx.emit(ConditionEnded(target=rider.id, condition="prone", reason="kept the saddle"))


def upkeep(tx: Tx) -> None:
    """After every command: a downed rider falls off; a downed mount throws its rider."""
    for m in tx.state.rules.mounts:
        rider = tx.state.combatants.get(m.rider)
        mount = tx.state.combatants.get(m.mount)
        if rider is None or mount is None:
            tx.emit(Dismounted(rider=m.rider, mount=m.mount, cost=0, reason="left the fight"))
        elif rider.status != "active":
            tx.emit(Dismounted(rider=m.rider, mount=m.mount, cost=0, reason=f"{rider.name} is {rider.status}"))
            if rider.status == "unconscious" and not rider.has("prone"):
                tx.emit(ConditionApplied(target=rider.id, condition=ConditionSpec(name="prone", source="fell off a mount")))
        elif mount.status != "active" and m.rider not in tx.state.rules.falls_pending:
            tx.emit(UnseatSaveRequired(rider=m.rider, mount=m.mount, reason=f"mount is {mount.status}"))


# -- initiative: a controlled mount takes its rider's count --------------------------------


def unrolled_units(state: EncounterState) -> list[str]:
    """Units still to roll; a controlled mount takes its rider's count instead."""
    return [
        uid
        for uid, members in shared_initiative.units(state).items()
        if members[0].initiative is None and not all(is_controlled_mount(state, c.id) for c in members)
    ]


def sync_initiative(tx: Tx) -> None:
    for m in tx.state.rules.mounts:
        if not m.controlled:
            continue
        rider, mount = tx.state.combatants.get(m.rider), tx.state.combatants.get(m.mount)
        if rider is None or mount is None or rider.initiative is None or mount.initiative == rider.initiative:
            continue
        tx.emit(InitiativeSet(combatants=(mount.id,), total=rider.initiative))


def _roll_initiative(tx: Tx, cmd: RollInitiative) -> None:
    roll = shared_initiative.roll_initiative
    if cmd.combatant is not None:
        c = tx.combatant(cmd.combatant)
        if is_controlled_mount(tx.state, c.id) and c.initiative is None:
            rider = rider_of(tx.state, c.id)
            raise RuleError(
                "initiative/mount-follows-rider",
                f"{c.name} is a controlled mount: its Initiative is its rider's",
                allowed=f"roll_initiative for {rider.rider if rider else 'its rider'}",
            )
        roll(tx, cmd)
        return
    for unit in shared_initiative.units_to_roll(tx, unrolled_units(tx.state), cmd.faces):
        lead = shared_initiative.units(tx.state)[unit][0]
        roll(tx, RollInitiative(combatant=lead.id, faces=cmd.faces))


# -- what a controlled mount may do --------------------------------------------------------


def refuse_controlled_mount(tx: Tx, cid: str) -> None:
    """A controlled mount moves and can only Dash, Disengage or Dodge: refuse anything else."""
    problem = controlled_mount_limit(tx.state, cid)
    if problem:
        raise RuleError("mount/controlled-actions", problem, allowed="move, take_action dash, disengage or dodge")


def controlled_mount_action(tx: Tx, cmd: TakeAction) -> None:
    """A controlled mount's action: Dash, Disengage or Dodge, on its rider's turn."""
    mount = require_mover(tx, tx.combatant(cmd.combatant))
    require_able(mount, "act")
    action = cmd.action.lower()
    if action not in CONTROLLED_MOUNT_ACTIONS or cmd.bonus_action:
        raise RuleError(
            "mount/controlled-actions",
            f"a controlled mount has only three action options, not {action}",
            allowed=", ".join(CONTROLLED_MOUNT_ACTIONS),
        )
    spend_check(mount, "action")
    tx.emit(ActionTaken(combatant=mount.id, action=action, detail=cmd.detail))


def require_no_fall_pending(tx: Tx, cmd: EndTurn) -> None:
    """A turn does not end while a rider still owes its save to stay mounted."""
    pending = tx.state.rules.falls_pending
    if pending:
        require_turn(tx, cmd.combatant)
        who = ", ".join(tx.state.combatants[r].name for r in pending)
        raise RuleError(
            "turn/pending-save",
            f"the turn cannot end while a save to stay mounted is owed by {who}",
            allowed="save_to_stay_mounted for " + ", ".join(pending),
        )


# -- appliers -----------------------------------------------------------------------------


def _spend_movement(state: EncounterState, cid: str, feet: int) -> EncounterState:
    c = state.combatants[cid]
    return with_combatant(state, cid, economy=msgspec.structs.replace(c.economy, moved=c.economy.moved + feet))


def _on_mounted(state: EncounterState, e: Mounted) -> EncounterState:
    state = _spend_movement(state, e.rider, e.cost)
    if e.controlled:
        # "A controlled mount can move and act even on the turn that you mount it."
        mount = state.combatants[e.mount]
        fresh = Economy(movement=speed_of(mount), reaction=mount.economy.reaction)
        state = lapse(with_combatant(state, e.mount, economy=fresh), e.mount)
    pair = VariantMount(rider=e.rider, mount=e.mount, controlled=e.controlled)
    return with_rules(state, mounts=state.rules.mounts + (pair,))


def _on_dismounted(state: EncounterState, e: Dismounted) -> EncounterState:
    if e.cost and e.rider in state.combatants:
        state = _spend_movement(state, e.rider, e.cost)
    vs = state.rules
    return with_rules(
        state,
        mounts=tuple(m for m in vs.mounts if m.rider != e.rider),
        falls_pending=tuple(r for r in vs.falls_pending if r != e.rider),
    )


def _on_carried(state: EncounterState, e: Carried) -> EncounterState:
    return opportunities_offered(state, e.provoked, e.rider)


def _refresh_controlled_mounts(state: EncounterState, e: TurnStarted) -> EncounterState:
    """The controlled mount's movement and reaction come back when its rider's turn starts."""
    for m in state.rules.mounts:
        if m.controlled and m.rider == e.combatant and m.mount in state.combatants:
            mount = state.combatants[m.mount]
            state = lapse(with_combatant(state, m.mount, economy=Economy(movement=speed_of(mount), reaction=True)), m.mount)
    return state


RULES = Rules(
    handlers={
        Mount: _mount,
        Dismount: _dismount,
        SaveToStayMounted: _save_to_stay,
        RollInitiative: _roll_initiative,
    },
    appliers={
        Mounted: _on_mounted,
        Dismounted: _on_dismounted,
        UnseatSaveRequired: lambda s, e: with_rules(s, falls_pending=s.rules.falls_pending + (e.rider,)),
        StayedMounted: lambda s, e: with_rules(s, falls_pending=tuple(r for r in s.rules.falls_pending if r != e.rider)),
        Carried: _on_carried,
    },
    after={TurnStarted: (_refresh_controlled_mounts,)},
    narration={
        Mounted: lambda n, e: (
            f"{n.name(e.rider)} mounts {n.name(e.mount)}"
            + (" and takes control of it" if e.controlled else " (it acts on its own)")
            + (f", spending {e.cost} ft of movement" if e.cost else "")
        ),
        Dismounted: lambda n, e: (
            f"{n.name(e.rider)} leaves {n.name(e.mount)}: {e.reason}" + (f", spending {e.cost} ft of movement" if e.cost else "")
        ),
        UnseatSaveRequired: lambda n, e: (
            f"{n.name(e.rider)} must make a DC {FALL_OFF_DC} Dexterity save to stay on {n.name(e.mount)} ({e.reason})"
        ),
        StayedMounted: lambda n, e: f"{n.name(e.rider)} stays on {n.name(e.mount)}",
        Carried: lambda n, e: (
            f"{n.name(e.mount)} carries {n.name(e.rider)} {e.feet} ft"
            + (f", leaving the reach of {', '.join(n.name(p) for p in e.provoked)}" if e.provoked else "")
        ),
    },
)
