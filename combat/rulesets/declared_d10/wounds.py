"""Damage and what it does: damage reduction, cover against area effects, wound thresholds,
minions and subdual.

- "Before Damage is applied, it is reduced by the DR of the creature being hit" (Bob's DR 2
  turns the ogre's 5 into 3); "Some special weapons or some non-damage types of spells may
  disregard DR".
- "A creature under cover also takes half damage from any area effect attacks or conditions
  coming from the other side of their cover. Direct attacks that succeed in hitting a
  creature under cover provide full damage."
- "Half Total Hit Points: -2 penalty to hit ... One Hit Point: lasting wound ... Zero Hit
  Points: Dead." "Minions die on one hit."
- Subdual: "Subdual damage does not cause a lasting wound if the target falls to 1hp. Once
  the target is reduced to 0hp, they are unconscious."

Readings: a critical's doubling comes before DR, and halving for cover (rounded down)
before DR too; at or below half of total HP is "half"; the lasting wound comes when damage
brings a creature down to exactly 1 HP; characters die at 0 HP like everyone else; a minion
dies on any hit, and from any other damage that gets through its DR; damage that is not
subdual kills a creature left unconscious by subdual; the -2 goes away when healing lifts a
creature above half; a creature that drops its grappler ends that grapple; the GM cannot
name a lasting wound for a creature at any HP but 1 (it is the rule's mark, not a ruling).
"""

from __future__ import annotations

from typing import Any, ClassVar

import msgspec

from combat.common import conditions, hitpoints, setup
from combat.common.commands import ApplyCondition, Heal
from combat.common.consistency import CHECKS as SHARED_CHECKS
from combat.common.events import CombatantDowned, Healed
from combat.kernel.commands import AddCombatant, Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionEnded, ConditionSpec, Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.names import checked_damage_type
from combat.kernel.state import Combatant, EncounterState, with_rules
from combat.rulesets.declared_d10.acting import gone
from combat.rulesets.declared_d10.state import traits_of

__all__ = [
    "LASTING_WOUND",
    "HALF_HP_TO_HIT",
    "D10Damage",
    "D10DamageDealt",
    "D10WoundPenalty",
    "reduced_by_dr",
    "deal_damage",
    "wound_modifier",
    "review_penalty",
    "no_lasting_wound",
    "RULES",
]

LASTING_WOUND = ConditionSpec(name="lastingly wounded", source="brought down to 1 HP")
HALF_HP_TO_HIT = -2


class D10Damage(Command, frozen=True, kw_only=True):
    """Damage the GM applies: a trap, a spell, an explosion. One roll for every target."""

    targets: tuple[str, ...]
    amount: int | None = None
    notation: str | None = None
    faces: tuple[int, ...] | None = None
    damage_type: str = ""
    source: str | None = None
    area: bool = False
    behind_cover: tuple[str, ...] = ()  # targets under cover from the area effect's side
    ignores_dr: bool = False
    subdual: bool = False
    custom_type: bool = False  # a damage type the ruleset does not know


class D10DamageDealt(Event, frozen=True, kw_only=True):
    """Damage after the rules: `rolled`, doubled by a critical, halved by cover, less DR = `amount`."""

    target: str
    amount: int
    rolled: int
    damage_type: str = ""
    source: str | None = None
    critical_doubled: bool = False
    halved_by_cover: bool = False
    dr: int = 0
    # The attack or effect disregarded DR (so `dr` is 0 whatever the target wears): recorded so
    # a later change to the target's DR can tell "had none" from "went through it".
    ignores_dr: bool = False
    subdual: bool = False
    minion: bool = False
    hidden: ClassVar[Hidden] = Hidden.of(
        target=("dr", "amount"), aloud=("rolled", "damage_type", "ignores_dr")
    )  # amount next to rolled: its DR


class D10WoundPenalty(Event, frozen=True, kw_only=True):
    """The modifier to hit a creature's wounds give it now (0 when it no longer applies)."""

    combatant: str
    to_hit: int
    hidden: ClassVar[Hidden] = PUBLIC


def reduced_by_dr(rolled: int, dr: int, *, doubled: bool = False, halved: bool = False) -> int:
    """'Before Damage is applied, it is reduced by the DR of the creature being hit': a
    critical's doubling first, then halving for cover (rounded down), then DR, never below 0."""
    amount = rolled * 2 if doubled else rolled
    if halved:
        amount //= 2
    return max(0, amount - dr)


