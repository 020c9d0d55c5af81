"""What a spell does again later in the fight (issue 31): `spell_effect`, one command for each
time the caster uses a spell it cast earlier, or a creature meets the spell's area. What a
cast leaves to come back (a creature granted an action, a mark for damage to come) is
combat/fivee/spell_follow_ups.py.

What each spell does again is its reviewed entry's `riders.follow_up` (combat/spells/model.py
`FollowUp`), at the level it was cast at (kept on the caster's marker, with the damage type
chosen: combat/fivee/spell_effects_ongoing.py `marker`), and only while the caster still
concentrates on it, or for a spell with no concentration while it lasts (`spell/not-active`
after). By what it rolls:
- a spell attack, one creature: Spiritual Weapon ("As a Bonus Action on your later turns, you
  can move the force up to 20 feet and repeat the attack"), Arcane Sword, Vampiric Touch ("you
  can make the attack again on each of your turns as a Magic action", the caster regaining
  half the Necrotic damage dealt, as on the cast: `after_hits`), Flame Blade, Arcane Hand's
  Clenched Fist;
- the save of each creature the GM names: Spirit Guardians, Moonbeam, Cloudkill, Insect
  Plague, Incendiary Cloud, Black Tentacles, Blade Barrier, Wall of Thorns, Conjure Woodland
  Beings, Conjure Animals ("when it enters the spell's area or ends its turn there";
  Moonbeam's `option` "move" is its Magic action moving the Cylinder into creatures),
  Stinking Cloud (Poisoned until the end of the current turn), Web (Restrained), Grease and
  Sleet Storm (Prone; Sleet Storm's also ends the creature's Concentration; Grease, with no
  concentration, lasts its minute), Flaming Sphere (a creature ending its turn beside it, or
  the Bonus Action's ram: `option` "ram"), Call Lightning and Sunbeam (a Magic action;
  `option` "storm" for the 1d10 more "outdoors in a storm"), Arcane Hand's Forceful and
  Grasping Hand (Grappled), Dragon's Breath (the creature touched exhales as its own Magic
  action, named as `caster`: `granted` marks it as the spell is cast);
- damage with neither: Wall of Fire (a creature ending its turn by the burning side or
  entering the wall), Spike Growth ("2d4 Piercing damage for every 5 feet it travels": the GM
  gives the feet), Heat Metal (its Bonus Action), Arcane Hand's crush (a creature its hand
  grapples), Phantasmal Force (on each of the caster's turns, no action), and Acid Arrow's
  "2d4 Acid damage at the end of its next turn" and Vitriolic Sphere's 5d4 (no concentration:
  a hit or a failed save leaves a mark on the creature, `delayed`, and the damage is dealt on
  its next turn, once).
What the caster spends is the entry's `uses`: its Bonus Action, a Magic action (its action),
or nothing where a creature's move or turn sets it off (or, `your_turn`, on its own turn). The GM names who entered, ended its
turn there, was rammed or moved how far: the command's `targets` and `feet`.
"""

from __future__ import annotations

import re
from typing import ClassVar

import msgspec

from combat.common.commands import ApplyCondition
from combat.common.concentration import end_concentration
from combat.common.conditions import apply_condition
from combat.common.durations import ending
from combat.common.entered_dice import entering
from combat.common.turns import require_able, require_turn
from combat.fivee import hit_damage
from combat.fivee import spellcasting as casting
from combat.fivee.action_events import ActionTaken
from combat.fivee.actions import spend_check
from combat.fivee.casts import Caster, caster_of
from combat.fivee.group_saves import deal_share
from combat.fivee.sanctuary import aimed_spell
from combat.fivee.save_modifiers import SaveModifiers
from combat.fivee.spell_effects_ongoing import with_modifier
from combat.fivee.spell_follow_ups import after_hits
from combat.fivee.spell_targets import chosen_type
from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionSpec
from combat.kernel.state import Combatant
from combat.spells import library
from combat.spells.model import DamageRoll, FollowUp, Spell

__all__ = ["SpellEffect", "RULES"]

UNSET = msgspec.UNSET
Faces = tuple[int, ...]


