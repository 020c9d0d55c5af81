"""The table's choices where the rules text leaves room (see the package docstring)."""

from __future__ import annotations

from typing import Any

from combat.kernel.commands import BeginCombat
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError

__all__ = ["DEFAULTS", "CHOICES", "check", "RULES"]

DEFAULTS: dict[str, Any] = {
    "declaration_seconds": None,
    "weapon_tiers": False,
    "initiative_ties": "players_first",
    "surprise_round_order": "initiative",
    "half_hp_penalty_on_all_rolls": False,
}
CHOICES: dict[str, tuple[Any, ...]] = {
    "weapon_tiers": (True, False),
    "initiative_ties": ("players_first", "creatures_first"),
    "surprise_round_order": ("initiative", "attackers_first"),
    "half_hp_penalty_on_all_rolls": (True, False),
}


def check(settings: dict[str, Any]) -> None:
    for name, allowed in CHOICES.items():
        if settings.get(name, DEFAULTS[name]) not in allowed:
            raise RuleError("settings/invalid", f"{name} cannot be {settings[name]!r}", allowed=", ".join(map(str, allowed)))
    seconds = settings.get("declaration_seconds")
    if seconds is not None and (not isinstance(seconds, int) or isinstance(seconds, bool) or seconds <= 0):
        raise RuleError(
            "settings/invalid", f"declaration_seconds cannot be {seconds!r}", allowed="a whole number of seconds, or null"
        )


def _playable(tx: Tx, cmd: BeginCombat) -> None:
    """A fight cannot start under settings this ruleset does not know how to play."""
    check(tx.state.settings)


RULES = Rules(guards={BeginCombat: (_playable,)})
