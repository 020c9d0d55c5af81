"""Does a recorded a5e event still fit the rules, now that the Narrator has changed the past?

Run by combat.app.history on every event after a retraction or amendment (see combat.consistency
for the shared checks). Each check reads the state just before the event and names what
could not have happened, or returns None. Beyond the shared 5e checks (an action, bonus action
or reaction spent twice, a creature acting or taking its turn while dead or incapacitated,
damage its resistances would now change, a creature dropping with HP left), a5e adds:

- surprise: a participant now surprised moved, acted or reacted before its first turn was
  over (a bonus action too, unless `surprised_bonus_action`), or its first turn ended without
  ending the surprise (amend that end_turn to end it); a surprise ended that never was;
- initiative: a reused surprise-step check whose total is now different, a roll-off for a tie
  that no longer exists, a sudden action while someone is surprised;
- world actions: one used while still spent (no recharge roll regained it), a second one in a
  round, one reaching a dead participant or one it may not target again; a recharge roll for
  an action that was not spent;
- maneuvers and movement: Press the Attack after the Attack action or on a foe already
  pressed, Fall Back with no press against it (or while raging), Sprint alongside another
  action or while fatigued, a Tumble without the action it uses, movement beyond what the
  participant's speeds left it, walking while prone;
- concentration: a save owed by someone who was not concentrating, a save made when none
  was owed.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from combat.common.concentration import no_save_owed, not_concentrating
from combat.common.consistency import able, first_of
from combat.common.events import ConcentrationChecked, ConcentrationCheckRequired, DamageTaken
from combat.common.hitpoints import adjusted_damage
from combat.fivee import consistency
from combat.fivee.action_events import ActionTaken, BonusActionTaken, Moved, ReactionTaken
from combat.fivee.actions import used_up
from combat.fivee.attack_events import AttackMade, AttackRolled
from combat.fivee.initiative import turn_order
from combat.kernel import events as ev
from combat.kernel.decider import Check, Rules
from combat.kernel.state import Combatant, EncounterState
from combat.rulesets.a5e.actions import FreeActionTaken
from combat.rulesets.a5e.initiative import (
    InitiativeCheckCalled,
    RollOffNeeded,
    RollOffTiedAgain,
    SurpriseCheckReused,
    TieRolledOff,
    has_initiative,
    no_tie_waiting,
)
from combat.rulesets.a5e.maneuvers import (
    AttackPressed,
    FellBack,
    Tumbled,
    already_pressed,
    not_pressable,
    not_pressed,
    pressed_too_late,
    raging,
)
from combat.rulesets.a5e.movement import ExtraMovementSpent, costs_double, movement_short, no_speed, prone_crawls
from combat.rulesets.a5e.sprint import Sprinted, cannot_sprint
from combat.rulesets.a5e.surprise import (
    SuddenActionDeclared,
    SurpriseCheckMade,
    SurpriseEnded,
    already_checked,
    held_back,
    rolled_before_sudden,
    sudden_bars,
    surprised_before_sudden,
)
from combat.rulesets.a5e.world_actions import (
    RechargeRolled,
    WorldActionUsed,
    WorldEffectSuffered,
    nothing_to_recharge,
    still_spent,
    struck_already,
    world_acted,
)

__all__ = ["CHECKS", "RULES", "still_surprised"]


# What each way of spending the economy asks of a surprised participant (see surprise.py).
_DOING = {"action": "act", "attack": "act", "bonus_action": "bonus", "reaction": "react"}


def still_surprised(state: EncounterState, c: Combatant) -> bool:
    """Surprised, and its first turn not over yet.

    In a changed past a participant can be surprised whose `SurpriseEnded` was never recorded
    (it was aware when its first turn ended); its first turn is over all the same once round 1
    has gone past its place in the order.
    """
    if not c.surprised or state.round > 1:
        return False
    order = turn_order(state, True)
    went = state.round == 1 and state.turn in order and c.id in order and order.index(c.id) < order.index(state.turn)
    return not went


def _unsurprised(field: str, doing: Callable[[Any], str | None]) -> Check:
    """Surprised participants cannot move or act on their first turn, nor react until it is over."""

    def check(state: EncounterState, e: Any, ctx: dict[str, Any]) -> str | None:
        c = state.combatants.get(getattr(e, field))
        what = doing(e)
        if c is None or what is None or not still_surprised(state, c):
            return None
        why = held_back(state, c, what)
        return f"{c.name} was surprised and could not {why[1]}" if why else None

    return check


# -- hit points and movement -----------------------------------------------------------------


def _damage(state: EncounterState, e: DamageTaken, ctx: dict[str, Any]) -> str | None:
    target = state.combatants[e.target]
    fits = adjusted_damage(target, e.rolled, e.damage_type)
    return None if e.amount == fits else f"{target.name} would take {fits} {e.damage_type} from {e.rolled}, not {e.amount}"


def _moved(state: EncounterState, e: Moved, ctx: dict[str, Any]) -> str | None:
    c = state.combatants[e.combatant]
    cost = e.feet * (2 if costs_double(state, c, e.mode) else 1)
    return no_speed(state, c, e.mode) or prone_crawls(c, e.mode) or movement_short(state, c, e.mode, cost)


def _extra_movement(state: EncounterState, e: ExtraMovementSpent, ctx: dict[str, Any]) -> str | None:
    problem = movement_short(state, state.combatants[e.combatant], "walk", e.feet)
    return f"{problem} ({e.reason})" if problem else None


# -- surprise and initiative -----------------------------------------------------------------


def _surprise_check(state: EncounterState, e: SurpriseCheckMade, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    return already_checked(state, c) or sudden_bars(state, e.dc is not None)


def _sudden(state: EncounterState, e: SuddenActionDeclared, ctx: dict[str, Any]) -> str | None:
    return surprised_before_sudden(state) or rolled_before_sudden(state, e.instigators)


def _surprise_ended(state: EncounterState, e: SurpriseEnded, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    return None if c.surprised else f"{c.name} was not surprised: there was no surprise to end"


def _turn_ended(state: EncounterState, e: ev.TurnEnded, ctx: dict[str, Any]) -> str | None:
    """'Surprised creatures ... are unable to use a reaction until after their first turn': the
    end of that turn ends the surprise (SurpriseEnded comes just before TurnEnded)."""
    c = state.combatants.get(e.combatant)
    if c is None or not c.surprised or state.turn != c.id or e.taken_back:
        return None
    return f"{c.name} was surprised, but the end of its first turn did not end the surprise"


def _called(state: EncounterState, e: InitiativeCheckCalled, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    return has_initiative(c)


def _reused(state: EncounterState, e: SurpriseCheckReused, ctx: dict[str, Any]) -> str | None:
    """'If any creatures have already made an ability check during the surprise step, they use
    that existing score for initiative.'"""
    checks = state.rules.surprise_checks
    made = next((checks[cid] for cid in e.combatants if cid in checks), None)
    first = e.combatants[0] if e.combatants else "?"
    name = state.combatants[first].name if first in state.combatants else first
    if made is None:
        return f"{name} made no surprise-step check to keep as initiative"
    if made.total != e.total:
        return f"{name}'s surprise-step {made.check} check is {made.total} now, not {e.total}"
    return None


