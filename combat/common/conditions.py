"""Conditions applied and ended: the GM's `apply_condition` and `remove_condition`, what
lasts until a turn's start or end running out, and the fold of both. What each condition does
is combat/common/condition_effects.py; how long one lasts, combat/common/durations.py.

Exhaustion has levels where the ruleset records deaths by its 0 HP rules
(combat/common/zero_hp.py): applying it again replaces the entry with one a level higher, and
at level 6 the creature dies. A ruleset without them (declared-d10, which takes this condition
rule) records Exhaustion as it always did, with no levels.
"""

from __future__ import annotations

import msgspec

from combat.common.commands import ApplyCondition, RemoveCondition
from combat.common.concentration import end_concentration
from combat.common.condition_effects import EXHAUSTION, EXHAUSTION_DEATH, INCAPACITATING, SPEED_ZERO, exhaustion_level
from combat.common.creature_types import source_type
from combat.common.durations import ending, prepared, runs_out
from combat.common.regained_movement import restore_movement
from combat.common.rider_reads import immune
from combat.common.riders_fold import riders_applied, riders_ended
from combat.common.zero_hp import zero_hp
from combat.kernel.decider import Applier, Handler, Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionEnded, ConditionSpec
from combat.kernel.names import checked_condition, find_named
from combat.kernel.state import EncounterState, with_combatant

__all__ = [
    "expire_conditions",
    "named",
    "arm_next_turn_ends",
    "condition",
    "HANDLERS",
    "APPLIERS",
    "RULES",
    "apply_condition",
]


def arm_next_turn_ends(state: EncounterState, cid: str) -> EncounterState:
    """As `cid`'s turn starts, what lasts until the end of its next turn ends with this one."""
    for target in state.combatants.values():
        if target.conditions and any(c.ends == "end of next turn" and c.ends_on == cid for c in target.conditions):
            armed = tuple(
                msgspec.structs.replace(c, ends="end") if c.ends == "end of next turn" and c.ends_on == cid else c
                for c in target.conditions
            )
            state = with_combatant(state, target.id, conditions=armed)
    return state


def expire_conditions(tx: Tx, cid: str, moment: str) -> None:
    """End every condition whose duration runs out at the `moment` ('start'/'end') of cid's
    turn (one that lasts some rounds, only in its last round: combat/common/durations.py)."""
    spent: dict[str, str] = {}  # concentrating creature -> the effect whose duration ran out
    for target in list(tx.state.combatants.values()):
        for cond in target.conditions:
            if runs_out(cond, cid, moment, tx.state.round):
                owner = tx.state.combatants[cid].name
                reason = f"{moment} of {owner}'s turn"
                if cond.rounds is not msgspec.UNSET:
                    reason = f"{cond.rounds} rounds are up: {reason}, round {tx.state.round}"
                    if cond.concentration is not msgspec.UNSET and cond.effect is not msgspec.UNSET:
                        spent[cond.concentration] = cond.effect
                tx.emit(ending(tx.state.combatants[target.id], cond, reason))
    # A spell held by concentration whose duration is up has ended: so has the concentration.
    for holder, effect in spent.items():
        if holder in tx.state.combatants and tx.state.combatants[holder].concentration == effect:
            end_concentration(tx, holder, f"{effect} ran its duration")


def named(tx: Tx, cmd: ApplyCondition) -> ApplyCondition:
    """The command with its condition named as the ruleset spells it (`Prone` is `prone`);
    an unknown name is refused unless the command says it is custom."""
    name = checked_condition(tx, cmd.condition.name, custom=cmd.custom)
    return (
        cmd
        if name == cmd.condition.name
        else msgspec.structs.replace(cmd, condition=msgspec.structs.replace(cmd.condition, name=name))
    )


def _keeps_levels(tx: Tx) -> bool:
    """Exhaustion has levels where the ruleset records deaths by its 0 HP rules (its level 6 is one)."""
    return zero_hp(tx).records_deaths


