"""Conditions: what each one does to attacks, actions and speed, and when it ends.

The effects are a table, so a ruleset can read or extend them without branching.

Exhaustion (SRD 5.2): "Exhaustion Levels. This condition is cumulative. Each time you receive
it, you gain 1 Exhaustion level. You die if your Exhaustion level is 6." "D20 Tests Affected.
When you make a D20 Test, the roll is reduced by 2 times your Exhaustion level." "Speed
Reduced. Your Speed is reduced by a number of feet equal to 5 times your Exhaustion level."
A creature has one Exhaustion entry whose `level` is the level reached: applying it again
replaces the entry with one a level higher (the applier replaces an entry of the same name
when the new one has a level), and at level 6 the creature dies (`CombatantDied`, "Exhaustion
level 6"). The penalty (`d20_penalty`) comes off attack rolls, saving throws and ability
checks; the Speed (`speed_of`) is what a turn grants and a Dash adds. "Finishing a Long Rest
removes 1 of your Exhaustion levels" happens outside a fight; the GM's `remove_condition`
ends Exhaustion whole. Exhaustion recorded before it had levels (no `level`: an entry per
time it was given) had no effect and keeps none, so an old log folds as it did; a level
given now counts from the levelled entry alone. A ruleset without the 5e 0 HP rules
(declared-d10, which takes this condition rule) records Exhaustion as it always did, with
no levels.
"""

from __future__ import annotations

import msgspec

from combat.common.riders_fold import riders_applied, riders_ended
from combat.kernel.commands import ApplyCondition, RemoveCondition
from combat.kernel.decider import Applier, Handler, Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionEnded, ConditionSpec
from combat.kernel.names import checked_condition, find_named
from combat.kernel.state import Combatant, EncounterState, with_combatant

__all__ = [
    "INCAPACITATING",
    "SPEED_ZERO",
    "attack_modifiers",
    "DODGE_SETTING",
    "dodge_to_next_turn",
    "is_incapacitated",
    "can_see",
    "speed_of",
    "EXHAUSTION",
    "exhaustion_level",
    "d20_penalty",
    "expire_conditions",
    "named",
    "arm_next_turn_ends",
    "HANDLERS",
    "APPLIERS",
    "RULES",
    "apply_condition",
]

INCAPACITATING = frozenset({"incapacitated", "paralyzed", "petrified", "stunned", "unconscious"})
SPEED_ZERO = frozenset({"grappled", "restrained", "paralyzed", "petrified", "stunned", "unconscious"})
# Rolls made BY a creature with the condition.
_ATTACKER_DISADVANTAGE = frozenset({"blinded", "frightened", "poisoned", "prone", "restrained"})
_ATTACKER_ADVANTAGE = frozenset({"invisible"})
# Rolls made AGAINST a creature with the condition.
_TARGET_ADVANTAGE = frozenset({"blinded", "paralyzed", "petrified", "restrained", "stunned", "unconscious"})
_TARGET_DISADVANTAGE = frozenset({"invisible"})
# Unconscious: "You have the Incapacitated and Prone conditions."
_LYING_DOWN = frozenset({"prone", "unconscious"})
# A hit from within 5 feet is a Critical Hit.
AUTO_CRIT_IN_MELEE = frozenset({"paralyzed", "unconscious"})


# a5e's Dodge lasts "until the start of your next turn" with no word of losing it early; the
# 2024 text loses it to Incapacitated or a Speed of 0. New a5e encounters record this setting;
# logs from before it keep the 2024 reading they were played with.
DODGE_SETTING = "dodge_to_next_turn"


def dodge_to_next_turn(state: EncounterState) -> bool:
    return bool(state.settings.get(DODGE_SETTING))


def is_incapacitated(c: Combatant) -> bool:
    return c.status != "active" or any(cond.name in INCAPACITATING for cond in c.conditions)


def can_see(viewer: Combatant, seen: Combatant, *, unseen: bool = False) -> bool:
    """Blinded: 'You can't see'; Invisible (and hidden): 'You aren't affected by any effect that
    requires its target to be seen'. The opportunity attack ('a creature that you can see') and
    Dodge ('if you can see the attacker') both need it. `unseen` is the GM's word that the
    viewer cannot see it for some other reason (darkness, a wall: a5e's `attacker_unseen`)."""
    from combat.common.rider_reads import benefits_from_invisible

    return not unseen and not viewer.has("blinded") and not benefits_from_invisible(seen)


EXHAUSTION = "exhaustion"
EXHAUSTION_DEATH = 6


def exhaustion_level(c: Combatant) -> int:
    """The Exhaustion level `c` has (0 without it; entries recorded before levels count none)."""
    if not c.conditions:
        return 0
    return sum(cond.level for cond in c.conditions if cond.name == EXHAUSTION and cond.level is not msgspec.UNSET)


