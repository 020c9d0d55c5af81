"""After a change to the past: which later declared-d10 events could not have happened.

combat.app.history runs these on every event after an undo or an amended ruling, with the state
just before the event; each returns what a GM would object to, or None. Nothing is rewritten:
the GM retracts, amends again, or lets the event stand (`override`).

What counts as a conflict here:
- A combatant who is now dead, unconscious, fled, caught by full surprise or incapacitated
  declaring, taking a turn, acting, rolling or taking a free attack.
- Acting against the locked declaration (as it now reads), or with nothing declared.
- Spending the turn's attack or move twice, or acting out of turn.
- A turn started out of order: someone standing whose group (or place in the group) comes
  first had not acted yet, a combatant took two turns in a round, the fight was already
  decided; a round that ended while someone standing never took a turn; declarations locked
  while someone able to act never declared; a group rolling initiative twice, or with no one
  left who acts.
- Numbers that no longer follow from the state: damage through a DR that is now different,
  a minion that is now not one (or the reverse), a wound penalty or lasting wound for HP the
  creature no longer has, an attack rolled without the -2 of a wound it now has (or with one
  it no longer has), a sneak attack without last round's Stealth, an attack on a parrying
  foe without its Disadvantage, a surprise round's Advantage or Disadvantage that no longer
  applies, a creature dropping with HP left, a timer going off early.
- A fight that ended by itself ("every foe ... is dead") while both sides now stand. A fight
  the GM ended with `end_combat` is the GM's call and never a conflict.

Readings where the text is silent: damage that disregarded DR is not questioned when the
target's DR changes; the roll itself is never re-rolled: a check says which number is now
wrong and, for a to-hit, what the same die gives.
"""

from __future__ import annotations

from collections.abc import Callable, Collection
from typing import Any

from combat.kernel import events as ev
from combat.fivee.consistency import CHECKS as SHARED
from combat.fivee.conditions import INCAPACITATING
from combat.rulesets.declared_d10.actions import (
    D10DisengageRolled,
    D10FreeAttackOffered,
    D10ItemUsed,
    D10Moved,
    D10Parrying,
    D10SpellCast,
    D10Sprinted,
    D10StealthChecked,
)
from combat.rulesets.declared_d10.attacks import ATTACK_FITS, D10AttackRolled
from combat.rulesets.declared_d10.declarations import (
    MOVE_FITS,
    D10ActionDeclared,
    D10ChangeRuled,
    D10DeclarationsClosed,
    describe,
)
from combat.rulesets.declared_d10.grapples import D10GrappleRolled
from combat.rulesets.declared_d10.initiative import D10GroupInitiativeRolled, D10GroupOrdered, groups, turn_order
from combat.rulesets.declared_d10.opposition import D10OppositionRolled
from combat.rulesets.declared_d10.rolls import penalty_for, surprise_reasons
from combat.rulesets.declared_d10.rounds import D10LeftBattlefield, decided
from combat.rulesets.declared_d10.state import is_fully_surprised, traits_of, will_act
from combat.rulesets.declared_d10.timers import D10TimerFired
from combat.rulesets.declared_d10.wounds import HALF_HP_TO_HIT, LASTING_WOUND, D10DamageDealt, D10WoundPenalty
from combat.kernel.state import Combatant, EncounterState, with_rules

__all__ = ["CHECKS"]

Check = Callable[[EncounterState, Any, dict[str, Any]], "str | None"]
GONE = ("dead", "fled")
# The reasons a surprise round writes on a roll (rolls.surprise_reasons), as they appear in it.
SURPRISE_REASONS = {
    "advantage: surprise round": "Advantage from the surprise round",
    "advantage: full surprise round": "Advantage from the full surprise round",
    "disadvantage: surprised this round": "Disadvantage for being surprised",
}


def _name(state: EncounterState, cid: str | None) -> str:
    c = state.combatants.get(cid or "")
    return c.name if c is not None else str(cid)


def _gone(state: EncounterState, cid: str) -> str | None:
    c = state.combatants.get(cid)
    if c is None:
        return f"{cid} is not in the fight any more"
    if c.status not in GONE:
        return None
    return f"{c.name} was already dead" if c.status == "dead" else f"{c.name} had already fled the battlefield"