def apply_condition(tx: Tx, cmd: ApplyCondition) -> None:
    cmd = named(tx, cmd)
    target = tx.combatant(cmd.target)
    if target.status == "dead":
        raise RuleError("target/dead", f"{target.name} is dead", allowed="a living combatant")
    shield = immune(target, cmd.condition.name, lambda: source_type(tx, cmd.condition)) if not cmd.custom else None
    if shield is not None:
        raise RuleError(
            "condition/immune",
            f"{target.name} is immune to the {cmd.condition.name.title()} condition ({shield})",
            allowed=f"another condition, or end {shield} first",
        )
    if cmd.condition.level is not msgspec.UNSET:
        raise RuleError(
            "condition/level",
            f"a level for '{cmd.condition.name}' is set by the rules, not given",
            allowed="the condition without level: each Exhaustion given adds 1 level",
        )
    levelled = cmd.condition.name == EXHAUSTION and not cmd.custom and _keeps_levels(tx)
    if levelled:
        # "Each time you receive it, you gain 1 Exhaustion level."
        level = exhaustion_level(target) + 1
        cmd = msgspec.structs.replace(cmd, condition=msgspec.structs.replace(cmd.condition, level=level))
    # Rounds, concentration and a repeated save (combat/common/durations.py), checked and completed.
    cmd = msgspec.structs.replace(cmd, condition=prepared(tx, cmd.condition))
    if cmd.condition.ends and not cmd.condition.ends_on:
        raise RuleError(
            "condition/duration",
            f"'{cmd.condition.name}' ends at the {cmd.condition.ends} of a turn, but whose turn is not named",
            allowed="ends_on: the id of the creature whose turn ends it",
        )
    if cmd.condition.ends_on:
        tx.combatant(cmd.condition.ends_on)
    if cmd.condition.ends == "end of next turn" and cmd.condition.ends_on != tx.state.turn:
        # "Until the end of its next turn" given outside that creature's turn: the next end of its turn.
        cmd = msgspec.structs.replace(cmd, condition=msgspec.structs.replace(cmd.condition, ends="end"))
    tx.emit(ConditionApplied(target=target.id, condition=cmd.condition, custom=cmd.custom))
    if cmd.condition.name in INCAPACITATING and not cmd.custom:
        end_concentration(tx, target.id, f"{cmd.condition.name}")
    if levelled and exhaustion_level(tx.state.combatants[target.id]) >= EXHAUSTION_DEATH:
        # "You die if your Exhaustion level is 6."
        zero_hp(tx).died(tx, target.id, f"Exhaustion level {EXHAUSTION_DEATH}")


def _remove_condition(tx: Tx, cmd: RemoveCondition) -> None:
    target = tx.combatant(cmd.target)
    name = find_named(cmd.condition, (c.name for c in target.conditions))
    if name is None:
        raise RuleError(
            "condition/absent",
            f"{target.name} is not {cmd.condition}",
            allowed=", ".join(c.name for c in target.conditions) or "no conditions to remove",
        )
    # The GM ends Exhaustion whole, every level (and every entry an old log holds).
    every = sum(1 for c in target.conditions if c.name == name) if name == EXHAUSTION and _keeps_levels(tx) else 1
    first = next(c for c in target.conditions if c.name == name)
    if first.riders is not msgspec.UNSET:  # a spell's effect: what ends with it is read from its entry
        tx.emit(msgspec.structs.replace(ending(target, first, ""), reason=cmd.reason))
        every = 0
    for _ in range(every):
        tx.emit(ConditionEnded(target=target.id, condition=name, reason=cmd.reason))
    if name in SPEED_ZERO or (name == EXHAUSTION and exhaustion_level(target) > 0):
        restore_movement(tx, target.id, reason=f"no longer {name}")  # its Speed back for the rest of its turn


def _on_applied(state: EncounterState, e: ConditionApplied) -> EncounterState:
    c = state.combatants[e.target]
    kept = c.conditions
    if e.condition.level is not msgspec.UNSET:  # a level reached replaces the level it had
        kept = tuple(x for x in kept if not (x.name == e.condition.name and x.level is not msgspec.UNSET))
    state = with_combatant(state, e.target, conditions=kept + (e.condition,))
    return riders_applied(state, e.target, e.condition) if e.condition.riders is not msgspec.UNSET else state


def _on_ended(state: EncounterState, e: ConditionEnded) -> EncounterState:
    c = state.combatants[e.target]
    kept = list(c.conditions)
    # The entry named, if the event names one (and the target still has it); else the first of the name.
    exact = e.entry is not msgspec.UNSET and e.entry in kept
    gone = None
    for i, cond in enumerate(kept):
        if (cond == e.entry) if exact else (cond.name == e.condition):
            gone = kept.pop(i)
            break
    state = with_combatant(state, e.target, conditions=tuple(kept))
    return riders_ended(state, e.target, gone) if gone is not None and gone.riders is not msgspec.UNSET else state


def condition(name: str, **kwargs: object) -> ConditionSpec:
    return msgspec.convert({"name": name, **kwargs}, ConditionSpec)


HANDLERS: dict[type, Handler] = {ApplyCondition: apply_condition, RemoveCondition: _remove_condition}
APPLIERS: dict[type, Applier] = {ConditionApplied: _on_applied, ConditionEnded: _on_ended}
RULES = Rules(handlers=HANDLERS, appliers=APPLIERS)  # declared-d10 and segments-1e take some of the entries
