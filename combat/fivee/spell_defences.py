"""Spells whose lasting effect changes the attack rolls against a creature, its AC, its
Resistances, its saves or its Speed (issue 31): the riders their effect carries
(combat/kernel/riders.py), worked out as the spell is cast, and the moments that end them or
pass their damage on. The rules that read them are in combat/common/rider_reads.py (attacks,
AC, damage, saves, Speed).

As cast, from the reviewed entry's `riders` (combat/spells/model.py `SpellRiders`):
- Blur: "any creature has Disadvantage on attack rolls against you";
- Faerie Fire: "Attack rolls against an affected creature or object have Advantage if the
  attacker can see it"; "can't benefit from the Invisible condition"; Shining Smite likewise
  ("attack rolls against it have Advantage, and it can't benefit from the Invisible condition");
- Protection from Evil and Good (and Dispel Evil and Good's "Celestials, Elementals, Fey,
  Fiends, and Undead have Disadvantage on attack rolls against you"): "Creatures of those types have Disadvantage on attack rolls
  against the target. The target also can't be possessed by or gain the Charmed or Frightened
  conditions from them" (the attacker's or the condition's source's type, its stat block's);
- Holy Aura: "creatures of your choice have Advantage on all saving throws, and other
  creatures have Disadvantage on attack rolls against them" (a creature under the same aura
  attacks without it);
- Stoneskin: "Resistance to Bludgeoning, Piercing, and Slashing damage" (Gaseous Form's too,
  with its "Immunity to the Prone condition" and "Advantage on Strength, Dexterity, and
  Constitution saving throws"); Protection from Poison's, Aura of Life's, Fire Shield's (its
  `option`: "The warm shield grants you Resistance to Cold damage, and the chill shield grants
  you Resistance to Fire damage"); Protection from Energy: "Resistance to one damage type of
  your choice: Acid, Cold, Fire, Lightning, or Thunder", the one named in `CastSpell.damage_type`;
- Beacon of Hope: "Advantage on Wisdom saving throws"; Enhance Ability: "Advantage on ability
  checks using the chosen ability" (its `option`);
- Barkskin: "the target has an Armor Class of 17 if its AC is lower than that";
- Longstrider: "The target's Speed increases by 10 feet";
- Warding Bond: "it gains a +1 bonus to AC and saving throws, and it has Resistance to all
  damage" (the AC from the entry's `ac_bonus`); "You touch another creature": not the caster;
- Enlarge/Reduce, the effect named in `CastSpell.option`: "Advantage on Strength checks and
  Strength saving throws", "an extra 1d4 damage on a hit" with its weapons (Reduce:
  Disadvantage, "1d4 less damage").

Later (`after`, run by the 5e rulesets' flow over the events a command emitted):
- Invisibility: "The spell ends early immediately after the target makes an attack roll,
  deals damage, or casts a spell" (the spell that made it Invisible in that same command
  excepted);
- Warding Bond: "each time it takes damage, you take the same amount of damage"; "The spell
  ends if you drop to 0 Hit Points"; "It also ends if the spell is cast again on either of
  the connected creatures".
"""

from __future__ import annotations

from collections.abc import Callable
from itertools import islice
from typing import Any, NamedTuple

import msgspec

from combat.common.durations import ending
from combat.common.events import CombatantDowned, DamageTaken
from combat.common.hitpoints import after_damage
from combat.fivee.attack_events import AttackDamageRolled, AttackMade, AttackRolled
from combat.fivee.dying import CombatantDied
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionSpec, Event
from combat.kernel.riders import Riders
from combat.spells.model import Spell, SpellRiders

__all__ = ["lasting", "riders_fields", "damage_of", "Later", "after"]

BOND = "warding bond"  # the source of the damage a Warding Bond passes on, so it is not passed on again


def lasting(r: SpellRiders) -> bool:
    """Whether the spell's effect carries one of these riders."""
    return bool(
        r.attacked_with is not None
        or r.no_invisible
        or r.resistances
        or r.resistance_choice
        or r.ac_floor is not None
        or r.save_bonus is not None
        or r.speed_bonus is not None
        or r.shares_damage
        or r.save_disadvantage
        or r.check_advantage
        or r.check_disadvantage
        or r.weapon_damage
        or r.duplicates is not None
        or r.ward
        or bool(r.reduce_dice)
    )


def _chosen_resistance(spell: Spell, r: SpellRiders, damage_type: str | None) -> str:
    return _chosen(spell, r.resistance_choice, damage_type, "gives Resistance to one damage type")


def _chosen(spell: Spell, choice: tuple[str, ...], damage_type: str | None, does: str) -> str:
    chosen = (damage_type or "").strip().lower()
    if chosen not in choice:
        raise RuleError(
            "spell/damage-type",
            f"{spell.name} {does} of the caster's choice" + (f", not {damage_type}" if damage_type else ": choose one"),
            allowed="damage_type: " + ", ".join(choice),
        )
    return chosen


