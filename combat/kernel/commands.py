"""Commands: what a GM or player asks for, in the imperative.

Tagged by `type` in snake_case; that tag is also the trigger name in the ruleset's phase
table. Dice a person rolled at the table are entered as `faces` (one list per roll);
without them the service rolls from the encounter's seed.

These are the commands the framework and the rulesets with hit points and conditions share; a
ruleset's own commands live beside their rules (the 5e family's in combat/fivee: attacks,
actions, initiative, the GM's edits...) and reach each encounter through its `Ruleset`.
"""

from __future__ import annotations

import re
from typing import ClassVar, Literal

import msgspec

from combat.kernel.defaults import defaults_of
from combat.kernel.errors import RuleError
from combat.kernel.events import CombatantSpec

__all__ = ["Command", "COMMAND_TYPES", "Faces", "Cover", "TurnStartDice", "trigger_of"]

Faces = tuple[int, ...] | None
Cover = Literal["none", "half", "three-quarters", "total"]


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


# -- set-up and surprise ------------------------------------------------------------------


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


# -- a combatant's turn --------------------------------------------------------------------


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


COMMAND_TYPES: tuple[type[Command], ...] = (
    AddCombatant,
    RemoveCombatant,
    BeginCombat,
    MarkSurprised,
    EndTurn,
    Ruling,
    EndCombat,
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
