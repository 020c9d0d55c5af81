"""Casting a spell in one command: `cast_spell` (srd-2024, srd-2024-variant, a5e).

The spell is the SRD 5.2's (combat/spells: its save, attack, damage, healing, condition,
duration and what a higher slot changes, as data) or a custom spell on the caster's sheet.
In order, each step a rule of its own:

1. Who casts it: a character who knows or has prepared it (its sheet's `spells` or
   `custom_spells`: a GM-defined spell that gives its attack, save, damage... is cast as the
   SRD's are, combat/fivee/custom_spells.py), or a monster whose stat block's Spellcasting lists it, at will or so many
   times a day ("2/Day Each").
2. What it costs: "Casting a spell with a spell slot expends that slot"; a cantrip needs none
   ("A cantrip is a spell that is cast at will, without using a spell slot"); a higher slot
   casts it at that level ("When you cast a spell using a slot that is of a higher level than
   the spell, the spell assumes the higher level"). A Warlock's Pact Magic slot counts as
   one of its `pact_level`, and casts a lower spell without its level named; one slot per
   turn in srd-2024; a ritual only before the fight, in set-up (combat/fivee/casting_rules.py). The casting time is the action, the Bonus Action or the Reaction
   its casting time says, spent here; a spell of a minute or more is not cast mid-fight.
3. Concentration: "If you are already concentrating on a spell, you stop concentrating on it
   when you cast a new one that requires Concentration" (combat/common/concentration.py).
4. Its effect, by what the data says it does:
   - an attack spell rolls a spell attack per target (per ray or beam) with the caster's
     spell attack bonus, as a weapon attack is made (combat/fivee/attacks.py: Advantage,
     with the command's reasons too, cover, a Critical Hit doubling the dice);
   - a save spell has each target save against the caster's spell save DC, the damage rolled
     once for all of them, half on a success where the text says so, and its condition on a
     failure (combat/fivee/save_effects.py; each save with its modifiers: the target's
     traits, the GM's reasons, cover, Legendary Resistance, combat/fivee/save_modifiers.py), lasting as the spell does: for its rounds, until
     its concentration ends, with the save repeated at the end of each of the target's turns
     (combat/common/durations.py);
   - darts (Magic Missile) each hit the target named for it, for the spell's damage, all at
     once ("The darts all strike simultaneously": one that drops its target spares no other);
   - healing rolls once per target, plus the spellcasting modifier where the text says so;
   - a bonus to AC (Shield, Shield of Faith) or to d20 rolls (Bless, Bane) is an effect on
     each target (a condition named for the spell) for the spell's duration.
   - a spell cast right after a weapon hit (Divine Smite, the other smites, Ensnaring Strike)
     strikes the creature the caster's last attack this turn hit, its damage that attack's
     extra damage (combat/fivee/after_hit.py); what a lasting spell adds to later hits
     (Hunter's Mark, Hex, Divine Favor, Magic Weapon) rides on its effect's riders and is read
     by the attack rule (combat/fivee/hit_damage.py).
   What the data does not describe (`Spell.manual`, and every spell whose `automation` is
   `narrative`) is cast all the same (slot, action, concentration) and named in the
   narrative; the GM applies the rest.

Dice: `attack_faces` one d20 list per attack, `damage_faces` one list per damage or healing
roll (one for a save spell's single roll, one per attack or dart otherwise), `save_faces` the
targets' saves by id (the targets' own dice: the GM's to enter). Left out, the service rolls.
Cantrips scale with a character's level ("at levels 5, 11 and 17"); a monster's cantrips
deal their base damage.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

import msgspec

from combat.bestiary.model import BlockSpellcasting
from combat.characters.sheet import CustomSpell
from combat.common.commands import ApplyCondition, Heal
from combat.common.concentration import start_concentration
from combat.common.conditions import apply_condition
from combat.common.durations import LastingEffects
from combat.common.entered_dice import entering
from combat.common.events import SaveMade
from combat.common.hitpoints import heal
from combat.common.turns import require_able, require_turn
from combat.fivee import after_hit, custom_spells, hit_damage, spell_dispel, spell_follow_ups, spell_restoration
from combat.fivee import spell_effects_ongoing as ongoing
from combat.fivee.action_events import ActionTaken, ReactionTaken
from combat.fivee.actions import require_reaction, spend_check
from combat.fivee.attacks import AttackOptions, require_no_pending_damage, resolve_attack
from combat.fivee.casting_rules import pact_slot_for, ritual_cast
from combat.fivee.casts import Caster, CastSpell, SpellCast, caster_of
from combat.fivee.characters import character, with_character
from combat.fivee.group_saves import deal_share, resolve_save_effect, share_after_save, takes_any
from combat.fivee.held_open import reaction_window_of
from combat.fivee.monsters import sheet as block_sheet
from combat.fivee.monsters import with_sheet
from combat.fivee.reaction_windows import reaction_spells, spend_reaction_use
from combat.fivee.sanctuary import aimed_spell
from combat.fivee.spell_conditions import give_companions, with_companions
from combat.fivee.spell_riders import by_hit_points, hit_targets, lapse_if_none_affected
from combat.fivee.spell_targets import checked_targets, chosen_option, chosen_type, who
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile, ConditionSpec, RepeatedSave
from combat.kernel.names import normalised
from combat.kernel.state import Combatant, EncounterState
from combat.spells.model import DamageRoll, Spell

if TYPE_CHECKING:
    from combat.fivee.spell_effect_uses import SpellEffect

__all__ = ["Begun", "begin_cast", "resolve_cast", "damage_at", "spell_attacks", "spell_saves", "RULES"]

Faces = tuple[int, ...]


# -- 1. who casts it, 2. what it costs -----------------------------------------------------


def _known(tx: Tx, c: Combatant, name: str) -> tuple[Spell | None, CustomSpell | None, BlockSpellcasting | None]:
    """The spell `c` casts by `name`: an SRD spell or a custom one, and the stat block list it
    comes from for a monster."""
    held = character(tx.state, c.id)
    key = name.strip().lower()
    if held is not None:
        casting = held.sheet.spellcasting
        if casting is None:
            raise RuleError("spell/no-caster", f"{c.name}'s sheet has no spellcasting", allowed="a character who casts spells")
        custom = next((s for s in casting.custom_spells if s.name.lower() == key), None)
        if custom is not None:
            return None, custom, None
        if key not in {s.lower() for s in casting.spells}:
            raise RuleError(
                "spell/not-known",
                f"{c.name} does not know or have prepared '{name}'",
                allowed=", ".join([*casting.spells, *(s.name for s in casting.custom_spells)]) or "none on the sheet",
            )
        return _find(name), None, None
    block = block_sheet(tx.state, c.id)
    casting_list = block.block.spellcasting if block is not None else None
    if casting_list is None:
        raise RuleError(
            "spell/no-caster",
            f"{c.name} has no spellcasting on its sheet or stat block",
            allowed="a character whose sheet has spellcasting, or a creature whose stat block lists spells",
        )
    listed = [*casting_list.at_will, *casting_list.per_day, *reaction_spells(block.block)]  # type: ignore[union-attr]
    if key not in {s.lower() for s in listed}:
        raise RuleError("spell/not-known", f"{c.name}'s stat block does not list '{name}'", allowed=", ".join(listed))
    return _find(name), None, casting_list


def _find(name: str) -> Spell:
    from combat.spells import library  # the SRD's 339 spells: loaded when a spell is first looked up

    return library.find(name)


def _slot(tx: Tx, c: Combatant, level: int, wanted: int | None) -> tuple[int | None, bool]:
    """The slot the casting expends (None for a cantrip) and whether it is a Pact Magic slot."""
    if level == 0:
        if wanted not in (None, 0):
            raise RuleError("spell/cantrip-slot", "a cantrip is cast without a spell slot", allowed="no slot_level")
        return None, False
    slot = level if wanted is None else wanted
    if not level <= slot <= 9:
        raise RuleError(
            "spell/slot-level", f"a level {level} spell cast with a level {slot} slot", allowed=f"a slot of level {level} to 9"
        )
    held = character(tx.state, c.id)
    assert held is not None and held.sheet.spellcasting is not None
    casting = held.sheet.spellcasting
    have = casting.slots[slot - 1] if slot <= len(casting.slots) else 0
    spent = held.slots_spent[slot - 1] if slot <= len(held.slots_spent) else 0
    pact_level = pact_slot_for(casting, held.pact_spent, level, wanted, own_left=spent < have)
    if pact_level is not None:
        return pact_level, True
    if spent >= have:
        left = [
            f"level {i + 1}: {n - (held.slots_spent[i] if i < len(held.slots_spent) else 0)}"
            for i, n in enumerate(casting.slots)
            if n
        ]
        pact = [f"pact (level {casting.pact_level}): {casting.pact_slots - held.pact_spent}"] if casting.pact_slots else []
        raise RuleError(
            "spell/no-slot",
            f"{c.name} has no level {slot} spell slot left",
            allowed="slots left: " + (", ".join(left + pact) or "none") + "; a Long Rest restores them",
        )
    return slot, False


def _per_day(tx: Tx, c: Combatant, spell: str, listed: BlockSpellcasting) -> bool:
    """A stat block's "N/Day Each" spell: one of its uses, refused when none is left."""
    name = next((n for n in listed.per_day if n.lower() == spell.lower()), None)
    if name is None:
        return False
    block = block_sheet(tx.state, c.id)
    assert block is not None
    if block.used_today.get(_day_key(name), 0) >= listed.per_day[name]:
        raise RuleError(
            "spell/no-uses",
            f"{c.name} has cast {name} {listed.per_day[name]} time(s) today, all its uses",
            allowed=", ".join(listed.at_will) or "its at-will spells",
        )
    return True


