"""The GM's direct edits mid-fight: `set_hp`, `change_stat_block`, `grant_action`, and
`judge_save` (the DC of a save rolled without one: combat/fivee/judged_saves.py).

- set_hp: HP become the number given (temporary HP stay as they were). Set to 0, the creature
  "drops to 0 hit points" as damage would drop it (a monster dies, a character falls
  unconscious, concentration ends); set above 0, an unconscious character wakes. It is not
  damage, so it asks for no concentration save. A dead creature's HP are not set: undo the
  blow that killed it instead.
- change_stat_block: the fields given replace the stat block's (AC, max HP, Speed,
  resistances, vulnerabilities, immunities, attacks, initiative bonus...). Every later event is
  judged against the new values, and re-checks after a change to the past meet the change in
  its place in the log. A lower HP maximum lowers HP above it. A Speed changed during the
  creature's own turn changes the movement it has left by the difference (Longstrider, Haste);
  an initiative bonus counts for rolls still to come (the count already rolled stands).
- grant_action: an extra action or bonus action on the creature's own turn, or its reaction
  back at any time (Action Surge, Haste). The grant makes the spent one available again, so it
  is sent once the one the creature had is used; an unspent one is refused as the creature
  still has it. An action or bonus action granted outside the creature's turn is kept for its
  next turn, made available there once its own is spent, and lapses if that turn ends
  unused (combat/fivee/banked_actions.py).
"""

from __future__ import annotations

from typing import Any

import msgspec

from combat.common.events import CombatantRevived
from combat.common.hitpoints import drop_to_zero
from combat.common.turns import require_able
from combat.fivee import judged_saves
from combat.fivee.banked_actions import ActionBanked, BankedActionGranted
from combat.fivee.gm_edit_commands import ChangeStatBlock, GrantAction, JudgeSave, SetHp, StatChanges
from combat.fivee.gm_edit_events import ActionGranted, HitPointsSet, StatBlockChanged
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant, EncounterState, with_combatant

__all__ = ["RULES"]


def hp_out_of_range(c: Combatant, hp: int) -> str | None:
    """The problem when `c` cannot be set to `hp` (0 to its maximum), else None: set_hp refuses
    with it, the re-check of a HitPointsSet after a changed past reports it."""
    return None if 0 <= hp <= c.max_hp else f"{c.name} cannot have {hp} HP, with a maximum of {c.max_hp}"


def still_has(c: Combatant, kind: str) -> str | None:
    """'An extra one is granted once that is spent': the problem while `c` still has its own
    action, bonus action or reaction `kind`, else None. grant_action refuses with it, the
    re-check of an ActionGranted after a changed past reports it."""
    label = kind.replace("_", " ")
    return f"{c.name} still has its {label}; an extra one is granted once that is spent" if getattr(c.economy, kind) else None


def _set_hp(tx: Tx, cmd: SetHp) -> None:
    c = tx.combatant(cmd.combatant)
    if c.status == "dead":
        raise RuleError("target/dead", f"{c.name} is dead", allowed="a living combatant, or retract the blow that killed it")
    problem = hp_out_of_range(c, cmd.hp)
    if problem:
        raise RuleError("hp/out-of-range", problem, allowed=f"0 to its maximum of {c.max_hp}")
    tx.emit(HitPointsSet(combatant=c.id, hp=cmd.hp, previous=c.hp, reason=cmd.reason))
    if cmd.hp == 0 and c.status == "active":
        drop_to_zero(tx, c.id)
    elif cmd.hp > 0 and c.status == "unconscious":
        tx.emit(CombatantRevived(combatant=c.id))


_AT_LEAST = {"ac": 0, "speed": 0, "max_hp": 1, "attacks_per_action": 1}


def _change_stat_block(tx: Tx, cmd: ChangeStatBlock) -> None:
    c = tx.combatant(cmd.combatant)
    given = {k: v for k, v in msgspec.structs.asdict(cmd.changes).items() if v is not None}
    if not given:
        raise RuleError(
            "stat-block/no-changes",
            f"no change to {c.name}'s stat block was given",
            allowed=", ".join(f.name for f in msgspec.structs.fields(StatChanges)),
        )
    for name, least in _AT_LEAST.items():
        if name in given and given[name] < least:
            raise RuleError("stat-block/invalid", f"{name} {given[name]} for {c.name}", allowed=f"{least} or more")
    tx.emit(StatBlockChanged(combatant=c.id, changes=cmd.changes, reason=cmd.reason))


