"""Initiative Δ: the single roll for identical entities is optional, tied players reroll a d20.

- "Optional: For a group of identical entities (i.e. same stat block), the GM can make a
  single roll ... Suggested for low challenge rating only." With the `group_initiative`
  setting off (the default) a `group` given at set-up is dropped and every entity rolls
  its own Initiative; with it on, a group rolls once and its members must share a stat block.
- "the GM decides the order among tied non-player entities, and the players reroll a D20 to
  decide the order among tied characters. The GM decides the order if the tie is between a
  monster and a player character." Players still tied after a reroll reroll again among
  themselves; the first reroll keeps its weight (15 then 3 still beats a lone 8).
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from combat.common import setup
from combat.fivee import initiative as shared
from combat.fivee.initiative import InitiativeTied, OrderTie, TieOrdered
from combat.kernel.commands import AddCombatant, Command, Faces
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import CombatantSpec, Event
from combat.kernel.hidden import Hidden
from combat.kernel.state import EncounterState, Tie, with_rules

__all__ = ["RULES", "RerollTie", "TieRerolled", "needs_reroll"]

# What "same stat block" compares: everything but who it is and how hurt it is.
_STAT_BLOCK = (
    "kind",
    "side",
    "max_hp",
    "ac",
    "initiative_bonus",
    "speed",
    "size",
    "con_save",
    "attacks",
    "attacks_per_action",
    "resistances",
    "vulnerabilities",
    "immunities",
)


class RerollTie(Command, frozen=True, kw_only=True):
    """A tied player's d20 reroll; with no combatant, every tied player who still has to roll."""

    combatant: str | None = None
    faces: Faces = None


class TieRerolled(Event, frozen=True, kw_only=True):
    combatant: str
    total: int  # the Initiative count they are tied on
    face: int
    hidden: ClassVar[Hidden] = Hidden.said("total")


def _add_combatant(tx: Tx, cmd: AddCombatant) -> None:
    spec = cmd.combatant
    if spec.group is not None and not tx.state.settings.get("group_initiative", False):
        # The table does not use the single group roll: each entity rolls for itself.
        spec = msgspec.structs.replace(spec, group=None)
    elif spec.group is not None:
        _require_same_stat_block(tx.state, spec)
    setup.add_combatant(tx, msgspec.structs.replace(cmd, combatant=spec))


def _require_same_stat_block(state: EncounterState, spec: CombatantSpec) -> None:
    first = next((c for c in state.combatants.values() if c.group == spec.group), None)
    if first is None:
        return
    differs = [f for f in _STAT_BLOCK if getattr(first, f) != getattr(spec, f)]
    if differs:
        raise RuleError(
            "initiative/group-not-identical",
            f"{spec.name} differs from {first.name} in {', '.join(differs)}; one roll is for identical entities",
            allowed="the same stat block as the group, or a group of its own",
        )


def needs_reroll(tie: Tie, rerolls: dict[str, tuple[int, ...]]) -> list[str]:
    """Tied players not yet told apart: someone else's rerolls still start with theirs."""
    members = [unit[0] for unit in tie.units]
    keys = {m: rerolls.get(m, ()) for m in members}
    return [m for m in members if any(o != m and keys[o][: len(keys[m])] == keys[m] for o in members)]


def _player_ties(state: EncounterState) -> list[Tie]:
    return [t for t in shared.unresolved_ties(state) if t.decided_by == "players"]


def _tie_of(state: EncounterState, cid: str) -> Tie | None:
    return next((t for t in _player_ties(state) if any(u[0] == cid for u in t.units)), None)