class SpellEffect(Command, frozen=True, kw_only=True):
    """What a spell cast earlier does again: the caster's attack or action with it, or the save
    (or damage) of the creatures the GM names as entering its area, ending their turns there,
    or struck by it. `option` picks one where the spell does several things again ("ram",
    "storm", "clenched fist"); `feet`, by creature, how far each moved (Spike Growth)."""

    actor_fields: ClassVar[tuple[str, ...]] = ("caster",)
    gm_fields: ClassVar[tuple[str, ...]] = (
        "save_faces",
        "advantage",
        "disadvantage",
        "save_modifiers",
        "feet",
        "mirror_faces",
        "resistance_faces",
    )

    caster: str
    spell: str
    option: str | None = None
    targets: tuple[str, ...] = ()
    feet: dict[str, int] = {}
    attack_faces: tuple[Faces, ...] = ()
    damage_faces: tuple[Faces, ...] = ()
    save_faces: dict[str, Faces] = {}
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    save_modifiers: dict[str, SaveModifiers] = {}
    # Mirror Image's d6s: one list per spell attack that hits a creature with duplicates left, in order
    mirror_faces: tuple[Faces, ...] = ()
    # the caster's Wisdom save against a warded target's Sanctuary, by that target's id
    sanctuary_faces: dict[str, tuple[int, ...]] = {}
    # by warded target's id, the creature the spell goes at if that save fails (left out: the spell is lost)
    new_targets: dict[str, str] = {}
    # a Resistance spell's d4, by the id of the creature whose damage it reduces
    resistance_faces: dict[str, tuple[int, ...]] = {}


def _chosen(spell: Spell, option: str | None) -> FollowUp:
    later = spell.riders.follow_up if spell.riders is not None else ()
    if not later:
        raise RuleError(
            "spell/no-follow-up",
            f"{spell.name} has nothing to do again after it is cast",
            allowed="a spell that attacks, or makes creatures save, again while it lasts (Spiritual Weapon, Moonbeam...), "
            "or Hunter's Mark and Hex (moving the mark)",
        )
    if option is None:
        return later[0]
    picked = next((f for f in later if f.name == option.strip().lower()), None)
    if picked is None:
        names = [f.name for f in later if f.name]
        raise RuleError(
            "spell/option",
            f"{spell.name} does not do '{option}' again",
            allowed="option: " + ", ".join(names) if names else "no option",
        )
    return picked


def _marker_of(c: Combatant, spell: Spell, later: FollowUp) -> ConditionSpec:
    """The caster's marker of the spell (or, for a spell whose target acts, that target's)."""
    for cond in c.conditions:
        if cond.name == spell.name.lower() and cond.riders is not UNSET and cond.riders.cast_at is not UNSET:
            return cond
    if later.granted:
        raise RuleError(
            "spell/not-active",
            f"{c.name} bears no {spell.name} (or its caster's concentration has ended)",
            allowed=f"the creature {spell.name} was cast on, while its caster concentrates",
        )
    raise RuleError(
        "spell/not-active",
        f"{c.name} is not concentrating on {spell.name}" if spell.concentration else f"{c.name}'s {spell.name} has ended",
        allowed=f"cast_spell {spell.name} first" + (f"; {c.name} concentrates on {c.concentration}" if c.concentration else ""),
    )


def _arrow_of(tx: Tx, c: Combatant, spell: Spell, targets: tuple[str, ...]) -> ConditionSpec:
    """Acid Arrow's mark on its target, on that target's next turn."""
    if len(targets) != 1:
        raise RuleError("spell/targets", f"{spell.name}'s later damage is on one creature it struck", allowed="one target")
    target = tx.combatant(targets[0])
    for cond in target.conditions:
        if cond.name == spell.name.lower() and cond.source == c.id and cond.riders is not UNSET:
            if tx.state.turn != target.id or cond.ends != "end":  # "end of next turn" becomes "end" as that turn starts
                raise RuleError(
                    "spell/not-yet",
                    f"{spell.name}'s later damage comes at the end of {target.name}'s next turn",
                    allowed=f"spell_effect during {target.name}'s next turn, before it ends",
                )
            return cond
    raise RuleError(
        "spell/not-active",
        f"{target.name} bears no {spell.name} of {c.name}'s (it lasts until the end of its next turn)",
        allowed=f"a creature {spell.name} struck, on its next turn",
    )


def _more(dice: str, add: str, times: int) -> str:
    """`dice` with `add` added `times` times: 2d6 with 1d6 twice is 4d6."""
    if times <= 0 or not add:
        return dice
    base, extra = re.fullmatch(r"(\d+)d(\d+)(.*)", dice), re.fullmatch(r"(\d+)d(\d+)", add)
    if base is not None and extra is not None and base[2] == extra[2]:
        return f"{int(base[1]) + int(extra[1]) * times}d{base[2]}{base[3]}"
    return dice + f"+{int(extra[1]) * times}d{extra[2]}" if extra is not None else dice


