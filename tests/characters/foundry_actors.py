"""The Foundry VTT dnd5e actors the import tests read, from tests/characters/data/foundry/
(NOTICE.md there says where each comes from)."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from combat.characters.sheet import CharacterSheet, attack_profiles

DATA = Path(__file__).parent / "data" / "foundry"


def foundry_actor(name: str) -> dict[str, Any]:
    """A fixture actor as Foundry's "Export Data" gives it, freshly read (a test may change it)."""
    return json.loads((DATA / f"{name}.json").read_text())


def item_of(actor: dict[str, Any], name: str) -> dict[str, Any]:
    return next(i for i in actor["items"] if i["name"] == name)


def attacks_by_name(sheet: CharacterSheet) -> dict[str, tuple[int, str]]:
    """The sheet's attacks by name: to-hit bonus and damage."""
    return {p.name: (p.bonus, p.damage) for p in attack_profiles(sheet)}