def _day_key(spell: str) -> str:
    return f"spell: {spell}"


def _spend_casting_time(tx: Tx, c: Combatant, casting_time: str, what: str, text: str = "") -> None:
    if casting_time == "reaction":
        require_reaction(c)
        tx.emit(ReactionTaken(combatant=c.id, description=f"casts {what}"))
        return
    if casting_time == "other":
        raise RuleError(
            "spell/casting-time",
            f"{what} takes {text or 'longer than an action'} to cast, not a turn of a fight",
            allowed="cast it before the fight, or let the GM rule on it",
        )
    require_turn(tx, c.id)
    require_able(c, "cast a spell")
    uses = "bonus_action" if casting_time == "bonus_action" else "action"
    spend_check(c, uses)
    tx.emit(ActionTaken(combatant=c.id, action="magic", detail=f"casts {what}", uses=uses))  # type: ignore[arg-type]


# -- 4. the effect -------------------------------------------------------------------------


def _damage(spell: Spell, slot: int | None, caster: Caster) -> tuple[DamageRoll, ...]:
    """The spell's damage at this slot (or a cantrip's at the caster's level)."""
    if spell.level == 0:
        scaled = spell.at_character_level(caster.character_level)
        return scaled.damage if scaled is not None and scaled.damage else spell.damage
    up = spell.at_slot(slot) if slot is not None and slot > spell.level else None
    return up.damage if up is not None and up.damage else spell.damage


