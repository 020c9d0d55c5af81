"""Attacks: d20 against descending AC by the attacker's table, attack routines, free and
immediate attacks, damage multipliers.

- "the attacker rolls a d20 vs. the opponent's Armor Class"; "a character that needs a '20'
  to hit an AC -1, but has a +2 modifier to their attack - they will hit on a roll of 18,
  19, or 20": the natural roll plus every modifier, against the table's number.
- "a natural 1 rolled on the d20 always misses and a natural 20 rolled always hits."
- "a creature with an AC 5 that receives a +2 bonus to AC will become AC 3."
- "All damage multipliers ... will include all modifiers to damage ... damage multipliers do
  not stack (take the highest multiplier)."
- "An attack routine is an attack or set of attacks that happen simultaneous to each other
  (in the same segment). These attacks must target a single creature ... Normally, a creature
  can use only one attack routine per round." Strikes left when the target falls are wasted.
- Free attack: "Creatures drawing a free attack can only be subject to one free attack (or
  attack routine) per opponent per round. Only one free attack may be taken per segment by
  any creature ... a free attack taken will break concentration ... Creatures with the
  surprised condition cannot make free attacks."
- Immediate attack: "must have an available major action ... (consequences for ending the
  declared major action are assessed normally for that action; e.g. loss of spell, etc.)"

Chosen: a charge adds +2 to hit (setting `charge_bonus`); a free or immediate attack uses
the first routine of the stat block as its primary routine.
"""

from __future__ import annotations

from typing import Any

import msgspec

from combat.common.hitpoints import take_damage
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant, EncounterState, with_rules
from combat.rulesets.segments_1e import phases as P
from combat.rulesets.segments_1e.acting import able, record
from combat.rulesets.segments_1e.attack_tables import attack_row, needed
from combat.rulesets.segments_1e.commands import FreeAttack, ImmediateAttack, OpenFreeAttack, RoutineAttack, Swing
from combat.rulesets.segments_1e.concentration import interrupt
from combat.rulesets.segments_1e.damage import after_damage
from combat.rulesets.segments_1e.events import AttackRoutineBegun, FreeAttackOpened, SpellSpoiled, TableAttackRolled
from combat.rulesets.segments_1e.grid import require_reach
from combat.rulesets.segments_1e.ledger import Creature, Routine
from combat.rulesets.segments_1e.segments import action_of, declared_routine
from combat.rulesets.segments_1e.turns import (
    action_segment,
    major_refusal,
    require_major,
    require_segment,
    require_turn,
    segment_spent,
    spent,
)

__all__ = [
    "ABANDONED",
    "GAVE_UP_SPELL",
    "multiplier",
    "resolve_routine",
    "already_dead",
    "switched_routine",
    "free_attack_refusal",
    "no_major_for_immediate",
    "routines_spent",
    "RULES",
]

# Why a declared spell is lost when its caster makes an immediate attack instead.
ABANDONED = "abandoned for an immediate attack"
# The re-check's note (in its context) of a caster who just gave up its spell for an
# immediate attack: that spent the major action the attack itself needs (see spells.py).
GAVE_UP_SPELL = "segments_1e_abandoned_for"


_ROUTINE_KIND = {"melee": "melee", "charge": "melee", "missile": "missile"}


def multiplier(multipliers: tuple[int, ...]) -> int:
    """'damage multipliers do not stack (take the highest multiplier)'."""
    if any(m < 1 for m in multipliers):
        raise RuleError("attack/multiplier", "a damage multiplier below 1", allowed="whole multipliers such as 2 or 3")
    return max(multipliers, default=1)


def already_dead(target: Combatant) -> str | None:
    return f"{target.name} is already dead" if target.status == "dead" else None


def _target(tx: Tx, attacker: Combatant, target_id: str) -> Combatant:
    target = tx.combatant(target_id)
    problem = already_dead(target)
    if problem:
        raise RuleError("target/dead", problem, allowed="a living target")
    if target.id == attacker.id:
        raise RuleError("target/self", f"{attacker.name} cannot attack itself")
    return target