def deal_damage(
    tx: Tx,
    target_id: str,
    rolled: int,
    *,
    source: str | None,
    damage_type: str = "",
    doubled: bool = False,
    halved: bool = False,
    ignores_dr: bool = False,
    subdual: bool = False,
    hit: bool = False,
) -> D10DamageDealt:
    target = tx.state.combatants[target_id]
    traits = traits_of(tx.state, target_id)
    dr = 0 if ignores_dr else traits.dr
    amount = reduced_by_dr(rolled, dr, doubled=doubled, halved=halved)
    minion = traits.minion and (hit or amount > 0)
    if minion:
        amount = target.hp
    event = D10DamageDealt(
        target=target_id,
        amount=amount,
        rolled=rolled,
        damage_type=damage_type,
        source=source,
        critical_doubled=doubled,
        halved_by_cover=halved,
        dr=dr,
        ignores_dr=ignores_dr,
        subdual=subdual,
        minion=minion,
    )
    tx.emit(event)
    _after_damage(tx, target_id, amount if not minion else max(1, amount), subdual)
    return event


def _after_damage(tx: Tx, cid: str, amount: int, subdual: bool) -> None:
    c = tx.state.combatants[cid]
    if amount <= 0 or c.status in ("dead", "fled"):
        return
    if c.hp == 0 and (c.status == "active" or not subdual):
        status = "unconscious" if subdual and c.status == "active" else "dead"
        tx.emit(CombatantDowned(combatant=cid, status=status))  # type: ignore[arg-type]
        for other in list(tx.state.combatants.values()):
            if any(x.name == "grappled" and x.source == cid for x in other.conditions):
                tx.emit(ConditionEnded(target=other.id, condition="grappled", reason=f"{c.name} is {status}"))
        return
    if c.hp == 1 and not subdual:
        tx.emit(ConditionApplied(target=cid, condition=LASTING_WOUND))
    review_penalty(tx, cid)


def wound_modifier(c: Combatant) -> int:
    """'Half Total Hit Points: -2 penalty to hit': at or below half of total HP."""
    return HALF_HP_TO_HIT if c.hp * 2 <= c.max_hp else 0


def review_penalty(tx: Tx, cid: str) -> None:
    c = tx.state.combatants[cid]
    if c.status != "active":
        return
    wanted = wound_modifier(c)
    if wanted != tx.state.rules.to_hit.get(cid, 0):
        tx.emit(D10WoundPenalty(combatant=cid, to_hit=wanted))


def _damage(tx: Tx, cmd: D10Damage) -> None:
    if not cmd.targets or len(set(cmd.targets)) != len(cmd.targets):
        raise RuleError("damage/targets", "name each target once", allowed=", ".join(tx.state.combatants))
    for cid in cmd.targets:
        tx.combatant(cid)
        problem = gone(tx.state, cid)
        if problem:
            raise RuleError("target/dead", problem, allowed="a combatant still in the fight")
    stray = [cid for cid in cmd.behind_cover if cid not in cmd.targets]
    if stray:
        raise RuleError("damage/cover-unknown", f"{', '.join(stray)} is not a target", allowed=", ".join(cmd.targets))
    if cmd.behind_cover and not cmd.area:
        raise RuleError(
            "damage/cover-not-area",
            "cover halves only area effects; direct attacks that hit do full damage",
            allowed="area: true, or no behind_cover",
        )
    damage_type = checked_damage_type(tx, cmd.damage_type, custom=cmd.custom_type) if cmd.damage_type else ""
    rolled = hitpoints.amount_or_roll(tx, cmd.amount, cmd.notation, cmd.faces, purpose="damage", roller=cmd.source or "gm")
    for cid in cmd.targets:
        deal_damage(
            tx,
            cid,
            rolled,
            source=cmd.source,
            damage_type=damage_type,
            halved=cmd.area and cid in cmd.behind_cover,
            ignores_dr=cmd.ignores_dr,
            subdual=cmd.subdual,
        )


def _heal(tx: Tx, cmd: Heal) -> None:
    hitpoints.heal(tx, cmd)
    review_penalty(tx, cmd.target)


def _add(tx: Tx, cmd: AddCombatant) -> None:
    setup.add_combatant(tx, cmd)
    review_penalty(tx, cmd.combatant.id)  # someone who joins already wounded


def _on_dealt(state: EncounterState, e: D10DamageDealt) -> EncounterState:
    return msgspec.structs.replace(
        state, combatants={**state.combatants, e.target: hitpoints.take_damage(state.combatants[e.target], e.amount)}
    )


def _on_penalty(state: EncounterState, e: D10WoundPenalty) -> EncounterState:
    to_hit = {k: v for k, v in state.rules.to_hit.items() if k != e.combatant}
    if e.to_hit:
        to_hit[e.combatant] = e.to_hit
    return with_rules(state, to_hit=to_hit)


