"""Concentration: one effect at a time, broken by damage (a Constitution save), incapacitation or death.

The saves owed after damage wait in the `pending_checks` slot of the ruleset's own state, which
a ruleset that owes them declares (the 5e family's `FiveEState`;
tests/kernel/test_common_slots_declared.py checks every ruleset applying
`ConcentrationCheckRequired` has it). It is unset while none is owed,
so it is absent from the state's JSON. segments-1e holds concentration without such saves.
"""

from __future__ import annotations

import msgspec

from combat.common.commands import ConcentrationSave, EndConcentration, StartConcentration
from combat.common.durations import end_tied
from combat.common.events import ConcentrationChecked, ConcentrationCheckRequired, ConcentrationEnded, ConcentrationStarted
from combat.kernel.decider import Applier, Handler, Narrate, Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.hidden import shown
from combat.kernel.state import Combatant, EncounterState, holding, slot_of, with_combatant

__all__ = [
    "PendingCheck",
    "PendingChecksSlot",
    "pending_checks_of",
    "concentration_dc",
    "start_concentration",
    "end_concentration",
    "HANDLERS",
    "APPLIERS",
    "NARRATION",
    "RULES",
]


class PendingCheck(msgspec.Struct, frozen=True, kw_only=True):
    """A concentration save owed after damage: its DC and the damage that called for it."""

    combatant: str
    dc: int
    damage: int


PendingChecksSlot = tuple[PendingCheck, ...] | msgspec.UnsetType


def pending_checks_of(state: EncounterState) -> tuple[PendingCheck, ...]:
    return slot_of(state, "pending_checks") or ()


def concentration_dc(damage: int) -> int:
    """'The DC equals 10 or half the damage taken (round down), whichever number is higher,
    up to a maximum DC of 30.'"""
    return min(30, max(10, damage // 2))


def start_concentration(tx: Tx, cid: str, effect: str) -> None:
    end_concentration(tx, cid, f"started concentrating on {effect}")
    tx.emit(ConcentrationStarted(combatant=cid, effect=effect))


def end_concentration(tx: Tx, cid: str, reason: str) -> None:
    """`cid`'s concentration ends, and with it every condition it held ("until the spell ends")."""
    effect = tx.state.combatants[cid].concentration
    if effect is not None:
        tx.emit(ConcentrationEnded(combatant=cid, effect=effect, reason=reason))
        end_tied(tx, cid, effect)


def _start(tx: Tx, cmd: StartConcentration) -> None:
    c = tx.combatant(cmd.combatant)
    if c.status != "active":
        raise RuleError("combatant/down", f"{c.name} is {c.status} and cannot concentrate", allowed="an active combatant")
    start_concentration(tx, c.id, cmd.effect)


def not_concentrating(c: Combatant) -> str | None:
    """The problem when `c` concentrates on nothing (so has nothing to end and no save to owe),
    else None: end_concentration refuses with it; a re-check after a changed past (a5e's, of a
    save required) reports it."""
    return f"{c.name} is not concentrating on anything" if c.concentration is None else None


def no_save_owed(state: EncounterState, cid: str) -> str | None:
    """The problem when no concentration save waits for `cid`, else None: concentration_save
    refuses with it; a re-check after a changed past (a5e's, of a save made) reports it."""
    if any(p.combatant == cid for p in pending_checks_of(state)):
        return None
    name = state.combatants[cid].name if cid in state.combatants else cid
    return f"{name} has no concentration save to make"


def _end(tx: Tx, cmd: EndConcentration) -> None:
    c = tx.combatant(cmd.combatant)
    problem = not_concentrating(c)
    if problem:
        raise RuleError("concentration/none", problem)
    end_concentration(tx, c.id, cmd.reason)


def _save(tx: Tx, cmd: ConcentrationSave) -> None:
    c = tx.combatant(cmd.combatant)
    problem = no_save_owed(tx.state, c.id)
    if problem:
        raise RuleError(
            "concentration/no-check",
            problem,
            allowed=", ".join(p.combatant for p in pending_checks_of(tx.state)) or "no pending saves",
        )
    pending = next(p for p in pending_checks_of(tx.state) if p.combatant == c.id)
    roll = tx.roll(f"1d20{c.con_save:+d}", purpose="concentration save", roller=c.id, faces=cmd.faces)
    success = roll.total >= pending.dc
    tx.emit(ConcentrationChecked(combatant=c.id, dc=pending.dc, total=roll.total, success=success))
    if not success:
        end_concentration(tx, c.id, f"failed a DC {pending.dc} Constitution save")


def _drop_pending(state: EncounterState, cid: str) -> EncounterState:
    pending = list(pending_checks_of(state))
    for i, p in enumerate(pending):
        if p.combatant == cid:
            del pending[i]
            break
    return holding(state, pending_checks=tuple(pending))


def _on_started(state: EncounterState, e: ConcentrationStarted) -> EncounterState:
    return with_combatant(state, e.combatant, concentration=e.effect)


def _on_ended(state: EncounterState, e: ConcentrationEnded) -> EncounterState:
    state = with_combatant(state, e.combatant, concentration=None)
    pending = pending_checks_of(state)
    if not any(p.combatant == e.combatant for p in pending):
        return state  # segments-1e's state, which owes no saves, has no slot to write
    return holding(state, pending_checks=tuple(p for p in pending if p.combatant != e.combatant))


def _on_required(state: EncounterState, e: ConcentrationCheckRequired) -> EncounterState:
    check = PendingCheck(combatant=e.combatant, dc=e.dc, damage=e.damage)
    return holding(state, pending_checks=pending_checks_of(state) + (check,))


def _on_checked(state: EncounterState, e: ConcentrationChecked) -> EncounterState:
    return _drop_pending(state, e.combatant)


HANDLERS: dict[type, Handler] = {StartConcentration: _start, EndConcentration: _end, ConcentrationSave: _save}
APPLIERS: dict[type, Applier] = {
    ConcentrationStarted: _on_started,
    ConcentrationEnded: _on_ended,
    ConcentrationCheckRequired: _on_required,
    ConcentrationChecked: _on_checked,
}
NARRATION: dict[type, Narrate] = {
    ConcentrationStarted: lambda n, e: f"{n.name(e.combatant)} concentrates on {e.effect}",
    ConcentrationEnded: lambda n, e: f"{n.name(e.combatant)} loses concentration on {e.effect}: {e.reason}",
    ConcentrationCheckRequired: lambda n, e: (
        f"{n.name(e.combatant)} must make a {shown(e.dc, 'DC ', ' ')}Constitution save to keep concentrating"
    ),
    ConcentrationChecked: lambda n, e: (
        f"{n.name(e.combatant)} concentration save: {e.total}{shown(e.dc, ' vs DC ')} - " + ("holds" if e.success else "fails")
    ),
}
RULES = Rules(handlers=HANDLERS, appliers=APPLIERS, narration=NARRATION)  # segments-1e takes some of the entries