def riders_fields(spell: Spell, caster: str, target: str, damage_type: str | None, dc: int | None = None) -> dict[str, Any]:
    """The riders of the effect on `target`, for `Riders(**...)`; unset ones left out. `dc`:
    the caster's spell save DC (Sanctuary's ward)."""
    r = spell.riders
    if r is None or not lasting(r):
        return {}
    if r.shares_damage and target == caster:
        raise RuleError("spell/targets", f"{spell.name} bonds its caster to another creature", allowed="another creature")
    fields: dict[str, Any] = {}
    if r.attacked_with is not None:
        fields["attacked_with"] = r.attacked_with
    if r.seen_only:
        fields["seen_only"] = True
    if r.from_types:
        fields["from_types"] = r.from_types
    if r.no_invisible:
        fields["no_invisible"] = True
    resistances = r.resistances + ((_chosen_resistance(spell, r, damage_type),) if r.resistance_choice else ())
    if resistances:
        fields["resistances"] = resistances
    for name in ("ac_floor", "save_bonus", "speed_bonus"):
        if getattr(r, name) is not None:
            fields[name] = getattr(r, name)
    if r.shares_damage:
        fields["shares_damage"] = True
    for name in ("save_disadvantage", "check_advantage", "check_disadvantage", "weapon_damage"):
        if getattr(r, name):
            fields[name] = getattr(r, name)
    if r.duplicates is not None:
        fields["duplicates"] = r.duplicates
    if r.ward and dc is not None:
        fields["ward_dc"] = dc
        fields["ends_when_acts"] = r.ends_when_acts  # "if the warded creature makes an attack roll, ..."
    if r.reduce_dice:
        fields["reduce_dice"] = r.reduce_dice
        fields["damage_type"] = _chosen(spell, r.reduce_choice, damage_type, "reduces the damage of one type")
    return fields


def damage_of(e: Event) -> tuple[str, int, str, str | None] | None:
    """The damage an event deals, if any: (target, amount taken, type, source)."""
    if isinstance(e, DamageTaken):
        return e.target, e.amount, e.damage_type, e.source
    if isinstance(e, (AttackMade, AttackDamageRolled)) and e.damage > 0:
        return e.target, e.damage, e.damage_type, e.attacker
    return None


class Later(NamedTuple):
    """The events a command emitted after the one at hand (`events[start:end]`), read only
    where a rider asks: `follow` runs after every command, and most events meet none."""

    events: list[Event]
    start: int
    end: int

    def applied(self, target: str, condition: ConditionSpec) -> bool:
        """Whether `condition` was given to `target` among them (it came after)."""
        return any(
            isinstance(x, ConditionApplied) and x.target == target and x.condition == condition
            for x in islice(self.events, self.start, self.end)
        )


def after(tx: Tx, e: Event, dealt: tuple[str, int, str, str | None] | None, later: Later) -> None:
    """What event `e` (dealing `dealt`: `damage_of(e)`) sets off among these riders."""
    from combat.fivee.casts import SpellCast

    if isinstance(e, (AttackMade, AttackRolled)):
        _acted(tx, e.attacker, later, "made an attack roll")
    elif isinstance(e, SpellCast):
        _acted(tx, e.caster, later, f"cast {e.spell}")
        _bond_recast(tx, e.spell, e.targets, later)
    elif isinstance(e, (CombatantDowned, CombatantDied)):
        _bond_broken(tx, e.combatant)
    if dealt is not None and dealt[1] > 0:
        target, amount, kind, source = dealt
        if source is not None and not isinstance(e, AttackMade):  # an attack's is its roll's
            _acted(tx, source, later, "dealt damage")
        if source != BOND:
            _share(tx, target, amount, kind)


def _ridden(tx: Tx, cid: str, rider: Callable[[Riders], bool]) -> tuple[ConditionSpec, ...]:
    """The conditions on `cid` (none once it is gone) whose riders `rider` picks."""
    c = tx.state.combatants.get(cid)
    if c is None:
        return ()
    return tuple(cond for cond in c.conditions if cond.riders is not msgspec.UNSET and rider(cond.riders))


def _acted(tx: Tx, cid: str, later: Later, what: str) -> None:
    """Invisibility ends on the creature that attacked, dealt damage or cast a spell."""
    for cond in _ridden(tx, cid, lambda r: r.ends_when_acts):
        if later.applied(cid, cond):
            continue  # it came after (the Invisibility this very spell gave)
        bearer = tx.state.combatants[cid]
        if cond in bearer.conditions:
            tx.emit(ending(bearer, cond, what))


def _share(tx: Tx, target: str, amount: int, kind: str) -> None:
    """Warding Bond: the caster takes the same amount of damage as its target."""
    for cond in _ridden(tx, target, lambda r: r.shares_damage):
        caster = tx.state.combatants.get(cond.source) if cond.source else None
        if caster is None or caster.status == "dead":
            continue
        tx.emit(DamageTaken(target=caster.id, amount=amount, damage_type=kind, rolled=amount, source=BOND))
        after_damage(tx, caster.id, amount, before=caster)


def _bond_recast(tx: Tx, spell: str, targets: tuple[str, ...], later: Later) -> None:
    """Warding Bond: "It also ends if the spell is cast again on either of the connected
    creatures" (the bond this casting makes excepted)."""
    for other in list(tx.state.combatants.values()):
        for cond in other.conditions:
            r = cond.riders
            if r is msgspec.UNSET or not r.shares_damage or cond.name != spell.lower():
                continue
            if other.id not in targets and cond.source not in targets:
                continue
            if later.applied(other.id, cond):
                continue
            bearer = tx.state.combatants[other.id]
            if cond in bearer.conditions:
                tx.emit(ending(bearer, cond, f"{spell} was cast again on one of the creatures it connects"))


def _bond_broken(tx: Tx, cid: str) -> None:
    """Warding Bond: "The spell ends if you drop to 0 Hit Points"."""
    for other in list(tx.state.combatants.values()):
        for cond in other.conditions:
            if cond.source == cid and cond.riders is not msgspec.UNSET and cond.riders.shares_damage:
                bearer = tx.state.combatants[other.id]
                if cond in bearer.conditions:
                    tx.emit(ending(bearer, cond, f"{tx.state.combatants[cid].name} dropped to 0 Hit Points"))