def _standing(state: EncounterState, cid: str, doing: str) -> str | None:
    """Up, in the fight and not caught by full surprise: what declaring needs."""
    c = state.combatants.get(cid)
    if c is None:
        return f"{cid} is not in the fight any more"
    if c.status != "active":
        return f"{c.name} is {c.status} now and could not {doing}"
    if is_fully_surprised(state.rules, c):
        return f"{c.name} is caught by full surprise now and could not {doing}"
    return None


def _able(state: EncounterState, cid: str, doing: str) -> str | None:
    """Standing, and no condition that stops it acting."""
    problem = _standing(state, cid, doing)
    if problem:
        return problem
    c = state.combatants[cid]
    blocking = next((x.name for x in c.conditions if x.name in INCAPACITATING), None)
    return f"{c.name} is {blocking} now and could not {doing}" if blocking else None


def _in_turn(state: EncounterState, cid: str, doing: str) -> str | None:
    problem = _able(state, cid, doing)
    if problem:
        return problem
    if state.turn != cid:
        return f"it was {_name(state, state.turn) if state.turn else 'nobody'}'s turn, not {_name(state, cid)}'s"
    return None


def _declared(state: EncounterState, c: Combatant, fits: Collection[str], doing: str, target: str | None = None) -> str | None:
    d = state.rules.declarations.get(c.id)
    if d is None:
        return f"{c.name} declared nothing this round"
    if d.action not in fits or (target is not None and d.target is not None and d.target != target):
        return f"{c.name} declared '{describe(d, state)}' and could not {doing} instead"
    return None


def _unspent(state: EncounterState, c: Combatant, slots: Collection[str]) -> str | None:
    used = [s for s in slots if s in state.rules.spent]
    return f"{c.name} had already used its {' and '.join(used)} this round" if used else None


def _turn_action(
    doing: str, fits: Collection[str], slots: Collection[str], *, held: bool = False, targeted: bool = False
) -> Check:
    """An action of a combatant's own turn: its turn, able, as declared, with the slots unspent."""

    def check(state: EncounterState, e: Any, ctx: dict[str, Any]) -> str | None:
        problem = _in_turn(state, e.combatant, doing)
        if problem:
            return problem
        c = state.combatants[e.combatant]
        target = getattr(e, "target", None) if targeted else None
        problem = _declared(state, c, fits, doing, target) or _unspent(state, c, slots)
        if problem:
            return problem
        if held and c.has("grappled"):
            return f"{c.name} is grappled now and could not {doing}"
        return None

    return check


def _disengaged(state: EncounterState, e: D10DisengageRolled, ctx: dict[str, Any]) -> str | None:
    problem = _turn_action("disengage", ("disengage",), ("attack",))(state, e, ctx)
    if problem:
        return problem
    foe = state.combatants.get(e.foe)
    if foe is None:
        return f"{e.foe} is not in the fight any more"
    if foe.status != "active":
        return f"{foe.name} is {foe.status} now: there was no one to disengage from"
    return None


# -- declarations and initiative ---------------------------------------------------------------


def _declared_action(state: EncounterState, e: D10ActionDeclared, ctx: dict[str, Any]) -> str | None:
    return _standing(state, e.combatant, "declare") or (_gone(state, e.target) if e.target else None)


def _closed(state: EncounterState, e: D10DeclarationsClosed, ctx: dict[str, Any]) -> str | None:
    t = state.rules
    silent = [
        c.name
        for c in state.combatants.values()
        if c.status == "active" and not is_fully_surprised(t, c) and c.id not in t.declarations and c.id not in e.hesitating
    ]
    if not silent:
        return None
    return f"{', '.join(silent)} {'is' if len(silent) == 1 else 'are'} able to act now but never declared this round"


def _change_ruled(state: EncounterState, e: D10ChangeRuled, ctx: dict[str, Any]) -> str | None:
    if e.combatant not in state.rules.declarations:
        return f"{_name(state, e.combatant)} declared nothing this round: there was nothing to change"
    return None