_chosen_type = chosen_type


def _projectiles(spell: Spell, slot: int | None, caster: Caster) -> int:
    assert spell.projectiles is not None
    count = spell.projectiles.count
    if spell.level == 0:
        scaled = spell.at_character_level(caster.character_level)
        return scaled.projectiles if scaled is not None and scaled.projectiles else count
    up = spell.at_slot(slot) if slot is not None and slot > spell.level else None
    return up.projectiles if up is not None and up.projectiles else count


class _Dice:
    """The entered faces, taken in order as the rolls are made; an entered list left over, or
    too few for rolls that need them, is refused."""

    def __init__(self, name: str, given: tuple[Faces, ...]):
        self.name, self.given, self.used = name, given, 0

    def next(self) -> Faces | None:
        if not self.given:
            return None
        if self.used >= len(self.given):
            raise RuleError(
                "dice/faces-count",
                f"more {self.name} rolls than the {len(self.given)} entered",
                allowed=f"one list in {self.name} per roll, or none for the service to roll",
            )
        self.used += 1
        return self.given[self.used - 1]

    def all_used(self) -> None:
        if self.given and self.used != len(self.given):
            raise RuleError(
                "dice/unused-faces",
                f"{len(self.given)} {self.name} lists entered, {self.used} used",
                allowed=f"one list in {self.name} per roll",
            )


def _attack(
    tx: Tx,
    c: Combatant,
    spell: Spell,
    caster: Caster,
    targets: tuple[str, ...],
    damage: tuple[DamageRoll, ...],
    chosen: str | None,
    attacks: _Dice,
    rolls: _Dice,
    advantage: tuple[str, ...] = (),
    disadvantage: tuple[str, ...] = (),
) -> None:
    roll = damage[0] if damage else None
    for tid in targets:
        target = tx.combatant(tid)
        profile = AttackProfile(
            name=spell.name,
            bonus=caster.attack_bonus,
            damage=roll.dice if roll else "0",
            damage_type=_chosen_type(roll, chosen, spell) if roll else "force",
            kind="melee" if spell.attack == "melee" else "ranged",
            reach=spell.range if isinstance(spell.range, int) and spell.attack == "melee" else 5,
        )
        faces = attacks.next()
        damage_faces = rolls.next() if roll is not None else None  # an attack's list; a miss leaves it unused
        if faces is not None and damage_faces is None and len(targets) > 1:
            raise RuleError(
                "spell/damage-faces",
                f"{spell.name} makes {len(targets)} attacks: enter each hit's damage with its d20",
                allowed="damage_faces beside attack_faces, or neither",
            )
        options = AttackOptions(
            uses="none", advantage=advantage, disadvantage=disadvantage, faces=faces, damage_faces=damage_faces
        )
        resolve_attack(tx, c, target, profile, options)


