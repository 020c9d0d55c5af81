"""The rules every ruleset shares, whatever its dice: an encounter is created, the fight
begins once there are two sides, its phase follows the phase table, the GM rules in words
and may end the fight, naming a winner.

They come as one bundle (`ENCOUNTER`) for `assemble`; a ruleset lists it first and its own
bundles after, so an entry of its own replaces the one here.
"""

from __future__ import annotations

import msgspec

from combat.kernel.commands import BeginCombat, EndCombat, Ruling
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import CombatEnded, EncounterCreated, PhaseChanged, RulingMade
from combat.kernel.state import EncounterState

__all__ = ["ENCOUNTER", "sides", "defeat_reason"]


def sides(state: EncounterState) -> set[str]:
    return {c.side for c in state.combatants.values()}


def defeat_reason(winner: str | None) -> str:
    """The words of a fight the rules ended (a GM's `end_combat` says its own)."""
    return f"every foe of the {winner} side is down" if winner else "no one is left standing"


def _begin(tx: Tx, cmd: BeginCombat) -> None:
    found = sides(tx.state)
    if len(found) < 2:
        raise RuleError(
            "combat/one-side",
            f"a fight needs at least two sides; there {'is' if len(found) == 1 else 'are'} {len(found)}",
            allowed="add_combatant for the other side",
        )


def _ruling(tx: Tx, cmd: Ruling) -> None:
    if not cmd.text.strip():
        raise RuleError("ruling/empty", "a ruling needs its words", allowed="text: what the GM ruled")
    tx.emit(RulingMade(text=cmd.text))


def _end_combat(tx: Tx, cmd: EndCombat) -> None:
    """The GM's end_combat (a surrender, a flight, a truce), in the GM's own words."""
    found = sides(tx.state)
    if cmd.winner is not None and cmd.winner not in found:
        raise RuleError("combat/unknown-side", f"no side called '{cmd.winner}'", allowed=", ".join(sorted(found)))
    tx.emit(CombatEnded(winner=cmd.winner, reason=cmd.reason))


def _on_created(state: EncounterState, e: EncounterCreated) -> EncounterState:
    return msgspec.structs.replace(state, ruleset=e.ruleset, name=e.name, seed=e.seed, settings=e.settings)


def _on_phase(state: EncounterState, e: PhaseChanged) -> EncounterState:
    return msgspec.structs.replace(state, phase=e.phase)


def _on_combat_ended(state: EncounterState, e: CombatEnded) -> EncounterState:
    return msgspec.structs.replace(state, winner=e.winner, ended_reason=e.reason, turn=None)


ENCOUNTER = Rules(
    handlers={BeginCombat: _begin, Ruling: _ruling, EndCombat: _end_combat},
    appliers={
        EncounterCreated: _on_created,
        PhaseChanged: _on_phase,
        RulingMade: lambda state, e: state,
        CombatEnded: _on_combat_ended,
    },
)