def _damage(spell: Spell, later: FollowUp, slot: int, caster: Caster) -> tuple[DamageRoll, ...]:
    from combat.fivee.spellcasting import damage_at

    if later.damage:
        rolls = list(later.damage)
        rolls[0] = msgspec.structs.replace(rolls[0], dice=_more(rolls[0].dice, later.per_slot, slot - spell.level))
    else:
        rolls = list(with_modifier(spell, damage_at(spell, slot, caster), caster))
    if rolls and later.more:
        rolls[0] = msgspec.structs.replace(rolls[0], dice=_more(rolls[0].dice, later.more, 1))
    if rolls and later.plus_modifier and caster.ability_modifier:
        rolls[0] = msgspec.structs.replace(rolls[0], dice=f"{rolls[0].dice}{caster.ability_modifier:+d}")
    return tuple(rolls)


def _spend(tx: Tx, c: Combatant, spell: Spell, later: FollowUp) -> None:
    """The caster's Bonus Action or Magic action, on its own turn; nothing for a trigger."""
    if later.uses is None:
        if later.your_turn:
            require_turn(tx, c.id)
        return
    uses = "bonus_action" if later.uses == "bonus_action" else "action"
    require_turn(tx, c.id)
    require_able(c, "use a Bonus Action" if uses == "bonus_action" else "take a Magic action")
    spend_check(c, uses)
    what = f"{spell.name}: {later.name or 'again'}"
    tx.emit(ActionTaken(combatant=c.id, action="magic", detail=what, uses=uses))  # type: ignore[arg-type]


def _check(tx: Tx, c: Combatant, spell: Spell, later: FollowUp, cmd: SpellEffect) -> None:
    """The command's targets, feet and faces, as the follow-up rolls; refused before anything is spent."""
    for tid in cmd.targets:
        tx.combatant(tid)
    if len(set(cmd.targets)) != len(cmd.targets):
        raise RuleError("spell/targets", "a creature named twice", allowed="each target once")
    if later.roll == "attack" and len(cmd.targets) != 1:
        raise RuleError("spell/targets", f"{spell.name} attacks one creature", allowed="one target")
    if not cmd.targets and (later.uses is None or later.roll != "save"):  # a sphere rolled, a bolt called, at no one
        raise RuleError("spell/targets", f"{spell.name} needs the creatures it reaches", allowed="targets: their ids")
    if later.roll != "attack" and c.id in cmd.targets and not spell.targets.caster_included:
        raise RuleError("spell/targets", f"{spell.name} does not affect its caster", allowed="other creatures")
    if not cmd.targets and (cmd.damage_faces or cmd.save_faces):
        raise RuleError("dice/unused-faces", f"{spell.name} reaches no one: nothing to roll", allowed="no faces")
    if later.roll != "save" and (cmd.save_faces or cmd.save_modifiers):
        raise RuleError("dice/unused-faces", f"{spell.name} calls for no save here", allowed="no save_faces, no save_modifiers")
    if later.roll != "attack" and (cmd.attack_faces or cmd.advantage or cmd.disadvantage):
        raise RuleError("spell/no-attack-roll", f"{spell.name} makes no attack roll here", allowed="save_faces, damage_faces")
    if later.per_feet:
        bad = [t for t in cmd.targets if cmd.feet.get(t, 0) <= 0 or cmd.feet[t] % later.per_feet]
        if bad or set(cmd.feet) != set(cmd.targets):
            raise RuleError(
                "spell/feet",
                f"{spell.name} deals its damage for every {later.per_feet} feet a creature moves in its area",
                allowed=f"feet: each target's distance, a multiple of {later.per_feet}",
            )
    elif cmd.feet:
        raise RuleError("spell/feet", f"{spell.name} does not count the feet moved", allowed="no feet")
    for tid in cmd.targets if later.needs else ():
        target = tx.combatant(tid)
        if not any(cond.name == later.needs and cond.source == c.id for cond in target.conditions):
            raise RuleError(
                "spell/targets",
                f"{target.name} is not {later.needs.title()} by {c.name}'s {spell.name}",
                allowed=f"a creature {spell.name} left {later.needs.title()}",
            )


def _spell_effect(tx: Tx, cmd: SpellEffect) -> None:
    with entering(tx, mirror_faces=cmd.mirror_faces, resistance_faces=cmd.resistance_faces):
        _again(tx, cmd)