def _darts(
    tx: Tx, c: Combatant, spell: Spell, targets: tuple[str, ...], damage: tuple[DamageRoll, ...], chosen: str | None, rolls: _Dice
) -> None:
    roll = damage[0]
    kind = _chosen_type(roll, chosen, spell)
    # "The darts all strike simultaneously": a target is refused only if dead before the
    # spell; a dart that follows one that dropped it still strikes (its damage changes nothing
    # on a dead monster, and is a Death Saving Throw failure for a character at 0 HP).
    dead = [tx.combatant(tid).name for tid in dict.fromkeys(targets) if tx.combatant(tid).status == "dead"]
    if dead:
        raise RuleError("target/dead", f"{', '.join(dead)} is already dead", allowed="a living target")
    for tid in targets:
        rolled = max(0, tx.roll(roll.dice, purpose=f"{spell.name} damage", roller=c.id, faces=rolls.next()).total)
        deal_share(tx, tid, rolled, rolled, kind, c.id)


def _lasting(c: Combatant, spell: Spell, name: str, *, dc: int | None = None, **effect: Any) -> ConditionSpec:
    """A condition (or an effect named for the spell) lasting as the spell does: to a boundary
    of the caster's next turn, for its rounds (counted on the caster's turns), and while the
    caster concentrates on it; with the save its target repeats at the end of its turns."""
    fields: dict[str, Any] = {"name": name, "source": c.id, **effect}
    if spell.duration.ends == "start_of_your_next_turn":
        fields.update(ends="start", ends_on=c.id)
    elif spell.duration.ends == "end_of_your_next_turn":
        fields.update(ends="end of next turn", ends_on=c.id)
    elif spell.duration.rounds:
        fields.update(rounds=spell.duration.rounds, ends_on=c.id)
    if spell.concentration:
        fields.update(concentration=c.id, effect=spell.name)
    if dc is not None and spell.save is not None and spell.save.repeats == "end_of_each_turn":
        fields["save"] = RepeatedSave(ability=spell.save.ability, dc=dc)
    return ConditionSpec(**fields)


class Begun(msgspec.Struct, frozen=True, kw_only=True):
    """A spell whose cost is spent and whose `SpellCast` is recorded, its effect still to come
    (`resolve_cast`): a reaction window may hold it there (Counterspell)."""

    spell: str
    slot: int | None
    targets: tuple[str, ...]
    pact: bool = False
    beast_hp: int | None = None  # Polymorph's Beast form (combat/fivee/spell_effects_ongoing.py)


def _cast_spell(tx: Tx, cmd: CastSpell) -> None:
    begun = begin_cast(tx, cmd)
    if begun is not None:
        resolve_cast(tx, cmd, begun)


def begin_cast(tx: Tx, cmd: CastSpell, *, automated: bool = False) -> Begun | None:
    """Steps 1-2: who casts it and what it costs, up to its `SpellCast`; None for a custom spell
    (cast whole: its effect is the GM's). `automated`: the caller resolves the effect itself
    (Counterspell in its window), so the GM is handed none of its text."""
    if reaction_window_of(tx.state) is None:  # in a window, the window's own rule says who may cast
        require_no_pending_damage(tx.state)
    c = tx.combatant(cmd.caster)
    spell, custom, listed = _known(tx, c, cmd.spell)
    named = custom.name if custom is not None else spell.name if spell is not None else cmd.spell
    tag = custom is None and spell is not None and spell.ritual
    ritual = ritual_cast(tx.state.phase, c, named, asked=cmd.ritual, ritual_tag=tag, from_block=listed is not None)
    if custom is not None:
        if not custom_spells.automated(custom):
            _cast_custom(tx, c, custom, cmd)
            return None
        spell = custom_spells.as_spell(custom)  # a GM-defined spell that says what it does: cast as the SRD's are
    assert spell is not None
    caster = caster_of(tx.state, c)
    spell = _as_cast(spell, cmd)
    per_day = listed is not None and _per_day(tx, c, spell.name, listed)
    if listed is not None:
        spend_reaction_use(tx, c, spell.name)
    if listed is not None:
        if cmd.slot_level not in (None, spell.level):
            raise RuleError(
                "spell/slot-level", f"{c.name} casts {spell.name} from its stat block, at its own level", allowed="no slot_level"
            )
        slot, pact = None, False
    elif ritual:
        if cmd.slot_level is not None:
            raise RuleError("spell/slot-level", f"{spell.name} cast as a ritual expends no spell slot", allowed="no slot_level")
        slot, pact = None, False
    else:
        slot, pact = _slot(tx, c, spell.level, cmd.slot_level)
    spell = _at_slot(spell, slot)
    targets = _targets(tx, c, spell, cmd, slot, caster)
    beast_hp = ongoing.check_targets(tx, c, spell, targets, cmd.option)
    spell_restoration.check(tx, spell, targets, cmd.option)
    if not ritual:  # a ritual before the fight takes no turn's action
        _spend_casting_time(tx, c, spell.casting_time, spell.name, spell.casting_time_text)
    tx.emit(
        SpellCast(
            caster=c.id,
            spell=spell.name,
            level=slot or spell.level,
            slot=slot,
            pact=pact,
            per_day=per_day,
            targets=targets,
            manual=() if automated else spell.manual if spell.automation != "narrative" else (spell.desc,),
            ritual=True if ritual else msgspec.UNSET,
        )
    )
    return Begun(spell=spell.name, slot=slot, targets=targets, pact=pact, beast_hp=beast_hp)