def no_reroll(state: EncounterState, cid: str, total: int | None = None) -> str | None:
    """The problem when `cid` has no tie to reroll now (at `total`, when given): it is in no
    open tie among player characters, or its rerolls already tell it apart from the others
    tied; else None. The reroll guard refuses with it, the re-check of a TieRerolled after a
    changed past reports it."""
    name = state.combatants[cid].name if cid in state.combatants else cid
    tie = _tie_of(state, cid)
    if tie is None:
        return f"{name} is not in a tie among player characters"
    if total is not None and tie.total != total:
        return f"{name} is tied at {tie.total} now, not at {total}"
    if cid not in needs_reroll(tie, state.rules.tie_rerolls):
        return f"{name} has rerolled; the others tied at {tie.total} roll next"
    return None


def _reroll(tx: Tx, cmd: RerollTie) -> None:
    ties = _player_ties(tx.state)
    waiting = [m for t in ties for m in needs_reroll(t, tx.state.rules.tie_rerolls)]
    if cmd.combatant is not None:
        c = tx.combatant(cmd.combatant)
        tie = _tie_of(tx.state, c.id)
        problem = no_reroll(tx.state, c.id)
        if tie is None or problem:
            code = "initiative/no-reroll" if tie is None else "initiative/reroll-waiting"
            raise RuleError(code, problem or "", allowed=", ".join(waiting) or "nobody: no players' tie is open")
        _roll(tx, tie, c.id, cmd.faces)
        return
    if not waiting:
        raise RuleError("initiative/no-reroll", "no tie among player characters is waiting for a reroll")
    shared.require_faces_of_one(cmd.faces, len(waiting), "players still reroll", "d20 was")
    while waiting:  # generated dice: roll until every players' tie is told apart
        tie = next(t for t in _player_ties(tx.state) if waiting[0] in (u[0] for u in t.units))
        _roll(tx, tie, waiting[0], cmd.faces)
        waiting = [m for t in _player_ties(tx.state) for m in needs_reroll(t, tx.state.rules.tie_rerolls)]


def _roll(tx: Tx, tie: Tie, cid: str, faces: Faces) -> None:
    roll = tx.roll("1d20", purpose="initiative tie reroll", roller=cid, faces=faces)
    tx.emit(TieRerolled(combatant=cid, total=tie.total, face=roll.total))
    rerolls = tx.state.rules.tie_rerolls
    if not needs_reroll(tie, rerolls):
        members = [unit[0] for unit in tie.units]
        order = sorted(members, key=lambda m: rerolls.get(m, ()), reverse=True)
        tx.emit(TieOrdered(total=tie.total, order=tuple(order)))


def _order_tie(tx: Tx, cmd: OrderTie) -> None:
    state = tx.state
    named = {state.combatants[r].unit if r in state.combatants else r for r in cmd.order}
    for tie in _player_ties(state):
        if named == {state.combatants[u[0]].unit for u in tie.units}:
            raise RuleError(
                "initiative/players-reroll",
                f"the tie at {tie.total} is among player characters: they reroll a d20 to order it",
                allowed="reroll_tie",
            )
    shared.order_tie(tx, cmd)


def _on_rerolled(state: EncounterState, e: TieRerolled) -> EncounterState:
    rerolls = state.rules.tie_rerolls
    return with_rules(state, tie_rerolls={**rerolls, e.combatant: rerolls.get(e.combatant, ()) + (e.face,)})


def _forget_rerolls(state: EncounterState, e: InitiativeTied | TieOrdered) -> EncounterState:
    """A tie that grows starts its rerolls over; a settled tie needs them no more."""
    members = {m for t in state.ties if t.total == e.total for unit in t.units for m in unit}
    rerolls = {k: v for k, v in state.rules.tie_rerolls.items() if k not in members}
    return with_rules(state, tie_rerolls=rerolls)


RULES = Rules(
    handlers={AddCombatant: _add_combatant, RerollTie: _reroll, OrderTie: _order_tie},
    appliers={TieRerolled: _on_rerolled},
    after={InitiativeTied: (_forget_rerolls,), TieOrdered: (_forget_rerolls,)},
    narration={TieRerolled: lambda n, e: f"{n.name(e.combatant)} rerolls the tie at {e.total}: {e.face}"},
)
