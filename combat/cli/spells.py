"""`combat spells`: list the SRD 5.2 spells, or show one whole.

Registered on the `combat` group in combat/cli/__init__.py."""

from __future__ import annotations

from typing import TYPE_CHECKING

import click

from combat.cli.output import one_line_errors

if TYPE_CHECKING:
    from combat.spells.model import DamageRoll, Spell

__all__ = ["spells", "describe"]


@click.command()
@click.argument("words", nargs=-1)
@click.option("--level", type=click.IntRange(0, 9), default=None, help="Only spells of this level (0: cantrips).")
@click.option("--class", "cls", default=None, help="Only spells of this class's list (wizard, cleric...).")
@click.option("--json", "as_json", is_flag=True, help="Print spells as JSON.")
@one_line_errors
def spells(words: tuple[str, ...], level: int | None, cls: str | None, as_json: bool) -> None:
    """List the spells matching WORDS (name, school, damage type or class), or show the one WORDS name."""
    import msgspec

    from combat.cli.output import consoles, print_block, rich_table
    from combat.spells import library

    query = " ".join(words)
    exact = library.by_name().get(" ".join(query.lower().split())) if query else None
    if exact is not None:
        print_block(msgspec.json.format(msgspec.json.encode(exact)).decode() if as_json else describe(exact))
        return
    found = library.search(query, level=level, cls=cls)
    if not found and query:
        library.find(query)  # raises with the closest names
    if as_json:
        print_block(msgspec.json.format(msgspec.json.encode(found)).decode())
        return
    table = rich_table("Name", "Level", "School", "Casting time", "Save/attack", "Damage/healing", "Automation")
    for s in found:
        table.add_row(
            s.name,
            str(s.level) if s.level else "cantrip",
            s.school,
            _casting_time(s),
            _save_or_attack(s),
            _effect(s),
            library.draft_label(s),
        )
    consoles.out.print(table)


def _casting_time(s: Spell) -> str:
    return s.casting_time_text or s.casting_time.replace("_", " ")


def _save_or_attack(s: Spell) -> str:
    if s.attack:
        return f"{s.attack} spell attack"
    if s.save:
        return f"{s.save.ability} save" + (", half on a success" if s.save.half_on_success else "")
    return ""


def _who(s: Spell) -> str:
    t = s.targets
    if t.who == "self":
        return "the caster"
    what = f"up to {t.count}" if t.count else "every"
    what += f" (+{t.per_slot} per slot level above)" if t.per_slot else ""
    what += f" {'/'.join(t.creature_types) or 'creature'}(s)"
    if t.who == "area":
        what += " in the area" + ("" if s.range != "self" or t.caster_included else ", not the caster")
    return what


def _rolls(rolls: tuple[DamageRoll, ...]) -> str:
    return " + ".join(f"{d.dice} {' or '.join(d.types)}" for d in rolls)


def _effect(s: Spell) -> str:
    if s.damage:
        return _rolls(s.damage)
    if s.healing:
        return f"heals {s.healing.dice}" + (" + modifier" if s.healing.plus_modifier else "")
    return ""


def describe(s: Spell) -> str:
    """The whole spell, readably: what the fields hold, then the SRD's own text."""
    kind = f"level {s.level} {s.school}" if s.level else f"{s.school} cantrip"
    lines = [s.name, f"{kind}{' (ritual)' if s.ritual else ''}; {', '.join(s.classes)}"]
    casting = _casting_time(s) + (f", {s.reaction_trigger}" if s.reaction_trigger else "")
    lines.append(f"Casting time: {casting}")
    lines.append(
        f"Range: {s.range_text}"
        + (f"; {_who(s)}" if s.targets.who else f"; {s.targets.count} target(s)" if s.targets.count else "")
        + (f"; {s.targets.area.size}-foot {s.targets.area.shape}" if s.targets.area else "")
    )
    lines.append(f"Components: {s.components}" + (f" ({s.material})" if s.material else ""))
    rounds = f" ({s.duration.rounds} rounds)" if s.duration.rounds else ""
    ends = f", ends at the {s.duration.ends.replace('_', ' ')}" if s.duration.ends else ""
    lines.append(f"Duration: {'Concentration, up to ' if s.concentration else ''}{s.duration.text}{rounds}{ends}")
    if s.attack or s.save:
        lines.append(
            f"Resolved by: {_save_or_attack(s)}"
            + (f"; the save repeats at the {s.save.repeats.replace('_', ' ')}" if s.save and s.save.repeats else "")
        )
    if s.projectiles:
        lines.append(f"{s.projectiles.count} {s.projectiles.kind}, each its own hit")
    if s.damage or s.healing:
        lines.append(f"Effect: {_effect(s)}")
    if s.condition:
        lines.append(
            f"Condition: {s.condition.name}" + (f" until the {s.condition.ends.replace('_', ' ')}" if s.condition.ends else "")
        )
    if s.ac_bonus is not None:
        lines.append(f"AC: {s.ac_bonus:+d}")
    if s.roll_bonus:
        lines.append(f"Rolls: {s.roll_bonus.dice} on {' and '.join(r.replace('_', ' ') for r in s.roll_bonus.rolls)}")
    for u in s.upcast:
        changes = [_rolls(u.damage)] if u.damage else []
        changes += [f"heals {u.healing.dice}"] if u.healing else []
        changes += [f"{u.targets} targets"] if u.targets else []
        changes += [f"{u.projectiles} {s.projectiles.kind if s.projectiles else 'projectiles'}"] if u.projectiles else []
        changes += [f"{u.area_size}-foot area"] if u.area_size else []
        changes += [f"duration {u.duration.text}"] if u.duration else []
        changes += [u.text] if u.text and not changes else []
        lines.append(f"  slot {u.slot}: {'; '.join(changes)}")
    for c in s.cantrip_scaling:
        changes = [_rolls(c.damage)] if c.damage else []
        changes += [f"{c.projectiles} {s.projectiles.kind if s.projectiles else 'projectiles'}"] if c.projectiles else []
        changes += [c.text] if c.text and not changes else []
        lines.append(f"  character level {c.character_level}: {'; '.join(changes)}")
    for o in s.options:
        lines.append(f"  option {o.name}: " + (o.condition.name if o.condition else o.text))
    for b in s.hp_bands:
        does = ["dies"] if b.dies else [*b.conditions, *(["Speed 0"] if b.speed_zero else [])]
        lines.append(f"  {b.at_most} Hit Points or fewer: " if b.at_most is not None else "  otherwise: ")
        lines[-1] += ", ".join(does)
    from combat.spells import library

    lines.append(f"Automation: {library.draft_label(s)}")
    if s.review is not None:
        lines += [f"  reviewed, changed from the draft: {c}" for c in s.review.changes]
    lines += [f"  the GM applies: {m}" for m in s.manual]
    lines += ["", s.desc]
    if s.higher_level:
        lines += ["", f"{'Using a Higher-Level Spell Slot' if s.level else 'Cantrip Upgrade'}. {s.higher_level}"]
    return "\n".join(lines)
