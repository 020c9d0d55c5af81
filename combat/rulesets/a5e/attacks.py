"""Making an attack, with a5e's modifiers, resolved by the shared attack rules.

- "A natural 20 on an attack roll is a critical hit and is always successful. ... rolling a
  natural 1 on an attack roll is considered a critical fumble and always misses."
- Unseen: "When you attack a target that you cannot see ... you have disadvantage"; "if your
  target cannot see you, you have advantage"; "In situations where your target is unseen by
  you and you are unseen by your target ... all attack rolls are made at disadvantage."
- Range: "attacks made at targets further than the normal range are made at disadvantage,
  and targets beyond long range cannot be targeted." "When you make a ranged attack while you
  are within the reach of a hostile creature, you make the attack with disadvantage."
- Flanking: "When you and an ally are on direct opposite sides of a target, you gain an
  expertise die on your actions against that target. You and your ally cannot flank for one
  another if either of you are incapacitated."
- Attacking from above: "If you are at least 5 feet above your target and you aren't grappled
  or restrained, you gain an expertise die on melee attack rolls made against it."
- Dodge: "attacks against you are made with disadvantage if you can see the attacker": an
  attacker the dodger cannot see (`attacker_unseen`, Invisible or hidden, a Blinded dodger)
  meets no Dodge; the shared `can_see` decides it, as for srd-2024's Dodge. The text says
  nothing of losing it early, so unlike srd-2024's it lasts "until the start of your next turn"
  though the dodger is Incapacitated or its Speed drops to 0 (setting `dodge_to_next_turn`);
  only an Unconscious dodger, or one at 0 Hit Points, sees no attacker and so has none of it.
- Press the Attack and Sprint give attackers advantage against the presser or sprinter.
- Cover: half +2, three-quarters +5 to AC; "Total cover ... cannot be targeted directly".

Expertise dice from several sources do not stack: each source past the first raises the die
one step, 1d4 -> 1d6 -> 1d8 (A5E's expertise die rule; this text does not repeat it).
"""

from __future__ import annotations

from functools import partial
from typing import ClassVar

import msgspec

from combat.common.attacks import choose_attack, roll_mode
from combat.common.condition_effects import attack_modifiers, dodge_to_next_turn, is_incapacitated
from combat.fivee import attacks as shared
from combat.fivee.action_commands import Using
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.fivee.attack_events import ExtraDamage
from combat.fivee.attacks import range_disadvantage
from combat.fivee.held_open import helps_of
from combat.fivee.monster_actions import by_stat_block
from combat.fivee.monsters import sheet as block_sheet
from combat.fivee.sheet_claims import refuse_claims_beyond_the_sheet
from combat.fivee.until_next_turn import dodge_disadvantage
from combat.kernel.commands import Command, Cover, Faces
from combat.kernel.decider import Handler, Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant

__all__ = ["EXPERTISE_DICE", "MakeAttack", "expertise_die", "make_attack", "attack", "opportunity_attack", "RULES"]

EXPERTISE_DICE = ("1d4", "1d6", "1d8")


class MakeAttack(Command, frozen=True, kw_only=True):
    """An attack with the positions a5e cares about; `attack` is the plain 5e-family form."""

    gm_fields: ClassVar[tuple[str, ...]] = (
        "advantage",
        "disadvantage",
        "roll_bonus",
        "expertise",
        "attacker_unseen",
        "flanking_with",
        "from_above",
        "mirror_faces",
        "resistance_faces",
    )

    attacker: str
    target: str
    attack: str | None = None
    advantage: tuple[str, ...] = ()  # other reasons the Narrator gives
    disadvantage: tuple[str, ...] = ()
    cover: Cover = "none"
    distance: int | None = None  # feet to the target
    within_reach_of_hostile: bool = False
    target_unseen: bool = False  # the attacker cannot see the target
    attacker_unseen: bool = False  # the target cannot see the attacker
    flanking_with: str | None = None  # the ally on the direct opposite side of the target
    from_above: bool = False  # at least 5 feet above the target
    expertise: tuple[str, ...] = ()  # other sources of an expertise die (a maneuver, a feature)
    roll_bonus: str | None = None
    faces: Faces = None
    damage_faces: Faces = None
    readied: bool = False
    using: Using = "action"  # as for attack: bonus_action or reaction
    extra_damage: tuple[ExtraDamage, ...] = ()  # from a player, only what the sheet lists
    critical_range: int | None = None  # left out: the character sheet's, or 20
    sneak_attack: bool = False  # add the sheet's Sneak Attack dice (once per turn)
    extra_damage_faces: Faces = None  # the Sneak Attack dice as rolled at the table (a stat block's extra damage, for `attack`)
    damage_type: str | None = None
    knock_out: bool = False  # a melee attack that would drop the target to 0 HP leaves it at 1 HP, Unconscious
    # Mirror Image's d6s, one per duplicate the target has left, rolled if the attack hits it
    mirror_faces: Faces = None
    # the attacker's Wisdom save against a Sanctuary on the target
    sanctuary_faces: Faces = None
    # where the attack goes if that save fails (left out: the attack is lost)
    new_target: str | None = None
    # a Resistance spell's d4, by the id of the creature whose damage it reduces
    resistance_faces: dict[str, tuple[int, ...]] = {}


def expertise_die(sources: int) -> str | None:
    return EXPERTISE_DICE[min(sources, len(EXPERTISE_DICE)) - 1] if sources else None


def against(tx: Tx, target: Combatant) -> list[str]:
    """Advantage every attacker has against `target` from what it chose to do."""
    notes = tx.state.rules
    reasons = []
    if any(p.attacker == target.id for p in notes.presses):
        reasons.append("target is pressing the attack")
    if target.id in notes.sprinting:
        reasons.append("target is sprinting")
    return reasons


