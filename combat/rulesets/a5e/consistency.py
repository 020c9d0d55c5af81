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

from combat.fivee import consistency
from combat.kernel import events as ev
from combat.fivee.consistency import Check, able, first_of
from combat.fivee.hitpoints import adjusted_damage
from combat.fivee.initiative import turn_order
from combat.rulesets.a5e.actions import FreeActionTaken
from combat.rulesets.a5e.initiative import (
    InitiativeCheckCalled,
    RollOffNeeded,
    RollOffTiedAgain,
    SurpriseCheckReused,
    TieRolledOff,
)
from combat.rulesets.a5e.maneuvers import RAGING, AttackPressed, FellBack, Tumbled
from combat.rulesets.a5e.movement import GROUND, ExtraMovementSpent, costs_double, movement_left
from combat.rulesets.a5e.sprint import FATIGUE, Sprinted
from combat.rulesets.a5e.surprise import SuddenActionDeclared, SurpriseCheckMade, SurpriseEnded, held_back
from combat.rulesets.a5e.world_actions import RechargeRolled, WorldActionUsed, WorldEffectSuffered
from combat.kernel.decider import Rules
from combat.kernel.state import Combatant, EncounterState

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


def _spent(c: Combatant, resource: str) -> str | None:
    if getattr(c.economy, resource):
        return None
    return f"{c.name} had already used its {resource.replace('_', ' ')}"


# -- hit points and movement -----------------------------------------------------------------


def _damage(state: EncounterState, e: ev.DamageTaken, ctx: dict[str, Any]) -> str | None:
    target = state.combatants[e.target]
    fits = adjusted_damage(target, e.rolled, e.damage_type)
    return None if e.amount == fits else f"{target.name} would take {fits} {e.damage_type} from {e.rolled}, not {e.amount}"


def _moved(state: EncounterState, e: ev.Moved, ctx: dict[str, Any]) -> str | None:
    c = state.combatants[e.combatant]
    if c.has("prone") and e.mode != "crawl":
        return f"{c.name} was prone and could only crawl, not {e.mode}"
    if e.mode not in GROUND and e.mode not in state.rules.speeds.get(c.id, {}):
        return f"{c.name} has no {e.mode} speed now"
    cost = e.feet * (2 if costs_double(state, c, e.mode) else 1)
    left = max(0, movement_left(state, c, e.mode))
    return None if cost <= left else f"{c.name} had only {left} ft of {e.mode} movement left, not {cost}"


def _extra_movement(state: EncounterState, e: ExtraMovementSpent, ctx: dict[str, Any]) -> str | None:
    c = state.combatants[e.combatant]
    left = max(0, movement_left(state, c, "walk"))
    return None if e.feet <= left else f"{c.name} had only {left} ft of movement left, not {e.feet} more {e.reason}"


# -- surprise and initiative -----------------------------------------------------------------