def switched_routine(c: Combatant, rec: Creature, chosen: Routine) -> RuleError | None:
    """'A caster may decide not to cast but cannot switch actions': the routine must be of
    the kind declared (melee, missile), and the one named in the declaration if it named one."""
    declared = action_of(rec)
    kind = _ROUTINE_KIND.get(declared or "")
    promised = rec.declared.routine if rec.declared else None
    if (kind and chosen.kind != kind) or (promised and promised.lower() != chosen.name.lower()):
        return RuleError(
            "declaration/locked",
            f"{c.name} declared {declared}{f' with {promised}' if promised else ''} and cannot switch to {chosen.name}",
            allowed=promised or ", ".join(r.name for r in rec.stats.routines if r.kind == kind),
        )
    return None


def _named_routine(rec: Creature, name: str) -> Routine | None:
    return next((r for r in rec.stats.routines if r.name.lower() == name.lower()), None)


def _routine(c: Combatant, rec: Creature, name: str | None) -> Routine:
    kind = _ROUTINE_KIND.get(action_of(rec) or "")
    if name is None:
        chosen = declared_routine(rec, kind)
        if chosen is None:
            raise RuleError(
                "attack/none", f"{c.name} has no {kind or 'attack'} routine", allowed="add routines to its stat block"
            )
        return chosen
    chosen = _named_routine(rec, name)
    if chosen is None:
        raise RuleError(
            "attack/unknown", f"{c.name} has no routine called '{name}'", allowed=", ".join(r.name for r in rec.stats.routines)
        )
    refusal = switched_routine(c, rec, chosen)
    if refusal is not None:
        raise refusal
    return chosen


def resolve_routine(
    tx: Tx,
    attacker: Combatant,
    target: Combatant,
    routine: Routine,
    cmd: Swing,
    *,
    mode: str,
    uses: str,
    segment: int,
    charge: bool = False,
    trigger: str = "",
    check_reach: bool = True,
) -> None:
    rec = tx.state.rules.creatures[attacker.id]
    row = attack_row(rec.stats, attacker.name)
    times = multiplier(cmd.multipliers)
    if cmd.faces is not None and len(cmd.faces) != len(routine.strikes):
        raise RuleError(
            "dice/face-count",
            f"{routine.name} is {len(routine.strikes)} strike(s) but {len(cmd.faces)} d20 face(s) were entered",
            allowed=f"one d20 face per strike: {', '.join(s.name for s in routine.strikes)}",
        )
    if check_reach:
        require_reach(tx.state, attacker.id, target.id, routine)
    tx.emit(
        AttackRoutineBegun(
            attacker=attacker.id,
            target=target.id,
            routine=routine.name,
            mode=mode,  # type: ignore[arg-type]
            uses=uses,  # type: ignore[arg-type]
            segment=segment,
            charge=charge,
            trigger=trigger,
        )
    )
    bonus = cmd.bonus + (int(tx.state.settings.get("charge_bonus", 2)) if charge else 0)
    for i, strike in enumerate(routine.strikes):
        victim = tx.state.combatants[target.id]
        if victim.status != "active":
            break
        d20 = tx.roll(
            "1d20", purpose=f"attack: {strike.name}", roller=attacker.id, faces=None if cmd.faces is None else (cmd.faces[i],)
        )
        natural = d20.total
        modifier = strike.bonus + bonus
        ac = victim.ac - cmd.target_ac_bonus
        need = needed(row, ac)
        hit = natural == 20 or (natural != 1 and natural + modifier >= need)
        rolled = 0
        if hit:
            faces = cmd.damage_faces[i] if i < len(cmd.damage_faces) and cmd.damage_faces[i] else None
            rolled = max(0, tx.roll(strike.damage, purpose=f"damage: {strike.name}", roller=attacker.id, faces=faces).total)
        tx.emit(
            TableAttackRolled(
                attacker=attacker.id,
                target=target.id,
                strike=strike.name,
                natural=natural,
                modifier=modifier,
                total=natural + modifier,
                needed=need,
                target_ac=ac,
                hit=hit,
                damage_rolled=rolled,
                multiplier=times if hit else 1,
                damage=rolled * times,
                segment=segment,
            )
        )
        after_damage(tx, target.id, rolled * times, segment=segment, by=attacker.id)