def resolve_cast(tx: Tx, cmd: CastSpell, begun: Begun) -> None:
    """Steps 3-4: concentration and the effect, once nothing stops the spell."""
    c = tx.combatant(cmd.caster)
    spell = _as_begun(tx, c, cmd, begun)
    with entering(tx, mirror_faces=cmd.mirror_faces, resistance_faces=cmd.resistance_faces):
        targets = aimed_spell(tx, c, spell, begun.targets, cmd.sanctuary_faces, cmd.new_targets)
        if targets is None:
            return  # "lose the ... spell": spent as cast
        if spell.concentration:
            start_concentration(tx, c.id, spell.name)
        _effect(tx, c, spell, caster_of(tx.state, c), begun.slot, targets, cmd, begun.beast_hp)


def _as_begun(tx: Tx, c: Combatant, cmd: CastSpell, begun: Begun) -> Spell:
    """The spell as `begin_cast` shaped it, again: a held spell resumes in a later command, and
    only the command and what it spent are kept (a GM-defined spell, the option chosen, the slot)."""
    spell, custom, _ = _known(tx, c, cmd.spell)
    if custom is not None:
        spell = custom_spells.as_spell(custom)
    assert spell is not None
    return _at_slot(_as_cast(spell, cmd), begun.slot)


def _as_cast(spell: Spell, cmd: CastSpell) -> Spell:
    """The spell with the effect the caster chose among its options (Command's "Grovel")."""
    r = spell.riders
    if (r is not None and (r.beast_form or r.weapon_bonus or r.chosen_check_disadvantage)) or spell_restoration.takes_option(
        spell
    ):
        # the option names Polymorph's Beast, Magic Weapon's weapon, Hex's ability (ongoing.check_targets),
        # or the condition a restoration ends
        return spell
    option = chosen_option(spell, cmd.option)
    if option is None:
        return spell
    return msgspec.structs.replace(
        spell,
        condition=option.condition,
        manual=(*spell.manual, option.text) if option.text else spell.manual,
        riders=option.riders if option.riders is not None else spell.riders,
    )


def _at_slot(spell: Spell, slot: int | None) -> Spell:
    """The spell with its duration and concentration at this slot (Dominate Person at 7th: 1 hour)."""
    duration, concentration = spell.duration_at(slot)
    return msgspec.structs.replace(spell, duration=duration, concentration=concentration)


def _targets(tx: Tx, c: Combatant, spell: Spell, cmd: CastSpell, slot: int | None, caster: Caster) -> tuple[str, ...]:
    for tid in cmd.targets:
        tx.combatant(tid)  # an unknown id is refused before anything is spent
    if after_hit.follows_hit(spell):
        return after_hit.hit_target(tx, c, spell, cmd.targets)
    acts = (
        spell.attack is not None
        or spell.save is not None
        or spell.healing is not None
        or spell.projectiles is not None
        or spell.ac_bonus is not None
        or spell.roll_bonus is not None
        or bool(spell.damage)
        or spell.riders is not None
        or spell.restores is not None
        or bool(spell.hp_bands)
        or spell.dispels
    )
    if spell.projectiles is not None:
        if not cmd.targets:
            raise RuleError(
                "spell/targets", f"{spell.name} needs its targets", allowed="targets: the ids of the creatures it affects"
            )
        count = _projectiles(spell, slot, caster)
        if len(cmd.targets) != count:
            raise RuleError(
                "spell/targets",
                f"{spell.name} has {count} {spell.projectiles.kind}, and {len(cmd.targets)} targets were named",
                allowed=f"{count} ids, one per {spell.projectiles.kind[:-1]} (the same id again to aim several at one creature)",
            )
        return cmd.targets
    if not acts:  # the GM applies it: whoever is named is recorded
        if len(set(cmd.targets)) != len(cmd.targets):
            raise RuleError("spell/targets", "a creature named twice", allowed="each target once")
        return cmd.targets
    checked = checked_targets(tx, c, spell, cmd.targets, slot)
    # An area may hold nobody; a spell on creatures needs them.
    # A spell whose effect comes later may reach no one as cast: Spiritual Weapon's "you can
    # immediately make one ... attack", Heat Metal's object held by no one, Conjure Animals' pack.
    later = spell.riders is not None and any(
        f.uses == "bonus_action" or (spell.attack is None and spell.save is None) for f in spell.riders.follow_up
    )
    if not checked and who(spell) == "creatures" and spell.automation != "narrative" and not later:
        raise RuleError(
            "spell/targets", f"{spell.name} needs its targets", allowed="targets: the ids of the creatures it affects"
        )
    return checked


