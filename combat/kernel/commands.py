"""Commands: what a GM or player asks for, in the imperative.

Tagged by `type` in snake_case; that tag is also the trigger name in the ruleset's phase
table. Dice a person rolled at the table are entered as `faces` (one list per roll);
without them the service rolls from the encounter's seed.
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

import msgspec

from combat.kernel.defaults import defaults_of
from combat.kernel.errors import RuleError
from combat.kernel.events import CombatantSpec, ConditionSpec, ExtraDamage, StatChanges

__all__ = ["Command", "COMMAND_TYPES", "TurnStartDice", "trigger_of"]

Faces = tuple[int, ...] | None
Cover = Literal["none", "half", "three-quarters", "total"]
Using = Literal["action", "bonus_action", "reaction"]
RollMode = Literal["normal", "advantage", "disadvantage"]


def _snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def trigger_of(command_type: type) -> str:
    """The command's tag, which is also its trigger in a phase table (a field can't shadow it)."""
    return _snake(command_type.__name__)


class Command(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, tag=_snake, tag_field="type"):
    """Who may send a command is data on its class: the GM always; a player when every
    combatant named in its `actor_fields` is one of theirs, unless it is `gm_only`."""

    actor_fields: ClassVar[tuple[str, ...]] = ("combatant", "attacker")

    gm_only: ClassVar[bool] = False

    # Sent in any phase, outside the ruleset's phase table (what the players are shown is no
    # rule of the game).
    any_phase: ClassVar[bool] = False

    # Fields only the GM may set (see docs/trust.md): numbers and reasons that could favour
    # the side that sends them (DCs, bonuses, multipliers, Advantage reasons), which come
    # from the stat block, the conditions or a ruling, and dice that another creature rolls.
    # A player's command that sets one is refused (`command/gm-field`); left out, the rules
    # use the state's value or none.
    gm_fields: ClassVar[tuple[str, ...]] = ()

    # Fields no client sets, the GM included: the service fills them in from what it stores
    # (a stored character's sheet and what it carries). A command sent with one set is
    # refused (`command/service-field`) before anything is read or written.
    service_fields: ClassVar[tuple[str, ...]] = ()

    @classmethod
    def trigger(cls) -> str:
        return trigger_of(cls)

    def gm_fields_given(self) -> tuple[str, ...]:
        """The GM-only fields this command sets: away from their default, or required."""
        defaults = defaults_of(type(self))
        return tuple(name for name in type(self).gm_fields if name not in defaults or getattr(self, name) != defaults[name])

    def actors(self) -> frozenset[str]:
        """The combatants this command acts as (empty: nobody's, so the GM's)."""
        named: set[str] = set()
        for name in type(self).actor_fields:
            value = getattr(self, name, None)
            if isinstance(value, str):
                named.add(value)
            elif isinstance(value, tuple):
                named.update(v for v in value if isinstance(v, str))
        return frozenset(named)


# -- set-up, surprise, initiative ----------------------------------------------------------


class AddCombatant(Command, frozen=True, kw_only=True):
    gm_only: ClassVar[bool] = True

    combatant: CombatantSpec


class RemoveCombatant(Command, frozen=True, kw_only=True):
    gm_only: ClassVar[bool] = True

    combatant: str
    reason: str = ""


class BeginCombat(Command, frozen=True, kw_only=True):
    """Positions are set; move on to deciding who is surprised."""


class MarkSurprised(Command, frozen=True, kw_only=True):
    combatants: tuple[str, ...]
    surprised: bool = True


class RollInitiative(Command, frozen=True, kw_only=True):
    """Roll for one combatant (or its whole group); with no combatant, everyone left."""

    combatant: str | None = None
    faces: Faces = None


class OrderTie(Command, frozen=True, kw_only=True):
    """Settle a tie: the tied combatants (or groups) from first to last."""

    actor_fields: ClassVar[tuple[str, ...]] = ("order",)  # players order a tie of their own characters

    order: tuple[str, ...]


# -- a combatant's turn --------------------------------------------------------------------


class Move(Command, frozen=True, kw_only=True):
    combatant: str
    feet: int
    mode: str = "walk"
    leaves_reach_of: tuple[str, ...] = ()
    difficult_terrain: int = 0  # how many of the feet are Difficult Terrain (each costs 1 extra)


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


class TakeAction(Command, frozen=True, kw_only=True):
    """Dash, Disengage, Dodge, Help, Hide, Influence, Magic, Ready, Search, Study, Utilize."""

    gm_fields: ClassVar[tuple[str, ...]] = ("bonus", "dc")

    combatant: str
    action: str
    target: str | None = None
    detail: str = ""
    bonus: int = 0
    dc: int | None = None
    faces: Faces = None
    concentration: bool = False
    bonus_action: bool = False  # a feature such as Cunning Action allows it


class BonusAction(Command, frozen=True, kw_only=True):
    combatant: str
    description: str


class InteractWithObject(Command, frozen=True, kw_only=True):
    combatant: str
    description: str


class UseReaction(Command, frozen=True, kw_only=True):
    combatant: str
    description: str


class TurnStartDice(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True, omit_defaults=True):
    """The dice of one lasting effect that acts as its bearer's turn starts: Searing Smite's
    "the target takes 1d6 Fire damage" (`damage`) "and then makes a Constitution saving throw"
    (`save`, the bearer's d20). Left out, the service rolls that one."""

    damage: Faces = None
    save: Faces = None


class EndTurn(Command, frozen=True, kw_only=True):
    # The next creature's turn-start dice are mostly another creature's (its own save, the
    # caster's damage): the GM's, as a spell's save_faces are.
    gm_fields: ClassVar[tuple[str, ...]] = ("turn_start_faces",)

    combatant: str
    # The dice of the saves the combatant repeats as its turn ends ("At the end of each of its
    # turns, the target repeats the save"): one list per save, in the order its conditions are
    # listed; left out, the service rolls them.
    save_faces: tuple[tuple[int, ...], ...] = ()
    # The dice of the effects that act as the next creature's turn starts, by the effect's name
    # (its condition's: "searing smite"); left out, the service rolls them. Faces for an effect
    # that rolls nothing as that turn starts are refused (combat/fivee/turn_start_dice.py).
    turn_start_faces: dict[str, TurnStartDice] = {}


# -- rulings and effects the GM applies ----------------------------------------------------


class Damage(Command, frozen=True, kw_only=True):
    target: str
    damage_type: str
    amount: int | None = None
    notation: str | None = None
    source: str | None = None
    faces: Faces = None
    custom_type: bool = False  # a damage type the ruleset does not know: no resistance applies to it
    resistance_faces: dict[str, tuple[int, ...]] = {}  # a Resistance spell's d4, by the damaged creature's id


class Heal(Command, frozen=True, kw_only=True):
    target: str
    amount: int | None = None
    notation: str | None = None
    source: str | None = None
    faces: Faces = None


class GrantTempHp(Command, frozen=True, kw_only=True):
    target: str
    amount: int
    source: str | None = None


class ApplyCondition(Command, frozen=True, kw_only=True):
    target: str
    condition: ConditionSpec
    custom: bool = False  # a condition the ruleset does not know: recorded, with no mechanical effect


class RemoveCondition(Command, frozen=True, kw_only=True):
    target: str
    condition: str
    reason: str = ""


class StartConcentration(Command, frozen=True, kw_only=True):
    combatant: str
    effect: str


class EndConcentration(Command, frozen=True, kw_only=True):
    combatant: str
    reason: str = "ended by choice"


class ConcentrationSave(Command, frozen=True, kw_only=True):
    combatant: str
    faces: Faces = None


class SavingThrow(Command, frozen=True, kw_only=True):
    """Without a DC the roll is recorded (`SaveRolled`) and the GM or the effect rules on it later."""

    # Cover adds to the save: the GM's call, as a situational Advantage is.
    gm_fields: ClassVar[tuple[str, ...]] = ("dc", "bonus", "roll_mode", "cover")

    combatant: str
    ability: str  # strength... or dex, DEX, Dexterity (5e family); segments-1e's own save names
    dc: int | None = None
    bonus: int | None = None  # None: from the stat block (combat/fivee/bonuses.py); a number overrides it
    roll_mode: Literal["normal", "advantage", "disadvantage"] = "normal"
    faces: Faces = None
    reason: str = ""
    cover: Cover = "none"  # half (+2) or three-quarters (+5) cover adds to a Dexterity save


class Ruling(Command, frozen=True, kw_only=True):
    text: str


class Reveal(Command, frozen=True, kw_only=True):
    """Show players and viewers the HP, AC, attacks and hidden conditions of combatants (by
    id) or of whole sides. Allowed in every phase; undo it to hide them again."""

    gm_only: ClassVar[bool] = True
    any_phase: ClassVar[bool] = True

    combatants: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()


class EndCombat(Command, frozen=True, kw_only=True):
    reason: str = "the GM ended the fight"
    winner: str | None = None


# -- GM moves at a real table ---------------------------------------------------------------


class SetHp(Command, frozen=True, kw_only=True):
    """The GM sets HP directly ("drops to 0 hit points"); 0 drops the creature as damage would."""

    gm_only: ClassVar[bool] = True

    combatant: str
    hp: int
    reason: str = ""


class ChangeStatBlock(Command, frozen=True, kw_only=True):
    """A mid-fight edit of AC, max HP, speed, resistances, attacks... (Mage Armor, Shield, Rage);
    later events are judged against the new values."""

    gm_only: ClassVar[bool] = True

    combatant: str
    changes: StatChanges
    reason: str = ""


class GotoTurn(Command, frozen=True, kw_only=True):
    """The GM moves the turn to `combatant`: the current turn ends as with end_turn (its
    end-of-turn effects run) and the named one starts as any turn does (fresh economy,
    start-of-turn effects). Combatants passed over get no turn and no start/end effects."""

    gm_only: ClassVar[bool] = True

    combatant: str
    reason: str = ""
    # The saves the creature whose turn ends repeats then, as end_turn's `save_faces`.
    save_faces: tuple[tuple[int, ...], ...] = ()
    # The dice of the effects that act as the named creature's turn starts, as end_turn's.
    turn_start_faces: dict[str, TurnStartDice] = {}


class PreviousTurn(Command, frozen=True, kw_only=True):
    """The GM goes back one turn: the current turn is taken back (no end-of-turn effects, as
    it will come again) and the previous living combatant gets a fresh turn; from the first
    turn of a round it goes back to the last turn of the round before."""

    gm_only: ClassVar[bool] = True

    reason: str = ""
    # The dice of the effects that act as the fresh turn starts, as end_turn's.
    turn_start_faces: dict[str, TurnStartDice] = {}


class GrantAction(Command, frozen=True, kw_only=True):
    """An extra action, bonus action or reaction (Action Surge, Haste), usable once the one
    the combatant has is spent. An action or bonus action granted outside the creature's turn
    is kept for its next turn and lapses when that turn ends unused."""

    combatant: str
    kind: Using
    reason: str = ""


class JudgeSave(Command, frozen=True, kw_only=True):
    """The GM sets the DC of a saving throw rolled without one (`SaveRolled`): it succeeds or
    fails now, recorded as a `SaveMade`."""

    gm_only: ClassVar[bool] = True

    combatant: str
    dc: int
    ability: str | None = None  # which of its saves still awaiting a DC; the latest if left out
    reason: str = ""


class AbilityCheck(Command, frozen=True, kw_only=True):
    """An ability check outside any action (Perception, Athletics...); with a DC it succeeds or fails."""

    gm_fields: ClassVar[tuple[str, ...]] = ("bonus", "dc", "roll_mode")

    combatant: str
    ability: str  # strength... or dex, DEX, Dexterity
    skill: str | None = None
    bonus: int | None = None  # None: from the stat block (combat/fivee/bonuses.py); a number overrides it
    dc: int | None = None
    roll_mode: RollMode | None = None  # None: from the conditions (Poisoned, Frightened); given, it stands
    faces: Faces = None


class Contest(Command, frozen=True, kw_only=True):
    """Two combatants' opposed checks (the hag's Athletics against Mozzie's Acrobatics)."""

    actor_fields: ClassVar[tuple[str, ...]] = ("combatant", "opponent")
    gm_fields: ClassVar[tuple[str, ...]] = ("bonus", "roll_mode", "opponent_bonus", "opponent_roll_mode", "opponent_faces")

    combatant: str
    ability: str
    skill: str | None = None
    bonus: int | None = None  # None: from the stat block; a number overrides it
    roll_mode: RollMode | None = None  # None: from the conditions; given, it stands
    faces: Faces = None
    opponent: str
    opponent_ability: str
    opponent_skill: str | None = None
    opponent_bonus: int | None = None
    opponent_roll_mode: RollMode | None = None
    opponent_faces: Faces = None


class RollDamage(Command, frozen=True, kw_only=True):
    """The second step of an attack whose to-hit faces were entered without damage faces."""

    actor_fields: ClassVar[tuple[str, ...]] = ("attacker",)
    gm_fields: ClassVar[tuple[str, ...]] = ("resistance_faces",)

    attacker: str
    faces: Faces = None
    extra_faces: tuple[tuple[int, ...], ...] = ()  # one list per extra damage, in order
    resistance_faces: dict[str, tuple[int, ...]] = {}  # a Resistance spell's d4, by the damaged creature's id


COMMAND_TYPES: tuple[type[Command], ...] = (
    AddCombatant,
    RemoveCombatant,
    BeginCombat,
    MarkSurprised,
    RollInitiative,
    OrderTie,
    Move,
    Attack,
    OpportunityAttack,
    TakeAction,
    BonusAction,
    InteractWithObject,
    UseReaction,
    EndTurn,
    Damage,
    Heal,
    GrantTempHp,
    ApplyCondition,
    RemoveCondition,
    StartConcentration,
    EndConcentration,
    ConcentrationSave,
    SavingThrow,
    Ruling,
    EndCombat,
    SetHp,
    ChangeStatBlock,
    GotoTurn,
    PreviousTurn,
    GrantAction,
    JudgeSave,
    AbilityCheck,
    Contest,
    RollDamage,
    Reveal,
)

__all__ += [t.__name__ for t in COMMAND_TYPES]


def check_service_only(command: Command) -> None:
    """Refuse a command sent with a field only the service fills in (`service_fields`)."""
    for name in type(command).service_fields:
        if getattr(command, name) is not None:
            raise RuleError(
                "command/service-field",
                f"{name} is filled in by the service from what it stores, never sent",
                allowed=f"leave {name} out",
            )
