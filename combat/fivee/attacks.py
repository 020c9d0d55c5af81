"""Making an attack: d20 + bonus against AC, Advantage and Disadvantage, Critical Hits, damage.

Shared by the 5e-family rulesets; each one passes its own modifiers (cover, flanking...).
"""

from __future__ import annotations

import functools
from collections.abc import Callable
from typing import Any

import msgspec

from combat.common.attacks import COVER_AC, choose_attack, d20_notation, roll_mode
from combat.common.concentration import end_concentration
from combat.common.condition_effects import AUTO_CRIT_IN_MELEE, attack_modifiers, d20_penalty, dodge_to_next_turn
from combat.common.creature_types import creature_type
from combat.common.effect_bonuses import effect_ac_bonus, effect_roll_dice
from combat.common.entered_dice import entering, keep
from combat.common.events import DamageTaken
from combat.common.hitpoints import adjusted_damage, after_damage
from combat.common.rider_reads import (
    advantage_marks,
    armor_class,
    attack_reasons,
    base_ac,
    least_damage,
    with_weapon_damage,
)
from combat.common.turns import require_able, require_turn
from combat.fivee.actions import attack_spent, require_reaction, spend_check
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.fivee.attack_events import AttackMade, AttackRolled, ExtraDamage, narrate_attack
from combat.fivee.damage_dice import as_rolled
from combat.fivee.damage_reduction import reduced
from combat.fivee.dying import CombatantKnockedOut
from combat.fivee.held_open import helps_of, opportunities_of, opportunity_taken, pending_damage_of
from combat.fivee.hit_damage import effect_extras, split_entered, with_weapon_bonus
from combat.fivee.mirror_image import strikes_duplicate
from combat.fivee.reaction_windows import hit_reactors, open_hit_window
from combat.fivee.sanctuary import aimed_attack
from combat.fivee.sheet_claims import critical_range, sneak_attack_landed, with_rage_damage, with_sneak_attack
from combat.fivee.spell_marks import spend_advantage_marks
from combat.fivee.until_next_turn import dodge_disadvantage, readied_of
from combat.kernel import dice
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile, ConditionEnded
from combat.kernel.state import Combatant, EncounterState, holding

__all__ = [
    "AttackOptions",
    "require_critical_range",
    "require_damage_type",
    "damage_later",
    "require_attackable",
    "require_knock_out_allowed",
    "advantage_and_disadvantage",
    "hits",
    "is_critical",
    "damage_notation",
    "extra_damage_applying",
    "resolve_attack",
    "roll_damage",
    "land_extra_damage",
    "require_no_pending_damage",
    "spend_attack",
    "RULES",
    "attack",
    "attack_with",
    "opportunity_attack",
]


def range_disadvantage(attacker: Combatant, target: Combatant, profile: AttackProfile, distance: int | None) -> tuple[str, ...]:
    """'Your attack roll has Disadvantage when your target is beyond normal range, and you can't
    attack a target beyond long range'; a melee attack reaches only as far as its reach."""
    if distance is None:
        return ()
    if distance < 0:
        raise RuleError("attack/distance", f"a distance of {distance} ft", allowed="0 or more feet")
    if profile.kind == "melee":
        if distance > profile.reach:
            raise RuleError(
                "attack/out-of-reach",
                f"{target.name} is {distance} ft away, beyond the {profile.reach} ft reach of {profile.name}",
                allowed=f"a target within {profile.reach} ft, or move closer first",
            )
        return ()
    normal = profile.normal_range
    longest = profile.long_range or normal
    if longest is not None and distance > longest:
        raise RuleError(
            "attack/out-of-range",
            f"{target.name} is {distance} ft away, beyond the {longest} ft range of {profile.name}",
            allowed=f"a target within {longest} ft",
        )
    if normal is not None and distance > normal:
        return (f"beyond normal range ({normal} ft)",)
    return ()


def already_dead(target: Combatant) -> str | None:
    """A dead creature is no target: the attack guards refuse with this, the re-checks of an
    attack after a changed past report it."""
    return f"{target.name} is already dead" if target.status == "dead" else None


