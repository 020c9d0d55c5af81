"""Spells cast right after a weapon hit (issue 31): the 2024 smites and Ensnaring Strike.

"Casting Time: Bonus Action, which you take immediately after hitting a target with a Melee
weapon or an Unarmed Strike" (Divine Smite, Searing Smite, Shining Smite); "... immediately
after hitting a creature with a weapon" (Ensnaring Strike): the SRD 5.2's Casting Time lines,
which the spell data (combat/spells/srd_5_2_spells.json) keeps only as "bonus_action", so the
reviewed entry says it (`riders.after_hit`). The cast follows the caster's last
attack on this turn (combat/fivee/last_attacks.py): refused unless it hit, with one of the
caster's own attacks (not a spell's), in melee where the text says Melee; its target is the
creature hit (named or left out), and it must still be alive.

- The damage "from the attack" (Divine Smite's 2d8 Radiant, 1d8 more per slot level above 1
  and 1d8 more "if the target is a Fiend or an Undead"; Searing Smite's 1d6 Fire; Shining
  Smite's 2d6 Radiant) is extra damage of that attack: its dice are doubled when the hit was a
  Critical Hit ("If the attack involves other damage dice ... you also roll those dice twice"),
  its type meets the target's Resistance, and it is recorded as its own `DamageTaken` from the
  caster. Its faces are the cast's one `damage_faces` list. Being recorded after the attack's,
  it asks a concentrating target for a Constitution save of its own (a known gap: the rule
  asks for one save for the attack's whole damage).
- Ensnaring Strike's save: "A Large or larger creature has Advantage on this save" (its size).
- What lasts, on an effect named for the spell on the target (combat/kernel/riders.py):
  Searing Smite: "At the start of each of its turns until the spell ends, the target takes 1d6
  Fire damage and then makes a Constitution saving throw. On a failed save, the spell
  continues. On a successful save, the spell ends." Ensnaring Strike: "While Restrained, the
  target takes 1d6 Piercing damage at the start of each of its turns" (one die more per slot
  level above 1 for both). Shining Smite: "attack rolls against it have Advantage, and it can't benefit from the Invisible
  condition". The start
  of turn's dice are entered on the command that starts the turn (`turn_start_faces`,
  combat/fivee/turn_start_dice.py), or rolled by the service.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

import msgspec

from combat.common.creature_types import creature_type
from combat.common.durations import ending
from combat.common.rider_reads import riders_of
from combat.fivee import turn_start_dice
from combat.fivee.attacks import damage_notation
from combat.fivee.group_saves import deal_share
from combat.fivee.last_attacks import last_attack
from combat.fivee.save_modifiers import SaveModifiers
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant
from combat.spells.model import DamageRoll, Spell

if TYPE_CHECKING:
    from combat.fivee.casts import Caster

__all__ = ["follows_hit", "hit_target", "strike", "riders_at_cast", "turn_started", "with_size_advantage"]

UNSET = msgspec.UNSET
_DIE = re.compile(r"^(\d+)d(\d+)$")


def follows_hit(spell: Spell) -> bool:
    return spell.riders is not None and spell.riders.after_hit is not None


def hit_target(tx: Tx, c: Combatant, spell: Spell, named: tuple[str, ...]) -> tuple[str, ...]:
    """The creature the caster's last attack this turn hit, refused unless that hit is one the
    spell follows; checked before anything is spent."""
    assert spell.riders is not None
    melee = spell.riders.after_hit == "melee"
    wanted = "a Melee weapon or an Unarmed Strike" if melee else "a weapon"
    allowed = f"cast {spell.name} immediately after {c.name} hits a target with {wanted} on its turn"
    record = last_attack(tx.state, c.id)
    if record is None:
        problem = f"{c.name} has made no attack this turn"
    elif not record.hit:
        problem = f"{c.name}'s last attack this turn did not hit"
    elif not record.kind:
        problem = f"{c.name}'s last attack this turn was a spell's, not {wanted}"
    elif melee and record.kind != "melee":
        problem = f"{c.name}'s last attack this turn was a ranged attack, not {wanted}"
    else:
        problem = ""
    if record is None or problem:
        raise RuleError(
            "spell/no-hit", f"{problem}: {spell.name} is cast immediately after hitting with {wanted}", allowed=allowed
        )
    target = tx.combatant(record.target)
    if named and tuple(named) != (record.target,):
        raise RuleError(
            "spell/targets",
            f"{spell.name} strikes the creature {c.name} just hit, {target.name}",
            allowed=f"targets: {record.target}, or none",
        )
    if target.status == "dead":
        raise RuleError("target/dead", f"{target.name} is already dead", allowed="a living target")
    return (record.target,)


_SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")


def with_size_advantage(
    tx: Tx, spell: Spell, targets: tuple[str, ...], modifiers: dict[str, SaveModifiers]
) -> dict[str, SaveModifiers]:
    """Ensnaring Strike: "A Large or larger creature has Advantage on this save": the reason
    added to each such target's save, beside what the GM gave."""
    if spell.riders is None or not spell.riders.large_save_advantage:
        return modifiers
    given = dict(modifiers)
    for tid in targets:
        size = tx.state.combatants[tid].size.lower()
        if size in _SIZES and _SIZES.index(size) >= _SIZES.index("large"):
            held = given.get(tid, SaveModifiers())
            given[tid] = msgspec.structs.replace(held, advantage=(*held.advantage, f"{size.title()}: {spell.name}"))
    return given