def _dealt_line(n, e: D10DamageDealt) -> str:
    if e.minion:
        return f"{n.name(e.target)} is a minion and falls to one hit"
    steps = [str(e.rolled)]
    if e.critical_doubled:
        steps.append(f"doubled to {e.rolled * 2} (critical)")
    if e.halved_by_cover:
        steps.append("halved by cover")
    if e.dr:
        steps.append(f"minus DR {e.dr}")
    how = ", ".join(steps)
    kind = f" {e.damage_type}" if e.damage_type else ""
    sub = " subdual" if e.subdual else ""
    if e.amount is None:  # not shown: next to what was rolled it would give the hidden target's DR
        return f"{n.name(e.target)} takes{kind}{sub} damage ({e.rolled} rolled)"
    return f"{n.name(e.target)} takes {e.amount}{kind}{sub} damage" + (f" ({how})" if len(steps) > 1 else "")


def no_lasting_wound(c: Combatant) -> str | None:
    """'One Hit Point: lasting wound': the problem when `c` is at any other HP, else None."""
    return f"{c.name} has {c.hp} HP: a lasting wound comes only at 1 HP" if c.hp != 1 else None


def _apply_condition(tx: Tx, cmd: ApplyCondition) -> None:
    """The lasting wound is the rule's own mark of a creature brought down to 1 HP; a GM who
    names it for a creature at any other HP would leave a conflict on every replay after a
    change to the past (the history's check asks for 1 HP)."""
    cmd = conditions.named(tx, cmd)
    if cmd.condition.name == LASTING_WOUND.name:
        problem = no_lasting_wound(tx.combatant(cmd.target))
        if problem:
            raise RuleError(
                "condition/lasting-wound",
                problem,
                allowed="damage that brings the creature down to 1 HP, or another name for the GM's ruling",
            )
    conditions.apply_condition(tx, cmd)


def _check_dealt(state: EncounterState, e: D10DamageDealt, ctx: dict[str, Any]) -> str | None:
    """The damage recorded is what DR, minions and cover make of the roll now."""
    problem = gone(state, e.target)
    if problem:
        return problem
    target = state.combatants[e.target]
    traits = traits_of(state, e.target)
    through = reduced_by_dr(e.rolled, traits.dr, doubled=e.critical_doubled, halved=e.halved_by_cover)
    if e.minion and not traits.minion:
        return f"{target.name} is not a minion now: it would take {through}, not all its HP"
    if not e.minion and traits.minion and e.amount > 0:
        return f"{target.name} is a minion now and would fall to this"
    if not e.minion and not e.ignores_dr and e.dr != traits.dr:
        before = reduced_by_dr(e.rolled, 0, doubled=e.critical_doubled, halved=e.halved_by_cover)
        return f"{target.name}'s DR is {traits.dr} now: {before} would do {through}, not {e.amount}"
    return None


def _check_penalty(state: EncounterState, e: D10WoundPenalty, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    if c.status != "active":
        return f"{c.name} is {c.status} now: no wound penalty to give"
    wanted = wound_modifier(c)
    if wanted == e.to_hit:
        return None
    where = "at half or below: -2 to hit" if wanted else "above half: no wound penalty"
    return f"{c.name} has {c.hp} of {c.max_hp} HP now, {where}"


def _check_condition(state: EncounterState, e: ConditionApplied, ctx: dict[str, Any]) -> str | None:
    if e.condition.name != LASTING_WOUND.name:
        return None
    c = state.combatants.get(e.target)
    return f"{e.target} is not in the fight any more" if c is None else no_lasting_wound(c)


RULES = Rules(
    handlers={D10Damage: _damage, Heal: _heal, AddCombatant: _add, ApplyCondition: _apply_condition},
    appliers={D10DamageDealt: _on_dealt, D10WoundPenalty: _on_penalty},
    checks={
        D10DamageDealt: _check_dealt,
        D10WoundPenalty: _check_penalty,
        ConditionApplied: _check_condition,
        # Healing and dropping mean what they mean in the shared rules.
        Healed: SHARED_CHECKS[Healed],
        CombatantDowned: SHARED_CHECKS[CombatantDowned],
    },
    narration={
        D10DamageDealt: _dealt_line,
        D10WoundPenalty: lambda n, e: (
            f"{n.name(e.combatant)} is "
            + (f"at half HP or below: {e.to_hit:+d} to hit" if e.to_hit else "no longer at half HP: no wound penalty")
        ),
    },
)
