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
from typing import Any, ClassVar, Literal

import msgspec

from combat.common.attacks import choose_attack
from combat.common.condition_effects import attack_modifiers
from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile, Event
from combat.kernel.hidden import Hidden
from combat.kernel.state import Combatant, EncounterState, with_rules
from combat.rulesets.declared_d10.acting import acting_problem, gone, name_of, require_acting, unable
from combat.rulesets.declared_d10.declarations import declaration_problem, require_declared
from combat.rulesets.declared_d10.economy import already_used, require_unspent, spend
from combat.rulesets.declared_d10.rolls import penalty_for, roll_d20, surprise_reasons
from combat.rulesets.declared_d10.state import traits_of
from combat.rulesets.declared_d10.wounds import deal_damage

__all__ = [
    "ATTACK_FITS",
    "D10Attack",
    "D10FreeAttack",
    "D10AttackRolled",
    "tiered",
    "parries",
    "situation",
    "no_sneak_attack",
    "free_attack_open",
    "resolve",
    "AttackOptions",
    "require_target",
    "reasons",
    "RULES",
]

# The reasons a surprise round writes on a roll (rolls.surprise_reasons), as they appear in it.
SURPRISE_REASONS = {
    "advantage: surprise round": "Advantage from the surprise round",
    "advantage: full surprise round": "Advantage from the full surprise round",
    "disadvantage: surprised this round": "Disadvantage for being surprised",
}
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
    hidden: ClassVar[Hidden] = Hidden.of(
        target=("target_number",), attacker=("natural", "attack", "to_hit_modifier"), aloud=("total",)
    )


def tiered(notation: str, tier: str) -> str:
    """Masterwork rolls the damage dice with Advantage, shoddy with Disadvantage."""
    keep = {"masterwork": "kh1", "shoddy": "kl1"}.get(tier)
    if keep is None:
        return notation

    def twice(m: re.Match[str]) -> str:
        count, sides = int(m.group(1) or 1), m.group(2)
        return f"2d{sides}{keep}" if count == 1 else f"({count}d{sides},{count}d{sides}){keep}"

    return _DICE.sub(twice, notation)


def parries(state: EncounterState, target: Combatant) -> bool:
    """'Disadvantage added to foe to hit roll until your next action', while it stands."""
    return target.id in state.rules.parrying and target.status == "active"


def situation(tx: Tx, attacker: Combatant, target: Combatant, melee: bool) -> tuple[list[str], list[str]]:
    """Advantage and Disadvantage from the fight itself: conditions and a Parry/Dodge."""
    adv, dis = attack_modifiers(attacker, target, melee)
    if parries(tx.state, target):
        dis.append(f"{target.name} parries and dodges")
    return adv, dis


def no_sneak_attack(state: EncounterState, attacker: Combatant) -> str | None:
    """'If an attacker successfully used the Stealth skill in the previous round': else the problem."""
    if state.rules.stealthy.get(attacker.id) == state.round - 1:
        return None
    return f"{attacker.name} did not succeed at Stealth in the previous round"


def free_attack_open(state: EncounterState, attacker: str, target: str) -> str | None:
    """A free attack is taken only while one is open: the problem when none is, else None."""
    if any((o.attacker, o.target) == (attacker, target) for o in state.rules.free_attacks):
        return None
    return f"{name_of(state, attacker)} has no free attack at {name_of(state, target)} open"


class AttackOptions(msgspec.Struct, frozen=True, kw_only=True):
    """How an attack is made, as the command says (`D10Attack`'s fields of the same names)."""

    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    cinematic: str | None = None
    called_shot: str | None = None
    long_range: bool = False
    cover: bool = False
    subdual: bool = False
    sneak_attack: bool = False
    vs_dc: int | None = None
    critical_effect: str | None = None
    critical_forgoes_damage: bool = False
    fumble_effect: str | None = None
    faces: tuple[int, ...] | None = None
    damage_faces: tuple[int, ...] | None = None
    free: bool = False