def grant_action(tx: Tx, cmd: GrantAction) -> None:
    c = tx.combatant(cmd.combatant)
    if cmd.kind != "reaction" and tx.state.turn != c.id:
        # "On your turn" (Action Surge), "on each of its turns" (Haste): granted before that
        # turn, it is kept for it (combat/fivee/banked_actions.py).
        if c.status == "dead":
            raise RuleError("target/dead", f"{c.name} is dead and has no turn to come", allowed="a living combatant")
        tx.emit(ActionBanked(combatant=c.id, kind=cmd.kind, reason=cmd.reason))
        return
    require_able(c, "act")
    problem = still_has(c, cmd.kind)
    if problem:
        raise RuleError("economy/still-has", problem, allowed=f"use the {cmd.kind.replace('_', ' ')} first, then grant_action")
    tx.emit(ActionGranted(combatant=c.id, kind=cmd.kind, reason=cmd.reason))


def _on_hp_set(state: EncounterState, e: HitPointsSet) -> EncounterState:
    return with_combatant(state, e.combatant, hp=e.hp)


def _on_stat_block(state: EncounterState, e: StatBlockChanged) -> EncounterState:
    c = state.combatants[e.combatant]
    given = {k: v for k, v in msgspec.structs.asdict(e.changes).items() if v is not None}
    changed: Combatant = msgspec.structs.replace(c, **given)
    if changed.hp > changed.max_hp:
        changed = msgspec.structs.replace(changed, hp=changed.max_hp)
    if "speed" in given and state.turn == c.id:
        economy = msgspec.structs.replace(c.economy, movement=max(0, c.economy.movement + given["speed"] - c.speed))
        changed = msgspec.structs.replace(changed, economy=economy)
    return msgspec.structs.replace(state, combatants={**state.combatants, c.id: changed})


def _on_granted(state: EncounterState, e: ActionGranted) -> EncounterState:
    c = state.combatants[e.combatant]
    return with_combatant(state, c.id, economy=msgspec.structs.replace(c.economy, **{e.kind: True}))


def _why(reason: str) -> str:
    return f" ({reason})" if reason else ""


def _narrate_hp(n: Any, e: HitPointsSet) -> str:
    if e.hp is None:  # not revealed to this reader (projections/redaction.py)
        return f"The GM sets {n.name(e.combatant)}'s HP{_why(e.reason)}"
    return f"The GM sets {n.name(e.combatant)}'s HP to {e.hp} (was {e.previous}){_why(e.reason)}"


def _narrate_stats(n: Any, e: StatBlockChanged) -> str:
    if e.changes is None:  # not revealed to this reader (projections/redaction.py)
        return f"{n.name(e.combatant)}'s stat block changes{_why(e.reason)}"
    given = {k: v for k, v in msgspec.structs.asdict(e.changes).items() if v is not None}

    def shown_value(name: str, value: Any) -> str:
        if name == "attacks":
            return ", ".join(a.name for a in value) or "none"
        return (", ".join(map(str, value)) or "none") if isinstance(value, (list, tuple)) else str(value)

    shown = "; ".join(f"{name.replace('_', ' ')} {shown_value(name, value)}" for name, value in given.items())
    return f"{n.name(e.combatant)}'s stat block changes: {shown}{_why(e.reason)}"


def _narrate_granted(n: Any, e: ActionGranted) -> str:
    return f"{n.name(e.combatant)} gains an extra {e.kind.replace('_', ' ')}{_why(e.reason)}"


def _narrate_banked(n: Any, e: ActionBanked) -> str:
    return f"{n.name(e.combatant)} will have an extra {e.kind.replace('_', ' ')} on its next turn{_why(e.reason)}"


def _narrate_banked_granted(n: Any, e: BankedActionGranted) -> str:
    return f"{n.name(e.combatant)} takes up the extra {e.kind.replace('_', ' ')} kept for this turn{_why(e.reason)}"


RULES = Rules(
    handlers={SetHp: _set_hp, ChangeStatBlock: _change_stat_block, GrantAction: grant_action, JudgeSave: judged_saves.judge_save},
    appliers={HitPointsSet: _on_hp_set, StatBlockChanged: _on_stat_block, ActionGranted: _on_granted},
    narration={
        HitPointsSet: _narrate_hp,
        StatBlockChanged: _narrate_stats,
        ActionGranted: _narrate_granted,
        ActionBanked: _narrate_banked,
        BankedActionGranted: _narrate_banked_granted,
    },
)
