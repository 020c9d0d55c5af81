"""Initiative Reorder (optional, the `initiative_reorder` setting): swaps before round 1.

"Each player, in order of highest to lowest Initiative, can propose to swap their place
with another player. The GM can do the same among the entities they control. The swap can
only happen before the first round begins. A surprised combatant cannot swap places."

Once initiative is settled the fight enters the `reorder` phase. The players who may
propose are queued in Initiative order as it stood then (a surprised one has no chance).
The head of the queue proposes a swap with another player (who accepts or declines) or
passes. The GM swaps any two of the entities they control whenever the phase is open, and
ends it with end_reorder once every player has had their chance; round 1 starts then.
A swap exchanges the two Initiative counts (a tie keeps its order with the newcomer in the
old place), so the order stays "highest to lowest".
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar

import msgspec

from combat.common import turns
from combat.fivee.initiative import units, unresolved_ties
from combat.kernel.commands import Command
from combat.kernel.decider import Applier, Narrate, Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_combatant, with_rules

from .bookkeeping import is_controlled_mount
from .mounts import unrolled_units

__all__ = [
    "ProposeSwap",
    "AnswerSwap",
    "PassSwap",
    "EndReorder",
    "ReorderOpened",
    "SwapProposed",
    "SwapAnswered",
    "SwapPassed",
    "PlacesSwapped",
    "ReorderEnded",
    "open_reorder",
    "proposal_queue",
    "rules",
    "APPLIERS",
    "NARRATION",
]

OrderFn = Callable[[EncounterState, bool], list[str]]


class ProposeSwap(Command, frozen=True, kw_only=True):
    combatant: str
    other: str


class AnswerSwap(Command, frozen=True, kw_only=True):
    combatant: str  # the player asked
    accept: bool


class PassSwap(Command, frozen=True, kw_only=True):
    combatant: str


class EndReorder(Command, frozen=True, kw_only=True):
    """The GM closes the reorder; round 1 begins."""


class ReorderOpened(Event, frozen=True, kw_only=True):
    queue: tuple[str, ...]  # players who may propose a swap, first to last
    hidden: ClassVar[Hidden] = PUBLIC


class SwapProposed(Event, frozen=True, kw_only=True):
    proposer: str
    asked: str
    hidden: ClassVar[Hidden] = PUBLIC


class SwapAnswered(Event, frozen=True, kw_only=True):
    proposer: str
    asked: str
    accepted: bool
    hidden: ClassVar[Hidden] = PUBLIC


class SwapPassed(Event, frozen=True, kw_only=True):
    combatant: str
    hidden: ClassVar[Hidden] = PUBLIC


class PlacesSwapped(Event, frozen=True, kw_only=True):
    """Two places in the order exchanged: `first` (a combatant or group) takes `second_total`."""

    first: str
    second: str
    first_total: int
    second_total: int
    hidden: ClassVar[Hidden] = Hidden.said("first_total", "second_total")


class ReorderEnded(Event, frozen=True, kw_only=True):
    hidden: ClassVar[Hidden] = PUBLIC


def open_reorder(tx: Tx, order: OrderFn) -> None:
    """Enter the reorder phase with the players' queue in Initiative order."""
    tx.move_to("open_reorder")
    tx.emit(ReorderOpened(queue=proposal_queue(tx.state, order)))


def proposal_queue(state: EncounterState, order: OrderFn) -> tuple[str, ...]:
    """The players who may propose a swap, in Initiative order; the surprised have no chance."""
    return tuple(cid for cid in order(state, False) if _eligible(state.combatants[cid]) and state.combatants[cid].kind == "pc")


def _eligible(c: Combatant) -> bool:
    return not c.surprised and c.status == "active"


def surprised_among(state: EncounterState, *ids: str) -> str | None:
    """'A surprised combatant cannot swap places': the first of `ids` (combatants, or groups
    that share a place in the order) with a surprised member, as the problem; else None.
    The guard below refuses with it, and the re-check after a changed past reports it."""
    members = units(state)
    for uid in ids:
        place = members.get(uid) or ([state.combatants[uid]] if uid in state.combatants else [])
        for c in place:
            if c.surprised:
                return f"{c.name} was surprised, and a surprised combatant cannot swap places"
    return None


def not_their_chance(state: EncounterState, cid: str) -> str | None:
    """Players propose in Initiative order: the problem when it is not `cid`'s chance, else None."""
    queue = state.rules.reorder_queue
    if queue and queue[0] == cid:
        return None
    name = state.combatants[cid].name if cid in state.combatants else cid
    if not queue:
        return f"every player has had their chance to propose a swap; {name} cannot now"
    whose = state.combatants[queue[0]].name if queue[0] in state.combatants else queue[0]
    return f"players propose in Initiative order and it is {whose}'s chance, not {name}'s"


