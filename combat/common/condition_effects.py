"""What each condition does to attacks, saves, acting and speed: a table, so a ruleset can
read or extend it without branching. Applying and ending conditions, and when they run out,
is combat/common/conditions.py.

Exhaustion (SRD 5.2): "Exhaustion Levels. This condition is cumulative. Each time you receive
it, you gain 1 Exhaustion level. You die if your Exhaustion level is 6." "D20 Tests Affected.
When you make a D20 Test, the roll is reduced by 2 times your Exhaustion level." "Speed
Reduced. Your Speed is reduced by a number of feet equal to 5 times your Exhaustion level."
A creature has one Exhaustion entry whose `level` is the level reached: applying it again
replaces the entry with one a level higher (the applier replaces an entry of the same name
when the new one has a level), and at level 6 the creature dies (`CombatantDied`, "Exhaustion
level 6"). The penalty (`d20_penalty`) comes off attack rolls, saving throws and ability
checks; the Speed (`speed_of`) is what a turn grants and a Dash adds. "Finishing a Long Rest
removes 1 of your Exhaustion levels" happens outside a fight; the GM's `remove_condition`
ends Exhaustion whole. Exhaustion recorded before it had levels (no `level`: an entry per
time it was given) had no effect and keeps none, so an old log folds as it did; a level
given now counts from the levelled entry alone. A ruleset without the 5e 0 HP rules
(declared-d10, which takes this condition rule) records Exhaustion as it always did, with
no levels.
"""

from __future__ import annotations

import msgspec

from combat.common.rider_reads import benefits_from_invisible, speed_bonus, speed_factor
from combat.kernel.state import Combatant, EncounterState

__all__ = [
    "INCAPACITATING",
    "SPEED_ZERO",
    "AUTO_CRIT_IN_MELEE",
    "attack_modifiers",
    "DODGE_SETTING",
    "dodge_to_next_turn",
    "is_incapacitated",
    "can_see",
    "speed_of",
    "EXHAUSTION",
    "EXHAUSTION_DEATH",
    "exhaustion_level",
    "d20_penalty",
]

INCAPACITATING = frozenset({"incapacitated", "paralyzed", "petrified", "stunned", "unconscious"})
SPEED_ZERO = frozenset({"grappled", "restrained", "paralyzed", "petrified", "stunned", "unconscious"})
# Rolls made BY a creature with the condition.
_ATTACKER_DISADVANTAGE = frozenset({"blinded", "frightened", "poisoned", "prone", "restrained"})
_ATTACKER_ADVANTAGE = frozenset({"invisible"})
# Rolls made AGAINST a creature with the condition.
_TARGET_ADVANTAGE = frozenset({"blinded", "paralyzed", "petrified", "restrained", "stunned", "unconscious"})
_TARGET_DISADVANTAGE = frozenset({"invisible"})
# Unconscious: "You have the Incapacitated and Prone conditions."
_LYING_DOWN = frozenset({"prone", "unconscious"})
# A hit from within 5 feet is a Critical Hit.
AUTO_CRIT_IN_MELEE = frozenset({"paralyzed", "unconscious"})


# a5e's Dodge lasts "until the start of your next turn" with no word of losing it early; the
# 2024 text loses it to Incapacitated or a Speed of 0. New a5e encounters record this setting;
# logs from before it keep the 2024 reading they were played with.
DODGE_SETTING = "dodge_to_next_turn"


def dodge_to_next_turn(state: EncounterState) -> bool:
    return bool(state.settings.get(DODGE_SETTING))


def is_incapacitated(c: Combatant) -> bool:
    return c.status != "active" or any(cond.name in INCAPACITATING for cond in c.conditions)


def can_see(viewer: Combatant, seen: Combatant, *, unseen: bool = False) -> bool:
    """Blinded: 'You can't see'; Invisible (and hidden): 'You aren't affected by any effect that
    requires its target to be seen'. The opportunity attack ('a creature that you can see') and
    Dodge ('if you can see the attacker') both need it. `unseen` is the GM's word that the
    viewer cannot see it for some other reason (darkness, a wall: a5e's `attacker_unseen`)."""
    return not unseen and not viewer.has("blinded") and not benefits_from_invisible(seen)


EXHAUSTION = "exhaustion"
EXHAUSTION_DEATH = 6


def exhaustion_level(c: Combatant) -> int:
    """The Exhaustion level `c` has (0 without it; entries recorded before levels count none)."""
    if not c.conditions:
        return 0
    return sum(cond.level for cond in c.conditions if cond.name == EXHAUSTION and cond.level is not msgspec.UNSET)


def d20_penalty(c: Combatant) -> int:
    """ "When you make a D20 Test, the roll is reduced by 2 times your Exhaustion level."."""
    return 2 * exhaustion_level(c)


def speed_of(c: Combatant) -> int:
    """The Speed `c` moves at: 0 under a Speed 0 condition, less 5 ft per Exhaustion level."""
    if not c.conditions:
        return c.speed
    if any(cond.name in SPEED_ZERO for cond in c.conditions):
        return 0
    factor = speed_factor(c)  # Haste's doubled Speed, its lethargy's Speed of 0
    speed = c.speed + speed_bonus(c)  # Longstrider's 10 feet, doubled with the rest by Haste
    return max(0, speed * (1 if factor is None else factor) - 5 * exhaustion_level(c))


def attack_modifiers(attacker: Combatant, target: Combatant, melee: bool) -> tuple[list[str], list[str]]:
    """Advantage and Disadvantage reasons that come from conditions alone (a dodging target's
    are the 5e family's: combat/fivee/until_next_turn.py)."""
    advantage: list[str] = []
    disadvantage: list[str] = []
    for cond in attacker.conditions:
        if cond.name in _ATTACKER_DISADVANTAGE:
            disadvantage.append(f"attacker is {cond.name}")
        if cond.name in _ATTACKER_ADVANTAGE and (cond.name != "invisible" or benefits_from_invisible(attacker)):
            advantage.append(f"attacker is {cond.name}")
    for cond in target.conditions:
        if cond.name in _TARGET_ADVANTAGE:
            advantage.append(f"target is {cond.name}")
        if cond.name in _TARGET_DISADVANTAGE and (cond.name != "invisible" or benefits_from_invisible(target)):
            disadvantage.append(f"target is {cond.name}")
    if any(cond.name in _LYING_DOWN for cond in target.conditions):
        (advantage if melee else disadvantage).append("target is prone")
    return advantage, disadvantage
