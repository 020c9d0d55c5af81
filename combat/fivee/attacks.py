"""Making an attack: d20 + bonus against AC, Advantage and Disadvantage, Critical Hits, damage.

Shared by the 5e-family rulesets; each one passes its own modifiers (cover, flanking...).
"""

from __future__ import annotations

import msgspec

from combat.kernel import dice
from combat.fivee.actions import require_reaction, spend_check
from combat.kernel.commands import Attack, OpportunityAttack
from combat.fivee.conditions import AUTO_CRIT_IN_MELEE, attack_modifiers
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackMade, AttackProfile, ConditionEnded
from combat.fivee.concentration import end_concentration
from combat.fivee.dying import CombatantKnockedOut
from combat.fivee.hitpoints import adjusted_damage, after_damage, take_damage
from combat.kernel.state import Combatant, EncounterState
from combat.fivee.turns import require_able, require_turn

__all__ = ["COVER_AC", "roll_mode", "d20_notation", "choose_attack", "resolve_attack", "HANDLERS", "APPLIERS"]

# "Half +2 bonus to AC ... Three-Quarters +5 ... Total: can't be targeted directly"
COVER_AC = {"none": 0, "half": 2, "three-quarters": 5}


def roll_mode(advantage: list[str], disadvantage: list[str]) -> str:
    """'If circumstances cause a roll to have both Advantage and Disadvantage, ... neither.'"""
    if advantage and not disadvantage:
        return "advantage"
    if disadvantage and not advantage:
        return "disadvantage"
    return "normal"


def d20_notation(mode: str, bonus: int) -> str:
    die = {"advantage": "2d20kh1", "disadvantage": "2d20kl1"}.get(mode, "1d20")
    return f"{die}{bonus:+d}"


def choose_attack(c: Combatant, name: str | None, *, melee_only: bool = False) -> AttackProfile:
    options = [a for a in c.attacks if a.kind == "melee" or not melee_only]
    if not options:
        raise RuleError("attack/none", f"{c.name} has no {'melee ' if melee_only else ''}attack", allowed="add attacks to its stat block")
    if name is None:
        return options[0]
    for a in options:
        if a.name.lower() == name.lower():
            return a
    raise RuleError("attack/unknown", f"{c.name} has no attack called '{name}'", allowed=", ".join(a.name for a in options))


def range_disadvantage(attacker: Combatant, target: Combatant, profile: AttackProfile, distance: int | None) -> tuple[str, ...]:
    """'Your attack roll has Disadvantage when your target is beyond normal range, and you can't
    attack a target beyond long range'; a melee attack reaches only as far as its reach."""
    if distance is None:
        return ()
    if distance < 0:
        raise RuleError("attack/distance", f"a distance of {distance} ft", allowed="0 or more feet")
    if profile.kind == "melee":
        if distance > profile.reach:
            raise RuleError("attack/out-of-reach", f"{target.name} is {distance} ft away, beyond the {profile.reach} ft reach of {profile.name}",
                            allowed=f"a target within {profile.reach} ft, or move closer first")
        return ()
    normal = profile.normal_range
    longest = profile.long_range or normal
    if longest is not None and distance > longest:
        raise RuleError("attack/out-of-range", f"{target.name} is {distance} ft away, beyond the {longest} ft range of {profile.name}",
                        allowed=f"a target within {longest} ft")
    if normal is not None and distance > normal:
        return (f"beyond normal range ({normal} ft)",)
    return ()


def resolve_attack(
    tx: Tx,
    attacker: Combatant,
    target: Combatant,
    profile: AttackProfile,
    *,
    advantage: tuple[str, ...] = (),
    disadvantage: tuple[str, ...] = (),
    ac_bonus: int = 0,
    roll_bonus: str | None = None,
    faces: tuple[int, ...] | None,
    damage_faces: tuple[int, ...] | None,
    uses: str,
    opportunity: bool = False,
    knock_out: bool = False,
) -> AttackMade:
    if target.status == "dead":
        raise RuleError("target/dead", f"{target.name} is already dead", allowed="a living target")
    if target.id == attacker.id:
        raise RuleError("target/self", f"{attacker.name} cannot attack itself")
    melee = profile.kind == "melee"
    if knock_out and not melee:
        # "When you would reduce a creature to 0 Hit Points with a melee attack, you can instead ..."
        raise RuleError("attack/knock-out-ranged", f"{profile.name} is a ranged attack; only a melee attack can knock out",
                        allowed="a melee attack, or knock_out: false")
    adv, dis = attack_modifiers(attacker, target, melee)
    adv += list(advantage)
    dis += list(disadvantage)
    helper = next(
        (h.helper for h in tx.state.helps if h.against == target.id and tx.state.combatants[h.helper].side == attacker.side and h.helper != attacker.id),
        None,
    )
    if helper:
        adv.append(f"helped by {tx.state.combatants[helper].name}")
    mode = roll_mode(adv, dis)
    notation = d20_notation(mode, profile.bonus) + (f"+{roll_bonus.lstrip('+')}" if roll_bonus else "")
    roll = tx.roll(notation, purpose="attack", roller=attacker.id, faces=faces)
    natural = dice.kept_d20(roll.dice) or 0
    ac = target.ac + ac_bonus
    # "a natural 20 hits and is a Critical Hit; a natural 1 misses"
    hit = natural == 20 or (natural != 1 and roll.total >= ac)
    critical = hit and (natural == 20 or (melee and any(target.has(c) for c in AUTO_CRIT_IN_MELEE)))
    rolled = damage = 0
    if hit:
        notation = dice.double_dice(profile.damage) if critical else profile.damage
        rolled = max(0, tx.roll(notation, purpose="damage", roller=attacker.id, faces=damage_faces).total)
        damage = adjusted_damage(target, rolled, profile.damage_type)
    event = AttackMade(
        attacker=attacker.id,
        target=target.id,
        attack=profile.name,
        total=roll.total,
        natural=natural,
        target_ac=ac,
        roll_mode=mode,  # type: ignore[arg-type]
        hit=hit,
        critical=critical,
        damage=damage,
        damage_rolled=rolled,
        damage_type=profile.damage_type,
        uses=uses,  # type: ignore[arg-type]
        opportunity=opportunity,
        helped_by=helper,
    )
    tx.emit(event)
    hidden = next((c for c in attacker.conditions if c.source == "hide"), None)
    if hidden is not None:
        # "If you are hidden when you make an attack roll, you give away your location."
        tx.emit(ConditionEnded(target=attacker.id, condition=hidden.name, reason="attacked from hiding"))
    if knock_out and target.hp > 0 and tx.state.combatants[target.id].hp == 0:
        # "... you can instead reduce the creature to 1 Hit Point and give it the Unconscious condition."
        tx.emit(CombatantKnockedOut(combatant=target.id, by=attacker.id))
        end_concentration(tx, target.id, "knocked out")
    else:
        after_damage(tx, target.id, damage, before=target, critical=critical)
    return event


