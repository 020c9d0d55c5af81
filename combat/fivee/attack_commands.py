"""The 5e family's attack commands: an attack, an opportunity attack, and the damage roll of an
attack whose to-hit faces were entered alone. Their rules are combat/fivee/attacks.py and
damage_rolls.py; they stand apart from them because modules those import send them too (a
monster's actions, a sheet's claims, a reaction that waits for the damage)."""

from __future__ import annotations

from typing import ClassVar

from combat.fivee.action_commands import Using
from combat.fivee.attack_events import ExtraDamage
from combat.kernel.commands import Command, Cover, Faces

__all__ = ["Attack", "OpportunityAttack", "RollDamage"]


class Attack(Command, frozen=True, kw_only=True):
    gm_fields: ClassVar[tuple[str, ...]] = ("advantage", "disadvantage", "roll_bonus", "mirror_faces", "resistance_faces")

    attacker: str
    target: str
    attack: str | None = None
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    cover: Cover = "none"
    roll_bonus: str | None = None  # dice added to the attack roll, e.g. "1d4" for Bless
    distance: int | None = None  # feet to the target, when it matters (reach, normal and long range)
    faces: Faces = None
    damage_faces: Faces = None  # without them, entered to-hit faces leave the damage to roll_damage
    extra_damage_faces: Faces = None  # a stat block attack's extra damage ("plus 5 (2d4) Fire")
    readied: bool = False
    using: Using = "action"  # bonus_action: off-hand, Quickened; reaction: Polearm Master
    extra_damage: tuple[
        ExtraDamage, ...
    ] = ()  # e.g. {"dice": "2d6", "damage_type": "fire"}; from a player, only what the sheet lists
    # The lowest natural roll that is a Critical Hit: left out, the character sheet's (19 for
    # Improved Critical) or 20; a player may not claim a wider range than the sheet's.
    critical_range: int | None = None
    sneak_attack: bool = False  # add the sheet's Sneak Attack dice (once per turn, a Finesse or Ranged weapon)
    damage_type: str | None = None  # the damage type chosen for this attack, instead of the profile's
    knock_out: bool = False  # a melee attack that would drop the target to 0 HP leaves it at 1 HP, Unconscious
    # Mirror Image's d6s, one per duplicate the target has left, rolled if the attack hits it
    mirror_faces: Faces = None
    # the attacker's Wisdom save against a Sanctuary on the target
    sanctuary_faces: Faces = None
    # where the attack goes if that save fails (left out: the attack is lost)
    new_target: str | None = None
    # a Resistance spell's d4, by the id of the creature whose damage it reduces
    resistance_faces: dict[str, tuple[int, ...]] = {}


class OpportunityAttack(Command, frozen=True, kw_only=True):
    gm_fields: ClassVar[tuple[str, ...]] = ("advantage", "disadvantage", "mirror_faces", "resistance_faces")

    attacker: str
    target: str
    attack: str | None = None
    advantage: tuple[str, ...] = ()
    disadvantage: tuple[str, ...] = ()
    faces: Faces = None
    damage_faces: Faces = None
    extra_damage_faces: Faces = None
    extra_damage: tuple[ExtraDamage, ...] = ()  # e.g. a flame tongue's fire; from a player, only what the sheet lists
    sneak_attack: bool = False  # add the sheet's Sneak Attack dice (once per turn, a Finesse or Ranged weapon)
    # Mirror Image's d6s, one per duplicate the target has left, rolled if the attack hits it
    mirror_faces: Faces = None
    # the attacker's Wisdom save against a Sanctuary on the target
    sanctuary_faces: Faces = None
    # where the attack goes if that save fails (left out: the attack is lost)
    new_target: str | None = None
    # a Resistance spell's d4, by the id of the creature whose damage it reduces
    resistance_faces: dict[str, tuple[int, ...]] = {}


class RollDamage(Command, frozen=True, kw_only=True):
    """The second step of an attack whose to-hit faces were entered without damage faces."""

    actor_fields: ClassVar[tuple[str, ...]] = ("attacker",)
    gm_fields: ClassVar[tuple[str, ...]] = ("resistance_faces",)

    attacker: str
    faces: Faces = None
    extra_faces: tuple[tuple[int, ...], ...] = ()  # one list per extra damage, in order
    resistance_faces: dict[str, tuple[int, ...]] = {}  # a Resistance spell's d4, by the damaged creature's id
