"""`combat characters import FILE`: a character sheet from a Foundry VTT dnd5e actor export.

The command object is `import_command`; the `characters` group (combat/cli_characters.py)
registers it. It prints the sheet (a summary, or JSON with --json) and then, under
"Not mapped:", each thing of the actor the sheet does not hold (combat.characters.foundry)."""

from __future__ import annotations

import json

import click

__all__ = ["import_command"]


@click.command("import")
@click.argument("file", type=click.Path(exists=True, dir_okay=False))
@click.option("--json", "as_json", is_flag=True,
              help="Print the sheet as JSON on standard output (the list of what is not mapped goes to standard error).")
def import_command(file: str, as_json: bool) -> None:
    """Read a Foundry VTT dnd5e character (its "Export Data" JSON) into a character sheet."""
    # Imported here: combat.cli loads this module as it starts, and loads nothing it does not need.
    from combat.cli import _one_line_errors

    _one_line_errors(_import)(file, as_json)


def _import(file: str, as_json: bool) -> None:
    import msgspec

    from combat.characters.foundry import import_actor
    from combat.kernel.errors import RuleError

    with open(file, encoding="utf-8") as f:
        try:
            data = json.load(f)
        except json.JSONDecodeError as exc:
            raise RuleError("foundry/malformed", f"{file} is not JSON: {exc}") from None
    sheet, not_mapped = import_actor(data)
    if as_json:
        click.echo(msgspec.json.format(msgspec.json.encode(sheet)).decode())
    else:
        click.echo(_summary(sheet))
    if not_mapped:
        click.echo("Not mapped:", err=as_json)
        for line in not_mapped:
            click.echo(f"  {line}", err=as_json)


def _summary(sheet: object) -> str:
    from combat.characters.sheet import (
        ABILITIES,
        CharacterSheet,
        attack_profiles,
        initiative_bonus,
        modifier,
        save_bonus,
        spell_attack_bonus,
        spell_save_dc,
    )

    assert isinstance(sheet, CharacterSheet)
    classes = ", ".join(f"{name} {level}" for name, level in sheet.classes.items()) or f"level {sheet.level}"
    lines = [
        f"{sheet.name}: {sheet.species + ' ' if sheet.species else ''}{classes}{' (' + sheet.subclass + ')' if sheet.subclass else ''}",
        f"AC {sheet.ac}, HP {sheet.max_hp}, speed {sheet.speed} ft., initiative {initiative_bonus(sheet):+d}, hit dice {sheet.hit_dice or '-'}",
        "scores: " + ", ".join(f"{a[:3].upper()} {getattr(sheet.abilities, a)} ({modifier(getattr(sheet.abilities, a)):+d})" for a in ABILITIES),
        "saves: " + ", ".join(f"{a[:3].upper()} {save_bonus(sheet, a):+d}" for a in ABILITIES),
    ]
    if sheet.skills or sheet.expertise:
        lines.append("skills: " + ", ".join([*sheet.skills, *(f"{s} (expertise)" for s in sheet.expertise)]))
    for profile in attack_profiles(sheet):
        reach = f"range {profile.normal_range}/{profile.long_range} ft." if profile.kind == "ranged" else f"reach {profile.reach} ft."
        lines.append(f"attack: {profile.name} {profile.bonus:+d} to hit, {profile.damage} {profile.damage_type}, {reach}")
    if sheet.features.critical_range < 20:
        lines.append(f"critical hit on {sheet.features.critical_range}-20")
    if sheet.attacks_per_action > 1:
        lines.append(f"attacks per Attack action: {sheet.attacks_per_action}")
    casting = sheet.spellcasting
    if casting is not None:
        lines.append(f"spellcasting: {casting.ability}, spell save DC {spell_save_dc(sheet)}, spell attack {spell_attack_bonus(sheet):+d}")
        if casting.slots:
            lines.append("slots: " + " / ".join(str(n) for n in casting.slots))
        if casting.pact_slots:
            lines.append(f"pact slots: {casting.pact_slots} of level {casting.pact_level}")
        if casting.spells:
            lines.append("spells: " + ", ".join(casting.spells))
    for resource in sheet.resources:
        lines.append(f"resource: {resource.name}, {resource.uses} use(s), back on a {resource.recovers} rest")
    for kind in ("resistances", "immunities", "vulnerabilities"):
        if getattr(sheet, kind):
            lines.append(f"{kind}: {', '.join(getattr(sheet, kind))}")
    return "\n".join(lines)