def _tie_needed(state: EncounterState, e: RollOffNeeded, ctx: dict[str, Any]) -> str | None:
    for unit in e.units:
        c = state.combatants.get(unit[0])
        if c is None:
            return f"{unit[0]} is not in the fight any more"
        if c.initiative != e.total:
            return f"{c.name} has initiative {c.initiative} now: no tie at {e.total}"
    return None


def _rolled_off(state: EncounterState, e: TieRolledOff | RollOffTiedAgain, ctx: dict[str, Any]) -> str | None:
    return no_tie_waiting(state, e.total)


# -- world actions ---------------------------------------------------------------------------


def _world_used(state: EncounterState, e: WorldActionUsed, ctx: dict[str, Any]) -> str | None:
    notes = state.rules
    action = notes.environment.world_action(e.action) if notes.environment else None
    if action is None:
        return f"the scene's environment has no world action {e.action} now"
    problem = still_spent(state, action) or world_acted(state)
    if problem:
        return problem
    for cid in e.targets:
        c = state.combatants.get(cid)
        if c is None:
            return f"{cid} is not in the fight any more"
        if c.status == "dead":
            return f"{c.name} was already dead"
        problem = struck_already(state, action.name, c)
        if problem:
            return problem
    return None


def _recharge(state: EncounterState, e: RechargeRolled, ctx: dict[str, Any]) -> str | None:
    return nothing_to_recharge(state, e.action)


