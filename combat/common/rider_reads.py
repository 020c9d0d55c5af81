"""What the riders of a creature's lasting spell effects (combat/kernel/riders.py) do to the
numbers the rules read about it: its AC (and its floor), Speed, saves, checks, healing, the
damage it takes (Resistances) and deals with its weapons, and the attacks against it (with
reasons that name the effect, "target is under Blur"). Reads only, so the attack, save,
check, Speed and damage rules can ask without importing the spell rules;
combat/fivee/spell_effects_ongoing.py and combat/fivee/spell_defences.py apply and end the
effects.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator

import msgspec

from combat.kernel.events import AttackProfile, ConditionSpec
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
    "attack_reasons",
    "benefits_from_invisible",
    "effect_resistances",
    "armor_class",
    "effect_save_bonus",
    "speed_bonus",
    "saves_with_disadvantage",
    "check_reasons",
    "with_weapon_damage",
    "least_damage",
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


def saves_with_disadvantage(c: Combatant, ability: str) -> list[str]:
    """The effects giving `c` Disadvantage on saves of `ability` (Reduce: Strength), by name."""
    return [cond.name for cond, r in riders_of(c) if ability in r.save_disadvantage]


def check_reasons(c: Combatant, ability: str) -> tuple[list[str], list[str]]:
    """The effects giving `c` Advantage and Disadvantage on its checks of `ability`: Enlarge's
    "Advantage on Strength checks", Reduce's "Disadvantage on Strength checks"."""
    advantage = [
        f"{cond.name.title()} (Advantage on {ability} checks)" for cond, r in riders_of(c) if ability in r.check_advantage
    ]
    disadvantage = [
        f"{cond.name.title()} (Disadvantage on {ability} checks)" for cond, r in riders_of(c) if ability in r.check_disadvantage
    ]
    return advantage, disadvantage


def with_weapon_damage(c: Combatant, profile: AttackProfile) -> AttackProfile:
    """`profile` with the dice `c`'s effects add to its weapon attacks' damage: Enlarge's "an
    extra 1d4 damage on a hit", Reduce's "1d4 less damage" (the same spell counted once)."""
    dice: dict[str, str] = {}
    for cond, r in riders_of(c):
        if r.weapon_damage is not msgspec.UNSET:
            dice.setdefault(cond.name, r.weapon_damage)
    if not dice:
        return profile
    added = "".join(d if d.startswith(("-", "+")) else f"+{d}" for d in dice.values())
    return msgspec.structs.replace(profile, damage=f"{profile.damage}{added}")


def least_damage(c: Combatant | None) -> int:
    """Reduce: "1d4 less damage on a hit (this can't reduce the damage below 1)": 1 for an
    attacker whose effects take dice from its damage, else 0. (Its other attacks, a spell's,
    deal at least 1 anyway.)"""
    if c is None or not c.conditions:
        return 0
    taken = any(r.weapon_damage is not msgspec.UNSET and r.weapon_damage.startswith("-") for _, r in riders_of(c))
    return 1 if taken else 0


def cannot_heal(c: Combatant) -> str | None:
    """Chill Touch: "it can't regain Hit Points until the end of your next turn": the effect's name."""
    return next((cond.name for cond, r in riders_of(c) if r.no_healing), None)


def advantage_marks(c: Combatant) -> list[ConditionSpec]:
    """Guiding Bolt: "the next attack roll made against it before the end of your next turn has Advantage"."""
    return [cond for cond, r in riders_of(c) if r.advantage_against]


TypeOf = Callable[[], "str | None"]  # a creature's type, asked only of an effect guarding against some types


def _guards(r: Riders, type_of: TypeOf | None) -> bool:
    """The effect works against this creature: it names no types, or the creature's is one of them."""
    return not r.from_types or (type_of is not None and type_of() in r.from_types)


def immune(c: Combatant, condition: str, source_type: TypeOf | None = None) -> str | None:
    """Heroism: "immune to the Frightened condition": the effect that makes `c` immune, if any.
    Protection from Evil and Good: "can't ... gain the Charmed or Frightened conditions from
    them": only from a source of its `from_types` (`source_type`: the source's creature type)."""
    return next((cond.name for cond, r in riders_of(c) if condition in r.immune_to and _guards(r, source_type)), None)


def attack_reasons(attacker: Combatant, target: Combatant, attacker_type: TypeOf) -> tuple[list[str], list[str]]:
    """The reasons for Advantage and for Disadvantage that `target`'s effects give an attack
    roll against it, each naming its effect: Blur's "any creature has Disadvantage on attack
    rolls against you"; Protection from Evil and Good's "Creatures of those types have
    Disadvantage on attack rolls against the target" (`attacker_type`: its stat block's);
    Faerie Fire's "Attack rolls against an affected creature or object have Advantage if the
    attacker can see it" (a Blinded attacker can't); Holy Aura's "other creatures have
    Disadvantage on attack rolls against them" (one under the same aura is no other creature)."""
    advantage: list[str] = []
    disadvantage: list[str] = []
    for cond, r in riders_of(target):
        if r.attacked_with is msgspec.UNSET:
            continue
        if not _guards(r, attacker_type):
            continue
        if r.attacked_with == "disadvantage" and any(
            own.name == cond.name and own.source == cond.source for own in attacker.conditions
        ):
            continue
        if r.attacked_with == "advantage":
            if not (r.seen_only and attacker.has("blinded")):
                advantage.append(f"target is under {cond.name.title()}")
        else:
            disadvantage.append(f"target is under {cond.name.title()}")
    return advantage, disadvantage


def benefits_from_invisible(c: Combatant) -> bool:
    """Invisible, and not outlined by Faerie Fire ("can't benefit from the Invisible condition")."""
    return c.has("invisible") and not any(r.no_invisible for _, r in riders_of(c))


def effect_resistances(c: Combatant) -> tuple[str, ...]:
    """The damage types `c`'s effects give it Resistance to (Stoneskin's Bludgeoning, Piercing
    and Slashing); "all" for Warding Bond's "Resistance to all damage"."""
    return tuple(t for _, r in riders_of(c) for t in r.resistances)


def armor_class(c: Combatant, raw: int) -> int:
    """Barkskin: "the target has an Armor Class of 17 if its AC is lower than that": `raw`, the
    AC with every bonus (cover, Shield), raised to the highest such floor."""
    floors = [r.ac_floor for _, r in riders_of(c) if r.ac_floor is not msgspec.UNSET]
    return max([raw, *floors])


def _summed(c: Combatant, read: Callable[[Riders], int | msgspec.UnsetType]) -> int:
    """The numbers `c`'s effects add up to; of two effects of one name the larger counts ("the
    effects of the same spell cast multiple times don't combine")."""
    best: dict[str, int] = {}
    for cond, r in riders_of(c):
        value = read(r)
        if value is not msgspec.UNSET:
            best[cond.name] = max(best.get(cond.name, value), value)
    return sum(best.values())


def effect_save_bonus(c: Combatant) -> int:
    """Warding Bond's "+1 bonus to ... saving throws"."""
    return _summed(c, lambda r: r.save_bonus)


def speed_bonus(c: Combatant) -> int:
    """Longstrider's "Speed increases by 10 feet"."""
    return _summed(c, lambda r: r.speed_bonus)


def barred(c: Combatant, resource: str) -> str | None:
    """Confusion: "that target can't take Bonus Actions or Reactions": the effect barring
    `resource` ("bonus_action", "reaction") to `c`, if any."""
    return next((cond.name for cond, r in riders_of(c) if resource in r.cannot), None)