def _again(tx: Tx, cmd: SpellEffect) -> None:
    c = tx.combatant(cmd.caster)
    spell = library.find(cmd.spell)
    if spell.riders is not None and spell.riders.move_mark:
        hit_damage.move_mark(tx, c, spell, cmd.targets)
        return
    later = _chosen(spell, cmd.option)
    held = _arrow_of(tx, c, spell, cmd.targets) if later.delayed else _marker_of(c, spell, later)
    mark = held.riders
    assert mark is not UNSET
    _check(tx, c, spell, later, cmd)
    # Its caster's DC and bonus, whoever acts (Dragon's Breath: the creature touched).
    caster = caster_of(tx.state, tx.combatant(held.source) if later.granted and held.source else c)
    slot = mark.cast_at if mark.cast_at is not UNSET else spell.level
    damage = _damage(spell, later, slot, caster)
    chosen = mark.damage_type if mark.damage_type is not UNSET else None
    _spend(tx, c, spell, later)
    # Its own save and condition where it has them, else the spell's as cast (Black Tentacles'
    # Restrained, Sunbeam's Blinded). The attacks are melee spell attacks (Spiritual Weapon,
    # Vampiric Touch, Clenched Fist, Flame Blade).
    spell = msgspec.structs.replace(
        spell,
        save=later.save or spell.save,
        condition=None if later.condition else spell.condition,
        attack=spell.attack or "melee",
    )
    # Only an attack asks Sanctuary's save here: the faces or new targets given for another are refused.
    aimed = aimed_spell(tx, c, spell, cmd.targets if later.roll == "attack" else (), cmd.sanctuary_faces, cmd.new_targets)
    if aimed is None:
        return
    if later.roll == "attack":
        since = len(tx.events)
        casting.spell_attacks(tx, c, spell, caster, aimed, damage, cmd)
        if later.heals_half:
            after_hits(tx, c, spell, since)
    elif later.roll == "save" and cmd.targets:
        saves = casting.spell_saves(tx, c, spell, caster, cmd.targets, damage, chosen, cmd)
        for tid in cmd.targets:
            if not saves[tid].success and tx.state.combatants[tid].status != "dead":
                _failed(tx, c, spell, later, tid)
    elif later.roll == "damage":
        _unsaved(tx, c, spell, later, cmd, damage, chosen)
    if later.delayed and held in tx.state.combatants[cmd.targets[0]].conditions:  # once
        tx.emit(ending(tx.state.combatants[cmd.targets[0]], held, f"{spell.name}'s acid spent"))


def _failed(tx: Tx, c: Combatant, spell: Spell, later: FollowUp, tid: str) -> None:
    """A failed save's condition (and Sleet Storm's lost Concentration)."""
    if later.condition:
        if later.until == "end_of_its_turn":  # "until the end of the current turn": the bearer's, whose turn it is
            spec = ConditionSpec(name=later.condition, source=c.id, ends="end", ends_on=tid)
        elif later.until == "removed":  # Prone: until the creature stands
            spec = ConditionSpec(name=later.condition, source=c.id)
        else:
            spec = ConditionSpec(name=later.condition, source=c.id, concentration=c.id, effect=spell.name)
        apply_condition(tx, ApplyCondition(target=tid, condition=spec))
    if later.ends_concentration and tx.state.combatants[tid].concentration is not None:
        end_concentration(tx, tid, f"failed the save against {spell.name}")


def _unsaved(
    tx: Tx, c: Combatant, spell: Spell, later: FollowUp, cmd: SpellEffect, damage: tuple[DamageRoll, ...], chosen: str | None
) -> None:
    """Damage with no attack and no save: one roll per creature (per so many feet it moved)."""
    if len(cmd.damage_faces) not in (0, len(cmd.targets)):
        raise RuleError(
            "dice/faces-count",
            f"{len(cmd.targets)} creatures take {spell.name}'s damage, {len(cmd.damage_faces)} damage lists entered",
            allowed="one damage_faces list per target, in order, or none",
        )
    roll = damage[0]
    kind = chosen_type(roll, chosen, spell)
    for i, tid in enumerate(cmd.targets):
        if tx.state.combatants[tid].status == "dead":
            continue
        dice = _more(roll.dice, roll.dice, cmd.feet[tid] // later.per_feet - 1) if later.per_feet else roll.dice
        faces = cmd.damage_faces[i] if cmd.damage_faces else None
        rolled = max(0, tx.roll(dice, purpose=f"{spell.name} damage", roller=c.id, faces=faces).total)
        deal_share(tx, tid, rolled, rolled, kind, c.id)


RULES = Rules(handlers={SpellEffect: _spell_effect})