def resolve(tx: Tx, attacker: Combatant, target: Combatant, profile: AttackProfile, options: AttackOptions) -> D10AttackRolled:
    """The to hit roll against AC (or a spell DC) and, on a hit, the damage."""
    require_target(tx.state, attacker, target)
    adv, dis = reasons(tx, attacker, target, profile, options)
    roll, mode, natural, said, penalty = roll_d20(
        tx,
        attacker,
        profile.bonus,
        purpose="to hit",
        advantage=adv,
        disadvantage=dis,
        cinematic=options.cinematic,
        to_hit=True,
        faces=options.faces,
    )
    number = options.vs_dc if options.vs_dc is not None else target.ac
    hit = natural == 20 or (natural != 1 and roll.total >= number)
    critical = natural == 20
    custom = options.critical_effect if critical else None
    event = D10AttackRolled(
        attacker=attacker.id,
        target=target.id,
        attack=profile.name,
        roll_mode=mode,  # type: ignore[arg-type]
        reasons=tuple(said),
        to_hit_modifier=penalty,
        total=roll.total,
        natural=natural,
        against="DC" if options.vs_dc is not None else "AC",
        target_number=number,
        hit=hit,
        critical=critical,
        critical_effect=custom,
        fumble_effect=options.fumble_effect if natural == 1 else None,
        subdual=options.subdual,
        free=options.free,
    )
    tx.emit(event)
    if hit and not (custom and options.critical_forgoes_damage):
        critical_doubles = critical and custom is None
        _damage(tx, attacker, target, profile, critical=critical_doubles, subdual=options.subdual, faces=options.damage_faces)
    return event


def require_target(state: EncounterState, attacker: Combatant, target: Combatant) -> None:
    problem = gone(state, target.id)
    if problem:
        raise RuleError("target/dead", problem, allowed="a target still in the fight")
    if target.id == attacker.id:
        raise RuleError("target/self", f"{attacker.name} cannot attack itself")


def reasons(
    tx: Tx, attacker: Combatant, target: Combatant, profile: AttackProfile, options: AttackOptions
) -> tuple[list[str], list[str]]:
    """The reasons for Advantage and for Disadvantage: the fight's, the GM's, and the attack's own."""
    adv, dis = situation(tx, attacker, target, profile.kind == "melee")
    adv += options.advantage
    dis += options.disadvantage
    if options.called_shot:
        dis.append(f"called shot: {options.called_shot}")
    if options.long_range:
        dis.append("outside the attack's accurate range")
    if options.cover:
        dis.append(f"{target.name} is under cover")
    if options.subdual:
        dis.append("subdual attack")
    if options.sneak_attack:
        problem = no_sneak_attack(tx.state, attacker)
        if problem:
            raise RuleError("attack/no-sneak", problem, allowed="d10_sneak in one round, then sneak_attack in the next")
        adv.append("sneak attack")
    return adv, dis


def _damage(
    tx: Tx, attacker: Combatant, target: Combatant, profile: AttackProfile, *, critical: bool, subdual: bool, faces
) -> None:
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
    attacker = require_acting(tx, cmd.attacker, "attack")
    target = tx.combatant(cmd.target)
    require_declared(tx, attacker, ATTACK_FITS, doing=f"attack {target.name}", target=target.id)
    require_unspent(tx, attacker, "attack")
    options = AttackOptions(**{f: getattr(cmd, f) for f in AttackOptions.__struct_fields__ if f != "free"})
    resolve(tx, attacker, target, choose_attack(attacker, cmd.attack), options)


def _free_attack(tx: Tx, cmd: D10FreeAttack) -> None:
    attacker = tx.combatant(cmd.attacker)
    target = tx.combatant(cmd.target)
    problem = free_attack_open(tx.state, attacker.id, target.id)
    if problem:
        offers = tx.state.rules.free_attacks
        allowed = ", ".join(f"{o.attacker} at {o.target}" for o in offers) or "no free attacks open"
        raise RuleError("attack/no-free-attack", problem, allowed=allowed)
    problem = unable(tx.state, attacker, "take a free attack")
    if problem:
        raise RuleError("combatant/incapacitated", problem)
    options = AttackOptions(
        advantage=cmd.advantage, disadvantage=cmd.disadvantage, faces=cmd.faces, damage_faces=cmd.damage_faces, free=True
    )
    resolve(tx, attacker, target, choose_attack(attacker, cmd.attack, melee_only=True), options)


def _on_attack(state: EncounterState, e: D10AttackRolled) -> EncounterState:
    if not e.free:
        return spend(state, "attack")
    offers = state.rules.free_attacks
    taken = next(i for i, o in enumerate(offers) if (o.attacker, o.target) == (e.attacker, e.target))
    return with_rules(state, free_attacks=offers[:taken] + offers[taken + 1 :])


