"""What a spell does after the moment it is cast (issue 31, item 8): the riders of its
lasting effect (combat/kernel/riders.py) given as it is cast, what they do at later moments
of the fight, and the marker of a spell its caster uses again (combat/fivee/spell_follow_ups.py).

As it is cast (`cast_spell` calls `effect_riders`, `landed`, `on_hit`, `dust`), from the
reviewed entry's `riders` (combat/spells/model.py `SpellRiders`):
- Mage Armor: "Until the spell ends, the target's base AC becomes 13 plus its Dexterity
  modifier"; "You touch a willing creature who isn't wearing armor": a sheet wearing armor is
  refused.
- Aid: "Each target's Hit Point maximum and current Hit Points increase by 5 for the
  duration" (5 more per slot level above 2): the fold raises both (combat/common/riders_fold.py);
  a creature at 0 Hit Points so raised is conscious again.
- Haste: the +2 AC is the entry's `ac_bonus`; "the target's Speed is doubled", "Advantage on
  Dexterity saving throws" are read by the Speed and save rules (combat/common/rider_reads.py);
  "it gains an additional action on each of its turns" is banked for each of its turns
  (combat/fivee/banked_actions.py; granted at once when the target is the caster, whose own
  action cast it).
- Heroism: "immune to the Frightened condition and gains Temporary Hit Points equal to your
  spellcasting ability modifier at the start of each of its turns".
- Polymorph: "The target gains a number of Temporary Hit Points equal to the Hit Points of the
  Beast form": the Beast is named in the command's `option` (a bestiary Beast of a Challenge
  Rating no higher than the target's, or its level).
- Guiding Bolt, Chill Touch: on a hit, a mark until the end of the caster's next turn: "the
  next attack roll made against it ... has Advantage" (spent by that roll:
  combat/fivee/spell_marks.py), "it can't regain Hit Points" (combat/common/hitpoints.py).
- Disintegrate: "If this damage reduces it to 0 Hit Points, it and everything nonmagical it is
  wearing and carrying are disintegrated into gray dust": it dies (a character too: no
  Death Saving Throws).

The spells whose effect changes the attacks against a creature, its AC, Resistances, saves,
checks or Speed (Blur, Faerie Fire, Stoneskin, Barkskin, Warding Bond, Enlarge/Reduce...) are
in combat/fivee/spell_defences.py, which `effect_riders` and `follow` call.

Later (`follow`, run after every command by the 5e rulesets' flow, over the events the
command emitted):
- a turn starts: Heroism's Temporary Hit Points;
- a turn ends: Haste's additional action banked for the creature's next turn;
- damage is taken (an attack's too): Sleep ends on the target ("The spell ends on a target if
  it takes damage"); Polymorph ends on a target left with no Temporary Hit Points ("The spell ends
  early on the target if it has no Temporary Hit Points left");
- an effect with Haste's lethargy ends: "When the spell ends, the target is Incapacitated and
  has a Speed of 0 until the end of its next turn";
- a condition that came with others ends: they end too (combat/fivee/spell_conditions.py).
Sleep's repeated save (combat/fivee/turn_ends.py) calls `fail_into`: "If the target fails the
second save, the target has the Unconscious condition for the duration."

`marker`: a spell the caster uses again later (`spell_effect`, combat/fivee/spell_effect_uses.py:
Spiritual Weapon's Bonus Action attack, Spirit Guardians' save...) needs the caster still
concentrating on it: the caster carries a marker named for it, tied to that concentration,
with the level it was cast at and the damage type chosen.
`spell_effect` also moves Hunter's Mark or Hex to a new creature once the marked one has
dropped to 0 Hit Points (combat/fivee/hit_damage.py).
"""

from __future__ import annotations

from fractions import Fraction
from typing import TYPE_CHECKING, Any

import msgspec

from combat.characters.sheet import modifier as ability_modifier
from combat.common.commands import ApplyCondition
from combat.common.conditions import apply_condition
from combat.common.durations import ending
from combat.common.events import SaveMade, TempHPGranted
from combat.fivee import after_hit, hit_damage
from combat.fivee import spell_defences as defences
from combat.fivee.banked_actions import ActionBanked
from combat.fivee.characters import character
from combat.fivee.dying import CombatantDied, revive
from combat.fivee.gm_edit_events import ActionGranted
from combat.fivee.monsters import sheet as block_sheet
from combat.fivee.spell_conditions import end_companions
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionEnded, ConditionSpec, TurnEnded, TurnStarted
from combat.kernel.riders import Riders
from combat.kernel.state import Combatant
from combat.spells.model import DamageRoll, Spell