def no_opportunity(state: EncounterState, attacker: str, target: str) -> str | None:
    """'You can make an Opportunity Attack when a creature that you can see leaves your reach':
    the problem when `target` has not left `attacker`'s reach this turn, else None. The
    opportunity attack guards refuse with it, the re-checks after a changed past report it."""
    if (attacker, target) in opportunities_of(state):
        return None
    name = {cid: state.combatants[cid].name if cid in state.combatants else cid for cid in (attacker, target)}
    return f"{name[target]} has not left {name[attacker]}'s reach without Disengaging this turn"


class AttackOptions(msgspec.Struct, frozen=True, kw_only=True):
    """What a command or a rule adds to an attack beyond the attacker, the target and the
    attack profile: given Advantage and Disadvantage reasons, cover's AC, a bonus die, the
    faces entered, extra damage, a wider critical range, a damage type, a knock-out, an
    attacker the target can't see, and what the attack spends (`uses`)."""

    uses: str  # action, attack, bonus_action, reaction, or none (a legendary action's)
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    ac_bonus: int = 0  # cover
    roll_bonus: str | None = None  # "1d4" (Bless), added to the d20
    faces: tuple[int, ...] | None = None  # the to-hit d20s entered
    damage_faces: tuple[int, ...] | None = None
    extra_damage: tuple[ExtraDamage, ...] = ()
    critical_range: int = 20  # 19 for Improved Critical
    damage_type: str | None = None  # replaces the profile's
    knock_out: bool = False
    attacker_unseen: bool = False  # the target can't see the attacker: a Dodge gives it nothing
    opportunity: bool = False
    # A hit may wait for its target's reactions (Shield, Uncanny Dodge, Parry): an attack
    # command's own attack, not each ray of a spell or a legendary action's (their rolls go on).
    reaction_window: bool = False


def require_critical_range(critical_range: int) -> None:
    """Improved Critical: 'Your attack rolls ... can score a Critical Hit on a roll of 19 or
    20 on the d20.' A feature widens the range; a natural 1 still misses, so 2 is the lowest."""
    if not 2 <= critical_range <= 20:
        raise RuleError(
            "attack/critical-range",
            f"a Critical Hit from a natural {critical_range}",
            allowed="2 to 20 (19 for Improved Critical: a 19 or 20)",
        )


def require_damage_type(damage_type: str | None) -> None:
    """A damage type given to replace the profile's must name one."""
    if damage_type is not None and not damage_type.strip():
        raise RuleError("attack/damage-type", "an empty damage type", allowed="a damage type such as fire, or leave it out")


def damage_later(profile: AttackProfile, options: AttackOptions) -> bool:
    """Whether the damage waits for `roll_damage`: the to-hit faces were entered alone and the
    attack has dice to roll. 'Resolve the Attack. Make the attack roll ... On a hit, you roll
    damage': the extra damage's faces then come with the rest of the damage, not before."""
    later = (
        options.faces is not None
        and options.damage_faces is None
        and (dice.has_dice(profile.damage) or any(dice.has_dice(x.dice) for x in options.extra_damage))
    )
    if later and any(x.faces is not None for x in options.extra_damage):
        raise RuleError(
            "dice/damage-later",
            "extra damage faces were entered without the attack's damage_faces",
            allowed="damage_faces with them, or no damage faces now and roll_damage once it hits",
        )
    return later


def require_attackable(attacker: Combatant, target: Combatant) -> None:
    """'Choose a Target. Pick a target within your attack's range: a creature, an object, or a
    location.' A dead creature is no longer a creature to fight, and no one attacks itself."""
    problem = already_dead(target)
    if problem:
        raise RuleError("target/dead", problem, allowed="a living target")
    if target.id == attacker.id:
        raise RuleError("target/self", f"{attacker.name} cannot attack itself")


