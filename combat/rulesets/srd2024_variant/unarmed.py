"""Unarmed Strike Δ: damage, grapple or shove, the grapple and shove by a Constitution save.

- "Damage. You make an attack roll against the target. Your bonus to the roll equals your
  Strength modifier plus your Proficiency Bonus. On a hit, the target takes Bludgeoning
  damage equal to 1 plus your Strength modifier."
- "Grappling. The target must succeed on a Constitution saving throw, or they [have] the
  Grappled condition." "Shoving. The target must succeed on a Constitution saving throw, or
  you either push it 5 feet away or cause it to have the Prone condition." The DC is
  "8 plus your Strength modifier and Proficiency Bonus"; Δ cover adds to that save.
- "Size Limit. ... possible only if the target is no more than one size larger than you."
- "One Grapple per Hand. An entity must have a free hand ... it can grapple only one
  creature at a time with that part." Free hands are a trait (two unless noted).
- "A Grappled entity can use their action to make an Athletics (STR) or Acrobatics (DEX)
  check against the grapple's escape DC, ending the condition on themself on a success."

An Unarmed Strike is one attack of the Attack action (or an opportunity attack). Where the
text is silent, as the 2024 Grappled condition has it: the grappler can let go at any time
(no action); the grapple ends if the grappler is Incapacitated; a grappled creature has
Disadvantage on attacks against anyone but its grappler; a grappler dragging its target
pays 1 extra foot per foot unless the target is Tiny or two or more sizes smaller (see
movement). A push by the grappler moves the target out of its reach and ends the grapple.
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from combat.common.attacks import COVER_AC
from combat.common.condition_effects import is_incapacitated
from combat.common.regained_movement import restore_movement
from combat.common.saves import saving_throw
from combat.common.turns import require_able, require_turn
from combat.fivee.actions import economy_after_attack, require_reaction, spend_check
from combat.fivee.attack_commands import Attack
from combat.fivee.attacks import (
    AttackOptions,
    already_dead,
    attack_action_use,
    require_opportunity,
    require_targetable,
    resolve_attack,
)
from combat.fivee.held_open import opportunity_taken
from combat.kernel.commands import Command, Cover, Faces
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile, ConditionApplied, ConditionEnded, ConditionSpec, Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_combatant, with_rules
from combat.rulesets.srd2024_variant.state import VariantGrapple

from .bookkeeping import size_steps, strength_and_proficiency, traits_of
from .mounts import unseat_risk

__all__ = [
    "RULES",
    "cannot_grapple",
    "UnarmedStrike",
    "EscapeGrapple",
    "ReleaseGrapple",
    "UnarmedStrikeMade",
    "GrappleStarted",
    "GrappleEnded",
    "Shoved",
    "EscapeAttempted",
    "grapple_dc",
    "grappled_disadvantage",
    "with_grapple_disadvantage",
    "unarmed_strike",
    "end_broken_grapples",
]


class UnarmedStrike(Command, frozen=True, kw_only=True):
    gm_fields: ClassVar[tuple[str, ...]] = ("advantage", "disadvantage", "faces")

    attacker: str
    target: str
    option: Literal["damage", "grapple", "shove"] = "damage"
    shove: Literal["prone", "push"] = "prone"  # what a failed save against a shove means
    cover: Cover = "none"
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    faces: Faces = None  # the attack roll's d20, or the target's Constitution save for grapple/shove
    opportunity: bool = False

    def gm_fields_given(self) -> tuple[str, ...]:
        # A grapple or shove has no attack roll: its faces are the target's save.
        given = super().gm_fields_given()
        return tuple(f for f in given if f != "faces" or self.option != "damage")


class EscapeGrapple(Command, frozen=True, kw_only=True):
    gm_fields: ClassVar[tuple[str, ...]] = ("bonus",)

    combatant: str
    skill: Literal["athletics", "acrobatics"] = "athletics"
    bonus: int = 0
    grappler: str | None = None  # which grapple, if more than one holds it
    faces: Faces = None


class ReleaseGrapple(Command, frozen=True, kw_only=True):
    actor_fields: ClassVar[tuple[str, ...]] = ("grappler",)

    grappler: str
    target: str


class UnarmedStrikeMade(Event, frozen=True, kw_only=True):
    """A grapple or shove attempt: the target saved against `dc`, or not."""

    attacker: str
    target: str
    option: Literal["grapple", "shove"]
    dc: int
    saved: bool
    uses: Literal["action", "attack", "reaction"] = "action"
    opportunity: bool = False
    hidden: ClassVar[Hidden] = Hidden.of(attacker=("dc",))  # 8 + its Strength modifier and Proficiency Bonus


class GrappleStarted(Event, frozen=True, kw_only=True):
    grappler: str
    target: str
    dc: int
    hidden: ClassVar[Hidden] = Hidden.of(grappler=("dc",))  # the escape DC is the grappler's


class GrappleEnded(Event, frozen=True, kw_only=True):
    grappler: str
    target: str
    reason: str
    hidden: ClassVar[Hidden] = PUBLIC


class Shoved(Event, frozen=True, kw_only=True):
    attacker: str
    target: str
    feet: int = 5
    hidden: ClassVar[Hidden] = PUBLIC


class EscapeAttempted(Event, frozen=True, kw_only=True):
    combatant: str
    grappler: str
    skill: str
    total: int
    dc: int
    success: bool
    hidden: ClassVar[Hidden] = Hidden.of(grappler=("dc",), aloud=("total",))


GRAPPLED = "grappled"


def grapple_dc(strength: int, proficiency: int) -> int:
    """'The DC ... equals 8 plus your Strength modifier and Proficiency Bonus.'"""
    return 8 + strength + proficiency


def grappled_disadvantage(state: EncounterState, attacker: str, target: str) -> tuple[str, ...]:
    holders = [g.grappler for g in state.rules.grapples if g.target == attacker]
    if holders and target not in holders:
        return (f"grappled by {', '.join(state.combatants[h].name for h in holders)}",)
    return ()


def with_grapple_disadvantage(state: EncounterState, cmd: Attack) -> Attack:
    """The attack as the shared rule should roll it: with the grappled creature's
    Disadvantage against anyone but its grappler."""
    extra = grappled_disadvantage(state, cmd.attacker, cmd.target)
    return msgspec.structs.replace(cmd, disadvantage=cmd.disadvantage + extra) if extra else cmd


def _economy_for_strike(tx: Tx, attacker: Combatant, target: Combatant, opportunity: bool) -> str:
    if opportunity:
        require_opportunity(tx.state, attacker, target)
        require_reaction(attacker)
        return "reaction"
    return attack_action_use(tx, attacker)


def unarmed_strike(tx: Tx, cmd: UnarmedStrike) -> None:
    attacker = tx.combatant(cmd.attacker)
    target = tx.combatant(cmd.target)
    require_targetable(target, cmd.cover)
    if target.id == attacker.id:
        raise RuleError("target/self", f"{attacker.name} cannot strike itself")
    problem = already_dead(target)
    if problem:
        raise RuleError("target/dead", problem, allowed="a living target")
    uses = _economy_for_strike(tx, attacker, target, cmd.opportunity)
    strength, proficiency = strength_and_proficiency(tx.state, attacker, "an Unarmed Strike")
    if cmd.option == "damage":
        profile = AttackProfile(
            name="Unarmed Strike",
            bonus=strength + proficiency,
            damage=str(max(0, 1 + strength)),
            damage_type="bludgeoning",
        )
        resolve_attack(
            tx,
            attacker,
            target,
            profile,
            AttackOptions(
                uses=uses,
                advantage=cmd.advantage,
                disadvantage=cmd.disadvantage + grappled_disadvantage(tx.state, attacker.id, target.id),
                ac_bonus=COVER_AC[cmd.cover],
                faces=cmd.faces,
                damage_faces=None,
                opportunity=cmd.opportunity,
            ),
        )
        return
    if size_steps(attacker, target) > 1:
        raise RuleError(
            "unarmed/too-large",
            f"{target.name} ({target.size}) is more than one size larger than {attacker.name} ({attacker.size})",
            allowed="a target no more than one size larger",
        )
    if cmd.option == "grapple":
        _require_free_hand(tx.state, attacker, target)
    dc = grapple_dc(strength, proficiency)
    save = saving_throw(
        tx,
        target.id,
        "constitution",
        dc,
        target.con_save + COVER_AC[cmd.cover],
        "normal",
        cmd.faces,
        reason=f"{cmd.option} by {attacker.name}" + (f", {cmd.cover} cover" if cmd.cover != "none" else ""),
    )
    tx.emit(
        UnarmedStrikeMade(
            attacker=attacker.id,
            target=target.id,
            option=cmd.option,
            dc=dc,
            saved=save.success,
            uses=uses,  # type: ignore[arg-type]
            opportunity=cmd.opportunity,
        )
    )
    if save.success:
        return
    if cmd.option == "grapple":
        tx.emit(ConditionApplied(target=target.id, condition=ConditionSpec(name=GRAPPLED, source=attacker.id)))
        tx.emit(GrappleStarted(grappler=attacker.id, target=target.id, dc=dc))
    elif cmd.shove == "prone":
        if not target.has("prone"):
            tx.emit(ConditionApplied(target=target.id, condition=ConditionSpec(name="prone", source=attacker.id)))
        unseat_risk(tx, target.id, "knocked prone")
    else:
        tx.emit(Shoved(attacker=attacker.id, target=target.id, feet=5))
        if any(g.grappler == attacker.id and g.target == target.id for g in tx.state.rules.grapples):
            _end_grapple(tx, attacker.id, target.id, "pushed out of the grappler's reach")
        unseat_risk(tx, target.id, "moved against its will")


def _name(state: EncounterState, cid: str) -> str:
    return state.combatants[cid].name if cid in state.combatants else cid


def grappling(state: EncounterState, grappler: str, target: str) -> bool:
    return any((g.grappler, g.target) == (grappler, target) for g in state.rules.grapples)


def already_grappling(state: EncounterState, grappler: str, target: str) -> str | None:
    """A creature is grappled once by the same grappler: the problem when it is, else None."""
    return f"{_name(state, grappler)} is already grappling {_name(state, target)}" if grappling(state, grappler, target) else None


def not_grappling(state: EncounterState, grappler: str, target: str) -> str | None:
    """The problem when `grappler` holds no grapple on `target` (to release, to drag, to end),
    else None: the release and drag guards refuse with it, the re-check of a GrappleEnded reports it."""
    return None if grappling(state, grappler, target) else f"{_name(state, grappler)} is not grappling {_name(state, target)}"


def not_grappled(state: EncounterState, c: Combatant, grappler: str | None = None) -> str | None:
    """The problem when no grapple (by `grappler`, when given) holds `c`, so there is nothing to
    escape; else None. The escape guard refuses with it, the re-check of an escape reports it."""
    if any(g.target == c.id and grappler in (None, g.grappler) for g in state.rules.grapples):
        return None
    return f"{c.name} is not grappled" + (f" by {_name(state, grappler)}" if grappler else "")


def cannot_grapple(state: EncounterState, attacker: Combatant, target: Combatant) -> str | None:
    """A grapple takes a free hand, and a creature is grappled once by the same grappler."""
    problem = already_grappling(state, attacker.id, target.id)
    if problem:
        return problem
    held = [g.target for g in state.rules.grapples if g.grappler == attacker.id]
    hands = traits_of(state, attacker.id).hands
    if len(held) < hands:
        return None
    holding = ", ".join(state.combatants[t].name for t in held if t in state.combatants)
    return f"{attacker.name} has no free hand: {len(held)} of {hands} already hold {holding}"


def _require_free_hand(state: EncounterState, attacker: Combatant, target: Combatant) -> None:
    problem = cannot_grapple(state, attacker, target)
    if problem and grappling(state, attacker.id, target.id):
        raise RuleError("grapple/already", problem)
    if problem:
        raise RuleError("grapple/no-free-hand", problem, allowed="release_grapple first, or another option")


def _end_grapple(tx: Tx, grappler: str, target: str, reason: str) -> None:
    tx.emit(GrappleEnded(grappler=grappler, target=target, reason=reason))
    held = tx.state.combatants.get(target)
    if held is not None and any(c.name == GRAPPLED and c.source == grappler for c in held.conditions):
        tx.emit(ConditionEnded(target=target, condition=GRAPPLED, reason=reason))
        restore_movement(tx, target, reason=f"no longer grappled ({reason})")


def _escape(tx: Tx, cmd: EscapeGrapple) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "escape")
    holds = [g for g in tx.state.rules.grapples if g.target == c.id and cmd.grappler in (None, g.grappler)]
    problem = not_grappled(tx.state, c, cmd.grappler)
    if not holds or problem:
        raise RuleError(
            "grapple/not-grappled",
            problem or "",
            allowed=", ".join(g.grappler for g in tx.state.rules.grapples if g.target == c.id) or "nothing to escape",
        )
    spend_check(c, "action")
    hold = holds[0]
    roll = tx.roll(f"1d20{cmd.bonus:+d}", purpose=f"{cmd.skill} check to escape a grapple", roller=c.id, faces=cmd.faces)
    success = roll.total >= hold.dc
    tx.emit(
        EscapeAttempted(combatant=c.id, grappler=hold.grappler, skill=cmd.skill, total=roll.total, dc=hold.dc, success=success)
    )
    if success:
        _end_grapple(tx, hold.grappler, c.id, "escaped")


def _release(tx: Tx, cmd: ReleaseGrapple) -> None:
    grappler = tx.combatant(cmd.grappler)
    target = tx.combatant(cmd.target)
    problem = not_grappling(tx.state, grappler.id, target.id)
    if problem:
        raise RuleError(
            "grapple/none",
            problem,
            allowed=", ".join(g.target for g in tx.state.rules.grapples if g.grappler == grappler.id) or "no grapples to release",
        )
    _end_grapple(tx, grappler.id, target.id, "released")


def end_broken_grapples(tx: Tx) -> None:
    """After every command: a grapple ends when its grappler is Incapacitated or gone, its
    target is dead or gone, or the GM removed the Grappled condition."""
    for g in tx.state.rules.grapples:
        grappler = tx.state.combatants.get(g.grappler)
        target = tx.state.combatants.get(g.target)
        if grappler is None or target is None:
            _end_grapple(tx, g.grappler, g.target, "left the fight")
        elif is_incapacitated(grappler):
            _end_grapple(
                tx,
                g.grappler,
                g.target,
                f"{grappler.name} is {grappler.status if grappler.status != 'active' else 'incapacitated'}",
            )
        elif target.status == "dead":
            _end_grapple(tx, g.grappler, g.target, f"{target.name} died")
        elif not any(c.name == GRAPPLED and c.source == g.grappler for c in target.conditions):
            _end_grapple(tx, g.grappler, g.target, "no longer grappled")


def _on_strike(state: EncounterState, e: UnarmedStrikeMade) -> EncounterState:
    state = with_combatant(state, e.attacker, economy=economy_after_attack(state.combatants[e.attacker], e.uses))
    if e.opportunity:
        state = opportunity_taken(state, e.attacker, e.target)
    return state


def _on_grapple_started(state: EncounterState, e: GrappleStarted) -> EncounterState:
    grapple = VariantGrapple(grappler=e.grappler, target=e.target, dc=e.dc)
    return with_rules(state, grapples=state.rules.grapples + (grapple,))


def _on_grapple_ended(state: EncounterState, e: GrappleEnded) -> EncounterState:
    kept = tuple(g for g in state.rules.grapples if (g.grappler, g.target) != (e.grappler, e.target))
    return with_rules(state, grapples=kept)


def _on_escape(state: EncounterState, e: EscapeAttempted) -> EncounterState:
    c = state.combatants[e.combatant]
    return with_combatant(state, c.id, economy=msgspec.structs.replace(c.economy, action=False))


RULES = Rules(
    handlers={UnarmedStrike: unarmed_strike, EscapeGrapple: _escape, ReleaseGrapple: _release},
    appliers={
        UnarmedStrikeMade: _on_strike,
        GrappleStarted: _on_grapple_started,
        GrappleEnded: _on_grapple_ended,
        Shoved: lambda s, e: s,
        EscapeAttempted: _on_escape,
    },
    narration={
        UnarmedStrikeMade: lambda n, e: (
            f"{n.name(e.attacker)} tries to {e.option} {n.name(e.target)} "
            f"({'' if e.dc is None else f'DC {e.dc} '}Constitution save): {'resisted' if e.saved else 'it works'}"
        ),
        GrappleStarted: lambda n, e: (
            f"{n.name(e.grappler)} grapples {n.name(e.target)}" + ("" if e.dc is None else f" (escape DC {e.dc})")
        ),
        GrappleEnded: lambda n, e: f"{n.name(e.grappler)}'s grapple on {n.name(e.target)} ends: {e.reason}",
        Shoved: lambda n, e: f"{n.name(e.attacker)} pushes {n.name(e.target)} {e.feet} ft away",
        EscapeAttempted: lambda n, e: (
            f"{n.name(e.combatant)} tries to escape {n.name(e.grappler)}'s grapple: "
            f"{e.skill} {e.total}{'' if e.dc is None else f' vs DC {e.dc}'} - {'free' if e.success else 'still held'}"
        ),
    },
)