if TYPE_CHECKING:
    from combat.fivee.casts import Caster, CastSpell

__all__ = [
    "lasting",
    "effect_riders",
    "check_targets",
    "landed",
    "on_hit",
    "dust",
    "fail_into",
    "follow",
    "with_modifier",
    "marker",
]

UNSET = msgspec.UNSET


def lasting(spell: Spell) -> bool:
    """The spell's riders go onto its lasting effect on each target (not an on-hit mark, not
    Sleep's, which ride on its condition, nor a later moment's)."""
    r = spell.riders
    return r is not None and bool(
        r.ac_base is not None
        or r.max_hp is not None
        or r.temp_hp_each_turn
        or r.immune_to
        or r.speed_times is not None
        or r.save_advantage
        or r.extra_action
        or r.lethargy
        or r.beast_form
        or r.hit_dice
        or r.weapon_bonus
        or r.turn_start_dice
        or defences.lasting(r)
        or r.cannot
    )


def _dex_mod(tx: Tx, cid: str) -> int:
    held = character(tx.state, cid)
    if held is not None:
        return ability_modifier(held.sheet.abilities.dexterity)
    block = block_sheet(tx.state, cid)
    return ability_modifier(block.block.abilities.get("dexterity", 10)) if block is not None else 0


def effect_riders(
    tx: Tx, spell: Spell, caster: Caster, slot: int | None, tid: str, beast_hp: int | None, cmd: CastSpell | None = None
) -> Riders:
    """The riders of the spell's effect on `tid`, with this casting's numbers (and the caster's
    choices in `cmd`: Hex's ability and Magic Weapon's weapon in `option`, Protection from
    Energy's damage type)."""
    r = spell.riders
    assert r is not None
    option = cmd.option if cmd is not None else None
    fields: dict[str, Any] = {**hit_damage.riders_at_cast(spell, slot, option), **after_hit.riders_at_cast(spell, slot, caster)}
    if cmd is not None:
        fields |= defences.riders_fields(spell, cmd.caster, tid, cmd.damage_type, caster.save_dc)
    if r.ac_base is not None:
        fields["ac_base"] = r.ac_base + _dex_mod(tx, tid)
    if r.max_hp is not None:
        above = slot - spell.level if slot is not None and slot > spell.level else 0
        fields["max_hp_bonus"] = r.max_hp + r.max_hp_per_slot * above
    if r.temp_hp_each_turn:
        fields["temp_hp_each_turn"] = caster.ability_modifier
    if r.speed_times is not None:
        fields["speed_times"] = r.speed_times
    if r.extra_action:
        fields["extra_action"] = r.extra_action
    if r.beast_form:
        fields["beast_form"] = True
    return Riders(immune_to=r.immune_to, save_advantage=r.save_advantage, lethargy=r.lethargy, cannot=r.cannot, **fields)


def _beast(spell: Spell, option: str | None) -> Any:
    from combat.bestiary import library as bestiary

    if not option:
        raise RuleError(
            "spell/option", f"{spell.name} needs the Beast form chosen", allowed="option: a Beast's name from the bestiary"
        )
    block = bestiary.find(option)
    if block.type.lower() != "beast":
        raise RuleError("spell/option", f"{block.name} is a {block.type}, not a Beast", allowed="option: a Beast's name")
    return block


def _cr(text: str) -> Fraction | None:
    try:
        return Fraction(text)
    except (ValueError, ZeroDivisionError):
        return None


def check_targets(tx: Tx, c: Combatant, spell: Spell, targets: tuple[str, ...], option: str | None) -> int | None:
    """Polymorph's Beast form, checked before anything is spent: its Hit Points (and Hex's
    ability, Magic Weapon's weapon)."""
    hit_damage.check_option(tx, spell, targets, option)
    r = spell.riders
    if r is not None and r.saves_later and targets:
        raise RuleError(
            "spell/targets",
            f"{spell.name} asks no save as it is cast: a creature saves when it enters the area or starts its turn there",
            allowed=f"no targets; then spell_effect {spell.name} with the creatures that save",
        )
    if r is None or not r.beast_form:
        return None
    block = _beast(spell, option)
    beast_cr = _cr(block.cr)
    for tid in targets:
        held = character(tx.state, tid)
        own = block_sheet(tx.state, tid)
        most = Fraction(held.sheet.level) if held is not None else _cr(own.block.cr) if own is not None else None
        if most is not None and beast_cr is not None and beast_cr > most:
            raise RuleError(
                "spell/option",
                f"{block.name} (CR {block.cr}) is above {tx.combatant(tid).name}'s "
                + ("level" if held is not None else "Challenge Rating")
                + f" of {most}",
                allowed="a Beast with a Challenge Rating equal to or less than the target's (or its level)",
            )
    return block.hp