def _line(n, e: D10AttackRolled) -> str:
    kind = "takes a free attack at" if e.free else "attacks"
    what = ", ".join(w for w in (e.attack, "subdual" if e.subdual else None) if w)  # attack None: a hidden attacker's
    head = f"{n.name(e.attacker)} {kind} {n.name(e.target)}" + (f" ({what})" if what else "")
    mode = "" if e.roll_mode == "normal" else f" with {e.roll_mode if e.roll_mode != 'cinematic' else 'Cinematic Advantage'}"
    why = f" [{'; '.join(e.reasons)}]" if e.reasons else ""
    wound = f" (wounded {e.to_hit_modifier:+d})" if e.to_hit_modifier else ""
    score = (
        f"{e.total}{mode}{wound} vs {e.against}" + (f" {e.target_number}" if e.target_number is not None else "") + why
    )  # None: not revealed to this reader
    if not e.hit:
        fumble = f"; fumble: {e.fumble_effect}" if e.fumble_effect else ""
        return f"{head}: {score}, " + ("natural 1, critical failure" if e.natural == 1 else "miss") + fumble
    if e.critical:
        return f"{head}: {score}, natural 20, critical " + (f"success: {e.critical_effect}" if e.critical_effect else "hit")
    return f"{head}: {score}, hit"


def _check_attack(state: EncounterState, e: D10AttackRolled, ctx: dict[str, Any]) -> str | None:
    """What the guards ask, then the numbers the fight adds to the roll."""
    attacker = state.combatants.get(e.attacker)
    if attacker is None:
        return f"{e.attacker} is not in the fight any more"
    if e.free:
        problem = free_attack_open(state, e.attacker, e.target) or unable(state, attacker, "take a free attack")
    else:
        doing = f"attack {name_of(state, e.target)}"
        problem = (
            acting_problem(state, e.attacker, "attack")
            or declaration_problem(state, attacker, ATTACK_FITS, doing, e.target)
            or already_used(state, attacker, "attack")
        )
    problem = problem or gone(state, e.target)
    return problem or _numbers_differ(state, e, attacker, state.combatants[e.target])


def _numbers_differ(state: EncounterState, e: D10AttackRolled, attacker: Combatant, target: Combatant) -> str | None:
    """What the fight itself adds to a to-hit roll: the wound modifier, Parry/Dodge, surprise, sneak attack."""
    penalty = penalty_for(state, attacker, to_hit=True)
    if penalty != e.to_hit_modifier:
        total = e.total - e.to_hit_modifier + penalty
        hit = e.natural == 20 or (e.natural != 1 and total >= e.target_number)
        return (
            f"{attacker.name}'s wound modifier to hit is {penalty:+d} now, not {e.to_hit_modifier:+d}: "
            f"the same die gives {total} vs {e.against} {e.target_number}, a {'hit' if hit else 'miss'}"
        )
    if "advantage: sneak attack" in e.reasons:
        problem = no_sneak_attack(state, attacker)
        if problem:
            return f"{problem}: no sneak attack"
    parrying = parries(state, target)
    if parrying != (f"disadvantage: {target.name} parries and dodges" in e.reasons):
        return (
            f"{target.name} was parrying and dodging: the attack had Disadvantage"
            if parrying
            else f"{target.name} was not parrying and dodging now: no Disadvantage for it"
        )
    return _surprise_differs(state, attacker, e.reasons)


def _surprise_differs(state: EncounterState, c: Combatant, reasons: tuple[str, ...]) -> str | None:
    adv, dis = surprise_reasons(state.rules, c)
    wanted = {f"advantage: {r}" for r in adv} | {f"disadvantage: {r}" for r in dis}
    given = {r for r in reasons if r in SURPRISE_REASONS}
    missing, extra = wanted - given, given - wanted
    if missing:
        return f"{c.name} rolls with {SURPRISE_REASONS[next(iter(missing))]} now; the roll did not"
    if extra:
        return f"{c.name} has no {SURPRISE_REASONS[next(iter(extra))]} now; the roll had it"
    return None


RULES = Rules(
    handlers={D10Attack: _attack, D10FreeAttack: _free_attack},
    appliers={D10AttackRolled: _on_attack},
    checks={D10AttackRolled: _check_attack},
    narration={D10AttackRolled: _line},
)