def _plus(dice: str, more: str) -> str:
    """2d8 and 1d8 are 3d8 (one list of faces for dice of one size); otherwise both, added."""
    a, b = _DIE.match(dice), _DIE.match(more)
    if a and b and a.group(2) == b.group(2):
        return f"{int(a.group(1)) + int(b.group(1))}d{a.group(2)}"
    return f"{dice}+{more}"


def strike(tx: Tx, c: Combatant, spell: Spell, tid: str, damage: tuple[DamageRoll, ...], faces: tuple[int, ...] | None) -> None:
    """The spell's damage on the creature hit, as extra damage of that attack."""
    assert spell.riders is not None
    record = last_attack(tx.state, c.id)
    target = tx.state.combatants[tid]
    roll = damage[0]
    kind = roll.types[0]
    notation = roll.dice
    if spell.riders.extra_against and creature_type(tx, target) in spell.riders.extra_against:
        notation = _plus(notation, spell.riders.extra_against_dice)
    critical = record is not None and record.critical
    notation = damage_notation(tx.state, notation, kind, critical)
    what = f"{spell.name}: {kind} damage" + (" (Critical Hit: dice doubled)" if critical else "")
    rolled = max(0, tx.roll(notation, purpose=what, roller=c.id, faces=faces).total)
    deal_share(tx, tid, rolled, rolled, kind, c.id)


def riders_at_cast(spell: Spell, slot: int | None, caster: Caster) -> dict[str, Any]:
    """The riders of this casting's lasting effect: the start of turn's damage at this slot
    ("All the damage increases by 1d6 for each spell slot level above 1"), its save at the
    caster's DC, and Shining Smite's Advantage against the target."""
    r = spell.riders
    fields: dict[str, Any] = {}
    if r is None:
        return fields
    if r.turn_start_dice:
        found = _DIE.match(r.turn_start_dice)
        assert found is not None, r.turn_start_dice
        above = max(0, (slot or spell.level) - spell.level)
        fields.update(turn_start_dice=f"{int(found.group(1)) + above}d{found.group(2)}", damage_type=spell.damage_types[0])
        if r.turn_start_save is not None:
            fields.update(turn_start_save=r.turn_start_save, turn_start_dc=caster.save_dc)
        if spell.condition is not None:  # "While Restrained"
            fields["turn_start_while"] = spell.condition.name
    return fields


def turn_started(tx: Tx, cid: str) -> None:
    """As `cid`'s turn starts: the damage of each effect that deals it then, and its save, with
    the faces the command that started the turn entered (combat/fivee/turn_start_dice.py)."""
    from combat.common.saves import saving_throw
    from combat.fivee.bonuses import save_bonus

    bearer = tx.state.combatants[cid]
    acting = [
        (cond, r)
        for cond, r in riders_of(bearer)
        if r.turn_start_dice is not UNSET and (r.turn_start_while is UNSET or bearer.has(r.turn_start_while))
    ]
    turn_start_dice.check_entered(tx, cid, acting)
    for cond, r in acting:
        bearer = tx.state.combatants[cid]
        if cond not in bearer.conditions or bearer.status == "dead":
            continue
        if r.turn_start_while is not UNSET and not bearer.has(r.turn_start_while):
            continue
        entered = turn_start_dice.take(tx, cond.name)
        kind = r.damage_type if r.damage_type is not UNSET else "force"
        roller = cond.source or cid
        rolled = tx.roll(
            str(r.turn_start_dice),
            purpose=f"{cond.name.title()}: {kind} damage as the turn starts",
            roller=roller,
            faces=entered.damage,
        )
        deal_share(tx, cid, max(0, rolled.total), max(0, rolled.total), kind, roller)
        bearer = tx.state.combatants[cid]
        if r.turn_start_save is UNSET or r.turn_start_dc is UNSET or bearer.status == "dead" or cond not in bearer.conditions:
            continue
        ability = r.turn_start_save
        made = saving_throw(
            tx, cid, ability, r.turn_start_dc, save_bonus(tx.state, cid, ability), "normal", entered.save,
            reason=f"against {cond.name}", source=cond.source or None,
        )  # fmt: skip
        if made.success:
            tx.emit(ending(tx.state.combatants[cid], cond, f"succeeded on the {ability} save as its turn started"))