def landed(tx: Tx, c: Combatant, spell: Spell, affected: tuple[str, ...], beast_hp: int | None) -> None:
    """What follows at once from the effect landing on each of `affected`."""
    r = spell.riders
    if r is None:
        return
    for tid in affected:
        target = tx.state.combatants[tid]
        if target.status == "dead":
            continue
        if r.max_hp is not None and target.status == "unconscious" and target.hp > 0:
            revive(tx, tid)  # Aid's 5 Hit Points on a creature at 0
        if r.extra_action:
            if tid == tx.state.turn:
                # Cast on itself with its own action: the additional action is there this turn.
                tx.emit(ActionGranted(combatant=tid, kind="action", reason=f"{spell.name}: {r.extra_action}"))
            else:
                tx.emit(ActionBanked(combatant=tid, kind="action", reason=f"{spell.name}: {r.extra_action}"))
        if r.beast_form and beast_hp:
            tx.emit(TempHPGranted(target=tid, amount=beast_hp, source=c.id))


def on_hit(tx: Tx, c: Combatant, spell: Spell, hit: tuple[str, ...]) -> None:
    """Guiding Bolt's and Chill Touch's mark on each creature hit, to the end of the caster's next turn."""
    r = spell.riders
    if r is None or r.on_hit is None:
        return
    riders = Riders(advantage_against=r.on_hit == "advantage_against", no_healing=r.on_hit == "no_healing")
    for tid in hit:
        if tx.state.combatants[tid].status == "dead":
            continue
        mark = ConditionSpec(name=spell.name.lower(), source=c.id, ends="end of next turn", ends_on=c.id, riders=riders)
        apply_condition(tx, ApplyCondition(target=tid, condition=mark, custom=True))


def dust(tx: Tx, spell: Spell, before: dict[str, int], saves: dict[str, SaveMade]) -> None:
    """Disintegrate: a creature its damage brings from above 0 to 0 Hit Points turns to dust."""
    from combat.common.concentration import end_concentration

    if spell.riders is None or not spell.riders.dust_at_zero:
        return
    for tid, hp in before.items():
        now = tx.state.combatants[tid]
        if hp > 0 and now.hp == 0 and not saves[tid].success and now.status != "dead":
            tx.emit(CombatantDied(combatant=tid, cause=f"{spell.name}: reduced to 0 Hit Points, disintegrated into gray dust"))
            end_concentration(tx, tid, "died")


def with_modifier(spell: Spell, damage: tuple[DamageRoll, ...], caster: Caster) -> tuple[DamageRoll, ...]:
    """Spiritual Weapon: "Force damage equal to 1d8 plus your spellcasting ability modifier"."""
    if spell.riders is None or not spell.riders.damage_plus_modifier or not damage or not caster.ability_modifier:
        return damage
    first = msgspec.structs.replace(damage[0], dice=f"{damage[0].dice}{caster.ability_modifier:+d}")
    return (first, *damage[1:])


def condition_riders(spell: Spell, condition: ConditionSpec) -> ConditionSpec:
    """Sleep's condition: what its failed repeated save turns it into, and its end on damage;
    Invisibility's, its end when the target attacks, deals damage or casts a spell."""
    r = spell.riders
    if r is None or (r.fails_into is None and not r.ends_on_damage and not r.ends_when_acts):
        return condition
    riders = Riders(
        fails_into=r.fails_into if r.fails_into is not None else UNSET,
        ends_on_damage=r.ends_on_damage,
        ends_when_acts=r.ends_when_acts,
    )
    return msgspec.structs.replace(condition, riders=riders)


def marker(tx: Tx, c: Combatant, spell: Spell, slot: int | None, damage_type: str | None) -> None:
    """The caster's marker of a spell it uses again later, tied to its concentration (or, for a
    spell without, lasting its rounds: Grease)."""
    if spell.riders is None or not spell.riders.follow_up:
        return
    if all(f.granted or f.delayed for f in spell.riders.follow_up):  # marked on its targets (spell_follow_ups)
        return
    if spell.concentration:
        if tx.state.combatants[c.id].concentration != spell.name:
            return
        lasts: dict[str, Any] = {"concentration": c.id, "effect": spell.name}
    elif spell.duration.rounds:
        lasts = {"rounds": spell.duration.rounds, "ends_on": c.id}
    else:
        return
    riders = Riders(cast_at=slot or spell.level, damage_type=damage_type if damage_type else UNSET)
    spec = ConditionSpec(name=spell.name.lower(), source=c.id, riders=riders, **lasts)
    apply_condition(tx, ApplyCondition(target=c.id, condition=spec, custom=True))