def _effect(
    tx: Tx,
    c: Combatant,
    spell: Spell,
    caster: Caster,
    slot: int | None,
    targets: tuple[str, ...],
    cmd: CastSpell,
    beast_hp: int | None = None,
) -> None:
    attacks, rolls = _Dice("attack_faces", cmd.attack_faces), _Dice("damage_faces", cmd.damage_faces)
    damage = ongoing.with_modifier(spell, _damage(spell, slot, caster), caster)
    affected = targets  # those its lasting effect reaches: every target, or those who failed its save
    if spell.projectiles is not None and spell.attack is None and damage:
        _darts(tx, c, spell, targets, damage, cmd.damage_type, rolls)
    elif spell.attack is not None and targets:
        since = len(tx.events)
        _attack(tx, c, spell, caster, targets, damage, cmd.damage_type, attacks, rolls, cmd.advantage, cmd.disadvantage)
        if spell.review is not None and spell.condition is not None:  # "On a hit, ... has the Poisoned condition"
            for tid in hit_targets(tx.events, since, c):
                if tx.state.combatants[tid].status != "dead":
                    _condition_on(tx, c, spell, tid)
        ongoing.on_hit(tx, c, spell, hit_targets(tx.events, since, c))
        spell_follow_ups.after_hits(tx, c, spell, since, slot)  # Vampiric Touch's healing, Acid Arrow's later damage
    elif spell.save is not None and targets:
        before = {t: tx.state.combatants[t].hp for t in targets}
        saves = _save(tx, c, spell, caster, targets, damage, cmd, rolls)
        ongoing.dust(tx, spell, before, saves)
        affected = tuple(t for t in targets if not saves[t].success and tx.state.combatants[t].status != "dead")
        spell_follow_ups.delayed(tx, c, spell, slot, affected)  # Vitriolic Sphere's later damage
        lapse_if_none_affected(tx, c.id, spell, affected)
        by_hit_points(tx, c, spell, caster.save_dc, affected)  # Divine Word: by current Hit Points
    elif after_hit.follows_hit(spell) and damage and targets:
        after_hit.strike(tx, c, spell, targets[0], damage, rolls.next())
        affected = tuple(t for t in targets if tx.state.combatants[t].status != "dead")
    elif spell.hp_bands and targets:
        _unsaved_damage(tx, c, spell, by_hit_points(tx, c, spell, caster.save_dc, targets), damage, cmd.damage_type, rolls)
    elif spell.condition is not None and targets:
        for tid in targets:
            condition = ongoing.condition_riders(spell, _lasting(c, spell, spell.condition.name))
            apply_condition(tx, ApplyCondition(target=tid, condition=condition))
    if spell.healing is not None:
        _heal(tx, c, spell, caster, slot, targets, rolls)
    spell_restoration.restore(tx, c, spell, targets, cmd.option)
    spell_dispel.dispel(tx, c, spell, caster, slot, targets, cmd.check_faces)
    if spell.ac_bonus is not None or spell.roll_bonus is not None or ongoing.lasting(spell):
        effect: dict[str, Any] = {}
        if spell.ac_bonus is not None:
            effect["ac_bonus"] = spell.ac_bonus
        if spell.roll_bonus is not None:
            effect["roll_bonus"] = spell.roll_bonus.dice
            effect["roll_bonus_on"] = spell.roll_bonus.rolls
        hit_damage.end_earlier_casting(tx, c.id, spell)
        for tid in affected:
            if ongoing.lasting(spell):
                effect["riders"] = ongoing.effect_riders(tx, spell, caster, slot, tid, beast_hp, cmd)
            # with the save it repeats at the end of the target's turns, where it has one (Confusion)
            spec = _lasting(c, spell, spell.name.lower(), dc=caster.save_dc, **effect)
            apply_condition(tx, ApplyCondition(target=tid, condition=spec, custom=True))
        ongoing.landed(tx, c, spell, affected, beast_hp)
    ongoing.marker(tx, c, spell, slot, cmd.damage_type)
    spell_follow_ups.granted(tx, c, spell, slot, affected, cmd.damage_type)
    if cmd.save_faces and spell.save is None:
        raise RuleError("dice/unused-faces", f"{spell.name} calls for no save", allowed="no save_faces")
    if (cmd.advantage or cmd.disadvantage) and spell.attack is None:
        raise RuleError(
            "spell/no-attack-roll",
            f"{spell.name} makes no attack roll: Advantage and Disadvantage here are for spell attacks",
            allowed="no advantage or disadvantage; a target's save takes them in save_modifiers",
        )
    if cmd.save_modifiers and spell.save is None:
        raise RuleError("save/modifiers-target", f"{spell.name} calls for no save", allowed="no save_modifiers")
    attacks.all_used()
    rolls.all_used()


