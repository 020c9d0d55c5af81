"""The names a ruleset declares, its conditions and damage types, checked as commands arrive.

Names are matched case-insensitively with runs of spaces folded (`Prone` is `prone`); a name
the ruleset does not know is refused with the list, unless the command says it is custom,
which records it as given and gives it no mechanical effect. Events keep the names they were
recorded with, so an old log that holds an odd spelling replays exactly as it did.
"""

from __future__ import annotations

import difflib
from collections.abc import Iterable

from combat.kernel.errors import RuleError

__all__ = ["closest", "normalised", "checked_name", "find_named", "checked_condition", "checked_damage_type"]


def normalised(name: str) -> str:
    return " ".join(name.split()).lower()


def closest(key: str, known: Iterable[str], *, stem: int = 4, most: int = 8) -> list[str]:
    """The known names closest to a mistyped `key` (both normalised): those difflib finds
    alike, then those sharing the start of a word typed ("firebal": Fireball, Delayed Blast
    Fireball). For the `allowed` of a refusal, which should name what was probably meant."""
    names = sorted(known)
    close = difflib.get_close_matches(key, names, n=5, cutoff=0.6)
    stems = [w[:stem] for w in key.split() if len(w) >= 4]
    return close + [k for k in names if k not in close and any(s in k for s in stems)][: max(0, most - len(close))]


def checked_name(name: str, known: frozenset[str], *, kind: str, ruleset: str, custom: bool, field: str | None = "custom") -> str:
    """The name to record: the ruleset's own spelling, or a custom name as given (trimmed).

    `field` is the command's field that marks a name as custom (`custom` in apply_condition,
    `custom_type` in damage), named in the refusal; None where the command has none (a
    combatant's resistances): the name must be one of the ruleset's."""
    plain = normalised(name)
    code = kind.replace(" ", "-")
    if not plain:
        raise RuleError(f"{code}/empty", f"a {kind} needs a name", allowed=", ".join(sorted(known)))
    if custom:
        if plain in known:
            raise RuleError(
                f"{code}/not-custom",
                f"'{name}' is a {ruleset} {kind} with its rules; send it without {field}",
                allowed=f"{plain}, or a name that is not one of: " + ", ".join(sorted(known)),
            )
        return " ".join(name.split())
    if plain not in known:
        custom_too = f"; or send it with {field}: true (a custom {kind} has no mechanical effect)" if field else ""
        raise RuleError(f"{code}/unknown", f"'{name}' is not a {ruleset} {kind}", allowed=", ".join(sorted(known)) + custom_too)
    return plain


def find_named(name: str, present: Iterable[str]) -> str | None:
    """The recorded name among `present` that `name` means, spelling aside."""
    plain = normalised(name)
    return next((p for p in present if normalised(p) == plain), None)


def checked_condition(tx, name: str, *, custom: bool = False) -> str:
    """`name` as the encounter's ruleset spells it (anything goes if it declares no conditions)."""
    known = tx.ruleset.conditions
    if not known:
        return name
    return checked_name(name, known, kind="condition", ruleset=tx.ruleset.id, custom=custom, field="custom")


def checked_damage_type(tx, name: str, *, custom: bool = False, field: str | None = "custom_type") -> str:
    """`name` as the encounter's ruleset spells it (anything goes if it declares no damage types);
    `field`: the command's field that would mark it custom, None if it has none."""
    known = tx.ruleset.damage_types
    if not known:
        return name
    return checked_name(name, known, kind="damage type", ruleset=tx.ruleset.id, custom=custom, field=field)
