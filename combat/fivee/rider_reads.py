"""What the riders of a creature's lasting spell effects (combat/kernel/riders.py) do to the
numbers the rules read about it: its AC, Speed, saves, healing and the attacks against it.
Reads only, so the attack, save, Speed and healing rules can ask without importing the
spell rules; combat/fivee/spell_effects_ongoing.py applies and ends the effects.
"""

from __future__ import annotations

from collections.abc import Iterator

import msgspec

from combat.kernel.events import ConditionSpec
from combat.kernel.riders import Riders
from combat.kernel.state import Combatant

__all__ = [
    "riders_of",
    "base_ac",
    "speed_factor",
    "saves_with_advantage",
    "cannot_heal",
    "advantage_marks",
    "immune",
    "barred",
]


def riders_of(c: Combatant) -> Iterator[tuple[ConditionSpec, Riders]]:
    for cond in c.conditions:
        if cond.riders is not msgspec.UNSET:
            yield cond, cond.riders


def base_ac(c: Combatant) -> int:
    """Mage Armor: "the target's base AC becomes 13 plus its Dexterity modifier". A creature with
    two ways to work out its AC uses the better one, so its own AC stays if it is higher."""
    bases = [r.ac_base for _, r in riders_of(c) if r.ac_base is not msgspec.UNSET]
    return max([c.ac, *bases])


def speed_factor(c: Combatant) -> int | None:
    """Haste's "Speed is doubled" (2), its lethargy's "Speed of 0" (0); None: unchanged."""
    factors = [r.speed_times for _, r in riders_of(c) if r.speed_times is not msgspec.UNSET]
    if not factors:
        return None
    if 0 in factors:
        return 0
    return max(factors)  # two Hastes do not combine ("the same spell cast multiple times")


def saves_with_advantage(c: Combatant, ability: str) -> list[str]:
    """The effects giving `c` Advantage on saves of `ability` (Haste: Dexterity), by name."""
    return [cond.name for cond, r in riders_of(c) if ability in r.save_advantage]


def cannot_heal(c: Combatant) -> str | None:
    """Chill Touch: "it can't regain Hit Points until the end of your next turn": the effect's name."""
    return next((cond.name for cond, r in riders_of(c) if r.no_healing), None)


def advantage_marks(c: Combatant) -> list[ConditionSpec]:
    """Guiding Bolt: "the next attack roll made against it before the end of your next turn has Advantage"."""
    return [cond for cond, r in riders_of(c) if r.advantage_against]


def immune(c: Combatant, condition: str) -> str | None:
    """Heroism: "immune to the Frightened condition": the effect that makes `c` immune, if any."""
    return next((cond.name for cond, r in riders_of(c) if condition in r.immune_to), None)


def barred(c: Combatant, resource: str) -> str | None:
    """Confusion: "that target can't take Bonus Actions or Reactions": the effect barring
    `resource` ("bonus_action", "reaction") to `c`, if any."""
    return next((cond.name for cond, r in riders_of(c) if resource in r.cannot), None)
