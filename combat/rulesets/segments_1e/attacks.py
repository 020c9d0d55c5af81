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

import msgspec

from combat.kernel.decider import Tx, Applier, Handler
from combat.kernel.errors import RuleError
from combat.fivee.hitpoints import take_damage
from combat.rulesets.segments_1e import phases as P
from combat.rulesets.segments_1e.attack_tables import attack_row, needed
from combat.rulesets.segments_1e.commands import FreeAttack, ImmediateAttack, OpenFreeAttack, RoutineAttack, Swing
from combat.rulesets.segments_1e.concentration import interrupt
from combat.rulesets.segments_1e.damage import after_damage
from combat.rulesets.segments_1e.events import AttackRoutineBegun, FreeAttackOpened, SpellSpoiled, TableAttackRolled
from combat.rulesets.segments_1e.grid import require_reach
from combat.rulesets.segments_1e.ledger import Creature, Routine
from combat.rulesets.segments_1e.segments import action_of, declared_routine
from combat.rulesets.segments_1e.turns import action_segment, require_major, require_segment, require_turn, spent
from combat.kernel.state import Combatant, EncounterState, with_rules

__all__ = ["ABANDONED", "multiplier", "resolve_routine", "HANDLERS", "APPLIERS"]

# Why a declared spell is lost when its caster makes an immediate attack instead.
ABANDONED = "abandoned for an immediate attack"


def multiplier(multipliers: tuple[int, ...]) -> int:
    """'damage multipliers do not stack (take the highest multiplier)'."""
    if any(m < 1 for m in multipliers):
        raise RuleError("attack/multiplier", "a damage multiplier below 1", allowed="whole multipliers such as 2 or 3")
    return max(multipliers, default=1)


def _target(tx: Tx, attacker: Combatant, target_id: str) -> Combatant:
    target = tx.combatant(target_id)
    if target.status == "dead":
        raise RuleError("target/dead", f"{target.name} is already dead", allowed="a living target")
    if target.id == attacker.id:
        raise RuleError("target/self", f"{attacker.name} cannot attack itself")
    return target


def _routine(c: Combatant, rec: Creature, name: str | None) -> Routine:
    declared = action_of(rec)
    kind = {"melee": "melee", "charge": "melee", "missile": "missile"}.get(declared or "")
    if name is None:
        chosen = declared_routine(rec, kind)
        if chosen is None:
            raise RuleError("attack/none", f"{c.name} has no {kind or 'attack'} routine", allowed="add routines to its stat block")
        return chosen
    chosen = next((r for r in rec.stats.routines if r.name.lower() == name.lower()), None)
    if chosen is None:
        raise RuleError("attack/unknown", f"{c.name} has no routine called '{name}'", allowed=", ".join(r.name for r in rec.stats.routines))
    promised = rec.declared.routine if rec.declared else None
    if (kind and chosen.kind != kind) or (promised and promised.lower() != chosen.name.lower()):
        raise RuleError(
            "declaration/locked",
            f"{c.name} declared {declared}{f' with {promised}' if promised else ''} and cannot switch to {chosen.name}",
            allowed=promised or ", ".join(r.name for r in rec.stats.routines if r.kind == kind),
        )
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
            attacker=attacker.id, target=target.id, routine=routine.name, mode=mode, uses=uses,  # type: ignore[arg-type]
            segment=segment, charge=charge, trigger=trigger,
        )
    )
    bonus = cmd.bonus + (int(tx.state.settings.get("charge_bonus", 2)) if charge else 0)
    for i, strike in enumerate(routine.strikes):
        victim = tx.state.combatants[target.id]
        if victim.status != "active":
            break
        d20 = tx.roll("1d20", purpose=f"attack: {strike.name}", roller=attacker.id, faces=None if cmd.faces is None else (cmd.faces[i],))
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
                attacker=attacker.id, target=target.id, strike=strike.name, natural=natural, modifier=modifier,
                total=natural + modifier, needed=need, target_ac=ac, hit=hit, damage_rolled=rolled,
                multiplier=times if hit else 1, damage=rolled * times, segment=segment,
            )
        )
        after_damage(tx, target.id, rolled * times, segment=segment, by=attacker.id)