def _require_swappable(state: EncounterState, c: Combatant) -> None:
    problem = surprised_among(state, c.id)
    if problem:
        raise RuleError("reorder/surprised", problem, allowed="a combatant who was not surprised")
    if c.status != "active":
        raise RuleError("reorder/down", f"{c.name} is {c.status} and cannot swap places")


def _require_own_place(state: EncounterState, c: Combatant) -> None:
    if is_controlled_mount(state, c.id):
        raise RuleError(
            "reorder/mount-follows-rider",
            f"{c.name} is a controlled mount: its place is its rider's",
            allowed="swap the rider instead",
        )


def _require_controller(tx: Tx, c: Combatant) -> None:
    if tx.actor != "gm" and tx.actor != c.player:
        raise RuleError(
            "reorder/not-your-character",
            f"{tx.actor} does not play {c.name}",
            allowed=f"{c.player or 'the GM'} or the GM",
        )


def _queue_head(tx: Tx, c: Combatant) -> None:
    problem = not_their_chance(tx.state, c.id)
    if problem:
        queue = tx.state.rules.reorder_queue
        raise RuleError(
            "reorder/not-your-turn",
            problem,
            allowed=f"propose_swap or pass_swap for {queue[0]}" if queue else "end_reorder (the GM)",
        )


def _name(state: EncounterState, cid: str) -> str:
    return state.combatants[cid].name if cid in state.combatants else cid


def proposal_open(state: EncounterState) -> str | None:
    """A proposal waits for its answer before anything else happens in the reorder: the
    problem while one does, else None. The guards of propose, pass and end refuse with it; the
    re-check of a ReorderEnded after a changed past reports it."""
    open_ = state.rules.swap_proposal
    return None if open_ is None else f"{_name(state, open_[0])}'s proposal to {_name(state, open_[1])} awaits an answer"


def players_waiting(state: EncounterState) -> str | None:
    """The reorder ends once every player has had their chance: the problem while some have
    not, else None (end_reorder refuses with it; the re-check of a ReorderEnded reports it)."""
    queue = state.rules.reorder_queue
    if not queue:
        return None
    return "players still have their chance to propose a swap: " + ", ".join(_name(state, q) for q in queue)


def _require_no_proposal(tx: Tx) -> None:
    problem = proposal_open(tx.state)
    if problem:
        raise RuleError("reorder/proposal-open", problem, allowed=f"answer_swap for {tx.state.rules.swap_proposal[1]}")


def _propose(tx: Tx, cmd: ProposeSwap) -> None:
    c = tx.combatant(cmd.combatant)
    other = tx.combatant(cmd.other)
    _require_swappable(tx.state, c)
    _require_swappable(tx.state, other)
    _require_own_place(tx.state, c)
    _require_own_place(tx.state, other)
    if c.unit == other.unit:
        raise RuleError("reorder/self", f"{c.name} cannot swap places with itself", allowed="another combatant")
    _require_no_proposal(tx)
    if c.kind == "pc":
        _require_controller(tx, c)
        _queue_head(tx, c)
        if other.kind != "pc":
            raise RuleError(
                "reorder/players-only", f"a player swaps with another player, not with {other.name}", allowed="a player character"
            )
        tx.emit(SwapProposed(proposer=c.id, asked=other.id))
        return
    if tx.actor != "gm":
        raise RuleError("reorder/gm-decides", f"{c.name} is the GM's to move", allowed="the GM")
    if other.kind == "pc":
        raise RuleError(
            "reorder/players-only",
            f"the GM swaps among the entities they control, and {other.name} is a player's",
            allowed="another entity the GM controls",
        )
    _swap(tx, c.unit, other.unit)


def _swap(tx: Tx, first: str, second: str) -> None:
    members = units(tx.state)
    tx.emit(
        PlacesSwapped(
            first=first,
            second=second,
            first_total=members[first][0].initiative or 0,
            second_total=members[second][0].initiative or 0,
        )
    )


def not_asked(state: EncounterState, asked: str, proposer: str | None = None) -> str | None:
    """The problem when no swap (by `proposer`, when given) waits for `asked`'s answer, else
    None: answer_swap refuses with it, the re-check of a SwapAnswered reports it."""
    proposal = state.rules.swap_proposal
    if proposal is None or proposal[1] != asked:
        return f"no one has proposed a swap to {_name(state, asked)}"
    if proposer is not None and proposal[0] != proposer:
        return f"{_name(state, proposal[0])} proposed the swap to {_name(state, asked)}, not {_name(state, proposer)}"
    return None