def _attack(tx: Tx, cmd: Attack) -> None:
    attacker = tx.combatant(cmd.attacker)
    target = tx.combatant(cmd.target)
    if cmd.cover == "total":
        raise RuleError("attack/total-cover", f"{target.name} has Total Cover and can't be targeted directly", allowed="none, half or three-quarters cover")
    if cmd.readied:
        if attacker.readied is None:
            raise RuleError("attack/not-readied", f"{attacker.name} has no readied action", allowed="ready an attack with take_action ready first")
        require_reaction(attacker)
        uses = "reaction"
    else:
        require_turn(tx, attacker.id)
        require_able(attacker, "attack")
        if attacker.economy.attacks_left > 0:
            uses = "attack"
        else:
            spend_check(attacker, "action", "its action")
            uses = "action"
    profile = choose_attack(attacker, cmd.attack)
    resolve_attack(
        tx,
        attacker,
        target,
        profile,
        advantage=cmd.advantage,
        disadvantage=cmd.disadvantage + range_disadvantage(attacker, target, profile, cmd.distance),
        ac_bonus=COVER_AC[cmd.cover],
        roll_bonus=cmd.roll_bonus,
        faces=cmd.faces,
        damage_faces=cmd.damage_faces,
        uses=uses,
        knock_out=cmd.knock_out,
    )


def _opportunity_attack(tx: Tx, cmd: OpportunityAttack) -> None:
    attacker = tx.combatant(cmd.attacker)
    target = tx.combatant(cmd.target)
    # A spent reaction or an incapacitated attacker is the reason to give, not a missing opportunity.
    require_reaction(attacker)
    if (attacker.id, target.id) not in tx.state.opportunities:
        raise RuleError(
            "attack/no-opportunity",
            f"{target.name} has not left {attacker.name}'s reach without Disengaging this turn",
            allowed=", ".join(f"{a} at {t}" for a, t in tx.state.opportunities) or "no opportunity attacks open",
        )
    resolve_attack(
        tx,
        attacker,
        target,
        choose_attack(attacker, cmd.attack, melee_only=True),
        advantage=cmd.advantage,
        disadvantage=cmd.disadvantage,
        faces=cmd.faces,
        damage_faces=cmd.damage_faces,
        uses="reaction",
        opportunity=True,
    )


def _on_attack(state: EncounterState, e: AttackMade) -> EncounterState:
    attacker = state.combatants[e.attacker]
    economy = attacker.economy
    if e.uses == "action":
        economy = msgspec.structs.replace(economy, action=False, attacks_left=attacker.attacks_per_action - 1)
    elif e.uses == "attack":
        economy = msgspec.structs.replace(economy, attacks_left=economy.attacks_left - 1)
    elif e.uses == "reaction":
        economy = msgspec.structs.replace(economy, reaction=False)
    elif e.uses == "bonus_action":
        economy = msgspec.structs.replace(economy, bonus_action=False)
    readied = None if e.uses == "reaction" else attacker.readied
    combatants = {**state.combatants, e.attacker: msgspec.structs.replace(attacker, economy=economy, readied=readied)}
    combatants[e.target] = take_damage(combatants[e.target], e.damage)
    helps = state.helps
    if e.helped_by is not None:
        used = [i for i, h in enumerate(helps) if h.helper == e.helped_by and h.against == e.target][:1]
        helps = tuple(h for i, h in enumerate(helps) if i not in used)
    opportunities = tuple(o for o in state.opportunities if o != (e.attacker, e.target)) if e.opportunity else state.opportunities
    return msgspec.structs.replace(state, combatants=combatants, helps=helps, opportunities=opportunities)


HANDLERS = {Attack: _attack, OpportunityAttack: _opportunity_attack}
APPLIERS = {AttackMade: _on_attack}
