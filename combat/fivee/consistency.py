"""Does a recorded event still fit the rules, now that the past has changed?

Run by combat.app.history on every event after a retraction or amendment. Each check gets the
state just before the event and says what no longer fits (or None): a reaction spent twice,
a turn taken by a creature that is now dead, a living creature whose turn was skipped. Where a
check says what a command's guard says (an action, bonus action, reaction or object interaction
already used, movement beyond what is left, a creature that cannot act, a dead target, damage
rolled for no hit, hit points beyond the maximum, an extra action granted while the creature's
own is unspent), both ask the same predicate (actions.used_up and movement_short,
turns.blocked_by, attacks.already_dead, damage_rolls.no_damage_waiting, gm_edits.hp_out_of_range
and still_has), so the conflict reads as the refusal would.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from combat.common.consistency import CHECKS as SHARED_CHECKS
from combat.common.consistency import able, first_of, who
from combat.common.events import SaveMade
from combat.common.hitpoints import adjusted_damage
from combat.fivee.action_events import ActionTaken, BonusActionTaken, Moved, ObjectInteracted, ReactionTaken
from combat.fivee.actions import movement_short, used_up
from combat.fivee.attack_events import AttackDamageRolled, AttackMade, AttackRolled
from combat.fivee.attacks import already_dead
from combat.fivee.banked_actions import BankedActionGranted, banked_of
from combat.fivee.damage_reduction import most_reduced
from combat.fivee.damage_rolls import no_damage_waiting
from combat.fivee.gm_edit_events import ActionGranted, HitPointsSet
from combat.fivee.gm_edits import hp_out_of_range, still_has
from combat.fivee.judged_saves import rolled_saves_of
from combat.kernel import events as ev
from combat.kernel.decider import Check, Rules
from combat.kernel.names import normalised
from combat.kernel.state import EncounterState

__all__ = ["CHECKS", "RULES", "turn_checks"]


def _attack_spend(state: EncounterState, e: AttackMade | AttackRolled, ctx: dict[str, Any]) -> str | None:
    """Could the attacker make this attack, at this target, with what it had left?"""
    problem = able(state, e.attacker, "attack")
    if problem:
        return problem
    attacker = state.combatants[e.attacker]
    target = who(state, e.target)
    if target is None:
        return f"{e.target} is not in the fight any more"
    return already_dead(target) or used_up(attacker, e.uses)


def _damage_fits(state: EncounterState, e: AttackMade | AttackDamageRolled, ctx: dict[str, Any]) -> str | None:
    """Is the damage recorded what the target's resistances make of the roll now?"""
    target = who(state, e.target)
    if target is None:
        return f"{e.target} is not in the fight any more"
    fits = adjusted_damage(target, e.damage_rolled, e.damage_type)
    # a Resistance spell's d4 may have taken up to its largest face off ("reduces the total damage taken by 1d4")
    if getattr(e, "hit", True) and not fits - most_reduced(target, e.damage_type) <= e.damage <= fits:
        return f"{target.name} would take {fits} {e.damage_type} from {e.damage_rolled} rolled, not {e.damage}"
    return None


def _damage_awaited(state: EncounterState, e: AttackDamageRolled, ctx: dict[str, Any]) -> str | None:
    return no_damage_waiting(state, e.attacker)


def _acts(field: str, doing: str, resource: str | None = None) -> Check:
    def check(state: EncounterState, e: Any, ctx: dict[str, Any]) -> str | None:
        cid = getattr(e, field)
        problem = able(state, cid, doing)
        if problem:
            return problem
        name = resource or getattr(e, "uses", None)
        return used_up(state.combatants[cid], name) if name else None

    return check


def _moved(state: EncounterState, e: Moved, ctx: dict[str, Any]) -> str | None:
    problem = able(state, e.combatant, "move")
    if problem:
        return problem
    return movement_short(state.combatants[e.combatant], e.spent)


def _hp_set(state: EncounterState, e: HitPointsSet, ctx: dict[str, Any]) -> str | None:
    c = who(state, e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    if c.status == "dead":
        return f"{c.name} was already dead"
    return hp_out_of_range(c, e.hp)


def _granted(state: EncounterState, e: ActionGranted, ctx: dict[str, Any]) -> str | None:
    """An extra action is granted once the creature's own is spent."""
    c = who(state, e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    return still_has(c, e.kind)


def _banked_granted(state: EncounterState, e: BankedActionGranted, ctx: dict[str, Any]) -> str | None:
    """A banked action is taken up on the turn it was kept for, once the creature's own is spent."""
    c = who(state, e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    label = e.kind.replace("_", " ")
    if not any(g.combatant == c.id and g.kind == e.kind and g.armed for g in banked_of(state)):
        return f"no extra {label} was kept for {c.name}'s turn any more"
    return f"{c.name} still had its {label} when the kept one was taken up" if getattr(c.economy, e.kind) else None


def _judged(state: EncounterState, e: SaveMade, ctx: dict[str, Any]) -> str | None:
    """A DC set after the roll judges a save still waiting for it."""
    if not e.judged_later:
        return None
    waiting = [s for s in rolled_saves_of(state) if s.combatant == e.combatant and normalised(s.ability) == normalised(e.ability)]
    if not waiting:
        return f"{e.combatant} had no {e.ability} save waiting for its DC any more"
    return (
        None
        if waiting[-1].total == e.total
        else f"the {e.ability} save waiting for its DC came to {waiting[-1].total}, not {e.total}"
    )


def turn_checks(order: Callable[[EncounterState, bool], list[str]]) -> dict[type, Check]:
    """Checks of whose turn came when, for rulesets with a fixed turn order."""

    def started(state: EncounterState, e: ev.TurnStarted, ctx: dict[str, Any]) -> str | None:
        c = who(state, e.combatant)
        if c is None:
            return f"{e.combatant} is not in the fight any more"
        if c.status == "dead":
            return f"{c.name} is dead now and could not take a turn"
        if ctx.get("moved_to") == e.combatant:  # goto_turn or previous_turn: the GM's choice
            return None
        full = order(state, True)
        previous = ctx.get("previous_turn")
        after = full[full.index(previous) + 1 :] if previous in full else full
        for cid in after:
            if cid == e.combatant:
                return None
            if state.combatants[cid].status != "dead":
                return f"{state.combatants[cid].name} is alive now but its turn was skipped"
        return None

    return {ev.TurnStarted: started}


# The variant's and a5e's checks build on single entries of CHECKS.
CHECKS: dict[type, Check] = {
    **SHARED_CHECKS,
    AttackMade: first_of(_attack_spend, _damage_fits),
    AttackRolled: _attack_spend,
    AttackDamageRolled: first_of(_damage_awaited, _damage_fits),
    Moved: _moved,
    ActionTaken: _acts("combatant", "act"),
    BonusActionTaken: _acts("combatant", "act", "bonus_action"),
    ReactionTaken: _acts("combatant", "react", "reaction"),
    ObjectInteracted: _acts("combatant", "interact", "object_interaction"),
    HitPointsSet: _hp_set,
    ActionGranted: _granted,
    BankedActionGranted: _banked_granted,
    SaveMade: _judged,
}
RULES = Rules(checks=CHECKS)