def routines_spent(c: Combatant, rec: Creature) -> str | None:
    """A multi-attacker's routines this round are all used."""
    if rec.routines_used >= rec.stats.routines_per_round:
        return f"{c.name} has used all {rec.stats.routines_per_round} routines this round"
    return None


def _routine_attack(tx: Tx, cmd: RoutineAttack) -> None:
    c, rec = require_turn(tx, cmd.attacker)
    phase = tx.state.phase
    ledger = tx.state.rules
    if phase == P.SURPRISE_SEGMENTS:
        require_segment(c, rec, ledger.segment)
        uses = "surprise_segment"
    elif phase == P.REST_ROUTINES:
        problem = routines_spent(c, rec)
        if problem:
            raise RuleError("attack/routines-used", problem, allowed="end_turn")
        uses = "extra_routine"
    else:
        if phase == P.FIRST_ROUTINES and rec.routines_used:
            raise RuleError("attack/routine-used", f"{c.name} has made its first routine", allowed="end_turn")
        require_major(c, rec, "routine_attack")
        uses = "major"
    routine = _routine(c, rec, cmd.routine)
    target = _target(tx, c, cmd.target)
    charge = action_of(rec) == "charge" and phase != P.SURPRISE_SEGMENTS
    resolve_routine(tx, c, target, routine, cmd, mode="routine", uses=uses, segment=action_segment(tx, rec), charge=charge)


def _surprised(c: Combatant) -> str | None:
    """'Creatures with the surprised condition cannot make free attacks.'"""
    return (
        f"{c.name} is surprised: creatures with the surprised condition cannot make free attacks" if c.has("surprised") else None
    )


def _reacting(tx: Tx, attacker_id: str, target_id: str, kind: str) -> tuple[Combatant, Combatant]:
    """The attacker of a `kind` attack out of its turn (a free or an immediate attack), able to make it, and its target."""
    c = tx.combatant(attacker_id)
    if c.status != "active":
        raise RuleError("combatant/incapacitated", f"{c.name} is {c.status}")
    problem = _surprised(c)
    if problem:
        raise RuleError(f"{kind}/surprised", problem)
    return c, _target(tx, c, target_id)


def _primary(c: Combatant, rec: Creature) -> Routine:
    if not rec.stats.routines:
        raise RuleError("attack/none", f"{c.name} has no attack routine", allowed="add routines to its stat block")
    return rec.stats.routines[0]


def free_attack_refusal(state: EncounterState, c: Combatant, target: Combatant, segment: int) -> RuleError | None:
    """Free attacks: not by the surprised; only
    at a creature that drew one; "one free attack (or attack routine) per opponent per
    round"; "Only one free attack may be taken per segment by any creature"."""
    ledger = state.rules
    rec = ledger.creatures[c.id]
    problem = _surprised(c)
    if problem:
        return RuleError("free-attack/surprised", problem)
    if (c.id, target.id) not in ledger.openings:
        return RuleError(
            "free-attack/not-drawn",
            f"{target.name} has not drawn a free attack from {c.name}",
            allowed=", ".join(f"{a} at {t}" for a, t in ledger.openings) or "no free attacks open",
        )
    if target.id in rec.attacked:
        return RuleError(
            "free-attack/once-per-opponent",
            f"{target.name} has already been attacked by {c.name} this round",
            allowed="one free attack (or attack routine) per opponent per round",
        )
    if segment in rec.free_attack_segments:
        return RuleError(
            "free-attack/one-per-segment",
            f"{c.name} has already made a free attack in segment {segment}",
            allowed="one free attack per segment",
        )
    return None


