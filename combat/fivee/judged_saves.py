"""Judging later a saving throw rolled without a DC.

`saving_throw` without a `dc` records the roll (`SaveRolled`): the GM keeps the DC secret, or
the effect has not yet said it. The roll waits in the state, and `judge_save` {combatant, dc,
ability?, reason} (GM only; the ability in any usual spelling, `dex` or `Dexterity`) sets the DC: the save succeeds on meeting or beating it and is
recorded as any save with a DC is, a `SaveMade`. So what follows a save follows this one too:
a monster with Legendary Resistance may turn the failure into a success
(`use_legendary_resistance`), and the GM applies the effect's damage or condition as for any
save. A creature that had a condition failing Strength and Dexterity saves when it rolled
(Paralyzed, Petrified, Stunned, Unconscious: "You automatically fail Strength and Dexterity
saving throws") fails such a save whatever the DC.

A save waits until judged; a later save rolled without a DC by the same creature for the same
ability replaces it (the GM asked again). Saves rolled before `judge_save` existed wait for
nothing (their `SaveRolled` has no `awaits_dc`), so old logs fold as they did. A ruleset
keeps the waiting saves in its state's `rolled_saves` slot (unset, and so absent from the
JSON, while none waits); one without the slot (declared-d10) records the roll alone.
"""

from __future__ import annotations

from typing import TypeGuard

import msgspec

from combat.common.abilities import ABILITIES, ability_name
from combat.common.events import SaveMade, SaveRolled
from combat.common.save_conditions import automatic_failure
from combat.fivee.gm_edit_commands import JudgeSave
from combat.fivee.state import FiveEState, RolledSave, keeps_fivee
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.names import normalised
from combat.kernel.state import EncounterState, with_rules

__all__ = ["keeps_rolled_saves", "rolled_saves_of", "on_rolled", "on_judged", "judge_save"]


def keeps_rolled_saves(state: EncounterState) -> TypeGuard[EncounterState[FiveEState]]:
    """A 5e-family ruleset keeps the waiting saves (declared-d10 records the roll alone)."""
    return keeps_fivee(state)


def rolled_saves_of(state: EncounterState[FiveEState]) -> tuple[RolledSave, ...]:
    held = state.rules.rolled_saves
    return () if held is msgspec.UNSET else held


def _with_saves(state: EncounterState, saves: tuple[RolledSave, ...]) -> EncounterState:
    return with_rules(state, rolled_saves=saves or msgspec.UNSET)


def _same(save: RolledSave, combatant: str, ability: str) -> bool:
    return save.combatant == combatant and normalised(save.ability) == normalised(ability)


def on_rolled(state: EncounterState, e: SaveRolled) -> EncounterState:
    if not e.awaits_dc or not keeps_rolled_saves(state):
        return state
    c = state.combatants[e.combatant]
    rolled = RolledSave(
        combatant=e.combatant,
        ability=e.ability,
        total=e.total,
        natural=e.natural,
        reason=e.reason,
        fails=automatic_failure(c, e.ability),
    )
    kept = tuple(s for s in rolled_saves_of(state) if not _same(s, e.combatant, e.ability))
    return _with_saves(state, (*kept, rolled))


def on_judged(state: EncounterState, e: SaveMade) -> EncounterState:
    """The judgement ends the wait of the save it judged."""
    if not e.judged_later or not keeps_rolled_saves(state):
        return state
    saves = rolled_saves_of(state)
    if not any(_same(s, e.combatant, e.ability) for s in saves):
        return state
    return _with_saves(state, tuple(s for s in saves if not _same(s, e.combatant, e.ability)))


def judge_save(tx: Tx, cmd: JudgeSave) -> None:
    c = tx.combatant(cmd.combatant)
    waiting = [s for s in rolled_saves_of(tx.state) if s.combatant == c.id]
    others = ", ".join(f"{s.combatant} ({s.ability})" for s in rolled_saves_of(tx.state))
    if not waiting:
        raise RuleError(
            "save/none-to-judge",
            f"{c.name} has no saving throw awaiting its DC",
            allowed=f"judge_save for {others}" if others else "saving_throw without a dc first",
        )
    if cmd.ability is not None:
        wanted = ability_name(cmd.ability)
        if wanted is None:
            raise RuleError("save/ability", f"'{cmd.ability}' is not an ability", allowed=", ".join(ABILITIES))
        # a save recorded before names were read in full may say `dex`
        chosen = next((s for s in waiting if (ability_name(s.ability) or normalised(s.ability)) == wanted), None)
        if chosen is None:
            raise RuleError(
                "save/none-to-judge",
                f"{c.name} has no {cmd.ability} save awaiting its DC",
                allowed=", ".join(s.ability for s in waiting),
            )
    else:
        chosen = waiting[-1]
    if cmd.dc < 1:
        raise RuleError("save/dc", f"a DC of {cmd.dc}", allowed="1 or more")
    reasons = [r for r in (cmd.reason or chosen.reason, f"automatically fails: {chosen.fails}" if chosen.fails else "") if r]
    tx.emit(
        SaveMade(
            combatant=c.id,
            ability=chosen.ability,
            dc=cmd.dc,
            total=chosen.total,
            success=chosen.fails is None and chosen.total >= cmd.dc,
            reason=", ".join(reasons),
            judged_later=True,
        )
    )