def _initiative(state: EncounterState, e: D10GroupInitiativeRolled, ctx: dict[str, Any]) -> str | None:
    members = groups(state).get(e.group)
    if not members:
        return f"there is no group '{e.group}' now"
    if any(m.initiative is not None for m in members):
        return f"group {e.group} had already rolled its d10 this round"
    if not any(will_act(state, m) for m in members):
        return f"no one in group {e.group} can act this round now: it would not roll"
    return None


def _ordered(state: EncounterState, e: D10GroupOrdered, ctx: dict[str, Any]) -> str | None:
    acted = [_name(state, cid) for cid in e.order if cid in state.rules.acted]
    return f"{', '.join(acted)} had already acted this round and could not be reordered" if acted else None


# -- turns and rounds --------------------------------------------------------------------------


def _waiting(state: EncounterState) -> list[str]:
    """Who comes up in this round's order, can act and has not yet started a turn."""
    acted = state.rules.acted
    return [cid for cid in turn_order(state, False) if cid not in acted and will_act(state, state.combatants[cid])]


def _newly_skipped(state: EncounterState, upto: str | None) -> list[str]:
    """Who still waits although its place in the round's planned order comes before `upto` (or
    the round's end), leaving out anyone already passed over by an earlier turn: one skipped
    turn is one conflict, not one for every turn after it."""
    planned = turn_order(with_rules(state, acted=()), False)
    place = {cid: i for i, cid in enumerate(planned)}
    acted = state.rules.acted
    last_acted = max((place[cid] for cid in acted if cid in place), default=-1)
    limit = place.get(upto, len(planned)) if upto is not None else len(planned)
    return [cid for cid in _waiting(state) if last_acted < place.get(cid, limit) < limit]