def require_knock_out_allowed(profile: AttackProfile, knock_out: bool, later: bool) -> None:
    """Knocking out a Creature: 'When you would reduce a creature to 0 Hit Points with a melee
    attack, you can instead reduce the creature to 1 Hit Point and give it the Unconscious
    condition.' Only a melee attack, and decided with the damage, so not for damage left for later."""
    if knock_out and profile.kind != "melee":
        raise RuleError(
            "attack/knock-out-ranged",
            f"{profile.name} is a ranged attack; only a melee attack can knock out",
            allowed="a melee attack, or knock_out: false",
        )
    if knock_out and later:
        raise RuleError(
            "attack/knock-out-later",
            "a knock-out is decided with the damage, which this attack leaves for later",
            allowed="damage_faces with the to-hit faces, or no faces at all",
        )


def advantage_and_disadvantage(
    tx: Tx, attacker: Combatant, target: Combatant, melee: bool, options: AttackOptions
) -> tuple[list[str], list[str], str | None]:
    """The reasons for Advantage and for Disadvantage, and the ally whose Help gives one.

    'Determine Modifiers. The GM determines ... whether you have Advantage or Disadvantage
    against the target': the attacker's and the target's conditions ('When a creature can't
    see you, you have Advantage on attack rolls against it'), the reasons the command gives
    (range, cover of a ruleset's own), and the Help action: 'Assist an Attack Roll. You
    momentarily distract an enemy within 5 feet of you, giving Advantage to the next attack
    roll by one of your allies against that enemy.'"""
    adv, dis = attack_modifiers(attacker, target, melee)
    dis += dodge_disadvantage(
        tx.state, attacker, target, attacker_unseen=options.attacker_unseen, held=dodge_to_next_turn(tx.state)
    )
    adv += list(options.advantage)
    dis += list(options.disadvantage)
    adv += [f"{mark.name} on the target" for mark in advantage_marks(target)]
    effect_adv, effect_dis = attack_reasons(attacker, target, lambda: creature_type(tx, attacker))
    adv += effect_adv
    dis += effect_dis
    helper = next(
        (
            h.helper
            for h in helps_of(tx.state)
            if h.against == target.id and tx.state.combatants[h.helper].side == attacker.side and h.helper != attacker.id
        ),
        None,
    )
    if helper:
        adv.append(f"helped by {tx.state.combatants[helper].name}")
    return adv, dis, helper


def hits(natural: int, total: int, ac: int, critical_range: int = 20) -> bool:
    """'An attack roll hits if the roll equals or exceeds the target's Armor Class. If you roll
    a 20 on the d20 (called a "natural 20") for an attack roll, the attack hits regardless of
    any modifiers or the target's AC'; a natural 1 misses. A feature that scores a Critical Hit
    on a 19 or 20 (`critical_range`) makes that roll a Critical Hit, so it hits too."""
    return natural >= critical_range or (natural != 1 and total >= ac)


def is_critical(hit: bool, natural: int, critical_range: int, melee: bool, target: Combatant) -> bool:
    """'This is called a Critical Hit' (a natural 20, or the wider range of Improved Critical);
    and Paralyzed or Unconscious: 'Automatic Critical Hits. Any attack roll that hits you is a
    Critical Hit if the attacker is within 5 feet of you' (a melee attack)."""
    return hit and (natural >= critical_range or (melee and any(target.has(c) for c in AUTO_CRIT_IN_MELEE)))


def damage_notation(state: EncounterState, notation: str, damage_type: str, critical: bool) -> str:
    """Critical Hits: 'Roll the attack's damage dice twice, add them together, and add any
    relevant modifiers as normal. ... If the attack involves other damage dice, such as from
    the Rogue's Sneak Attack feature, you also roll those dice twice.' Then what the ruleset's
    circumstances add per die rolled (`as_rolled`: a5e's Echo)."""
    return as_rolled(state, dice.double_dice(notation) if critical else notation, damage_type)


def extra_damage_applying(extra_damage: tuple[ExtraDamage, ...], mode: str) -> tuple[ExtraDamage, ...]:
    """The extra damage this roll deals on a hit: all of it but what needs a roll mode the
    roll did not have ("plus 2 (1d4) Slashing damage if the attack roll had Advantage")."""
    return tuple(x for x in extra_damage if x.only_with is None or x.only_with == mode)


