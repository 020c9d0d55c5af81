"""Open5e's spell records (Spell.json, SpellCastingOption.json) read into `Spell`s.

Used by scripts/build_spells_data.py. The record's fields are taken where they hold
(level, school, range, duration, concentration, save ability, area, damage dice and types,
classes); the rest is read from the SRD's own words, sentence by sentence:

- the attack: "Make a ranged spell attack" / "melee spell attack" (Open5e's `attack_roll`
  is also set on Bless and Bane, which make none);
- healing: "regains ... Hit Points equal to 2d8 plus your spellcasting ability modifier";
- half on a success: "half as much damage on a successful one" / "half as much damage only";
- the condition: "or have the Paralyzed condition", its own end ("until the end of your next turn");
- the repeated save: "At the end of each of its turns, the target repeats the save";
- AC: "a +2 bonus to AC"; rolls: "adds 1d4 to the attack roll or save", "subtract 1d4";
- targets: "Up to three creatures", "a creature", or the area; projectiles: "You create three
  glowing darts", "You hurl three fiery rays", "You hurl a beam";
- upcasting and cantrip scaling: the per-slot (`slot_level_N`) and per-character-level
  (`player_level_5`, `_11`, `_17`) options: damage roll, target count (darts, rays and beams
  when the spell has them), area size, range, duration.

Then each sentence of the text and of "Using a Higher-Level Spell Slot" is checked: the
phrases the fields above stand for are taken out, and a sentence that still speaks of
damage, saves, conditions, AC, attacks, movement, turns and the like is one the GM applies
(`manual`). Sentences about objects only are scenery. No mechanics in the fields at all:
narrative.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping
from typing import Any

from combat.common.glossary import SRD_CONDITIONS, SRD_DAMAGE_TYPES
from combat.spells.model import (
    Area,
    ConditionImposed,
    DamageRoll,
    Duration,
    Healing,
    Projectiles,
    RollBonus,
    Save,
    Scaling,
    Spell,
    Targets,
    Upcast,
)

__all__ = ["spells", "dice", "duration"]

_NUMBERS = {
    "a": 1,
    "an": 1,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "twelve": 12,
}
_NUMBER = r"(a|an|one|two|three|four|five|six|seven|eight|nine|ten|twelve)"
# The SRD's damage types and conditions, as the 5e rulesets declare them (alphabetical: the
# order a spell's choices are listed in).
_TYPES = tuple(sorted(SRD_DAMAGE_TYPES))
_CONDITIONS = tuple(sorted(SRD_CONDITIONS))
_DICE = r"\d+d\d+(?: ?\+ ?\d+)?"
_ROUNDS = {"round": 1, "minute": 10, "hour": 600, "day": 14_400}
_SHAPES = ("sphere", "cube", "cone", "line", "cylinder", "emanation")
_ENDS = re.compile(r"[Uu]ntil the (start|end) of your next turn")

# What still needs a ruling once the phrases the fields stand for are taken out of a sentence.
_MECHANICS = re.compile(
    r"\bdamage\b|\bhit points?\b|\bsaving throws?\b|\bsaves?\b|\bcondition\b|\bAC\b|\barmor class\b|\battack|\bspeed\b|"
    r"\badvantage\b|\bdisadvantage\b|\bresistance\b|\bimmun|\bvulnerab|\bteleport|\bpush|\bpull|\bdifficult terrain\b|"
    r"\bobscured\b|\bcover\b|\baction\b|\breaction\b|\bturns?\b|\brounds?\b|\bcan't\b|\bends?\b|\bending\b|\d+d\d+|"
    r"\bbonus\b|\+\d|\bhalved?\b|\bdoubled?\b|\btemporary\b|\bregains?\b|\bmoves?\b|\bmovement\b|\bfeet\b|\bdies?\b|"
    r"\bkill(?:s|ed)?\b|\bcubes\b|\bspheres\b|\bmore than one\b|\beach of those\b|\bdispel|\bskill\b|\bcheck\b|\bd20\b|\bzero\b|\brolls?\b|\b(?:"
    + "|".join(_CONDITIONS)
    + r")\b",
    re.I,
)
# Phrases that say no more than the spell's duration and targets already do.
_PLAIN = re.compile(r"\b(?:until the spell ends|for the duration|before the spell ends|for the spell's duration)\b", re.I)


def dice(text: str | None) -> str:
    """ "1d4 + 1" -> "1d4+1" (the engine's notation)."""
    return re.sub(r"\s+", "", text or "")


def duration(text: str, desc: str = "") -> Duration:
    """The SRD's duration with its length in rounds where it is a time (see `Duration`)."""
    words = text.strip()
    shown = words[:1].upper() + words[1:]
    if words.lower() == "instantaneous":
        return Duration(text=shown, rounds=0)
    m = re.fullmatch(r"(\d+) (round|minute|hour|day)s?", words.lower())
    if m is None:
        return Duration(text=shown)
    rounds = int(m.group(1)) * _ROUNDS[m.group(2)]
    ends = _ENDS.search(desc) if rounds == 1 else None
    return Duration(text=shown, rounds=rounds, ends=f"{ends.group(1)}_of_your_next_turn" if ends else None)  # type: ignore[arg-type]


def _casting_time(value: str) -> tuple[str, str]:
    if value in ("action", "reaction"):
        return value, ""
    if value == "bonus-action":
        return "bonus_action", ""
    m = re.fullmatch(r"(\d+)\s*(\w+)", value)
    return "other", f"{m.group(1)} {m.group(2)}" if m else value


def _range(f: Mapping[str, Any]) -> int | str:
    text = (f.get("range_text") or "").lower()
    if text in ("self", "touch", "sight", "unlimited", "special"):
        return text
    m = re.fullmatch(r"(\d+) (feet|foot|miles?)", text)
    if m is None:
        return "special"
    return int(m.group(1)) * (5280 if m.group(2).startswith("mile") else 1)


def _components(f: Mapping[str, Any]) -> str:
    return ", ".join(c for c, key in (("V", "verbal"), ("S", "somatic"), ("M", "material")) if f.get(key))


def _damage(f: Mapping[str, Any], desc: str) -> tuple[DamageRoll, ...]:
    """The record's roll and types; several types are either a choice ("Choose Acid, Cold,
    ..." - one roll of the chosen type) or separate rolls, each read from the text ("5d6 Fire
    damage and 5d6 Radiant damage" - Flame Strike)."""
    types = tuple(t.lower() for t in f.get("damage_types") or ())
    if not types and f.get("damage_roll"):  # Chromatic Orb: "Choose Acid, Cold, Fire, ... for the type of orb"
        choice = re.search(r"\b[Cc]hoose ((?:\w+, )+(?:or )?\w+) for the type", desc)
        types = tuple(t for t in re.findall(r"\w+", choice.group(1).lower()) if t in _TYPES) if choice else ()
        if not types and re.search(r"chosen type|type you choose", desc):  # "1d8 damage of a type you choose: Acid, Cold, ..."
            types = tuple(t for t in _TYPES if re.search(rf"\b{t.title()}\b", desc))
    if not types:
        return ()
    said = [(dice(d), t.lower()) for d, t in re.findall(r"(" + _DICE + r") (\w+) damage", desc)]
    base = dice(f.get("damage_roll")) or next((d for d, t in said if t in types), "")
    if not base:
        return ()
    chosen = re.search(r"chosen type|type of your choice|\b[Cc]hoose\b[^.]*\b(?:" + "|".join(types) + r")\b", desc, re.I)
    if len(types) == 1 or chosen:
        return (DamageRoll(dice=base, types=types),)
    rolls = []
    for t in types:
        roll = next((d for d, said_type in said if said_type == t), None)
        if roll is None:  # the text names no roll per type: one roll, the types listed
            return (DamageRoll(dice=base, types=types),)
        rolls.append(DamageRoll(dice=roll, types=(t,)))
    return tuple(rolls)


def _healing(desc: str) -> Healing | None:
    m = re.search(
        r"regains? (?:a number of )?Hit Points equal to (" + _DICE + r")( plus your spellcasting ability modifier)?", desc
    )
    if m is None:  # "regains 4d8 + 15 Hit Points" (Regenerate)
        m = re.search(r"regains? (" + _DICE + r")() Hit Points", desc)
    return Healing(dice=dice(m.group(1)), plus_modifier=bool(m.group(2))) if m else None


def _save(f: Mapping[str, Any], desc: str) -> Save | None:
    ability = (f.get("saving_throw_ability") or "").lower()
    if not ability:
        return None
    repeats = None
    if re.search(
        r"[Aa]t the end of each of its turns, (?:the|an affected) target repeats the save|repeats the save at the end of each of its turns",
        desc,
    ):
        repeats = "end_of_each_turn"
    elif re.search(r"[Aa]t the start of each of its turns, (?:the|an affected) target repeats the save", desc):
        repeats = "start_of_each_turn"
    return Save(
        ability=ability,  # type: ignore[arg-type]
        half_on_success=bool(re.search(r"half as much (?:of the initial )?damage", desc)),
        repeats=repeats,  # type: ignore[arg-type]
    )


def _condition(desc: str) -> ConditionImposed | None:
    m = re.search(r"(?<!that )(?<!which )\bha(?:ve|s) the (\w+) condition(?: (until the (start|end) of your next turn))?", desc)
    if m is None or m.group(1).lower() not in _CONDITIONS:
        return None
    return ConditionImposed(name=m.group(1).lower(), ends=f"{m.group(3)}_of_your_next_turn" if m.group(3) else None)  # type: ignore[arg-type]


def _roll_bonus(desc: str) -> RollBonus | None:
    m = re.search(r"\b(adds?|subtracts?) (\d+d\d+) (?:to|from) (?:the |any )?(attack roll or save|ability check)", desc)
    if m is None:
        return None
    sign = "-" if m.group(1).startswith("subtract") else ""
    rolls = ("attack_rolls", "saving_throws") if m.group(3).startswith("attack") else ("ability_checks",)
    return RollBonus(dice=sign + m.group(2), rolls=rolls)  # type: ignore[arg-type]


def _projectiles(desc: str) -> Projectiles | None:
    m = re.search(r"\bYou (?:create|hurl) " + _NUMBER + r" (?:[\w-]+ ){0,2}?(dart|ray|beam)s?\b", desc)
    return Projectiles(kind=f"{m.group(2)}s", count=_NUMBERS[m.group(1)]) if m else None  # type: ignore[arg-type]


def _area(f: Mapping[str, Any], desc: str) -> Area | None:
    line = re.search(r"(\d+)-foot-long, (\d+)-foot-wide Line", desc)
    if line:  # Open5e gives a line's width as its size
        return Area(shape="line", size=int(line.group(1)), width=int(line.group(2)))
    if f.get("shape_type") and f.get("shape_size"):
        return Area(shape=f["shape_type"], size=int(f["shape_size"]))
    m = re.search(r"(\d+)-foot(?:-radius|-long)?(?:, \d+-foot-?(?:high|tall))? (" + "|".join(_SHAPES) + r")\b", desc, re.I)
    return Area(shape=m.group(2).lower(), size=int(m.group(1))) if m else None  # type: ignore[arg-type]


def _targets(desc: str, area: Area | None, on_self: bool, projectiles: Projectiles | None) -> Targets:
    if area is not None:  # "Choose up to six creatures in a 30-foot-radius Sphere" (Mass Cure Wounds)
        chosen = re.search(r"\b[Uu]p to " + _NUMBER + r" creatures\b", desc)
        return Targets(count=_NUMBERS[chosen.group(1)] if chosen else None, area=area)
    if projectiles is not None:  # each dart, ray or beam picks its own target
        return Targets()
    m = re.search(
        r"\b(?:[Uu]p to )?"
        + _NUMBER
        + r" (?:[\w-]+ ){0,2}?(?:creatures?|targets?|Humanoids?|Beasts?|Undead|allies|ally|willing)\b",
        desc,
    )
    if m is not None:
        return Targets(count=_NUMBERS[m.group(1).lower()])
    return Targets() if on_self else Targets(count=1)


def _replaced(base: tuple[DamageRoll, ...], was: str, now: str) -> tuple[DamageRoll, ...]:
    """The damage with the roll the option changes (the record's own roll) replaced."""
    return tuple(DamageRoll(dice=now, types=d.types) if d.dice == was else d for d in base)


def _upcast(
    options: list[Mapping[str, Any]],
    f: Mapping[str, Any],
    damage: tuple[DamageRoll, ...],
    healing: Healing | None,
    projectiles: Projectiles | None,
) -> tuple[Upcast, ...]:
    made = []
    for o in sorted(options, key=lambda o: int(o["type"].rsplit("_", 1)[1])):
        if not o["type"].startswith("slot_level_"):
            continue
        rolled = dice(o.get("damage_roll"))
        count = o.get("target_count")
        made.append(
            Upcast(
                slot=int(o["type"].rsplit("_", 1)[1]),
                damage=_replaced(damage, dice(f.get("damage_roll")), rolled) if rolled and damage else (),
                healing=Healing(dice=rolled, plus_modifier=healing.plus_modifier) if rolled and healing else None,
                targets=int(count) if count and projectiles is None else None,
                projectiles=int(count) if count and projectiles is not None else None,
                area_size=o.get("shape_size"),
                range=o.get("range"),
                duration=duration(o["duration"]) if o.get("duration") else None,
                concentration=o.get("concentration"),
                text=o.get("desc") or "",
            )
        )
    return tuple(made)


def _scaling(options: list[Mapping[str, Any]], f: Mapping[str, Any], damage: tuple[DamageRoll, ...]) -> tuple[Scaling, ...]:
    made = []
    for o in options:
        if not o["type"].startswith("player_level_"):
            continue
        rolled = dice(o.get("damage_roll"))
        made.append(
            Scaling(
                character_level=int(o["type"].rsplit("_", 1)[1]),
                damage=_replaced(damage, dice(f.get("damage_roll")), rolled) if rolled and damage else (),
                projectiles=o.get("target_count"),
                text=o.get("desc") or "",
            )
        )
    return tuple(sorted(made, key=lambda s: s.character_level))


def _sentences(text: str) -> list[str]:
    return [s.strip(" *_|-") for s in re.split(r"(?<=[.!?])\s+|\n+", text) if s.strip(" *_|-")]


def _covered_phrases(spell: Spell) -> list[str]:
    """The phrases each field stands for, as patterns."""
    out = [_PLAIN.pattern]
    if spell.save:
        out += [r"\b(?:must )?(?:each )?(?:succeed on|make|makes) an? \w+ saving throw\b", r"\b[Oo]n a failed save\b,?"]
        if spell.save.half_on_success:
            out += [
                r"(?:or |[Oo]n a successful save, (?:the target |a target |the creature |a creature |it )?)?(?:takes? )?half as much (?:of the initial )?damage(?: on a successful (?:one|save))?(?: only)?"
            ]
        if spell.save.repeats:
            out += [
                r"(?:[Aa]t the (?:end|start) of each of its turns, )?(?:the|an affected) target repeats the save(?: at the end of each of its turns)?, ending the spell(?: on itself)? on a success"
            ]
    if spell.damage or spell.upcast or spell.cantrip_scaling:
        out += [
            r"\b(?:takes?|taking|deals?|or take|and) " + _DICE + r" (?:\w+ )?damage(?: of the chosen type)?",
            r"\bThe \w+ damage and the \w+ damage increase by " + _DICE,
            r"(?:^|\b)(?:[Oo]n a hit, )",
            r"\b\d+d\d+ damage of a type you choose: [\w, ]+",
            r"\b[Cc]hoose (?:" + "|".join(t.title() for t in _TYPES) + r")[^.]*?for the type of [^.]*?(?:create|deal)s?,?",
        ]
    if spell.attack:
        out += [r"\b[Mm]ake an? (?:melee|ranged) spell attack(?: roll)?(?: against [^.,]*| for each (?:ray|beam))?"]
    if spell.healing:
        out += [
            r"\bregains? (?:a number of )?Hit Points equal to " + _DICE + r"(?: plus your spellcasting ability modifier)?",
            r"\bregains? " + _DICE + " Hit Points",
        ]
    if spell.condition:
        out += [
            r"\b(?:or )?ha(?:ve|s) the "
            + spell.condition.name.title()
            + r" condition(?: until the (?:start|end) of your next turn)?"
        ]
    if spell.ac_bonus is not None:
        out += [r"\ba \+\d+ bonus to AC"]
        if spell.duration.ends:
            out += [_ENDS.pattern]
        if spell.casting_time == "reaction":
            out += [r"\bincluding against the triggering attack"]
    if spell.roll_bonus:
        out += [
            r"\b(?:must )?(?:adds?|subtracts?) \d+d\d+ (?:to|from) the attack roll or save",
            r"\b(?:that fails this save )?makes an attack roll or a saving throw",
        ]
    if spell.projectiles:
        kind = spell.projectiles.kind.rstrip("s")
        out += [
            rf"\b(?:Each|A) {kind} (?:strikes|deals)",
            r"\bto its target",
            rf"\b[Mm]ake a separate attack roll for each {kind}",
            rf"\bThe spell creates (?:\w+ {kind}s at level \d+,? (?:and )?)+",
        ]
    if spell.upcast:
        out += [
            r"\bfor each spell slot level above \d+",
            r"\bThe (?:\w+ )?(?:damage|healing)(?: \([^)]*\))? increases? by " + _DICE,
            r"\bYou can target one additional \w+",
            r"\b(?:creates|You create) one (?:more|additional) (?:dart|ray|beam)",
        ]
    if spell.cantrip_scaling:
        out += [
            r"\bThe damage increases by "
            + _DICE
            + r" when you reach levels \d+ \("
            + _DICE
            + r"\), \d+ \("
            + _DICE
            + r"\), and \d+ \("
            + _DICE
            + r"\)"
        ]
    return out


def _uncovered(spell: Spell) -> list[str]:
    phrases = [re.compile(p) for p in _covered_phrases(spell)]
    left = []
    for sentence in [*_sentences(spell.desc), *_sentences(spell.higher_level)]:
        if re.search(r"\bobjects?\b", sentence, re.I) and not re.search(r"\bcreatures?\b|\btargets?\b", sentence, re.I):
            continue  # scenery: "Flammable objects in the area that aren't being worn or carried start burning."
        rest = sentence
        for p in phrases:
            rest = p.sub(" ", rest)
        if _MECHANICS.search(rest):
            left.append(sentence)
    return left


def _spell(f: Mapping[str, Any], options: list[Mapping[str, Any]]) -> Spell:
    desc, higher = f.get("desc") or "", f.get("higher_level") or ""
    casting, casting_text = _casting_time(f.get("casting_time") or "")
    area = _area(f, desc)
    spell_range = _range(f)
    damage = _damage(f, desc)
    healing = _healing(desc)
    projectiles = _projectiles(desc)
    attack = re.search(r"\b[Mm]ake an? (melee|ranged) spell attack", desc)
    ac = re.search(r"\ba \+(\d+) bonus to AC\b", desc)
    spell = Spell(
        name=f["name"],
        level=int(f["level"]),
        school=(f.get("school") or "").lower(),
        casting_time=casting,  # type: ignore[arg-type]  # one of the four, read above
        casting_time_text=casting_text,
        reaction_trigger=f.get("reaction_condition") or "",
        range=spell_range,  # type: ignore[arg-type]  # feet or one of the words, read above
        range_text=f.get("range_text") or "",
        components=_components(f),
        material=f.get("material_specified") or "",
        ritual=bool(f.get("ritual")),
        concentration=bool(f.get("concentration")),
        duration=duration(f.get("duration") or "", desc),
        targets=_targets(desc, area, spell_range == "self", projectiles),
        attack=attack.group(1) if attack else None,  # type: ignore[arg-type]
        save=_save(f, desc),
        damage=damage,
        damage_types=tuple(t.lower() for t in f.get("damage_types") or ()),
        healing=healing,
        condition=_condition(desc),
        ac_bonus=int(ac.group(1)) if ac else None,
        roll_bonus=_roll_bonus(desc),
        projectiles=projectiles,
        upcast=_upcast(options, f, damage, healing, projectiles),
        cantrip_scaling=_scaling(options, f, damage),
        classes=tuple(sorted(c.split("_", 1)[-1] for c in f.get("classes") or ())),
        automation="narrative",
        desc=desc,
        higher_level=higher,
    )
    return _judged(spell)


def _judged(spell: Spell) -> Spell:
    import msgspec

    if not (spell.damage or spell.healing or spell.condition or spell.ac_bonus is not None or spell.roll_bonus):
        return msgspec.structs.replace(spell, automation="narrative", manual=("the whole effect, as the text says",))
    left = _uncovered(spell)
    return msgspec.structs.replace(spell, automation="partial" if left else "full", manual=tuple(left))


def spells(records: Iterable[Mapping[str, Any]]) -> list[Spell]:
    """Every spell in `records` (Open5e's spell and casting-option records, in any order), by name."""
    found: dict[str, Mapping[str, Any]] = {}
    options: dict[str, list[Mapping[str, Any]]] = defaultdict(list)
    for record in records:
        model, fields = str(record.get("model", "")), record.get("fields") or {}
        if model.endswith(".spell"):
            found[record["pk"]] = fields
        elif model.endswith(".spellcastingoption"):
            options[fields["parent"]].append(fields)
    return sorted((_spell(f, options[pk]) for pk, f in found.items()), key=lambda s: s.name.lower())