def d20_penalty(c: Combatant) -> int:
    """ "When you make a D20 Test, the roll is reduced by 2 times your Exhaustion level."."""
    return 2 * exhaustion_level(c)


def speed_of(c: Combatant) -> int:
    """The Speed `c` moves at: 0 under a Speed 0 condition, less 5 ft per Exhaustion level."""
    if not c.conditions:
        return c.speed
    if any(cond.name in SPEED_ZERO for cond in c.conditions):
        return 0
    from combat.common.rider_reads import speed_bonus, speed_factor

    factor = speed_factor(c)  # Haste's doubled Speed, its lethargy's Speed of 0
    speed = c.speed + speed_bonus(c)  # Longstrider's 10 feet, doubled with the rest by Haste
    return max(0, speed * (1 if factor is None else factor) - 5 * exhaustion_level(c))


def attack_modifiers(
    attacker: Combatant, target: Combatant, melee: bool, *, attacker_unseen: bool = False, dodge_held: bool = False
) -> tuple[list[str], list[str]]:
    """Advantage and Disadvantage reasons that come from conditions alone (and from the target
    not seeing the attacker, for Dodge: `attacker_unseen`). `dodge_held`: the Dodge is not lost
    to Incapacitated or a Speed of 0 (`dodge_to_next_turn`), only to not seeing the attacker."""
    advantage: list[str] = []
    disadvantage: list[str] = []
    from combat.common.rider_reads import benefits_from_invisible

    for cond in attacker.conditions:
        if cond.name in _ATTACKER_DISADVANTAGE:
            disadvantage.append(f"attacker is {cond.name}")
        if cond.name in _ATTACKER_ADVANTAGE and (cond.name != "invisible" or benefits_from_invisible(attacker)):
            advantage.append(f"attacker is {cond.name}")
    for cond in target.conditions:
        if cond.name in _TARGET_ADVANTAGE:
            advantage.append(f"target is {cond.name}")
        if cond.name in _TARGET_DISADVANTAGE and (cond.name != "invisible" or benefits_from_invisible(target)):
            disadvantage.append(f"target is {cond.name}")
    if any(cond.name in _LYING_DOWN for cond in target.conditions):
        (advantage if melee else disadvantage).append("target is prone")
    # Dodge: "You lose these benefits if you have the Incapacitated condition or if your Speed is 0."
    # ... and "attack rolls against you have Disadvantage if you can see the attacker" (a5e:
    # "Until the start of your next turn, attacks against you are made with disadvantage if you
    # can see the attacker", and no more: `dodge_held`).
    if target.dodging and _dodge_holds(target, attacker, attacker_unseen, dodge_held):
        disadvantage.append("target is dodging")
    return advantage, disadvantage


def _dodge_holds(target: Combatant, attacker: Combatant, attacker_unseen: bool, held: bool) -> bool:
    if not held:
        return not is_incapacitated(target) and speed_of(target) > 0 and can_see(target, attacker, unseen=attacker_unseen)
    # An Unconscious dodger, or one at 0 Hit Points, is unaware of its surroundings: it sees no attacker.
    return target.status == "active" and not target.has("unconscious") and can_see(target, attacker, unseen=attacker_unseen)


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
    from combat.common.concentration import end_concentration
    from combat.common.durations import ending, runs_out

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
    """Exhaustion has levels where the ruleset records deaths by the 5e rules (its level 6 is one)."""
    from combat.fivee.dying import CombatantDied

    return CombatantDied in tx.ruleset.appliers


def apply_condition(tx: Tx, cmd: ApplyCondition) -> None:
    from combat.common.concentration import end_concentration

    cmd = named(tx, cmd)
    target = tx.combatant(cmd.target)
    if target.status == "dead":
        raise RuleError("target/dead", f"{target.name} is dead", allowed="a living combatant")
    from combat.common.rider_reads import immune
    from combat.fivee.spell_targets import source_type

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
    from combat.common.durations import prepared

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
        from combat.fivee.dying import CombatantDied

        # "You die if your Exhaustion level is 6."
        tx.emit(CombatantDied(combatant=target.id, cause=f"Exhaustion level {EXHAUSTION_DEATH}"))
        end_concentration(tx, target.id, "died")


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
        from combat.common.durations import ending

        tx.emit(msgspec.structs.replace(ending(target, first, ""), reason=cmd.reason))
        every = 0
    for _ in range(every):
        tx.emit(ConditionEnded(target=target.id, condition=name, reason=cmd.reason))
    if name in SPEED_ZERO or (name == EXHAUSTION and exhaustion_level(target) > 0):
        from combat.common.regained_movement import restore_movement

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