def resolve_attack(
    tx: Tx, attacker: Combatant, target: Combatant, profile: AttackProfile, options: AttackOptions
) -> AttackMade | AttackRolled:
    """Roll to hit and, in one step, the damage; with to-hit faces entered and no damage
    faces, the attack stops at an `AttackRolled` and its damage waits for `roll_damage`.
    The checks run in this order, and the first that fails is the refusal."""
    require_no_pending_damage(tx.state)
    require_critical_range(options.critical_range)
    require_damage_type(options.damage_type)
    # What the lasting spells add: Magic Weapon's bonus, Hunter's Mark's and Divine Favor's dice.
    profile = with_weapon_bonus(attacker, profile)
    options = msgspec.structs.replace(
        options, extra_damage=options.extra_damage + effect_extras(tx.state, attacker, target, profile)
    )
    two_step = damage_later(profile, options)
    require_attackable(attacker, target)
    require_knock_out_allowed(profile, options.knock_out, two_step)
    melee = profile.kind == "melee"
    adv, dis, helper = advantage_and_disadvantage(tx, attacker, target, melee, options)
    mode = roll_mode(adv, dis)
    # "When you make a D20 Test, the roll is reduced by 2 times your Exhaustion level."
    notation = (
        d20_notation(mode, profile.bonus - d20_penalty(attacker))
        + (f"+{options.roll_bonus.lstrip('+')}" if options.roll_bonus else "")
        + effect_roll_dice(attacker, "attack_rolls")
    )
    roll = tx.roll(notation, purpose="attack", roller=attacker.id, faces=options.faces)
    natural = dice.kept_d20(roll.dice) or 0
    raw_ac = base_ac(target) + options.ac_bonus + effect_ac_bonus(target)
    ac = armor_class(target, raw_ac)  # Barkskin's floor
    spend_advantage_marks(tx, target)
    hit = hits(natural, roll.total, ac, options.critical_range)
    if hit and strikes_duplicate(tx, attacker, target):
        hit = False  # "one of the duplicates is hit instead of you": the caster is not
    critical = is_critical(hit, natural, options.critical_range, melee, target)
    kind = options.damage_type or profile.damage_type
    notation = damage_notation(tx.state, profile.damage, kind, critical)
    extras = tuple(
        msgspec.structs.replace(x, dice=damage_notation(tx.state, x.dice, x.damage_type, critical))
        for x in extra_damage_applying(options.extra_damage, mode)
    )
    reactors = hit_reactors(tx, attacker, target, melee) if hit and options.reaction_window and not options.knock_out else {}
    damage_faces, extra_faces = split_entered(notation, options.damage_faces, extras) if hit else (options.damage_faces, [])
    if hit and (two_step or reactors):
        pending = AttackRolled(
            attacker=attacker.id,
            target=target.id,
            attack=profile.name,
            total=roll.total,
            natural=natural,
            target_ac=ac,
            roll_mode=mode,  # type: ignore[arg-type]
            critical=critical,
            damage_dice=notation,
            damage_type=kind,
            extra_damage=tuple(msgspec.structs.replace(x, faces=None) for x in extras),
            uses=options.uses,  # type: ignore[arg-type]
            opportunity=options.opportunity,
            helped_by=helper,
        )
        tx.emit(pending)
        _reveal_hidden(tx, attacker)
        if reactors:
            open_hit_window(
                tx,
                pending,
                reactors,
                later=two_step,
                damage_faces=damage_faces,
                extra_faces=extra_faces,
                melee=melee,
                raw_ac=raw_ac,
                resistance_faces={} if two_step else keep(tx, "resistance_faces"),
            )
        return pending
    rolled = damage = 0
    extra_taken: list[DamageTaken] = []
    if hit:
        rolled, damage, extra_taken = roll_damage(
            tx, attacker.id, target, profile.name, notation, kind, damage_faces, extras, extra_faces
        )
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
        damage_type=kind,
        uses=options.uses,  # type: ignore[arg-type]
        opportunity=options.opportunity,
        helped_by=helper,
    )
    tx.emit(event)
    _reveal_hidden(tx, attacker)
    land_extra_damage(
        tx,
        target.id,
        damage,
        extra_taken,
        before=target,
        critical=critical,
        knock_out_by=attacker.id if options.knock_out else None,
    )
    return event