def no_major_for_immediate(c: Combatant, rec: Creature) -> str | None:
    """An immediate attack "must have an available major action"; a spell already begun has it."""
    if rec.major_used or (rec.casting is not None and rec.casting.started):
        return f"{c.name} has no major action left this round"
    return None


def _free_attack(tx: Tx, cmd: FreeAttack) -> None:
    c, target = _reacting(tx, cmd.attacker, cmd.target, "free-attack")
    ledger = tx.state.rules
    rec = ledger.creatures[c.id]
    refusal = free_attack_refusal(tx.state, c, target, ledger.segment)
    if refusal is not None:
        raise refusal
    interrupt(tx, c.id, "made a free attack")
    # It "occurs before the trigger completes": a foe fleeing melee is still in reach.
    resolve_routine(tx, c, target, _primary(c, rec), cmd, mode="free", uses="none", segment=ledger.segment, check_reach=False)


def _immediate_attack(tx: Tx, cmd: ImmediateAttack) -> None:
    c, target = _reacting(tx, cmd.attacker, cmd.target, "immediate")
    ledger = tx.state.rules
    rec = ledger.creatures[c.id]
    problem = no_major_for_immediate(c, rec)
    if problem:
        raise RuleError("immediate/no-major", problem, allowed="a free attack, if one was drawn")
    if not cmd.cause.strip():
        raise RuleError("immediate/cause", "an immediate attack answers a trigger", allowed="cause: what is happening")
    if rec.casting is not None:
        tx.emit(SpellSpoiled(caster=c.id, spell=rec.casting.spell, segment=ledger.segment, reason=ABANDONED))
    resolve_routine(
        tx, c, target, _primary(c, rec), cmd, mode="immediate", uses="major", segment=ledger.segment, trigger=cmd.cause
    )


def _open(tx: Tx, cmd: OpenFreeAttack) -> None:
    c = tx.combatant(cmd.attacker)
    target = _target(tx, c, cmd.target)
    if not cmd.cause.strip():
        raise RuleError("free-attack/cause", "say what drew the free attack", allowed="cause: e.g. 'turns to flee'")
    tx.emit(FreeAttackOpened(attacker=c.id, target=target.id, trigger=cmd.cause))


def _on_begun(state: EncounterState, e: AttackRoutineBegun) -> EncounterState:
    ledger = state.rules
    rec = ledger.creatures[e.attacker]
    changes: dict = {"attacked": rec.attacked + (e.target,)}
    if e.mode == "free":
        changes["free_attack_segments"] = rec.free_attack_segments + (e.segment,)
        openings = tuple(o for o in ledger.openings if o != (e.attacker, e.target))
        state = with_rules(state, msgspec.structs.replace(ledger, openings=openings))
    elif e.uses in ("major", "extra_routine") and e.mode == "routine":
        changes["routines_used"] = rec.routines_used + 1
    return spent(state, e.attacker, e.uses, **changes)


def _on_strike(state: EncounterState, e: TableAttackRolled) -> EncounterState:
    target = take_damage(state.combatants[e.target], e.damage)
    return msgspec.structs.replace(state, combatants={**state.combatants, e.target: target})


def _on_opened(state: EncounterState, e: FreeAttackOpened) -> EncounterState:
    ledger = state.rules
    pair = (e.attacker, e.target)
    if pair in ledger.openings:
        return state
    return with_rules(state, msgspec.structs.replace(ledger, openings=ledger.openings + (pair,)))


# -- after a change to the past ------------------------------------------------------------------


