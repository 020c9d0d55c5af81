"""`combat characters`: player characters' sheets. `build` makes one from the SRD 5.2's numbers.

Registered on the `combat` group at the end of combat/cli.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

if TYPE_CHECKING:
    from combat.characters.sheet import CharacterSheet

__all__ = ["characters"]


@click.group()
def characters() -> None:
    """Player characters: build a sheet from the SRD 5.2 class tables."""


@characters.command()
@click.option("--name", required=True, help="The character's name.")
@click.option("--class", "class_name", required=True, help="An SRD 5.2 class (Wizard, Fighter...).")
@click.option("--level", type=click.IntRange(1, 20), required=True, help="The class level, 1 to 20.")
@click.option("--scores", required=True, help='The six scores: "STR 8 DEX 14 CON 12 INT 16 WIS 12 CHA 10".')
@click.option("--species", default=None, help='An SRD 5.2 species, with a lineage in brackets: "Tiefling (Infernal)".')
@click.option("--size", default=None, help="Small or Medium, for a species that may be either.")
@click.option("--armor", default=None, help="Worn armour by its SRD name (Chain Mail, Leather...).")
@click.option("--shield", is_flag=True, help="Carries a Shield (+2 AC).")
@click.option("--weapon", "weapons", multiple=True, help="A weapon by its SRD name; repeat for more.")
@click.option("--spell", "spells", multiple=True, help="A spell known or prepared; repeat for more.")
@click.option("--skill", "skills", multiple=True, help="A proficient skill; repeat for more.")
@click.option("--subclass", default=None, help="An SRD 5.2 subclass of the class (Champion...).")
@click.option("--json", "as_json", is_flag=True, help="Print the sheet as JSON.")
def build(name: str, class_name: str, level: int, scores: str, species: str | None, size: str | None, armor: str | None,
          shield: bool, weapons: tuple[str, ...], spells: tuple[str, ...], skills: tuple[str, ...], subclass: str | None,
          as_json: bool) -> None:
    """Build a character sheet from the SRD 5.2's numbers and print it."""
    # Imported here: combat.cli registers this group as it loads, and loads nothing it does not need.
    from combat.cli import _one_line_errors

    _one_line_errors(_build)(name, class_name, level, scores, species, size, armor, shield, weapons, spells, skills, subclass, as_json)


def _build(name: str, class_name: str, level: int, scores: str, species: str | None, size: str | None, armor: str | None,
           shield: bool, weapons: tuple[str, ...], spells: tuple[str, ...], skills: tuple[str, ...], subclass: str | None,
           as_json: bool) -> None:
    import msgspec

    from combat.characters.build import build_sheet
    from combat.cli import _print

    sheet = build_sheet(name=name, class_name=class_name, level=level, scores=scores, species=species, size=size, armor=armor,
                        shield=shield, weapons=weapons, spells=spells, skills=skills, subclass=subclass)
    if as_json:
        _print(msgspec.json.format(msgspec.json.encode(sheet)).decode())
        return
    for line in summary(sheet):
        _print(line)


def summary(sheet: CharacterSheet) -> list[str]:
    """A sheet as a few readable lines: the numbers a player reads off it at the table."""
    from combat.characters import sheet as s

    classes = ", ".join(f"{c} {n}" for c, n in sheet.classes.items())
    lines = [f"{sheet.name}: {classes}" + (f" ({sheet.subclass})" if sheet.subclass else "") + (f", {sheet.species}" if sheet.species else "")]
    lines.append(f"HP {sheet.max_hp}  AC {sheet.ac}  Proficiency +{s.proficiency(sheet)}  Speed {sheet.speed} ft.  "
                 f"Initiative {s.initiative_bonus(sheet):+d}  Hit Dice {sheet.hit_dice}")
    lines.append("Scores: " + "  ".join(f"{a[:3].upper()} {getattr(sheet.abilities, a)} ({s.modifier(getattr(sheet.abilities, a)):+d})"
                                        for a in s.ABILITIES))
    lines.append("Saves: " + "  ".join(f"{a[:3].upper()} {s.save_bonus(sheet, a):+d}" + ("*" if a in sheet.save_proficiencies else "")
                                       for a in s.ABILITIES) + "  (* proficient)")
    if sheet.skills:
        lines.append("Skills: " + ", ".join(f"{k} {s.skill_bonus(sheet, k):+d}" for k in sheet.skills if k in s.SKILL_ABILITY))
    if sheet.resistances:
        lines.append("Resistances: " + ", ".join(sheet.resistances))
    if sheet.spellcasting is not None:
        casting = sheet.spellcasting
        line = f"Spellcasting ({casting.ability}): save DC {s.spell_save_dc(sheet)}, attack {s.spell_attack_bonus(sheet):+d}"
        if casting.slots:
            line += ", slots " + "/".join(str(n) for n in casting.slots)
        if casting.pact_slots:
            line += f", pact slots {casting.pact_slots} of level {casting.pact_level}"
        lines.append(line)
        if casting.spells:
            lines.append("Spells: " + ", ".join(casting.spells))
    attacks = s.attack_profiles(sheet)
    if attacks:
        per = f" ({sheet.attacks_per_action} per Attack action)" if sheet.attacks_per_action > 1 else ""
        lines.append("Attacks" + per + ":")
        for a in attacks:
            where = f"range {a.normal_range}/{a.long_range}" if a.kind == "ranged" else f"reach {a.reach} ft."
            lines.append(f"  {a.name}: {a.bonus:+d} to hit, {where}, {a.damage} {a.damage_type}")
    if sheet.resources:
        lines.append("Resources: " + ", ".join(
            f"{r.name} {r.uses}/{'short' if r.recovers == 'short' else 'long'} rest"
            + (f" (regain {r.short_rest_regains} on a short rest)" if r.short_rest_regains else "") for r in sheet.resources))
    f = sheet.features
    shown = [f"critical hit on {f.critical_range}-20" if f.critical_range < 20 else "",
             f"Sneak Attack {f.sneak_attack}" if f.sneak_attack else "",
             f"Rage Damage +{f.rage_damage}, resisting {', '.join(f.rage_resistances)} while raging" if f.rage_damage else "",
             f"Martial Arts {f.martial_arts}" if f.martial_arts else ""]
    if any(shown):
        lines.append("Features: " + "; ".join(x for x in shown if x))
    return lines
