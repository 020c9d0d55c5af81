"""The 5e family's attack events: an attack rolled and resolved at once, and one rolled in two
steps (`AttackRolled`, its damage dice still to enter, then `AttackDamageRolled`), with the
extra damage dice an attack adds (`ExtraDamage`). Their rules are combat/fivee/attacks.py
and damage_rolls.py; they stand apart from them because modules those import read them too
(reaction windows, spell defences, the last attacks, the checks of a changed past)."""

from __future__ import annotations

from typing import Any, ClassVar, Literal

import msgspec

from combat.kernel.events import Event
from combat.kernel.hidden import Hidden, damage_dealt

__all__ = ["ExtraDamage", "AttackRolled", "AttackMade", "AttackDamageRolled", "narrate_attack"]


class ExtraDamage(msgspec.Struct, frozen=True, kw_only=True):
    """Damage dice an attack adds beyond its profile's (Sneak Attack, Divine Smite, a
    flaming weapon), with their own type; `faces` when rolled at the table."""

    dice: str
    damage_type: str
    faces: tuple[int, ...] | None = None
    # Rolled only when the attack roll has Advantage ("plus 2 (1d4) Slashing damage if the
    # attack roll had Advantage"); unset, on every hit. Entered faces of dice not rolled are unused.
    only_with: Literal["advantage"] | None = None
    # What adds it, when a lasting effect does ("Hunter's Mark"): named in its roll's purpose.
    # Unset (absent from the JSON) for the dice a command or a sheet gives.
    source: str | msgspec.UnsetType = msgspec.UNSET


class AttackRolled(Event, frozen=True, kw_only=True):
    """An attack's to-hit roll when its damage dice are still to be entered: it hit, and the
    turn waits for `roll_damage` (an `AttackDamageRolled`). Spends what `AttackMade` spends."""

    attacker: str
    target: str
    attack: str
    total: int
    natural: int
    target_ac: int
    roll_mode: Literal["normal", "advantage", "disadvantage"] = "normal"
    critical: bool = False
    damage_dice: str  # already doubled for a Critical Hit
    damage_type: str
    extra_damage: tuple[ExtraDamage, ...] = ()  # already doubled for a Critical Hit
    uses: Literal["action", "attack", "reaction", "bonus_action", "none"] = "action"
    opportunity: bool = False
    helped_by: str | None = None
    hidden: ClassVar[Hidden] = Hidden.of(
        target=("target_ac",),
        attacker=("natural", "damage_dice", "extra_damage", "attack"),
        aloud=("total", "damage_type"),
    )


class AttackMade(Event, frozen=True, kw_only=True):
    attacker: str
    target: str
    attack: str
    total: int
    natural: int
    target_ac: int
    roll_mode: Literal["normal", "advantage", "disadvantage"] = "normal"
    hit: bool
    critical: bool = False
    damage: int = 0
    damage_rolled: int = 0
    damage_type: str = ""
    uses: Literal["action", "attack", "reaction", "bonus_action", "none"] = "action"
    opportunity: bool = False
    helped_by: str | None = None
    hidden: ClassVar[Hidden] = Hidden.of(
        target=("target_ac", "damage"),  # damage taken next to damage rolled: its resistances
        attacker=("natural", "attack"),  # total minus natural is its bonus; the attack names its profile
        aloud=("total", "damage_rolled", "damage_type"),
    )


class AttackDamageRolled(Event, frozen=True, kw_only=True):
    """The damage of an attack rolled in two steps (after its `AttackRolled`); extra damage of
    other types follows as `DamageTaken` events."""

    attacker: str
    target: str
    attack: str
    critical: bool = False
    damage: int
    damage_rolled: int
    damage_type: str
    hidden: ClassVar[Hidden] = Hidden.of(attacker=("attack",), target=("damage",), aloud=("damage_rolled", "damage_type"))


def narrate_attack(n: Any, e: AttackMade) -> str:
    mode = "" if e.roll_mode == "normal" else f" with {e.roll_mode}"
    kind = "opportunity attack" if e.opportunity else "attacks"
    head = f"{n.name(e.attacker)} {kind} {n.name(e.target)}" + (f" ({e.attack})" if e.attack else "")  # None: a hidden attacker's
    if not e.hit:
        why = "natural 1, miss" if e.natural == 1 else "miss"
        return f"{head}: {e.total}{mode}{_vs_ac(e.target_ac)}, {why}"
    hit = "critical hit" if e.critical else "hit"
    return f"{head}: {e.total}{mode}{_vs_ac(e.target_ac)}, {hit}, {damage_dealt(e.damage, e.damage_rolled, e.damage_type)}"


def _vs_ac(ac: int | None) -> str:
    return "" if ac is None else f" vs AC {ac}"  # None: not revealed to this reader