def fail_into(tx: Tx, cid: str, cond: ConditionSpec) -> None:
    """Sleep: the failed repeated save ends the Incapacitated and leaves the creature Unconscious
    for the duration, still ending if it takes damage."""
    assert cond.riders is not UNSET and cond.riders.fails_into is not UNSET
    bearer = tx.state.combatants[cid]
    tx.emit(ending(bearer, cond, f"failed the repeated {cond.save.ability if cond.save is not UNSET else ''} save"))
    then = ConditionSpec(
        name=cond.riders.fails_into,
        source=cond.source,
        concentration=cond.concentration,
        effect=cond.effect,
        riders=Riders(ends_on_damage=cond.riders.ends_on_damage),
    )
    if cond.until_round is not UNSET:  # "for the duration": the rounds the spell has left
        left = cond.until_round - max(tx.state.round, 1)
        if left < 1:
            return
        then = msgspec.structs.replace(then, rounds=left, ends=cond.ends, ends_on=cond.ends_on)
    if then.concentration is not UNSET and tx.state.combatants[then.concentration].concentration != then.effect:
        return  # the spell has ended meanwhile
    apply_condition(tx, ApplyCondition(target=cid, condition=then))


# -- later moments ----------------------------------------------------------------------------


def follow(tx: Tx) -> None:
    """After every command (the 5e rulesets' flow): what the events it emitted set off."""
    i = 0
    while i < len(tx.events):
        e = tx.events[i]
        i += 1
        if isinstance(e, TurnStarted):
            _turn_started(tx, e.combatant)
        elif isinstance(e, TurnEnded) and not e.taken_back:
            _turn_ended(tx, e.combatant)
        elif isinstance(e, ConditionEnded) and e.entry is not UNSET and e.entry.riders is not UNSET and e.entry.riders.lethargy:
            _lethargy(tx, e.target, e.entry)
        elif isinstance(e, ConditionEnded) and e.entry is not UNSET and e.entry.riders is not UNSET and e.entry.riders.also:
            end_companions(tx, e.target, e.entry)  # Hideous Laughter's Prone ends with its Incapacitated
        dealt = defences.damage_of(e)  # an attack's damage too, not only a DamageTaken
        if dealt is not None and dealt[1] > 0:
            _damaged(tx, dealt[0])
        defences.after(tx, e, dealt, defences.Later(tx.events, i, len(tx.events)))


def _turn_started(tx: Tx, cid: str) -> None:
    c = tx.state.combatants.get(cid)
    if c is None or c.status == "dead" or tx.state.turn != cid:
        return
    for cond in c.conditions:
        r = cond.riders
        if r is not UNSET and r.temp_hp_each_turn is not UNSET and r.temp_hp_each_turn > 0:
            tx.emit(TempHPGranted(target=cid, amount=r.temp_hp_each_turn, source=cond.source))
    after_hit.turn_started(tx, cid)  # Searing Smite's burning, Ensnaring Strike's thorns


def _turn_ended(tx: Tx, cid: str) -> None:
    c = tx.state.combatants.get(cid)
    if c is None or c.status == "dead":
        return
    for cond in c.conditions:
        r = cond.riders
        if r is not UNSET and r.extra_action is not UNSET:
            tx.emit(ActionBanked(combatant=cid, kind="action", reason=f"{cond.name.title()}: {r.extra_action}"))


def _damaged(tx: Tx, cid: str) -> None:
    c = tx.state.combatants[cid]
    for cond in c.conditions:
        r = cond.riders
        if r is UNSET:
            continue
        bearer = tx.state.combatants[cid]
        if cond not in bearer.conditions:
            continue
        if r.ends_on_damage:
            tx.emit(ending(bearer, cond, "it took damage"))
        elif r.beast_form and bearer.temp_hp == 0:
            tx.emit(ending(bearer, cond, "it has no Temporary Hit Points left"))


def _lethargy(tx: Tx, cid: str, ended: ConditionSpec) -> None:
    c = tx.state.combatants[cid]
    if c.status == "dead":
        return
    spec = ConditionSpec(
        name="incapacitated", source=ended.name, ends="end of next turn", ends_on=cid, riders=Riders(speed_times=0)
    )
    apply_condition(tx, ApplyCondition(target=cid, condition=spec))
