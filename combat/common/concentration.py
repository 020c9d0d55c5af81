"""Concentration: one effect at a time, broken by damage (a Constitution save), incapacitation or death."""

from __future__ import annotations

import msgspec

from combat.common.commands import ConcentrationSave, EndConcentration, StartConcentration
from combat.common.durations import end_tied
from combat.kernel.decider import Applier, Handler, Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import (
    ConcentrationChecked,
    ConcentrationCheckRequired,
    ConcentrationEnded,
    ConcentrationStarted,
)
from combat.kernel.state import Combatant, EncounterState, PendingCheck, with_combatant

__all__ = ["concentration_dc", "start_concentration", "end_concentration", "HANDLERS", "APPLIERS", "RULES"]


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
    if any(p.combatant == cid for p in state.pending_checks):
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
            allowed=", ".join(p.combatant for p in tx.state.pending_checks) or "no pending saves",
        )
    pending = next(p for p in tx.state.pending_checks if p.combatant == c.id)
    roll = tx.roll(f"1d20{c.con_save:+d}", purpose="concentration save", roller=c.id, faces=cmd.faces)
    success = roll.total >= pending.dc
    tx.emit(ConcentrationChecked(combatant=c.id, dc=pending.dc, total=roll.total, success=success))
    if not success:
        end_concentration(tx, c.id, f"failed a DC {pending.dc} Constitution save")


def _drop_pending(state: EncounterState, cid: str) -> EncounterState:
    pending = list(state.pending_checks)
    for i, p in enumerate(pending):
        if p.combatant == cid:
            del pending[i]
            break
    return msgspec.structs.replace(state, pending_checks=tuple(pending))


def _on_started(state: EncounterState, e: ConcentrationStarted) -> EncounterState:
    return with_combatant(state, e.combatant, concentration=e.effect)


def _on_ended(state: EncounterState, e: ConcentrationEnded) -> EncounterState:
    state = with_combatant(state, e.combatant, concentration=None)
    remaining = tuple(p for p in state.pending_checks if p.combatant != e.combatant)
    return msgspec.structs.replace(state, pending_checks=remaining)


def _on_required(state: EncounterState, e: ConcentrationCheckRequired) -> EncounterState:
    check = PendingCheck(combatant=e.combatant, dc=e.dc, damage=e.damage)
    return msgspec.structs.replace(state, pending_checks=state.pending_checks + (check,))


def _on_checked(state: EncounterState, e: ConcentrationChecked) -> EncounterState:
    return _drop_pending(state, e.combatant)


HANDLERS: dict[type, Handler] = {StartConcentration: _start, EndConcentration: _end, ConcentrationSave: _save}
APPLIERS: dict[type, Applier] = {
    ConcentrationStarted: _on_started,
    ConcentrationEnded: _on_ended,
    ConcentrationCheckRequired: _on_required,
    ConcentrationChecked: _on_checked,
}
RULES = Rules(handlers=HANDLERS, appliers=APPLIERS)  # segments-1e takes some of the entries