def _answer(tx: Tx, cmd: AnswerSwap) -> None:
    c = tx.combatant(cmd.combatant)
    proposal = tx.state.rules.swap_proposal
    problem = not_asked(tx.state, c.id)
    if problem:
        raise RuleError(
            "reorder/not-asked", problem, allowed=f"answer_swap for {proposal[1]}" if proposal else "propose_swap first"
        )
    _require_controller(tx, c)
    tx.emit(SwapAnswered(proposer=proposal[0], asked=c.id, accepted=cmd.accept))
    if cmd.accept:
        _swap(tx, proposal[0], c.id)


def _pass(tx: Tx, cmd: PassSwap) -> None:
    c = tx.combatant(cmd.combatant)
    _require_controller(tx, c)
    _require_no_proposal(tx)
    _queue_head(tx, c)
    tx.emit(SwapPassed(combatant=c.id))


def _end_handler(order: OrderFn) -> Callable[[Tx, EndReorder], None]:
    def _end(tx: Tx, cmd: EndReorder) -> None:
        state = tx.state
        if tx.actor != "gm":
            raise RuleError("reorder/gm-ends", "the GM ends the reorder", allowed="the GM")
        _require_no_proposal(tx)
        waiting = players_waiting(state)
        if waiting:
            raise RuleError(
                "reorder/players-waiting", waiting, allowed=f"propose_swap or pass_swap for {state.rules.reorder_queue[0]}"
            )
        unrolled = unrolled_units(state)
        if unrolled or unresolved_ties(state):
            raise RuleError(
                "initiative/unsettled",
                "initiative is not settled: " + (f"{', '.join(unrolled)} still roll" if unrolled else "a tie is open"),
                allowed="roll_initiative, order_tie or reroll_tie first",
            )
        tx.emit(ReorderEnded())
        tx.move_to("start_rounds")
        turns.start_round(tx, order)

    return _end


def rules(order: OrderFn) -> Rules:
    """The reorder's commands, events and narration, for turns that follow `order` once it ends."""
    return Rules(
        handlers={ProposeSwap: _propose, AnswerSwap: _answer, PassSwap: _pass, EndReorder: _end_handler(order)},
        appliers=APPLIERS,
        narration=NARRATION,
    )


def _on_swapped(state: EncounterState, e: PlacesSwapped) -> EncounterState:
    members = units(state)
    first = tuple(c.id for c in members.get(e.first, ()))
    second = tuple(c.id for c in members.get(e.second, ()))
    for cid in first:
        state = with_combatant(state, cid, initiative=e.second_total)
    for cid in second:
        state = with_combatant(state, cid, initiative=e.first_total)
    # Whoever takes a tied place takes its rank in the tie too.
    swap_unit = {first: second, second: first}
    swap_id = {e.first: e.second, e.second: e.first}
    ties = tuple(
        msgspec.structs.replace(
            t, units=tuple(swap_unit.get(u, u) for u in t.units), order=tuple(swap_id.get(u, u) for u in t.order)
        )
        for t in state.ties
    )
    return msgspec.structs.replace(state, ties=ties)


def _on_answered(state: EncounterState, e: SwapAnswered) -> EncounterState:
    queue = tuple(q for q in state.rules.reorder_queue if q != e.proposer)
    return with_rules(state, swap_proposal=None, reorder_queue=queue)


def _on_passed(state: EncounterState, e: SwapPassed) -> EncounterState:
    return with_rules(state, reorder_queue=tuple(q for q in state.rules.reorder_queue if q != e.combatant))


APPLIERS: dict[type, Applier] = {
    ReorderOpened: lambda s, e: with_rules(s, reorder_queue=e.queue, swap_proposal=None),
    SwapProposed: lambda s, e: with_rules(s, swap_proposal=(e.proposer, e.asked)),
    SwapAnswered: _on_answered,
    SwapPassed: _on_passed,
    PlacesSwapped: _on_swapped,
    ReorderEnded: lambda s, e: with_rules(s, reorder_queue=(), swap_proposal=None),
}

NARRATION: dict[type, Narrate] = {
    ReorderOpened: lambda n, e: (
        "Initiative reorder: "
        + (
            f"{', '.join(n.name(c) for c in e.queue)} may propose a swap, in that order"
            if e.queue
            else "no player may propose a swap"
        )
    ),
    SwapProposed: lambda n, e: f"{n.name(e.proposer)} proposes to swap places with {n.name(e.asked)}",
    SwapAnswered: lambda n, e: f"{n.name(e.asked)} {'accepts' if e.accepted else 'declines'} {n.name(e.proposer)}'s swap",
    SwapPassed: lambda n, e: f"{n.name(e.combatant)} keeps their place",
    PlacesSwapped: lambda n, e: (
        f"{n.name(e.first)} and {n.name(e.second)} swap places: "
        f"{n.name(e.first)} now acts at {e.second_total}, {n.name(e.second)} at {e.first_total}"
    ),
    ReorderEnded: lambda n, e: "The GM closes the initiative reorder",
}
