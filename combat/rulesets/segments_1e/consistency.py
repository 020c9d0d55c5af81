"""After a change to the past: which later segments-1e events could no longer have happened.

combat.app.history runs these on every event after an undo or an amended ruling, with the state
just before the event; each says what a first-edition GM would object to, or None. Nothing
is rewritten: the GM retracts, amends further, or lets the event stand by ruling.

What counts as a conflict:
- a deed (declaration, attack routine, strike, move, spell, minor or major action, delay,
  morale) by a creature that is now dead, unconscious or at 0 hit points without having
  fallen - except the blow of a creature felled in a turn simultaneous with its own;
- a major action other than the one declared (or a routine other than the declared one);
- what the round allows spent twice: the one major action, a multi-attacker's routines,
  the one segment of a surprise segment, a charge's move, one free attack per opponent per
  round and per segment, free attacks by the surprised or without an opening;
- a strike at a creature that is already down (the strike is wasted), a creature that would
  not fall now, damage or healing for the dead, a spell's damage missing a target who stands
  now, a move onto a square a standing foe holds;
- the timeline: a turn taken by a creature with no turn in that step now (or in another
  segment), a turn before which a standing creature in an earlier slot was skipped, a step or surprise segment left
  while someone still had a turn in it, group initiative that no longer places everyone
  standing (or places the fallen), a side rolling that has nobody standing, a round or turn
  after the fight was decided, and an automatic end of the fight while a foe still stands;
- spells: casting a spell no longer declared, or one already begun, a spell going off,
  delayed, spoiled or forgone when it was already lost; a spell going off on the timeline
  when it is not due now, a turn of a later segment taken while a spell was due before it,
  or a step or surprise segment left with a spell still to go off in it (segments.spell_due,
  the flow's own question);
- a multi-attacker closing in when it could not now (in melee already, after its first
  routine, twice, or to a square beside no foe: grid.closing_in_problem, the move's own guard).
Shared events mean here what they mean everywhere, so DamageTaken, Healed and
CombatantDowned use combat.fivee.consistency's checks. There is no resistance or damage reduction
in this ruleset, so damage is never re-judged by amount.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import wraps
from typing import Any

from combat.fivee import consistency as shared
from combat.kernel import events as shared_events
from combat.fivee.conditions import INCAPACITATING, is_incapacitated
from combat.rulesets.segments_1e import events as ev
from combat.rulesets.segments_1e import phases as P
from combat.rulesets.segments_1e.attacks import ABANDONED
from combat.rulesets.segments_1e.initiative import groups, placements
from combat.rulesets.segments_1e.ledger import Creature, Ledger, Slot
from combat.rulesets.segments_1e.round import decided
from combat.rulesets.segments_1e.grid import closing_in_problem
from combat.rulesets.segments_1e.segments import action_of, carries_casting, closes_in, slot_for, spell_due, step_key, turns
from combat.rulesets.segments_1e.turns import ALLOWED_MAJOR, segment_spent
from combat.kernel.state import Combatant, EncounterState

__all__ = ["CHECKS"]

Check = Callable[[EncounterState, Any, dict[str, Any]], "str | None"]

STEP_NAMES = {
    P.FAST: "the fast actions",
    P.FIRST_ROUTINES: "the first multi-attack routines",
    P.HIGH: "HIGH",
    P.LOW: "LOW",
    P.REST_ROUTINES: "the remaining multi-attack routines",
    P.SPELLS: "the spells step",
}
# Damage a spell that went off still owes: {"caster", "spell", "targets", "struck"} (see _spell_damage).
_SPELL = "segments_1e_spell_damage"
# A caster who just gave up its declared spell for an immediate attack (that spent the major action).
_ABANDONED = "segments_1e_abandoned_for"


def _step(key: str) -> str:
    return f"surprise segment {key.split('-')[1]}" if key.startswith("surprise-") else STEP_NAMES.get(key, key)


def _safe(check: Check) -> Check:
    """A check reads a state the past has changed under it; it never raises. A creature it
    cannot find was taken out of the fight (its arrival retracted); anything else it cannot
    read it leaves to history, which reports an event that cannot take effect by itself."""

    @wraps(check)
    def guarded(state: EncounterState, e: Any, ctx: dict[str, Any]) -> str | None:
        try:
            return check(state, e, ctx)
        except KeyError as missing:
            who = missing.args[0] if missing.args else None
            return f"{who} is not in the fight any more" if isinstance(who, str) and who not in state.combatants else None
        except Exception:  # noqa: BLE001 - a check must never stop a replay
            return None

    return guarded


# -- who could still act ---------------------------------------------------------------------


def _down_as(c: Combatant) -> str:
    if c.status != "active":
        return c.status
    return next((cond.name for cond in c.conditions if cond.name in INCAPACITATING), "incapacitated")


def _able(state: EncounterState, cid: str, doing: str, own_turn: bool = True) -> str | None:
    """Could `cid` still do this? In its own turn a creature felled by a simultaneous blow
    ("Simultaneous (tied) actions both take effect") still acts."""
    c = state.combatants.get(cid)
    if c is None:
        return f"{cid} is not in the fight any more"
    if own_turn and state.turn != cid:
        return f"it was {_whose(state)} turn, not {c.name}'s: {c.name} could not {doing}"
    if is_incapacitated(c):
        ledger = state.rules
        rec = ledger.creatures.get(cid)
        if own_turn and rec is not None and rec.downed_in is not None and rec.downed_in == ledger.slot:
            return None
        return f"{c.name} is {_down_as(c)} now and could not {doing}"
    if c.hp <= 0:
        return f"{c.name} has no hit points left now and would have fallen; it could not {doing}"
    return None


def _whose(state: EncounterState) -> str:
    c = state.combatants.get(state.turn or "")
    return f"{c.name}'s" if c is not None else "nobody's"


def _fight_over(state: EncounterState) -> str | None:
    if state.phase == P.ENDED:
        return "the fight had already ended"
    if decided(state):
        winner = next((c.side for c in state.combatants.values() if c.status == "active"), None)
        if winner is None:
            return "no one is standing now: the fight was over"
        return f"every foe of the {winner} side is down now: the fight was over"
    return None


def _major_left(c: Combatant, rec: Creature) -> str | None:
    return f"{c.name} had already had its major action this round" if rec.major_used else None


def _as_declared(c: Combatant, rec: Creature, trigger: str) -> str | None:
    """'A caster may decide not to cast but cannot switch actions': a major action must be
    the one declared (the declaration may have been amended since)."""
    declared = action_of(rec)
    if trigger in ALLOWED_MAJOR.get(declared, ALLOWED_MAJOR[None]):
        return None
    doing = trigger.replace("_", " ")
    if declared is None:
        return f"{c.name} declared nothing now, and a {doing} must be declared"
    return f"{c.name} declared {declared} now and could not switch to a {doing}"


def _rec(state: EncounterState, cid: str) -> tuple[Combatant, Creature, Ledger]:
    ledger = state.rules
    return state.combatants[cid], ledger.creatures[cid], ledger


# -- declarations and group initiative ---------------------------------------------------------


def _declared(state: EncounterState, e: ev.RoundActionDeclared, ctx: dict[str, Any]) -> str | None:
    problem = _fight_over(state) or _able(state, e.combatant, "declare an action", own_turn=False)
    if problem:
        return problem
    c, rec, _ = _rec(state, e.combatant)
    if carries_casting(rec, state.round):
        return f"{c.name} is still casting {rec.casting.spell} and could declare nothing this round"  # type: ignore[union-attr]
    return None


def _group_rolled(state: EncounterState, e: ev.GroupD6Rolled, ctx: dict[str, Any]) -> str | None:
    if e.side not in groups(state):
        return f"nobody of the {e.side} side is standing now to roll group initiative"
    if e.side in state.rules.rolls:
        return f"the {e.side} side had already rolled group initiative this round"
    return None


def _groups_set(state: EncounterState, e: ev.HighLowSet, ctx: dict[str, Any]) -> str | None:
    rolled = state.rules.rolls
    for side in groups(state):
        if side not in rolled:
            return f"the {side} side has someone standing now but rolled no group d6"
    for side in e.rolls:
        if side not in groups(state):
            return f"nobody of the {side} side is standing now, yet it was placed by group initiative"
    now = placements(state)
    if (now.rolls, now.high_segment, now.low_segment) != (e.rolls, e.high_segment, e.low_segment):
        dice = ", ".join(f"{side} {roll}" for side, roll in now.rolls.items())
        return f"the group dice stand at {dice} now: HIGH acts in segment {now.high_segment}, LOW in {now.low_segment}"
    for cid in dict.fromkeys([*now.groups, *e.groups]):
        if cid not in state.combatants:
            return f"{cid} is not in the fight any more, yet it was placed in {e.groups[cid].upper()}"
        name = state.combatants[cid].name
        was, should = e.groups.get(cid), now.groups.get(cid)
        if was == should:
            continue
        if was is None:
            return f"{name} is standing now but was left out of group initiative"
        if should is None:
            return f"{name} is {_down_as(state.combatants[cid])} now but was placed in {was.upper()}"
        return f"{name} would act in {should.upper()} now, not {was.upper()}"
    return None


# -- the timeline -------------------------------------------------------------------------------


def _order(slot: Slot) -> tuple[int, int, int, int]:
    return (slot.segment, slot.rank, slot.after, slot.speed)


def _no_turn(state: EncounterState, cid: str, key: str) -> str:
    c = state.combatants[cid]
    rec = state.rules.creatures[cid]
    if key in rec.done:
        return f"{c.name} had already taken its turn in {_step(key)}"
    if is_incapacitated(c):
        return f"{c.name} is {_down_as(c)} now and could not take a turn"
    if key == P.SPELLS:
        return f"{c.name} has no spell going off now"
    return f"{c.name} has no turn in {_step(key)} now"


def _turn_started(state: EncounterState, e: ev.SegmentTurnStarted, ctx: dict[str, Any]) -> str | None:
    if e.combatant not in state.combatants:
        return f"{e.combatant} is not in the fight any more"
    problem = _fight_over(state)
    if problem:
        return problem
    upcoming = turns(state, e.slot.key)
    mine = next((slot for cid, slot in upcoming if cid == e.combatant), None)
    if mine is None:
        return _no_turn(state, e.combatant, e.slot.key)
    if state.combatants[e.combatant].hp <= 0 and state.combatants[e.combatant].status == "active":
        return _able(state, e.combatant, "take a turn", own_turn=False)
    problem = _out_of_time(state, e)
    if problem:
        return problem
    first, slot = upcoming[0]
    if _order(slot) < _order(mine):
        skipped, acting = state.combatants[first].name, state.combatants[e.combatant].name
        step = _step(e.slot.key)
        return f"{skipped} is standing now and acts in {step} before {acting} (segment {slot.segment}): its turn was skipped"
    if mine.segment != e.slot.segment:
        return f"{state.combatants[e.combatant].name}'s turn in {_step(e.slot.key)} falls in segment {mine.segment} now, not {e.slot.segment}"
    return None


def _out_of_time(state: EncounterState, e: ev.SegmentTurnStarted) -> str | None:
    """A spell goes off just before the first turn of a later segment (segments.spell_due,
    which the flow asks too): not before, and no turn of a later segment before it."""
    due = spell_due(state)
    if e.slot.key == P.SPELLS and state.phase != P.SPELLS and (due is None or due[0] != e.combatant):
        c, rec, _ = _rec(state, e.combatant)
        spell = rec.casting.spell if rec.casting else "spell"
        return f"{c.name}'s {spell} does not go off before the next turn now: it goes off after the turns of segment {e.slot.segment}"
    if due is not None and due[0] != e.combatant:
        caster, _, _ = _rec(state, due[0])
        return f"{caster.name}'s spell goes off in segment {due[1].segment} now, before {state.combatants[e.combatant].name}'s turn"
    return None


def _skipped(state: EncounterState, key: str) -> str | None:
    left = turns(state, key)
    if not left:
        due = spell_due(state)
        if due is not None:
            return f"{state.combatants[due[0]].name}'s spell was still to go off in {_step(key)} when it was over"
        return None
    cid, slot = left[0]
    return f"{state.combatants[cid].name} still had a turn in {_step(key)} (segment {slot.segment}) when it was over"


def _phase_changed(state: EncounterState, e: shared_events.PhaseChanged, ctx: dict[str, Any]) -> str | None:
    """Leaving a step of the round (not the fight) while someone still had a turn in it."""
    if e.phase == P.ENDED or state.turn is not None:
        return None
    if e.previous in P.ACTION_PHASES or e.previous == P.SURPRISE_SEGMENTS:
        return _skipped(state, step_key(state))
    return None


def _segment_reached(state: EncounterState, e: ev.SegmentReached, ctx: dict[str, Any]) -> str | None:
    """Moving on to the next surprise segment while someone could still act in this one."""
    if state.phase != P.SURPRISE_SEGMENTS or state.turn is not None:
        return None
    return _skipped(state, step_key(state))


def _round_started(state: EncounterState, e: shared_events.RoundStarted, ctx: dict[str, Any]) -> str | None:
    return _fight_over(state)


def _combat_ended(state: EncounterState, e: shared_events.CombatEnded, ctx: dict[str, Any]) -> str | None:
    if not e.automatic:
        return None  # the GM ended it (morale, a parley...): nothing to re-judge
    standing = [c for c in state.combatants.values() if c.status == "active" and c.side != e.winner]
    if standing:
        return f"{standing[0].name} is standing now: the {standing[0].side} side was not defeated"
    return None


# -- actions -----------------------------------------------------------------------------------


def _routine_begun(state: EncounterState, e: ev.AttackRoutineBegun, ctx: dict[str, Any]) -> str | None:
    own_turn = e.mode == "routine"
    problem = _able(state, e.attacker, "attack", own_turn=own_turn)
    if problem:
        return problem
    target = state.combatants.get(e.target)
    if target is None:
        return f"{e.target} is not in the fight any more"
    if target.status == "dead":
        return f"{target.name} was already dead"
    c, rec, ledger = _rec(state, e.attacker)
    if e.mode == "free":
        if c.has("surprised"):
            return f"{c.name} was surprised: creatures with the surprised condition cannot make free attacks"
        if (e.attacker, e.target) not in ledger.openings:
            return f"{target.name} had drawn no free attack from {c.name}"
        if e.target in rec.attacked:
            return f"{target.name} had already been attacked by {c.name} this round (one free attack per opponent per round)"
        if e.segment in rec.free_attack_segments:
            return f"{c.name} had already made a free attack in segment {e.segment}"
    if e.mode == "immediate":
        gave_up_spell = ctx.pop(_ABANDONED, None) == e.attacker
        if (rec.major_used and not gave_up_spell) or (rec.casting is not None and rec.casting.started):
            return f"{c.name} had no major action left for an immediate attack"
        return None
    if e.uses == "major" and e.mode == "routine":
        return _major_left(c, rec) or _as_declared(c, rec, "routine_attack") or _declared_routine(c, rec, e.routine)
    if e.uses == "extra_routine" and rec.routines_used >= rec.stats.routines_per_round:
        return f"{c.name} had already used all {rec.stats.routines_per_round} of its routines this round"
    if e.uses == "surprise_segment":
        return segment_spent(c, rec, ledger.segment)
    return None


def _declared_routine(c: Combatant, rec: Creature, name: str) -> str | None:
    promised = rec.declared.routine if rec.declared else None
    if promised and promised.lower() != name.lower():
        return f"{c.name} declared {action_of(rec)} with {promised} now and could not switch to {name}"
    kind = {"melee": "melee", "charge": "melee", "missile": "missile"}.get(action_of(rec) or "")
    routine = next((r for r in rec.stats.routines if r.name.lower() == name.lower()), None)
    if kind and routine is not None and routine.kind != kind:
        return f"{c.name} declared {action_of(rec)} now and could not switch to {name}"
    return None


def _strike(state: EncounterState, e: ev.TableAttackRolled, ctx: dict[str, Any]) -> str | None:
    """'Strikes left when the target falls are wasted.'"""
    victim = state.combatants.get(e.target)
    if victim is None:
        return f"{e.target} is not in the fight any more"
    if victim.status != "active":
        return f"{victim.name} was already {victim.status}: the {e.strike} would be wasted"
    if victim.hp <= 0:
        return f"{victim.name} has no hit points left now and would have fallen before the {e.strike}"
    return None


def _free_attack_opened(state: EncounterState, e: ev.FreeAttackOpened, ctx: dict[str, Any]) -> str | None:
    for cid in (e.attacker, e.target):
        if cid not in state.combatants:
            return f"{cid} is not in the fight any more"
    target = state.combatants[e.target]
    return f"{target.name} was already dead and drew no free attack" if target.status == "dead" else None


def _major_action(state: EncounterState, e: ev.MajorActionTaken, ctx: dict[str, Any]) -> str | None:
    problem = _able(state, e.combatant, "act")
    if problem:
        return problem
    c, rec, ledger = _rec(state, e.combatant)
    if e.uses == "surprise_segment":
        return segment_spent(c, rec, ledger.segment)
    return _major_left(c, rec) or _as_declared(c, rec, "major_action")


def _minor_action(state: EncounterState, e: ev.MinorActionTaken, ctx: dict[str, Any]) -> str | None:
    problem = _able(state, e.combatant, "act")
    if problem:
        return problem
    c, rec, ledger = _rec(state, e.combatant)
    if e.uses == "surprise_segment":
        return segment_spent(c, rec, ledger.segment)
    return None


def _immediate_action(state: EncounterState, e: ev.ImmediateActionTaken, ctx: dict[str, Any]) -> str | None:
    return _able(state, e.combatant, "act", own_turn=False)


def _moved(state: EncounterState, e: ev.CreatureMoved, ctx: dict[str, Any]) -> str | None:
    problem = _able(state, e.combatant, "move")
    if problem:
        return problem
    c, rec, ledger = _rec(state, e.combatant)
    if e.uses == "major":
        problem = _major_left(c, rec) or _as_declared(c, rec, "move_to")
        if problem:
            return problem
    if e.uses == "surprise_segment":
        problem = segment_spent(c, rec, ledger.segment)
        if problem:
            return problem
    if e.uses == "charge" and rec.charged:
        return f"{c.name} had already made the move of its charge"
    if e.uses == "close_in":
        if not closes_in(state, e.combatant):
            return f"{c.name} has no turn with its group to close in now"
        problem = closing_in_problem(state, e.combatant, (e.x, e.y))
        if problem:
            return problem
    for cid, other in ledger.creatures.items():
        foe = state.combatants[cid]
        if (other.x, other.y) == (e.x, e.y) and foe.side != c.side and foe.status != "dead":
            return f"{foe.name} stands on ({e.x}, {e.y}) now"
    return None


def _delay(state: EncounterState, e: ev.DelayAnnounced, ctx: dict[str, Any]) -> str | None:
    problem = _able(state, e.combatant, "delay")
    if problem:
        return problem
    c, rec, _ = _rec(state, e.combatant)
    if c.has("delayed"):
        return f"{c.name} was already delayed this round"
    return _major_left(c, rec)


def _morale(state: EncounterState, e: ev.MoraleChecked, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    return None if c.status == "active" else f"{c.name} is {c.status} now and checks no morale"


def _kept(state: EncounterState, e: ev.SimultaneousActionKept, ctx: dict[str, Any]) -> str | None:
    c, rec, ledger = _rec(state, e.combatant)
    if e.slot.key in rec.done or slot_for(state, ledger, e.combatant, e.slot.key) != e.slot:
        return f"{c.name} has no turn in segment {e.slot.segment} of {_step(e.slot.key)} now: no blow of its own to land as it falls"
    return None


# -- spells ----------------------------------------------------------------------------------------


def _casting_started(state: EncounterState, e: ev.CastingStarted, ctx: dict[str, Any]) -> str | None:
    problem = _able(state, e.caster, "cast")
    if problem:
        return problem
    c, rec, ledger = _rec(state, e.caster)
    if e.uses == "surprise_segment":  # undeclared, one segment
        if rec.casting is not None:
            return f"{c.name} was already casting {rec.casting.spell}"
        return segment_spent(c, rec, ledger.segment)
    if rec.casting is None:
        return f"{c.name} has no spell declared now to begin casting"
    if rec.casting.started:
        return f"{c.name} was already casting {rec.casting.spell}"
    if rec.casting.spell != e.spell:
        return f"{c.name} declared {rec.casting.spell} now, not {e.spell}"
    return _major_left(c, rec)


def _in_casting(doing: str) -> Check:
    def check(state: EncounterState, e: Any, ctx: dict[str, Any]) -> str | None:
        c, rec, _ = _rec(state, e.caster)
        if rec.casting is None or rec.casting.spell != e.spell:
            return f"{c.name} had no {e.spell} in casting any more to {doing}"
        return None

    return check


def _spoiled(state: EncounterState, e: ev.SpellSpoiled, ctx: dict[str, Any]) -> str | None:
    problem = _in_casting("lose")(state, e, ctx)
    if problem is None and e.reason == ABANDONED:
        ctx[_ABANDONED] = e.caster
    return problem


def _casting_delayed(state: EncounterState, e: ev.CastingDelayed, ctx: dict[str, Any]) -> str | None:
    c, rec, _ = _rec(state, e.caster)
    if rec.casting is None or not rec.casting.started:
        return f"{c.name} had no spell in casting any more to put off"
    return None


def _went_off(state: EncounterState, e: ev.SpellWentOff, ctx: dict[str, Any]) -> str | None:
    problem = _in_casting("go off")(state, e, ctx)
    if problem:
        return problem
    # Whoever the spell was cast at and still lives takes its damage (if it deals any): the
    # caster's turn ends right after, and that is where a target left out shows.
    living = [t for t in e.targets if t in state.combatants and state.combatants[t].status != "dead"]
    ctx[_SPELL] = {"caster": e.caster, "spell": e.spell, "targets": living, "struck": []}
    return None


def _damage_taken(state: EncounterState, e: shared_events.DamageTaken, ctx: dict[str, Any]) -> str | None:
    owed = ctx.get(_SPELL)
    if owed is not None and e.source == owed["caster"]:
        owed["struck"].append(e.target)
    return shared.CHECKS[shared_events.DamageTaken](state, e, ctx)


def _turn_ended(state: EncounterState, e: shared_events.TurnEnded, ctx: dict[str, Any]) -> str | None:
    if state.turn != e.combatant:
        name = state.combatants[e.combatant].name if e.combatant in state.combatants else e.combatant
        return f"{name}'s turn was not running (it was {_whose(state)} turn), so it could not end"
    return _spell_damage(state, e, ctx)


def _spell_damage(state: EncounterState, e: shared_events.TurnEnded, ctx: dict[str, Any]) -> str | None:
    owed = ctx.get(_SPELL)
    if owed is None or owed["caster"] != e.combatant:
        return None
    ctx.pop(_SPELL)
    if not owed["struck"]:
        return None  # a spell without damage
    missed = [t for t in owed["targets"] if t not in owed["struck"]]
    if missed:
        return f"{state.combatants[missed[0]].name} is standing now and was a target of {owed['spell']}, but took none of its damage"
    return None


_UNGUARDED: dict[type, Check] = {
    shared_events.DamageTaken: _damage_taken,
    shared_events.Healed: shared.CHECKS[shared_events.Healed],
    shared_events.CombatantDowned: shared.CHECKS[shared_events.CombatantDowned],
    shared_events.PhaseChanged: _phase_changed,
    shared_events.RoundStarted: _round_started,
    shared_events.TurnEnded: _turn_ended,
    shared_events.CombatEnded: _combat_ended,
    ev.RoundActionDeclared: _declared,
    ev.GroupD6Rolled: _group_rolled,
    ev.HighLowSet: _groups_set,
    ev.SegmentReached: _segment_reached,
    ev.SegmentTurnStarted: _turn_started,
    ev.AttackRoutineBegun: _routine_begun,
    ev.TableAttackRolled: _strike,
    ev.FreeAttackOpened: _free_attack_opened,
    ev.MajorActionTaken: _major_action,
    ev.MinorActionTaken: _minor_action,
    ev.ImmediateActionTaken: _immediate_action,
    ev.CreatureMoved: _moved,
    ev.DelayAnnounced: _delay,
    ev.MoraleChecked: _morale,
    ev.SimultaneousActionKept: _kept,
    ev.CastingStarted: _casting_started,
    ev.CastingDelayed: _casting_delayed,
    ev.SpellWentOff: _went_off,
    ev.SpellSpoiled: _spoiled,
    ev.SpellForgone: _in_casting("forgo"),
}

CHECKS: dict[type, Check] = {type_: _safe(check) for type_, check in _UNGUARDED.items()}
