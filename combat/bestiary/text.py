"""A stat block as words, laid out as the SRD prints it, for the command line."""

from __future__ import annotations

from combat.bestiary.model import BlockAttack, StatBlock

__all__ = ["describe", "attack_line"]


def attack_line(a: BlockAttack) -> str:
    reach = f"reach {a.reach} ft." if a.kind != "ranged" else ""
    ranged = f"range {a.range}/{a.long_range} ft." if a.range else ""
    where = " or ".join(filter(None, [reach, ranged]))
    extra = f" plus {a.extra_damage} {a.extra_damage_type}" if a.extra_damage else ""
    condition = " if the attack roll had Advantage" if a.extra_damage and a.extra_damage_if == "advantage" else ""
    return f"{a.kind.capitalize()} Attack Roll: {a.bonus:+d}, {where} {a.damage} {a.damage_type}{extra} damage{condition}"


def _limit(entry) -> str:
    if entry.recharge is not None:
        return " (Recharge 6)" if entry.recharge == 6 else f" (Recharge {entry.recharge}-6)"
    if entry.per_day is not None:
        return f" ({entry.per_day}/Day)"
    return ""


def describe(b: StatBlock) -> str:
    lines = [b.name, f"{b.size.capitalize()} {b.type}".strip() + (f", CR {b.cr}" if b.cr else "")]
    lines.append(f"AC {b.ac}   HP {b.hp}" + (f" ({b.hit_dice})" if b.hit_dice else "") + f"   Initiative {b.initiative_bonus:+d}")
    if b.speed:
        lines.append(
            "Speed " + ", ".join(f"{mode} {feet} ft." if mode != "walk" else f"{feet} ft." for mode, feet in b.speed.items())
        )
    if b.saves:
        lines.append("Saves " + ", ".join(f"{a[:3].capitalize()} {v:+d}" for a, v in b.saves.items()))
    for label, values in (
        ("Resistances", b.resistances),
        ("Vulnerabilities", b.vulnerabilities),
        ("Immunities", b.immunities),
        ("Condition Immunities", b.condition_immunities),
    ):
        if values:
            lines.append(f"{label} {', '.join(values)}")
    if b.legendary_resistance:
        lair = f", or {b.legendary_resistance_in_lair}/Day in Lair" if b.legendary_resistance_in_lair else ""
        lines.append(f"Legendary Resistance {b.legendary_resistance}/Day{lair}")
    for t in b.traits:
        lines.append(f"  {t.name}. {t.text}")
    lines.append("Actions")
    if b.multiattack:
        lines.append(f"  Multiattack. {b.multiattack.text}")
    lines += [f"  {a.name}{_limit(a)}. {attack_line(a)}" for a in b.attacks]
    lines += [f"  {a.name}{_limit(a)}. {a.text}" for a in b.actions]
    for label, entries in (("Bonus Actions", b.bonus_actions), ("Reactions", b.reactions)):
        if entries:
            lines.append(label)
            lines += [f"  {a.name}{_limit(a)}. {a.text}" for a in entries]
    if b.legendary_actions:
        lines.append(f"Legendary Actions ({b.legendary_action_uses} a round)")
        lines += [f"  {a.name}" + (f" (costs {a.cost})" if a.cost > 1 else "") + f". {a.text}" for a in b.legendary_actions]
    if b.source:
        lines.append(f"Source: {b.source}")
    return "\n".join(lines)
