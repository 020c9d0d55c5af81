"""What conditions and cover do to a saving throw (SRD 5.2).

ConditionDescription.json: Paralyzed, Petrified, Stunned and Unconscious: "You automatically
fail Strength and Dexterity saving throws." Restrained: "You have Disadvantage on Dexterity
saving throws." Cover (Rule.json, "Cover"): Half, "+2 bonus to AC and Dexterity saving throws"; Three
Quarters, "+5 bonus to AC and Dexterity saving throws".
"""

from __future__ import annotations

from combat.common.attacks import COVER_AC
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant

__all__ = ["AUTO_FAIL_STR_DEX", "COVER_SAVE", "automatic_failure", "save_disadvantage", "cover_bonus"]

AUTO_FAIL_STR_DEX = ("paralyzed", "petrified", "stunned", "unconscious")
_DEX_DISADVANTAGE = ("restrained",)
COVER_SAVE = COVER_AC  # the same +2 / +5


def automatic_failure(c: Combatant, ability: str) -> str | None:
    """The condition that makes this save fail without a roll, if any."""
    if ability.lower() not in ("strength", "dexterity"):
        return None
    return next((name for name in AUTO_FAIL_STR_DEX if c.has(name)), None)


def save_disadvantage(c: Combatant, ability: str) -> list[str]:
    if ability.lower() != "dexterity":
        return []
    return [f"{name} (Disadvantage on Dexterity saves)" for name in _DEX_DISADVANTAGE if c.has(name)]


def cover_bonus(ability: str, cover: str) -> int:
    if cover == "total":
        raise RuleError(
            "save/total-cover",
            "a creature behind Total Cover can't be targeted directly",
            allowed="none, half or three-quarters cover",
        )
    if cover != "none" and ability.lower() != "dexterity":
        raise RuleError(
            "save/cover-not-dexterity",
            f"cover adds to Dexterity saving throws, not {ability}",
            allowed="cover: none for this save",
        )
    return COVER_SAVE[cover]