def _check_begun(state: EncounterState, e: AttackRoutineBegun, ctx: dict[str, Any]) -> str | None:
    """The routine could still be made, by the same guards: able, a target still alive, and
    what the round allows it (the major action as declared, the routines of a multi-attacker,
    the one segment of a surprise segment, a free attack drawn, a major action for an
    immediate attack)."""
    problem = able(state, e.attacker, "attack", own_turn=e.mode == "routine")
    if problem:
        return problem
    target = state.combatants.get(e.target)
    if target is None:
        return f"{e.target} is not in the fight any more"
    problem = already_dead(target)
    if problem:
        return problem
    c, rec, ledger = record(state, e.attacker)
    if e.mode == "free":
        refusal = free_attack_refusal(state, c, target, e.segment)
        return refusal.message if refusal is not None else None
    if e.mode == "immediate":
        gave_up_spell = ctx.pop(GAVE_UP_SPELL, None) == e.attacker
        return None if gave_up_spell and not (rec.casting is not None and rec.casting.started) else no_major_for_immediate(c, rec)
    if e.uses == "major":
        refusal = major_refusal(c, rec, "routine_attack")
        chosen = _named_routine(rec, e.routine)
        refusal = refusal or (switched_routine(c, rec, chosen) if chosen is not None else None)
        return refusal.message if refusal is not None else None
    if e.uses == "extra_routine":
        return routines_spent(c, rec)
    if e.uses == "surprise_segment":
        return segment_spent(c, rec, ledger.segment)
    return None


def _check_strike(state: EncounterState, e: TableAttackRolled, ctx: dict[str, Any]) -> str | None:
    """'Strikes left when the target falls are wasted.'"""
    victim = state.combatants.get(e.target)
    if victim is None:
        return f"{e.target} is not in the fight any more"
    if victim.status != "active":
        return f"{victim.name} was already {victim.status}: the {e.strike} would be wasted"
    if victim.hp <= 0:
        return f"{victim.name} has no hit points left now and would have fallen before the {e.strike}"
    return None


def _check_opened(state: EncounterState, e: FreeAttackOpened, ctx: dict[str, Any]) -> str | None:
    for cid in (e.attacker, e.target):
        if cid not in state.combatants:
            return f"{cid} is not in the fight any more"
    target = state.combatants[e.target]
    return f"{target.name} was already dead and drew no free attack" if target.status == "dead" else None


def _routine_line(n: Any, e: AttackRoutineBegun) -> str:
    how = {"routine": "attacks", "free": "makes a free attack on", "immediate": "makes an immediate attack on"}[e.mode]
    extra = ", charging" if e.charge else ""
    extra += f", as {e.trigger}" if e.trigger else ""
    return f"{n.name(e.attacker)} {how} {n.name(e.target)} with {e.routine} (segment {e.segment}{extra})"


def _strike_line(n: Any, e: TableAttackRolled) -> str:
    # None: not revealed to this reader (projections/redaction.py)
    roll = f"{e.total}" if e.natural is None else f"{e.natural}{e.modifier:+d} = {e.total}" if e.modifier else f"{e.natural}"
    head = f"  {e.strike or 'a strike'}: {roll}" + (
        "" if e.target_ac is None else f" vs {e.needed} needed against AC {e.target_ac}"
    )
    if not e.hit:
        return head + (" - natural 1, miss" if e.natural == 1 else " - miss")
    why = " (natural 20)" if e.natural == 20 and e.needed is not None and e.total < e.needed else ""
    times = f" (x{e.multiplier} of {e.damage_rolled})" if e.multiplier > 1 else ""
    if e.damage is None:  # a hidden target's: what it takes gives its numbers away
        return f"{head} - hit{why}, {e.damage_rolled} damage rolled"
    return f"{head} - hit{why}, {e.damage} damage{times}"


RULES = Rules(
    handlers={
        RoutineAttack: _routine_attack,
        FreeAttack: _free_attack,
        ImmediateAttack: _immediate_attack,
        OpenFreeAttack: _open,
    },
    appliers={AttackRoutineBegun: _on_begun, TableAttackRolled: _on_strike, FreeAttackOpened: _on_opened},
    checks={AttackRoutineBegun: _check_begun, TableAttackRolled: _check_strike, FreeAttackOpened: _check_opened},
    narration={
        AttackRoutineBegun: _routine_line,
        TableAttackRolled: _strike_line,
        FreeAttackOpened: lambda n, e: f"{n.name(e.target)} draws a free attack from {n.name(e.attacker)} ({e.trigger})",
    },
)