def _condition_on(tx: Tx, c: Combatant, spell: Spell, tid: str) -> None:
    assert spell.condition is not None
    condition = _lasting(c, spell, spell.condition.name)
    ends = {"start_of_your_next_turn": "start", "end_of_your_next_turn": "end of next turn"}.get(spell.condition.ends or "")
    if ends is not None:
        condition = msgspec.structs.replace(
            condition, ends=ends, ends_on=c.id, concentration=msgspec.UNSET, effect=msgspec.UNSET, rounds=msgspec.UNSET
        )
    apply_condition(tx, ApplyCondition(target=tid, condition=condition))


def _unsaved_damage(
    tx: Tx, c: Combatant, spell: Spell, targets: tuple[str, ...], damage: tuple[DamageRoll, ...], chosen: str | None, rolls: _Dice
) -> None:
    """Damage with neither attack nor save (Power Word Kill's 12d12 on a creature above 100 HP)."""
    for tid in targets:
        for roll in damage:
            rolled = max(0, tx.roll(roll.dice, purpose=f"{spell.name} damage", roller=c.id, faces=rolls.next()).total)
            deal_share(tx, tid, rolled, rolled, _chosen_type(roll, chosen, spell), c.id)


def _save(
    tx: Tx,
    c: Combatant,
    spell: Spell,
    caster: Caster,
    targets: tuple[str, ...],
    damage: tuple[DamageRoll, ...],
    cmd: CastSpell | SpellEffect,
    rolls: _Dice,
    chosen: str | None = None,
) -> dict[str, SaveMade]:
    assert spell.save is not None
    first = damage[0] if damage else None
    condition = None
    if spell.condition is not None:
        ends = {"start_of_your_next_turn": ("start", c.id), "end_of_your_next_turn": ("end of next turn", c.id)}.get(
            spell.condition.ends or ""
        )
        condition = _lasting(c, spell, spell.condition.name, dc=caster.save_dc)
        if ends is not None:
            condition = msgspec.structs.replace(
                condition, ends=ends[0], ends_on=ends[1], concentration=msgspec.UNSET, effect=msgspec.UNSET, rounds=msgspec.UNSET
            )
        condition = with_companions(spell, ongoing.condition_riders(spell, condition))
    saves = resolve_save_effect(
        tx,
        c.id,
        targets,
        spell.save.ability,
        caster.save_dc,
        damage_notation=first.dice if first else None,
        damage_type=_chosen_type(first, chosen or getattr(cmd, "damage_type", None), spell) if first else None,
        half=spell.save.half_on_success,
        condition=condition,
        faces_by_target=cmd.save_faces,
        damage_faces=rolls.next() if first else None,
        what=spell.name,
        modifiers=after_hit.with_size_advantage(tx, spell, targets, cmd.save_modifiers),
        magical=True,
    )
    give_companions(tx, condition, targets)  # "the Prone and Incapacitated conditions"
    for more in damage[1:]:  # a second roll of another type (Ice Storm's cold): once for all, halved alike
        kind = _chosen_type(more, None, spell)
        faces = rolls.next()
        if not takes_any(tx.state, saves, targets, spell.save.half_on_success):
            continue  # no one takes it: not rolled, as resolve_save_effect does not roll the first
        rolled = max(0, tx.roll(more.dice, purpose=f"{spell.name} {kind} damage", roller=c.id, faces=faces).total)
        for tid in targets:
            share = share_after_save(tx.state, saves[tid], spell.save.half_on_success, rolled)
            if tx.state.combatants[tid].status != "dead" and share is not None:
                deal_share(tx, tid, share, rolled, kind, c.id)
    return saves


def damage_at(spell: Spell, slot: int | None, caster: Caster) -> tuple[DamageRoll, ...]:
    """The spell's damage cast at `slot` (a later attack or save of a spell cast earlier)."""
    return _damage(spell, slot, caster)


def spell_attacks(
    tx: Tx, c: Combatant, spell: Spell, caster: Caster, targets: tuple[str, ...], damage: tuple[DamageRoll, ...], cmd: SpellEffect
) -> None:
    """Spell attacks made later (Spiritual Weapon's), with the command's faces and reasons."""
    attacks, rolls = _Dice("attack_faces", cmd.attack_faces), _Dice("damage_faces", cmd.damage_faces)
    _attack(tx, c, spell, caster, targets, damage, None, attacks, rolls, cmd.advantage, cmd.disadvantage)
    attacks.all_used()
    rolls.all_used()


