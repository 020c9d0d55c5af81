"""To hit, criticals and weapon damage.

- "A to hit roll is made with a d20 + the bonus of the applicable skill" against the
  target's AC or a spell DC; a creature at half HP or below takes -2.
- Disadvantage: called shots ("Aiming for a specific location on a target"), shots outside
  a weapon's accurate range, a target under cover, subdual attacks, a foe's Parry/Dodge.
  Advantage: sneak attack ("If an attacker successfully used the Stealth skill in the
  previous round and attacks an unsuspecting target"); the GM's own reasons either way.
- "A roll of 1 on a d20 for to hit is a critical failure and always misses"; what else
  happens is the GM's (a fumble effect in words). "A roll of 20 ... always hits"; with a
  weapon "the weapon damage rolled for that attack is doubled" (Tammy's 5 becomes 10), or
  the GM applies a custom effect instead: "The custom effects take the place of doubling
  damage and are not to be stacked with the double damage effect."
- Optional weapon tiers (setting `weapon_tiers`): "Masterwork: Rolls DMG dice with ADV ...
  Shoddy: Rolls DMG dice with DIS", for physical weapons and creatures' physical attacks only.

Readings: a critical doubles the whole damage roll ("doubles the amount of damage rolled");
a spell's critical doubles nothing by itself ("For spells, the effect of a critical success
is listed in the spell description": the GM gives it as the critical effect); a custom
critical or fumble effect is said with the attack and recorded only if the die shows 20 or 1;
a tiered roll of several dice (2d6) is rolled twice and the better (or worse) total kept.
Conditions change attacks as the shared condition table says (prone, restrained...).
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

from combat.fivee.attacks import choose_attack
from combat.kernel.commands import Command
from combat.fivee.conditions import attack_modifiers
from combat.kernel.decider import Tx, Applier, Handler, Narrate
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile, Event
from combat.rulesets.declared_d10.declarations import require_declared
from combat.rulesets.declared_d10.economy import require_unspent, spend
from combat.rulesets.declared_d10.rolls import roll_d20
from combat.rulesets.declared_d10.state import can_act, traits_of
from combat.rulesets.declared_d10.wounds import deal_damage
from combat.kernel.state import Combatant, EncounterState, with_rules
from combat.fivee.turns import require_able, require_turn

__all__ = [
    "ATTACK_FITS",
    "D10Attack",
    "D10FreeAttack",
    "D10AttackRolled",
    "tiered",
    "situation",
    "resolve",
    "HANDLERS",
    "APPLIERS",
    "NARRATION",
]

# A wand's blast is a use of an item; a firebolt is a spell: both are attack rolls.
ATTACK_FITS = ("attack", "cast", "use_item")
_DICE = re.compile(r"(\d*)d(\d+)")


class D10Attack(Command, frozen=True, kw_only=True):
    gm_fields: ClassVar[tuple[str, ...]] = ("advantage", "disadvantage", "cinematic", "vs_dc")

    attacker: str
    target: str
    attack: str | None = None
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    cinematic: str | None = None  # the GM's reason for Cinematic Advantage
    called_shot: str | None = None  # what is aimed at
    long_range: bool = False
    cover: bool = False
    subdual: bool = False
    sneak_attack: bool = False
    vs_dc: int | None = None  # a spell DC instead of the target's AC
    critical_effect: str | None = None  # instead of doubling, if the die shows 20
    critical_forgoes_damage: bool = False
    fumble_effect: str | None = None  # if the die shows 1
    faces: tuple[int, ...] | None = None
    damage_faces: tuple[int, ...] | None = None


class D10FreeAttack(Command, frozen=True, kw_only=True):
    """Take a free attack that was offered (a foe moved away, fled, or failed to disengage)."""

    gm_fields: ClassVar[tuple[str, ...]] = ("advantage", "disadvantage")

    attacker: str
    target: str
    attack: str | None = None
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    faces: tuple[int, ...] | None = None
    damage_faces: tuple[int, ...] | None = None


class D10AttackRolled(Event, frozen=True, kw_only=True):
    attacker: str
    target: str
    attack: str
    roll_mode: Literal["disadvantage", "normal", "advantage", "cinematic"]
    reasons: tuple[str, ...] = ()
    to_hit_modifier: int = 0
    total: int
    natural: int
    against: Literal["AC", "DC"] = "AC"
    target_number: int
    hit: bool
    critical: bool = False
    critical_effect: str | None = None
    fumble_effect: str | None = None
    subdual: bool = False
    free: bool = False


def tiered(notation: str, tier: str) -> str:
    """Masterwork rolls the damage dice with Advantage, shoddy with Disadvantage."""
    keep = {"masterwork": "kh1", "shoddy": "kl1"}.get(tier)
    if keep is None:
        return notation

    def twice(m: re.Match[str]) -> str:
        count, sides = int(m.group(1) or 1), m.group(2)
        return f"2d{sides}{keep}" if count == 1 else f"({count}d{sides},{count}d{sides}){keep}"

    return _DICE.sub(twice, notation)


def situation(tx: Tx, attacker: Combatant, target: Combatant, melee: bool) -> tuple[list[str], list[str]]:
    """Advantage and Disadvantage from the fight itself: conditions and a Parry/Dodge."""
    adv, dis = attack_modifiers(attacker, target, melee)
    if target.id in tx.state.rules.parrying and target.status == "active":
        dis.append(f"{target.name} parries and dodges")
    return adv, dis


def resolve(
    tx: Tx,
    attacker: Combatant,
    target: Combatant,
    profile: AttackProfile,
    *,
    advantage: tuple[str, ...] = (),
    disadvantage: tuple[str, ...] = (),
    cinematic: str | None = None,
    called_shot: str | None = None,
    long_range: bool = False,
    cover: bool = False,
    subdual: bool = False,
    sneak_attack: bool = False,
    vs_dc: int | None = None,
    critical_effect: str | None = None,
    critical_forgoes_damage: bool = False,
    fumble_effect: str | None = None,
    faces: tuple[int, ...] | None = None,
    damage_faces: tuple[int, ...] | None = None,
    free: bool = False,
) -> D10AttackRolled:
    if target.status in ("dead", "fled"):
        raise RuleError("target/dead", f"{target.name} is {target.status}", allowed="a target still in the fight")
    if target.id == attacker.id:
        raise RuleError("target/self", f"{attacker.name} cannot attack itself")
    adv, dis = situation(tx, attacker, target, profile.kind == "melee")
    adv += advantage
    dis += disadvantage
    if called_shot:
        dis.append(f"called shot: {called_shot}")
    if long_range:
        dis.append("outside the attack's accurate range")
    if cover:
        dis.append(f"{target.name} is under cover")
    if subdual:
        dis.append("subdual attack")
    if sneak_attack:
        if tx.state.rules.stealthy.get(attacker.id) != tx.state.round - 1:
            raise RuleError(
                "attack/no-sneak",
                f"{attacker.name} did not succeed at Stealth in the previous round",
                allowed="d10_sneak in one round, then sneak_attack in the next",
            )
        adv.append("sneak attack")
    roll, mode, natural, reasons, penalty = roll_d20(
        tx, attacker, profile.bonus, purpose="to hit", advantage=adv, disadvantage=dis, cinematic=cinematic, to_hit=True, faces=faces
    )
    number = vs_dc if vs_dc is not None else target.ac
    hit = natural == 20 or (natural != 1 and roll.total >= number)
    critical = natural == 20
    custom = critical_effect if critical else None
    event = D10AttackRolled(
        attacker=attacker.id,
        target=target.id,
        attack=profile.name,
        roll_mode=mode,  # type: ignore[arg-type]
        reasons=tuple(reasons),
        to_hit_modifier=penalty,
        total=roll.total,
        natural=natural,
        against="DC" if vs_dc is not None else "AC",
        target_number=number,
        hit=hit,
        critical=critical,
        critical_effect=custom,
        fumble_effect=fumble_effect if natural == 1 else None,
        subdual=subdual,
        free=free,
    )
    tx.emit(event)
    if hit and not (custom and critical_forgoes_damage):
        _damage(tx, attacker, target, profile, critical=critical and custom is None, subdual=subdual, faces=damage_faces)
    return event


def _damage(tx: Tx, attacker: Combatant, target: Combatant, profile: AttackProfile, *, critical: bool, subdual: bool, faces) -> None:
    traits = traits_of(tx.state, attacker.id)
    spell = profile.name in traits.spells
    ignores_dr = profile.name in traits.ignores_dr
    if traits_of(tx.state, target.id).minion:
        deal_damage(tx, target.id, 0, source=attacker.id, damage_type=profile.damage_type, subdual=subdual, hit=True)
        return
    notation = profile.damage
    if tx.state.settings.get("weapon_tiers", False) and not spell:
        notation = tiered(notation, traits.weapon_tiers.get(profile.name, "common"))
    rolled = max(0, tx.roll(notation, purpose=f"damage ({profile.name})", roller=attacker.id, faces=faces).total)
    deal_damage(
        tx,
        target.id,
        rolled,
        source=attacker.id,
        damage_type=profile.damage_type,
        doubled=critical and not spell,
        ignores_dr=ignores_dr,
        subdual=subdual,
        hit=True,
    )


def _attack(tx: Tx, cmd: D10Attack) -> None:
    attacker = require_turn(tx, cmd.attacker)
    require_able(attacker, "attack")
    target = tx.combatant(cmd.target)
    require_declared(tx, attacker, ATTACK_FITS, doing=f"attack {target.name}", target=target.id)
    require_unspent(tx, attacker, "attack")
    resolve(
        tx,
        attacker,
        target,
        choose_attack(attacker, cmd.attack),
        advantage=cmd.advantage,
        disadvantage=cmd.disadvantage,
        cinematic=cmd.cinematic,
        called_shot=cmd.called_shot,
        long_range=cmd.long_range,
        cover=cmd.cover,
        subdual=cmd.subdual,
        sneak_attack=cmd.sneak_attack,
        vs_dc=cmd.vs_dc,
        critical_effect=cmd.critical_effect,
        critical_forgoes_damage=cmd.critical_forgoes_damage,
        fumble_effect=cmd.fumble_effect,
        faces=cmd.faces,
        damage_faces=cmd.damage_faces,
    )


def _free_attack(tx: Tx, cmd: D10FreeAttack) -> None:
    attacker = tx.combatant(cmd.attacker)
    target = tx.combatant(cmd.target)
    offers = tx.state.rules.free_attacks
    if not any(o.attacker == attacker.id and o.target == target.id for o in offers):
        raise RuleError(
            "attack/no-free-attack",
            f"{attacker.name} has no free attack against {target.name} open",
            allowed=", ".join(f"{o.attacker} at {o.target}" for o in offers) or "no free attacks open",
        )
    if not can_act(tx.state, attacker):
        raise RuleError("combatant/incapacitated", f"{attacker.name} cannot act this round")
    require_able(attacker, "attack")
    resolve(
        tx,
        attacker,
        target,
        choose_attack(attacker, cmd.attack, melee_only=True),
        advantage=cmd.advantage,
        disadvantage=cmd.disadvantage,
        faces=cmd.faces,
        damage_faces=cmd.damage_faces,
        free=True,
    )


def _on_attack(state: EncounterState, e: D10AttackRolled) -> EncounterState:
    if not e.free:
        return spend(state, "attack")
    offers = state.rules.free_attacks
    taken = next(i for i, o in enumerate(offers) if (o.attacker, o.target) == (e.attacker, e.target))
    return with_rules(state, free_attacks=offers[:taken] + offers[taken + 1 :])


def _line(n, e: D10AttackRolled) -> str:
    kind = "takes a free attack at" if e.free else "attacks"
    head = f"{n.name(e.attacker)} {kind} {n.name(e.target)} ({e.attack}{', subdual' if e.subdual else ''})"
    mode = "" if e.roll_mode == "normal" else f" with {e.roll_mode if e.roll_mode != 'cinematic' else 'Cinematic Advantage'}"
    why = f" [{'; '.join(e.reasons)}]" if e.reasons else ""
    wound = f" (wounded {e.to_hit_modifier:+d})" if e.to_hit_modifier else ""
    score = f"{e.total}{mode}{wound} vs {e.against} {e.target_number}{why}"
    if not e.hit:
        fumble = f"; fumble: {e.fumble_effect}" if e.fumble_effect else ""
        return f"{head}: {score}, " + ("natural 1, critical failure" if e.natural == 1 else "miss") + fumble
    if e.critical:
        return f"{head}: {score}, natural 20, critical " + (f"success: {e.critical_effect}" if e.critical_effect else "hit")
    return f"{head}: {score}, hit"


HANDLERS: dict[type, Handler] = {D10Attack: _attack, D10FreeAttack: _free_attack}
APPLIERS: dict[type, Applier] = {D10AttackRolled: _on_attack}
NARRATION: dict[type, Narrate] = {D10AttackRolled: _line}