def _turn_started(state: EncounterState, e: ev.TurnStarted, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    over = decided(state)
    if over is not None:
        return f"the fight was already over ({over[1]}) and {c.name} took no turn"
    t = state.rules
    if not will_act(state, c):
        return _standing(state, c.id, "take a turn") or f"{c.name} hesitated (did not declare in time) and took no turn"
    if c.id in t.acted:
        return f"{c.name} had already taken its turn this round"
    if c.id not in _waiting(state):
        return f"{c.name}'s group rolled no initiative this round"
    skipped = [_name(state, cid) for cid in _newly_skipped(state, c.id)]
    if len(skipped) == 1:
        return f"{skipped[0]} is standing now and goes before {c.name} this round: its turn was skipped"
    if skipped:
        return f"{', '.join(skipped)} are standing now and go before {c.name} this round: their turns were skipped"
    return None


def _round_ended(state: EncounterState, e: ev.RoundEnded, ctx: dict[str, Any]) -> str | None:
    skipped = [_name(state, cid) for cid in _newly_skipped(state, None)]
    if not skipped:
        return None
    return f"{', '.join(skipped)} {'is' if len(skipped) == 1 else 'are'} standing now but never took a turn this round"


def _left(state: EncounterState, e: D10LeftBattlefield, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    if c.id not in state.rules.leaving:
        return f"{c.name} never fled toward the edge of the battlefield this turn"
    return f"{c.name} is {c.status} now and could not flee the battlefield" if c.status != "active" else None


def _combat_ended(state: EncounterState, e: ev.CombatEnded, ctx: dict[str, Any]) -> str | None:
    if not e.automatic:
        return None  # the GM ended the fight by ruling: that is not for the rules to question
    now = decided(state)
    if now is None:
        sides = sorted({c.side for c in state.combatants.values() if c.status == "active"})
        return f"the fight was not over: {' and '.join(sides)} both have someone standing now"
    if now[0] != e.winner:
        return f"the fight ended otherwise now: {now[1]}"
    return None


# -- attacks and damage ------------------------------------------------------------------------


def _attack_rolled(state: EncounterState, e: D10AttackRolled, ctx: dict[str, Any]) -> str | None:
    target = state.combatants.get(e.target)
    if e.free:
        offers = state.rules.free_attacks
        if not any((o.attacker, o.target) == (e.attacker, e.target) for o in offers):
            return f"{_name(state, e.attacker)} had no free attack at {_name(state, e.target)} open"
        problem = _able(state, e.attacker, "take a free attack")
    else:
        problem = _in_turn(state, e.attacker, "attack")
        if not problem:
            attacker = state.combatants[e.attacker]
            doing = f"attack {_name(state, e.target)}"
            problem = _declared(state, attacker, ATTACK_FITS, doing, e.target) or _unspent(state, attacker, ("attack",))
    problem = problem or _gone(state, e.target)
    if problem or target is None:
        return problem
    return _attack_numbers(state, e, state.combatants[e.attacker], target)


def _attack_numbers(state: EncounterState, e: D10AttackRolled, attacker: Combatant, target: Combatant) -> str | None:
    """What the fight itself adds to a to-hit roll: the wound modifier, Parry/Dodge, surprise, sneak attack."""
    t = state.rules
    penalty = penalty_for(state, attacker, to_hit=True)
    if penalty != e.to_hit_modifier:
        total = e.total - e.to_hit_modifier + penalty
        hit = e.natural == 20 or (e.natural != 1 and total >= e.target_number)
        return (
            f"{attacker.name}'s wound modifier to hit is {penalty:+d} now, not {e.to_hit_modifier:+d}: "
            f"the same die gives {total} vs {e.against} {e.target_number}, a {'hit' if hit else 'miss'}"
        )
    if "advantage: sneak attack" in e.reasons and t.stealthy.get(attacker.id) != state.round - 1:
        return f"{attacker.name} did not succeed at Stealth in the previous round now: no sneak attack"
    parry = f"disadvantage: {target.name} parries and dodges"
    parrying = target.id in t.parrying and target.status == "active"
    if parrying != (parry in e.reasons):
        return (
            f"{target.name} was parrying and dodging: the attack had Disadvantage"
            if parrying
            else f"{target.name} was not parrying and dodging now: no Disadvantage for it"
        )
    return _surprise_reasons(state, attacker, e.reasons)


def _surprise_reasons(state: EncounterState, c: Combatant, reasons: tuple[str, ...]) -> str | None:
    adv, dis = surprise_reasons(state.rules, c)
    wanted = {f"advantage: {r}" for r in adv} | {f"disadvantage: {r}" for r in dis}
    given = {r for r in reasons if r in SURPRISE_REASONS}
    missing, extra = wanted - given, given - wanted
    if missing:
        return f"{c.name} rolls with {SURPRISE_REASONS[next(iter(missing))]} now; the roll did not"
    if extra:
        return f"{c.name} has no {SURPRISE_REASONS[next(iter(extra))]} now; the roll had it"
    return None


def _damage_dealt(state: EncounterState, e: D10DamageDealt, ctx: dict[str, Any]) -> str | None:
    problem = _gone(state, e.target)
    if problem:
        return problem
    target = state.combatants[e.target]
    traits = traits_of(state, e.target)
    base = e.rolled * 2 if e.critical_doubled else e.rolled
    base = base // 2 if e.halved_by_cover else base
    if e.minion and not traits.minion:
        return f"{target.name} is not a minion now: it would take {max(0, base - traits.dr)}, not all its HP"
    if not e.minion and traits.minion and e.amount > 0:
        return f"{target.name} is a minion now and would fall to this"
    if not e.minion and not e.ignores_dr and e.dr != traits.dr:
        return f"{target.name}'s DR is {traits.dr} now: {base} would do {max(0, base - traits.dr)}, not {e.amount}"
    return None


def _wound_penalty(state: EncounterState, e: D10WoundPenalty, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    if c.status != "active":
        return f"{c.name} is {c.status} now: no wound penalty to give"
    wanted = HALF_HP_TO_HIT if c.hp * 2 <= c.max_hp else 0
    if wanted == e.to_hit:
        return None
    where = "at half or below: -2 to hit" if wanted else "above half: no wound penalty"
    return f"{c.name} has {c.hp} of {c.max_hp} HP now, {where}"


def _condition_applied(state: EncounterState, e: ev.ConditionApplied, ctx: dict[str, Any]) -> str | None:
    if e.condition.name != LASTING_WOUND.name:
        return None
    c = state.combatants.get(e.target)
    if c is None:
        return f"{e.target} is not in the fight any more"
    return f"{c.name} has {c.hp} HP now, not 1: no lasting wound" if c.hp != 1 else None


# -- grapples, opposed rolls, timers -----------------------------------------------------------


def _grapple_rolled(state: EncounterState, e: D10GrappleRolled, ctx: dict[str, Any]) -> str | None:
    doing = "break free" if e.breaking else f"grapple {_name(state, e.target)}"
    problem = _in_turn(state, e.attacker, doing)
    if problem:
        return problem
    c = state.combatants[e.attacker]
    if e.breaking:
        if not c.has("grappled"):
            return f"{c.name} was not grappled any more"
        since = state.rules.grapples.get(c.id)
        if since is not None and since.round >= state.round:
            return f"{c.name} was grappled this round and could not try to break free until the next"
        target = None
    else:
        target = e.target
    problem = _declared(state, c, ("grapple",), doing, target) or _unspent(state, c, ("attack",))
    if problem or e.breaking:
        return problem
    other = state.combatants.get(e.target)
    if other is None:
        return f"{e.target} is not in the fight any more"
    if other.status != "active":
        return f"{other.name} is {other.status} now and could not be grappled"
    if any(x.name == "grappled" and x.source == c.id for x in other.conditions):
        return f"{c.name} already held {other.name}"
    return None


def _opposed(state: EncounterState, e: D10OppositionRolled, ctx: dict[str, Any]) -> str | None:
    for who in (e.a, e.b):
        c = state.combatants.get(who)
        if c is not None and c.status == "dead":
            return f"{c.name} was already dead and could not roll for {e.what}"
    return None


def _free_attack_offered(state: EncounterState, e: D10FreeAttackOffered, ctx: dict[str, Any]) -> str | None:
    return _able(state, e.attacker, f"take a free attack at {_name(state, e.target)}")


def _timer_fired(state: EncounterState, e: D10TimerFired, ctx: dict[str, Any]) -> str | None:
    timer = next((x for x in state.rules.timers if x.id == e.timer), None)
    if timer is None:
        return f"no timer {e.timer} was running ({e.what})"
    if timer.fired:
        return f"{e.what}: the timer had already gone off"
    if timer.rounds_left:
        return f"{e.what}: the timer had {timer.rounds_left} round{'s' if timer.rounds_left != 1 else ''} left"
    return None


CHECKS: dict[type, Check] = {
    # Shared events this ruleset emits with the shared meaning.
    ev.Healed: SHARED[ev.Healed],
    ev.CombatantDowned: SHARED[ev.CombatantDowned],
    # Shared events this ruleset orders its own way.
    ev.TurnStarted: _turn_started,
    ev.RoundEnded: _round_ended,
    ev.CombatEnded: _combat_ended,
    ev.ConditionApplied: _condition_applied,
    # The ruleset's own events.
    D10ActionDeclared: _declared_action,
    D10DeclarationsClosed: _closed,
    D10ChangeRuled: _change_ruled,
    D10GroupInitiativeRolled: _initiative,
    D10GroupOrdered: _ordered,
    D10Moved: _turn_action("move", MOVE_FITS, ("move",), held=True),
    D10Parrying: _turn_action("parry and dodge", ("parry_dodge",), ("attack", "move")),
    D10DisengageRolled: _disengaged,
    D10ItemUsed: _turn_action("use an item", ("use_item",), ("attack",)),
    D10SpellCast: _turn_action("cast a spell", ("cast",), ("attack",), targeted=True),
    D10Sprinted: _turn_action("sprint or flee", ("sprint_flee",), ("attack", "move"), held=True),
    D10StealthChecked: _turn_action("sneak", MOVE_FITS, ("move",)),
    D10FreeAttackOffered: _free_attack_offered,
    D10AttackRolled: _attack_rolled,
    D10DamageDealt: _damage_dealt,
    D10WoundPenalty: _wound_penalty,
    D10GrappleRolled: _grapple_rolled,
    D10OppositionRolled: _opposed,
    D10LeftBattlefield: _left,
    D10TimerFired: _timer_fired,
}