def spell_saves(
    tx: Tx,
    c: Combatant,
    spell: Spell,
    caster: Caster,
    targets: tuple[str, ...],
    damage: tuple[DamageRoll, ...],
    chosen: str | None,
    cmd: SpellEffect,
) -> dict[str, SaveMade]:
    """A spell's save made later (Spirit Guardians'), its damage of the type chosen as it was cast."""
    rolls = _Dice("damage_faces", cmd.damage_faces)
    saves = _save(tx, c, spell, caster, targets, damage, cmd, rolls, chosen)
    rolls.all_used()
    return saves


def _heal(tx: Tx, c: Combatant, spell: Spell, caster: Caster, slot: int | None, targets: tuple[str, ...], rolls: _Dice) -> None:
    assert spell.healing is not None
    up = spell.at_slot(slot) if slot is not None and slot > spell.level else None
    healing = up.healing if up is not None and up.healing is not None else spell.healing
    notation = healing.dice + (f"{caster.ability_modifier:+d}" if healing.plus_modifier and caster.ability_modifier else "")
    for tid in targets:
        heal(tx, Heal(target=tid, notation=notation, faces=rolls.next(), source=c.id))


def _cast_custom(tx: Tx, c: Combatant, spell: CustomSpell, cmd: CastSpell) -> None:
    """A custom spell: its slot, casting time and concentration; its effect is the GM's."""
    if cmd.attack_faces or cmd.damage_faces or cmd.save_faces:
        raise RuleError("dice/unused-faces", f"{spell.name} is a custom spell: the GM applies its effect", allowed="no faces")
    slot, pact = _slot(tx, c, spell.level, cmd.slot_level)
    for tid in cmd.targets:
        tx.combatant(tid)
    _spend_casting_time(tx, c, spell.casting_time, spell.name)
    tx.emit(
        SpellCast(
            caster=c.id,
            spell=spell.name,
            level=slot or spell.level,
            slot=slot,
            pact=pact,
            targets=cmd.targets,
            manual=(spell.text or "the GM applies its effect",),
        )
    )
    if spell.concentration:
        start_concentration(tx, c.id, spell.name)


# -- appliers and narration ----------------------------------------------------------------


def _on_cast(state: EncounterState, e: SpellCast) -> EncounterState:
    if e.per_day:
        block = block_sheet(state, e.caster)
        if block is not None:
            used = {**block.used_today, _day_key(e.spell): block.used_today.get(_day_key(e.spell), 0) + 1}
            return with_sheet(state, e.caster, used_today=used)
        return state
    held = character(state, e.caster)
    if held is None or e.slot is None:
        return state
    if e.pact:
        return with_character(state, e.caster, pact_spent=held.pact_spent + 1)
    spent = list(held.slots_spent) + [0] * max(0, e.slot - len(held.slots_spent))
    spent[e.slot - 1] += 1
    return with_character(state, e.caster, slots_spent=tuple(spent))


_ORDINAL = {1: "1st", 2: "2nd", 3: "3rd"}


def _narrate(n: Any, e: SpellCast) -> str:
    cost = (
        f" with a {_ORDINAL.get(e.slot, f'{e.slot}th')}-level {'Pact Magic ' if e.pact else ''}slot"
        if e.slot
        else " (a use of the day)"
        if e.per_day
        else ""
    )
    at = f" at {', '.join(dict.fromkeys(n.name(t) for t in e.targets))}" if e.targets else ""
    ritual = " as a ritual (10 minutes longer than its casting time)" if e.ritual is True else ""
    line = f"{n.name(e.caster)} casts {e.spell}{ritual}{cost}{at}"
    if e.manual:
        line += "; for the GM: " + " ".join(e.manual)[:300]
    return line


class SpellLevels(LastingEffects):
    """A condition a spell cast in this command applies carries the level it was cast at
    (`SpellCast.level`): the spell's by its `effect` (held by concentration) or its name (an
    effect named for the spell), from the same caster."""

    def level_cast(self, tx: Tx, spec: ConditionSpec) -> int | None:
        spell = spec.effect if spec.effect is not msgspec.UNSET else spec.name
        for e in reversed(tx.events):
            if isinstance(e, SpellCast) and normalised(e.spell) == normalised(spell) and e.caster == spec.source:
                return e.level
        return None


RULES = Rules(
    ports={LastingEffects: SpellLevels()},
    handlers={CastSpell: _cast_spell},
    appliers={SpellCast: _on_cast},
    narration={SpellCast: _narrate},
)