def _routine_attack(tx: Tx, cmd: RoutineAttack) -> None:
    c, rec = require_turn(tx, cmd.attacker)
    phase = tx.state.phase
    ledger = tx.state.rules
    if phase == P.SURPRISE_SEGMENTS:
        require_segment(c, rec, ledger.segment)
        uses = "surprise_segment"
    elif phase == P.REST_ROUTINES:
        if rec.routines_used >= rec.stats.routines_per_round:
            raise RuleError("attack/routines-used", f"{c.name} has used all {rec.stats.routines_per_round} routines this round", allowed="end_turn")
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


def _able_to_react(c: Combatant, kind: str) -> None:
    if c.status != "active":
        raise RuleError("combatant/incapacitated", f"{c.name} is {c.status}")
    if c.has("surprised"):
        raise RuleError(f"{kind}/surprised", f"{c.name} is surprised: creatures with the surprised condition cannot make free attacks")


def _primary(c: Combatant, rec: Creature) -> Routine:
    if not rec.stats.routines:
        raise RuleError("attack/none", f"{c.name} has no attack routine", allowed="add routines to its stat block")
    return rec.stats.routines[0]


def _free_attack(tx: Tx, cmd: FreeAttack) -> None:
    c = tx.combatant(cmd.attacker)
    _able_to_react(c, "free-attack")
    target = _target(tx, c, cmd.target)
    ledger = tx.state.rules
    rec = ledger.creatures[c.id]
    if (c.id, target.id) not in ledger.openings:
        raise RuleError(
            "free-attack/not-drawn",
            f"{target.name} has not drawn a free attack from {c.name}",
            allowed=", ".join(f"{a} at {t}" for a, t in ledger.openings) or "no free attacks open",
        )
    if target.id in rec.attacked:
        raise RuleError(
            "free-attack/once-per-opponent",
            f"{target.name} has already been attacked by {c.name} this round",
            allowed="one free attack (or attack routine) per opponent per round",
        )
    if ledger.segment in rec.free_attack_segments:
        raise RuleError("free-attack/one-per-segment", f"{c.name} has already made a free attack in segment {ledger.segment}", allowed="one free attack per segment")
    interrupt(tx, c.id, "made a free attack")
    # It "occurs before the trigger completes": a foe fleeing melee is still in reach.
    resolve_routine(tx, c, target, _primary(c, rec), cmd, mode="free", uses="none", segment=ledger.segment, check_reach=False)


def _immediate_attack(tx: Tx, cmd: ImmediateAttack) -> None:
    c = tx.combatant(cmd.attacker)
    _able_to_react(c, "immediate")
    target = _target(tx, c, cmd.target)
    ledger = tx.state.rules
    rec = ledger.creatures[c.id]
    if rec.major_used or (rec.casting is not None and rec.casting.started):
        raise RuleError("immediate/no-major", f"{c.name} has no major action left this round", allowed="a free attack, if one was drawn")
    if not cmd.cause.strip():
        raise RuleError("immediate/cause", "an immediate attack answers a trigger", allowed="cause: what is happening")
    if rec.casting is not None:
        tx.emit(SpellSpoiled(caster=c.id, spell=rec.casting.spell, segment=ledger.segment, reason=ABANDONED))
    resolve_routine(tx, c, target, _primary(c, rec), cmd, mode="immediate", uses="major", segment=ledger.segment, trigger=cmd.cause)


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


HANDLERS: dict[type, Handler] = {RoutineAttack: _routine_attack, FreeAttack: _free_attack, ImmediateAttack: _immediate_attack, OpenFreeAttack: _open}
APPLIERS: dict[type, Applier] = {AttackRoutineBegun: _on_begun, TableAttackRolled: _on_strike, FreeAttackOpened: _on_opened}