def _reveal_hidden(tx: Tx, attacker: Combatant) -> None:
    hidden = next((c for c in attacker.conditions if c.source == "hide"), None)
    if hidden is not None:
        # "If you are hidden when you make an attack roll, you give away your location."
        tx.emit(ConditionEnded(target=attacker.id, condition=hidden.name, reason="attacked from hiding"))


def roll_damage(
    tx: Tx,
    roller: str,
    target: Combatant,
    attack: str,
    notation: str,
    kind: str,
    faces: tuple[int, ...] | None,
    extras: tuple[ExtraDamage, ...],
    extra_faces: list,
    halve: bool = False,
) -> tuple[int, int, list[DamageTaken]]:
    """An attack's damage: (rolled, taken after the target's defences, the extra damage taken),
    every die already doubled for a Critical Hit. The extra damage's events are emitted by
    `land_extra_damage` once the attack's own event is recorded. `halve`: Uncanny Dodge, "halve
    the attack's damage against you (round down)", before Resistance ("Resistance second")."""
    least = least_damage(tx.state.combatants.get(roller))  # Reduce's "can't reduce the damage below 1"
    rolled = max(least, tx.roll(notation, purpose="damage", roller=roller, faces=faces).total)
    taken = reduced(tx, target.id, adjusted_damage(target, rolled // 2 if halve else rolled, kind), kind)
    return rolled, taken, _roll_extra_damage(tx, roller, target, extras, extra_faces, attack, halve)


def land_extra_damage(
    tx: Tx,
    target_id: str,
    damage: int,
    extra: list[DamageTaken],
    *,
    before: Combatant,
    critical: bool = False,
    knock_out_by: str | None = None,
) -> None:
    """Record the extra damage after the attack's own, then what the whole blow sets off (one
    concentration save for all of it, the drop to 0 HP, or a knock-out instead of it)."""
    for taken in extra:
        tx.emit(taken)
    if knock_out_by is not None and before.hp > 0 and tx.state.combatants[target_id].hp == 0:
        # "... you can instead reduce the creature to 1 Hit Point and give it the Unconscious condition."
        tx.emit(CombatantKnockedOut(combatant=target_id, by=knock_out_by))
        end_concentration(tx, target_id, "knocked out")
        return
    after_damage(tx, target_id, damage + sum(t.amount for t in extra), before=before, critical=critical)


def _roll_extra_damage(
    tx: Tx, roller: str, target: Combatant, extras: tuple[ExtraDamage, ...], faces: list, attack: str, halve: bool = False
) -> list[DamageTaken]:
    taken = []
    for extra, entered in zip(extras, faces):
        if not extra.damage_type.strip():
            raise RuleError(
                "attack/damage-type",
                f"the extra damage {extra.dice} of {attack} has no damage type",
                allowed="a damage type such as fire",
            )
        purpose = (
            f"{extra.damage_type} damage" if extra.source is msgspec.UNSET else f"{extra.source}: {extra.damage_type} damage"
        )
        rolled = max(0, tx.roll(extra.dice, purpose=purpose, roller=roller, faces=entered).total)
        amount = reduced(
            tx, target.id, adjusted_damage(target, rolled // 2 if halve else rolled, extra.damage_type), extra.damage_type
        )
        taken.append(DamageTaken(target=target.id, amount=amount, damage_type=extra.damage_type, rolled=rolled, source=roller))
    return taken


def require_no_pending_damage(state: EncounterState) -> None:
    """An attack rolled in two steps holds the table until its damage is entered.

    The refusal names neither the attack nor its dice: a refusal is decided before anyone
    reads it and reaches whoever sent the command, a player too, and a hidden monster's
    attack and damage dice give its stat block away (docs/trust.md). The GM reads them in
    the 5e state's `pending_damage`."""
    pending = pending_damage_of(state)
    if pending:
        p = pending[0]
        who = state.combatants[p.attacker].name if p.attacker in state.combatants else p.attacker
        raise RuleError(
            "attack/damage-pending",
            f"{who}'s attack hit and its {p.damage_type} damage is still to be rolled",
            allowed=f"roll_damage for {p.attacker} (faces or none for the service to roll)",
        )


def attack(tx: Tx, cmd: Attack) -> None:
    attack_with(tx, cmd)


def defenders_dice(handler: Callable[..., None]) -> Callable[..., None]:
    """The handler, with the dice the target's spells roll during the attack entered as the
    command gives them (Mirror Image's d6s, Resistance's d4: combat/common/entered_dice.py)."""

    @functools.wraps(handler)
    def run(tx: Tx, cmd: Any, **kw: Any) -> None:
        mirror = (cmd.mirror_faces,) if cmd.mirror_faces is not None else ()
        with entering(tx, mirror_faces=mirror, resistance_faces=cmd.resistance_faces):
            handler(tx, cmd, **kw)

    return run


@defenders_dice
def attack_with(tx: Tx, cmd: Attack, *, attacker_unseen: bool = False) -> None:
    """`attack`, with what a ruleset's own attack command knows beyond it: `attacker_unseen`,
    the target cannot see the attacker (a5e), so a Dodge gives it nothing."""
    require_no_pending_damage(tx.state)
    attacker = tx.combatant(cmd.attacker)
    target = tx.combatant(cmd.target)
    require_targetable(target, cmd.cover)
    uses = attack_uses(tx, attacker, cmd.using, cmd.readied)
    aimed = aimed_attack(tx, attacker, target, uses, faces=cmd.sanctuary_faces, new_target=cmd.new_target)
    if aimed is None:
        return  # "lose the attack" (Sanctuary)
    target = aimed
    profile = with_weapon_damage(attacker, with_rage_damage(tx.state, attacker, choose_attack(attacker, cmd.attack)))
    result = resolve_attack(
        tx,
        attacker,
        target,
        profile,
        AttackOptions(
            uses=uses,
            advantage=cmd.advantage,
            disadvantage=cmd.disadvantage + range_disadvantage(attacker, target, profile, cmd.distance),
            ac_bonus=COVER_AC[cmd.cover],
            roll_bonus=cmd.roll_bonus,
            faces=cmd.faces,
            damage_faces=cmd.damage_faces,
            extra_damage=with_sneak_attack(tx, attacker, profile, cmd.extra_damage, cmd.sneak_attack, cmd.extra_damage_faces),
            critical_range=critical_range(tx, attacker, cmd.critical_range),
            damage_type=cmd.damage_type,
            knock_out=cmd.knock_out,
            attacker_unseen=attacker_unseen,
            reaction_window=True,
        ),
    )
    if cmd.sneak_attack:
        sneak_attack_landed(tx, attacker, result)


def attack_uses(tx: Tx, attacker: Combatant, using: str, readied: bool) -> str:
    """What an attack spends: a readied attack or `using: reaction` the reaction (a reaction
    comes on anyone's turn); `using: bonus_action` the bonus action on its own turn (an
    off-hand attack, a Quickened spell); otherwise one attack of its Attack action."""
    if readied:
        if using == "bonus_action":
            raise RuleError(
                "attack/readied-bonus", "a readied attack is taken with the reaction", allowed="using: reaction or action"
            )
        if readied_of(tx.state, attacker.id) is None:
            raise RuleError(
                "attack/not-readied",
                f"{attacker.name} has no readied action",
                allowed="ready an attack with take_action ready first",
            )
        require_reaction(attacker)
        return "reaction"
    if using == "reaction":
        require_reaction(attacker)
        return "reaction"
    if using == "bonus_action":
        require_turn(tx, attacker.id)
        require_able(attacker, "attack")
        spend_check(attacker, "bonus_action")
        return "bonus_action"
    return attack_action_use(tx, attacker)


def attack_action_use(tx: Tx, attacker: Combatant) -> str:
    """An attack on the attacker's own turn: one attack of its Attack action while any are
    left, else the action itself (the first attack of the Attack action)."""
    require_turn(tx, attacker.id)
    require_able(attacker, "attack")
    if attacker.economy.attacks_left > 0:
        return "attack"
    spend_check(attacker, "action")
    return "action"


def require_targetable(target: Combatant, cover: str) -> None:
    """'A target with total cover can't be targeted directly' by an attack."""
    if cover == "total":
        raise RuleError(
            "attack/total-cover",
            f"{target.name} has Total Cover and can't be targeted directly",
            allowed="none, half or three-quarters cover",
        )


def require_opportunity(state: EncounterState, attacker: Combatant, target: Combatant) -> None:
    """An opportunity attack needs an opening: the target left the attacker's reach."""
    problem = no_opportunity(state, attacker.id, target.id)
    if problem:
        raise RuleError(
            "attack/no-opportunity",
            problem,
            allowed=", ".join(f"{a} at {t}" for a, t in opportunities_of(state)) or "no opportunity attacks open",
        )


@defenders_dice
def opportunity_attack(tx: Tx, cmd: OpportunityAttack) -> None:
    require_no_pending_damage(tx.state)
    attacker = tx.combatant(cmd.attacker)
    target = tx.combatant(cmd.target)
    # A spent reaction or an incapacitated attacker is the reason to give, not a missing opportunity.
    require_reaction(attacker)
    require_opportunity(tx.state, attacker, target)
    aimed = aimed_attack(tx, attacker, target, "reaction", faces=cmd.sanctuary_faces, new_target=cmd.new_target, opportunity=True)
    if aimed is None:
        return  # "lose the attack" (Sanctuary)
    target = aimed
    profile = with_weapon_damage(
        attacker, with_rage_damage(tx.state, attacker, choose_attack(attacker, cmd.attack, melee_only=True))
    )
    result = resolve_attack(
        tx,
        attacker,
        target,
        profile,
        AttackOptions(
            uses="reaction",
            advantage=cmd.advantage,
            disadvantage=cmd.disadvantage,
            faces=cmd.faces,
            damage_faces=cmd.damage_faces,
            extra_damage=with_sneak_attack(tx, attacker, profile, cmd.extra_damage, cmd.sneak_attack, cmd.extra_damage_faces),
            critical_range=critical_range(tx, attacker, None),
            opportunity=True,
            reaction_window=True,
        ),
    )
    if cmd.sneak_attack:
        sneak_attack_landed(tx, attacker, result)


def _on_attack(state: EncounterState, e: AttackMade) -> EncounterState:
    return _help_and_opportunity_spent(attack_spent(state, e.attacker, e.uses, hit=(e.target, e.damage)), e)


def _on_attack_rolled(state: EncounterState, e: AttackRolled) -> EncounterState:
    state = spend_attack(state, e)
    return holding(state, pending_damage=pending_damage_of(state) + (e,))


def spend_attack(state: EncounterState, e: AttackMade | AttackRolled) -> EncounterState:
    """What making an attack spends (its part of the economy, a Help, an opportunity), hit or not."""
    return _help_and_opportunity_spent(attack_spent(state, e.attacker, e.uses), e)


def _help_and_opportunity_spent(state: EncounterState, e: AttackMade | AttackRolled) -> EncounterState:
    """The Help the attack used and the opportunity it took, gone."""
    if e.helped_by is not None:
        helps = helps_of(state)
        used = [i for i, h in enumerate(helps) if h.helper == e.helped_by and h.against == e.target][:1]
        if used:
            state = holding(state, helps=tuple(h for i, h in enumerate(helps) if i not in used))
    return opportunity_taken(state, e.attacker, e.target) if e.opportunity else state


RULES = Rules(
    handlers={Attack: attack, OpportunityAttack: opportunity_attack},
    appliers={AttackMade: _on_attack, AttackRolled: _on_attack_rolled},
    narration={AttackMade: narrate_attack},
)
