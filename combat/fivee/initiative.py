"""Initiative: d20 + modifier, one roll for a group of identical creatures, ties ordered by a person.

Shared by the rulesets that roll individual initiative once for the whole fight.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import ClassVar, Literal

import msgspec

from combat.kernel.commands import Command, Faces
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event, InitiativeSet, PhaseChanged
from combat.kernel.hidden import Hidden
from combat.kernel.state import Combatant, EncounterState, Tie, unresolved_ties, with_combatant

__all__ = [
    "units",
    "turn_order",
    "unresolved_ties",
    "initiative_notation",
    "roll_initiative",
    "moves_on_with_setup_rolls",
    "units_to_roll",
    "require_faces_of_one",
    "RULES",
    "order_tie",
    "RollInitiative",
    "OrderTie",
    "InitiativeTied",
    "TieOrdered",
]


# -- the commands and events of initiative -----------------------------------------------------


class RollInitiative(Command, frozen=True, kw_only=True):
    """Roll for one combatant (or its whole group); with no combatant, everyone left."""

    combatant: str | None = None
    faces: Faces = None


class OrderTie(Command, frozen=True, kw_only=True):
    """Settle a tie: the tied combatants (or groups) from first to last."""

    actor_fields: ClassVar[tuple[str, ...]] = ("order",)  # players order a tie of their own characters

    order: tuple[str, ...]


class InitiativeTied(Event, frozen=True, kw_only=True):
    """Combatants share a count; `decided_by` says who must order them (gm or players)."""

    total: int
    units: tuple[tuple[str, ...], ...]
    decided_by: Literal["gm", "players"]
    hidden: ClassVar[Hidden] = Hidden.said("total")


class TieOrdered(Event, frozen=True, kw_only=True):
    total: int
    order: tuple[str, ...]
    hidden: ClassVar[Hidden] = Hidden.said("total")


def units(state: EncounterState) -> dict[str, list[Combatant]]:
    """Who rolls initiative as one, by unit id (a group id, or a lone combatant's id)."""
    result: dict[str, list[Combatant]] = {}
    for c in state.combatants.values():
        result.setdefault(c.unit, []).append(c)
    return result


def turn_order(state: EncounterState, include_dead: bool = False) -> list[str]:
    """Combatant ids from highest to lowest initiative; ordered ties in their chosen order.

    Members of one group act one after another in the order they were added.
    """
    rank: dict[str, int] = {}
    for tie in state.ties:
        # An unresolved tie keeps the order its units are listed in (see _record_tie).
        listed = tie.order or tuple(state.combatants[members[0]].unit for members in tie.units if members[0] in state.combatants)
        for i, unit in enumerate(listed):
            rank[unit] = i
    rolled = [(uid, members) for uid, members in units(state).items() if members[0].initiative is not None]
    position = {uid: i for i, (uid, _) in enumerate(rolled)}
    rolled.sort(key=lambda um: (-(um[1][0].initiative or 0), rank.get(um[0], 0), position[um[0]]))
    return [c.id for _, members in rolled for c in members if include_dead or c.status != "dead"]


def initiative_notation(c: Combatant, disadvantage: bool, advantage: bool = False) -> str:
    dice = "1d20"
    if disadvantage and not advantage:
        dice = "2d20kl1"
    elif advantage and not disadvantage:
        dice = "2d20kh1"
    return f"{dice}{c.initiative_bonus:+d}"


def _any_surprised(members: list[Combatant]) -> bool:
    return any(m.surprised for m in members)


def roll_initiative(
    tx: Tx,
    cmd: RollInitiative,
    *,
    disadvantage_for: Callable[[list[Combatant]], bool] = _any_surprised,
) -> None:
    """Roll for the named combatant's unit, or for every unit that has not rolled yet."""
    all_units = units(tx.state)
    if cmd.combatant is not None:
        lead = tx.combatant(cmd.combatant)
        chosen = [lead.unit]
        if lead.initiative is not None:
            raise RuleError(
                "initiative/already-rolled",
                f"{lead.name} already has initiative {lead.initiative}; it stays the same for the whole fight",
                allowed=", ".join(u for u, m in all_units.items() if m[0].initiative is None) or "nobody left to roll",
            )
    else:
        chosen = units_to_roll(tx, [u for u, m in all_units.items() if m[0].initiative is None], cmd.faces)
    for unit in chosen:
        members = all_units[unit]
        lead = members[0]
        disadvantage = disadvantage_for(members)
        roll = tx.roll(
            initiative_notation(lead, disadvantage),
            purpose="initiative",
            roller=unit,
            faces=cmd.faces,
        )
        tx.emit(InitiativeSet(combatants=tuple(m.id for m in members), total=roll.total, disadvantage=disadvantage))
        _record_tie(tx, roll.total)


def units_to_roll(tx: Tx, left: list[str], faces: Faces) -> list[str]:
    """What a roll_initiative naming nobody rolls for: every unit `left` to roll; none when
    the rolls made in set-up move the fight on instead; entered faces only for a single one."""
    if not left and moves_on_with_setup_rolls(tx):
        return []
    if not left:
        raise RuleError("initiative/all-rolled", "everyone has rolled initiative already")
    require_faces_of_one(faces, len(left), "combatants or groups still roll", "dice were")
    return left


def require_faces_of_one(faces: Faces, rolling: int, still: str, named: str) -> None:
    """Entered faces are one roller's dice: refused while several still roll."""
    if faces is not None and rolling > 1:
        raise RuleError(
            "dice/whose-faces", f"faces were entered but {rolling} {still}", allowed=f"name the combatant whose {named} entered"
        )


def moves_on_with_setup_rolls(tx: Tx) -> bool:
    """roll_initiative with nobody left to roll is how the fight moves on from surprise when
    everyone rolled in set-up (as Avrae rolls when each character joins): those rolls stand."""
    return any(isinstance(e, PhaseChanged) and e.previous == "surprise" for e in tx.events)


def _record_tie(tx: Tx, total: int) -> None:
    tied = [members for members in units(tx.state).values() if members[0].initiative == total]
    if len(tied) < 2:
        return
    # A late arrival joining a settled tie must not reshuffle those who already act in
    # that order ("The Initiative order remains the same"): they stay first, as settled.
    settled = next((t.order for t in tx.state.ties if t.total == total and t.order), ())
    tied.sort(key=lambda members: settled.index(members[0].unit) if members[0].unit in settled else len(settled))
    players_only = all(m.kind == "pc" for members in tied for m in members)
    tx.emit(
        InitiativeTied(
            total=total,
            units=tuple(tuple(m.id for m in members) for members in tied),
            decided_by="players" if players_only else "gm",
        )
    )


def order_tie(tx: Tx, cmd: OrderTie) -> None:
    state = tx.state
    all_units = units(state)
    wanted: list[str] = []
    for ref in cmd.order:
        unit = ref if ref in all_units else tx.combatant(ref).unit
        if unit not in wanted:
            wanted.append(unit)
    tie = next((t for t in state.ties if {state.combatants[u[0]].unit for u in t.units} == set(wanted)), None)
    if tie is None:
        listed = "; ".join(
            f"at {t.total}: " + ", ".join(state.combatants[u[0]].unit for u in t.units) for t in unresolved_ties(state)
        )
        raise RuleError(
            "initiative/no-such-tie",
            f"{', '.join(cmd.order) or 'nothing'} is not the full list of one tie",
            allowed=f"every tied combatant or group of one tie, first to last ({listed or 'no ties'})",
        )
    if tie.order and state.round > 0:
        raise RuleError("initiative/fixed", f"the tie at {tie.total} was settled and the rounds have begun")
    if tie.decided_by == "gm" and tx.actor != "gm":
        raise RuleError(
            "initiative/gm-decides",
            f"the tie at {tie.total} involves monsters, so the GM decides its order",
            allowed="the GM",
        )
    players = {m.player for u in tie.units for m in all_units[state.combatants[u[0]].unit] if m.player}
    if tie.decided_by == "players" and tx.actor != "gm" and players and tx.actor not in players:
        raise RuleError(
            "initiative/not-your-tie",
            f"{tx.actor} has no character in the tie at {tie.total}",
            allowed="the GM or " + ", ".join(sorted(players)),
        )
    tx.emit(TieOrdered(total=tie.total, order=tuple(wanted)))


def _on_set(state: EncounterState, e: InitiativeSet) -> EncounterState:
    for cid in e.combatants:
        state = with_combatant(state, cid, initiative=e.total)
    return state


def _on_tied(state: EncounterState, e: InitiativeTied) -> EncounterState:
    ties = tuple(t for t in state.ties if t.total != e.total)
    tie = Tie(total=e.total, units=e.units, decided_by=e.decided_by)
    return msgspec.structs.replace(state, ties=ties + (tie,))


def _on_ordered(state: EncounterState, e: TieOrdered) -> EncounterState:
    ties = tuple(msgspec.structs.replace(t, order=e.order) if t.total == e.total else t for t in state.ties)
    return msgspec.structs.replace(state, ties=ties)


RULES = Rules(
    handlers={RollInitiative: roll_initiative, OrderTie: order_tie},
    appliers={InitiativeSet: _on_set, InitiativeTied: _on_tied, TieOrdered: _on_ordered},
    narration={
        InitiativeTied: lambda n, e: (
            f"Tie at {e.total}: "
            + " / ".join(", ".join(n.name(c) for c in unit) for unit in e.units)
            + (" - the players decide the order" if e.decided_by == "players" else " - the GM decides the order")
        ),
        TieOrdered: lambda n, e: f"Tie at {e.total} settled: {', '.join(n.name(u) for u in e.order)}",
    },
)