def by_block(tx: Tx, cid: str) -> bool:
    """A stat block's creature: its `attack`'s extra_damage_faces were its block's, already used."""
    return block_sheet(tx.state, cid) is not None


def _make_attack(tx: Tx, cmd: MakeAttack) -> None:
    attacker = tx.combatant(cmd.attacker)
    target = tx.combatant(cmd.target)
    profile = choose_attack(attacker, cmd.attack)
    melee = profile.kind == "melee"
    advantage, disadvantage = list(cmd.advantage), list(cmd.disadvantage)
    if cmd.target_unseen and cmd.attacker_unseen:
        disadvantage.append("neither can see the other")
    elif cmd.target_unseen:
        disadvantage.append("target unseen")
    elif cmd.attacker_unseen:
        advantage.append("attacker unseen")
    disadvantage += _range(attacker, target, profile, cmd)
    advantage += against(tx, target)
    sources = list(cmd.expertise)
    if cmd.flanking_with is not None:
        _require_flank(tx, attacker, target, cmd.flanking_with)
        sources.append("flanking")
    if cmd.from_above:
        if not melee:
            raise RuleError(
                "attack/above-melee",
                "attacking from above gives its expertise die on melee attacks",
                allowed="from_above: false for a ranged attack",
            )
        held = [x.name for x in attacker.conditions if x.name in ("grappled", "restrained")]
        if held:
            raise RuleError(
                "attack/above-held", f"{attacker.name} is {held[0]}: no expertise die from above", allowed="from_above: false"
            )
        sources.append("from above")
    press = next((p for p in tx.state.rules.presses if p.attacker == attacker.id and p.target == target.id), None)
    if press is not None and melee and not press.fell_back:
        # "You cannot gain expertise dice in this way on attacks made at disadvantage."
        if _mode(tx, attacker, target, melee, advantage, disadvantage, cmd.attacker_unseen) != "disadvantage":
            sources.append("press the attack")
    bonus = "+".join(b.lstrip("+") for b in (cmd.roll_bonus, expertise_die(len(sources))) if b) or None
    # Every field of the shared attack as sent, but the distance: `_range` has already given
    # the Disadvantage it brings, which the shared attack would give again.
    sent = {name: getattr(cmd, name) for name in Attack.__struct_fields__}
    changed = {
        "attack": profile.name,
        "advantage": tuple(advantage),
        "disadvantage": tuple(disadvantage),
        "roll_bonus": bonus,
        "distance": None,
    }
    shared.attack_with(tx, Attack(**(sent | changed)), attacker_unseen=cmd.attacker_unseen)


def _range(attacker: Combatant, target: Combatant, profile, cmd: MakeAttack) -> list[str]:
    reasons = list(range_disadvantage(attacker, target, profile, cmd.distance))
    if profile.kind != "melee" and cmd.within_reach_of_hostile:
        reasons.append("ranged attack within reach of a hostile")
    return reasons


def _require_flank(tx: Tx, attacker: Combatant, target: Combatant, ally_id: str) -> None:
    ally = tx.combatant(ally_id)
    if ally.id in (attacker.id, target.id) or ally.side != attacker.side:
        raise RuleError("attack/no-flank", f"{ally.name} is not an ally of {attacker.name}", allowed="an ally")
    down = [c.name for c in (attacker, ally) if is_incapacitated(c)]
    if down:
        raise RuleError(
            "attack/no-flank",
            f"{down[0]} is incapacitated and cannot flank",
            allowed="flanking_with an ally who is not incapacitated",
        )


def _mode(
    tx: Tx,
    attacker: Combatant,
    target: Combatant,
    melee: bool,
    advantage: list[str],
    disadvantage: list[str],
    attacker_unseen: bool,
) -> str:
    """The roll mode the shared resolution will reach, so the Press die can be withheld first."""
    adv, dis = attack_modifiers(attacker, target, melee)
    dis += dodge_disadvantage(tx.state, attacker, target, attacker_unseen=attacker_unseen, held=dodge_to_next_turn(tx.state))
    helped = any(
        h.against == target.id and h.helper != attacker.id and tx.state.combatants[h.helper].side == attacker.side
        for h in helps_of(tx.state)
    )
    return roll_mode(adv + advantage + (["helped"] if helped else []), dis + disadvantage)


def _attack(tx: Tx, cmd: Attack) -> None:
    """The plain 5e-family `attack` as a5e's `make_attack`, every field as sent (MakeAttack has
    each of Attack's and a5e's positions besides, left at their defaults); a stat block's extra
    damage is its own, not the command's."""
    fields = msgspec.structs.asdict(cmd)
    if by_block(tx, cmd.attacker):
        fields["extra_damage_faces"] = None
    _make_attack(tx, MakeAttack(**fields))


def _opportunity_attack(tx: Tx, cmd: OpportunityAttack) -> None:
    """The shared opportunity attack, with what a5e adds against the target (every other field,
    the defenders' dice among them, as sent)."""
    target = tx.combatant(cmd.target)
    shared.opportunity_attack(tx, msgspec.structs.replace(cmd, advantage=cmd.advantage + tuple(against(tx, target))))


# Each as the attacker's stat block makes it, when it has one (combat.fivee.monster_actions).
make_attack: Handler = partial(by_stat_block, rule=_make_attack)
attack: Handler = partial(by_stat_block, rule=_attack)
opportunity_attack: Handler = partial(by_stat_block, rule=_opportunity_attack)


RULES = Rules(
    handlers={MakeAttack: make_attack, Attack: attack, OpportunityAttack: opportunity_attack},
    guards={MakeAttack: (refuse_claims_beyond_the_sheet,)},
)  # a player claims only what the sheet gives
