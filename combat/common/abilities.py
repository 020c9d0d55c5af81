"""The six abilities and their usual spellings (`dex`, `DEX`, `Dexterity`): what a save, a
check or a sheet names."""

from __future__ import annotations

from typing import Literal

from combat.kernel.errors import RuleError

__all__ = ["Ability", "ABILITIES", "ability_name", "save_ability"]

Ability = Literal["strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma"]
ABILITIES: tuple[Ability, ...] = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")
_SPELLINGS: dict[str, Ability] = {**{a: a for a in ABILITIES}, **{a[:3]: a for a in ABILITIES}}


def ability_name(name: str) -> Ability | None:
    """One of the six abilities from its usual spellings (`dex`, `DEX`, `Dexterity`), or None."""
    return _SPELLINGS.get(name.strip().lower())


def save_ability(name: str) -> str:
    """One of the six abilities, in full and lower case, from its usual spellings."""
    found = ability_name(name)
    if found is None:
        raise RuleError("save/ability", f"'{name}' is not an ability", allowed=", ".join(ABILITIES))
    return found