def _surprise_check(state: EncounterState, e: SurpriseCheckMade, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    notes = state.rules
    if c.id in notes.surprise_checks:
        return f"{c.name} had already made a surprise-step check"
    if e.dc is not None and notes.sudden:
        return "in a sudden action everyone is aware: no one could be surprised"
    return None


def _marked(state: EncounterState, e: ev.SurpriseMarked, ctx: dict[str, Any]) -> str | None:
    if e.surprised and state.rules.sudden:
        return "in a sudden action no one is surprised"
    return None


def _sudden(state: EncounterState, e: SuddenActionDeclared, ctx: dict[str, Any]) -> str | None:
    surprised = [c.name for c in state.combatants.values() if c.surprised]
    if surprised:
        return f"a sudden action means no one is surprised, but {surprised[0]} is"
    rolled = [c.name for cid in e.instigators if (c := state.combatants.get(cid)) is not None and c.initiative is not None]
    return f"{rolled[0]} had already rolled initiative" if rolled else None


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
    return f"{c.name} already had initiative {c.initiative}" if c.initiative is not None else None


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


def _rolled_off(state: EncounterState, e: TieRolledOff, ctx: dict[str, Any]) -> str | None:
    if any(t.total == e.total and not t.order for t in state.ties):
        return None
    return f"no tie at {e.total} was waiting for a roll-off"


# -- world actions ---------------------------------------------------------------------------


def _world_used(state: EncounterState, e: WorldActionUsed, ctx: dict[str, Any]) -> str | None:
    notes = state.rules
    action = notes.environment.world_action(e.action) if notes.environment else None
    if action is None:
        return f"the scene's environment has no world action {e.action} now"
    if action.name in notes.spent:
        return f"{action.name} was still spent: no recharge roll had regained it"
    per_round = state.settings.get("world_actions_per_round", 1)
    if notes.world_round == state.round and notes.world_used >= per_round:
        return "the environment had already used its world action this round"
    struck = notes.struck.get(action.name, ())
    for cid in e.targets:
        c = state.combatants.get(cid)
        if c is None:
            return f"{cid} is not in the fight any more"
        if c.status == "dead":
            return f"{c.name} was already dead"
        if cid in struck:
            return f"{c.name} could not be targeted by {action.name} again"
    return None


def _recharge(state: EncounterState, e: RechargeRolled, ctx: dict[str, Any]) -> str | None:
    return None if e.action in state.rules.spent else f"{e.action} was not spent: there was nothing to recharge"


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
    if target.status == "dead":
        return f"{target.name} was already dead and could not be pressed"
    if not c.economy.action or c.economy.attacks_left:
        return f"{c.name} had already used its action: Press the Attack comes before the Attack action"
    other = next((p for p in state.rules.presses if p.target == target.id), None)
    if other is not None:
        return f"{target.name} was already the target of {state.combatants[other.attacker].name}'s Press the Attack"
    return _spent(c, "bonus_action")


def _fell_back(state: EncounterState, e: FellBack, ctx: dict[str, Any]) -> str | None:
    c = state.combatants[e.combatant]
    if not any(p.target == c.id and not p.fell_back for p in state.rules.presses):
        return f"no one was pressing the attack against {c.name}"
    if any(x.name in RAGING for x in c.conditions):
        return f"{c.name} was raging and could not choose to Fall Back"
    return _spent(c, "reaction")


def _sprinted(state: EncounterState, e: Sprinted, ctx: dict[str, Any]) -> str | None:
    """'You may not take any other actions, bonus actions, or reactions ... You cannot Sprint if
    you are suffering from one or more levels of fatigue.'"""
    c = state.combatants[e.combatant]
    if c.has(FATIGUE):
        return f"{c.name} was suffering from fatigue and could not Sprint"
    x = c.economy
    if not (x.action and x.bonus_action and x.reaction) or x.attacks_left:
        return f"{c.name} had already used an action, bonus action or reaction this turn, which Sprint excludes"
    return None


def _tumbled(state: EncounterState, e: Tumbled, ctx: dict[str, Any]) -> str | None:
    return _spent(state.combatants[e.combatant], e.uses)


# -- concentration ---------------------------------------------------------------------------


def _save_owed(state: EncounterState, e: ev.ConcentrationCheckRequired, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    return None if c.concentration is not None else f"{c.name} was not concentrating on anything"


def _save_made(state: EncounterState, e: ev.ConcentrationChecked, ctx: dict[str, Any]) -> str | None:
    if any(p.combatant == e.combatant for p in state.pending_checks):
        return None
    name = state.combatants[e.combatant].name if e.combatant in state.combatants else e.combatant
    return f"{name} owed no concentration save"


def _acting(field: str, doing: str) -> Check:
    return lambda state, e, ctx: able(state, getattr(e, field), doing)


_SHARED = consistency.CHECKS

# a5e's own checks, and where they build on a shared check (after fivee.core's in the assembly).
CHECKS: dict[type, Check] = {
    ev.AttackMade: first_of(_SHARED[ev.AttackMade], _unsurprised("attacker", lambda e: _DOING.get(e.uses))),
    ev.AttackRolled: first_of(_SHARED[ev.AttackRolled], _unsurprised("attacker", lambda e: _DOING.get(e.uses))),
    ev.ActionTaken: first_of(_SHARED[ev.ActionTaken], _unsurprised("combatant", lambda e: _DOING[e.uses])),
    ev.BonusActionTaken: first_of(_SHARED[ev.BonusActionTaken], _unsurprised("combatant", lambda e: "bonus")),
    ev.ReactionTaken: first_of(_SHARED[ev.ReactionTaken], _unsurprised("combatant", lambda e: "react")),
    ev.Moved: first_of(_acting("combatant", "move"), _unsurprised("combatant", lambda e: "move"), _moved),
    ev.DamageTaken: first_of(_SHARED[ev.DamageTaken], _damage),
    ExtraMovementSpent: first_of(_acting("combatant", "move"), _extra_movement),
    ev.SurpriseMarked: _marked,
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
    ev.ConcentrationCheckRequired: _save_owed,
    ev.ConcentrationChecked: _save_made,
}
RULES = Rules(checks=CHECKS)