def _suffered(state: EncounterState, e: WorldEffectSuffered, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    return f"{c.name} was already dead" if c.status == "dead" else None


# -- maneuvers, Sprint and free actions ------------------------------------------------------


def _pressed(state: EncounterState, e: AttackPressed, ctx: dict[str, Any]) -> str | None:
    """'Before you take the Attack action, you can use a bonus action to designate one creature
    within your reach which is not currently the target of a Press the Attack action.'"""
    c = state.combatants[e.combatant]
    target = state.combatants.get(e.target)
    if target is None:
        return f"{e.target} is not in the fight any more"
    return used_up(c, "bonus_action") or pressed_too_late(c) or not_pressable(c, target) or already_pressed(state, target)


def _fell_back(state: EncounterState, e: FellBack, ctx: dict[str, Any]) -> str | None:
    c = state.combatants[e.combatant]
    return not_pressed(state, c) or raging(c) or used_up(c, "reaction")


def _sprinted(state: EncounterState, e: Sprinted, ctx: dict[str, Any]) -> str | None:
    return cannot_sprint(state.combatants[e.combatant])


def _tumbled(state: EncounterState, e: Tumbled, ctx: dict[str, Any]) -> str | None:
    return used_up(state.combatants[e.combatant], e.uses)


# -- concentration ---------------------------------------------------------------------------


def _save_owed(state: EncounterState, e: ConcentrationCheckRequired, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    return not_concentrating(c)


def _save_made(state: EncounterState, e: ConcentrationChecked, ctx: dict[str, Any]) -> str | None:
    return no_save_owed(state, e.combatant)


def _acting(field: str, doing: str) -> Check:
    return lambda state, e, ctx: able(state, getattr(e, field), doing)


_SHARED = consistency.CHECKS

# a5e's own checks, and where they build on a shared check (after fivee.core's in the assembly).
CHECKS: dict[type, Check] = {
    AttackMade: first_of(_SHARED[AttackMade], _unsurprised("attacker", lambda e: _DOING.get(e.uses))),
    AttackRolled: first_of(_SHARED[AttackRolled], _unsurprised("attacker", lambda e: _DOING.get(e.uses))),
    ActionTaken: first_of(_SHARED[ActionTaken], _unsurprised("combatant", lambda e: _DOING[e.uses])),
    BonusActionTaken: first_of(_SHARED[BonusActionTaken], _unsurprised("combatant", lambda e: "bonus")),
    ReactionTaken: first_of(_SHARED[ReactionTaken], _unsurprised("combatant", lambda e: "react")),
    Moved: first_of(_acting("combatant", "move"), _unsurprised("combatant", lambda e: "move"), _moved),
    DamageTaken: first_of(_SHARED[DamageTaken], _damage),
    ExtraMovementSpent: first_of(_acting("combatant", "move"), _extra_movement),
    ev.SurpriseMarked: lambda state, e, ctx: sudden_bars(state, e.surprised),
    SurpriseCheckMade: _surprise_check,
    SuddenActionDeclared: _sudden,
    SurpriseEnded: _surprise_ended,
    ev.TurnEnded: _turn_ended,
    InitiativeCheckCalled: _called,
    SurpriseCheckReused: _reused,
    RollOffNeeded: _tie_needed,
    TieRolledOff: _rolled_off,
    RollOffTiedAgain: _rolled_off,
    WorldActionUsed: _world_used,
    RechargeRolled: _recharge,
    WorldEffectSuffered: _suffered,
    FreeActionTaken: _acting("combatant", "take a free action"),
    AttackPressed: first_of(_acting("combatant", "press the attack"), _unsurprised("combatant", lambda e: "bonus"), _pressed),
    FellBack: first_of(_acting("combatant", "fall back"), _unsurprised("combatant", lambda e: "react"), _fell_back),
    Sprinted: first_of(_acting("combatant", "sprint"), _unsurprised("combatant", lambda e: "act"), _sprinted),
    Tumbled: first_of(_acting("combatant", "tumble"), _unsurprised("combatant", lambda e: _DOING[e.uses]), _tumbled),
    ConcentrationCheckRequired: _save_owed,
    ConcentrationChecked: _save_made,
}
RULES = Rules(checks=CHECKS)
