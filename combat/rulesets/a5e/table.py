"""a5e's own bookkeeping: the scene, the world's spent actions, surprise checks, presses, sprints.

It is the ruleset's `state_type`: `state.rules` holds an `A5eTable`, and only appliers write
a changed copy, with `combat.kernel.state.with_rules`. The JSON views show it under "a5e".
"""

from __future__ import annotations

import msgspec

from combat.fivee.state import FiveEState
from combat.kernel.state import EncounterState
from combat.rulesets.a5e.echo import echoed
from combat.rulesets.a5e.environments import Environment

__all__ = ["Press", "CalledCheck", "MadeCheck", "A5eTable", "minute_in_rounds"]


class Press(msgspec.Struct, frozen=True, kw_only=True):
    """Press the Attack: `attacker` has an expertise die on melee attacks against `target`."""

    attacker: str
    target: str
    fell_back: bool = False  # the target yielded ground: no expertise die


class CalledCheck(msgspec.Struct, frozen=True, kw_only=True):
    """The Narrator's choice of initiative check for one participant."""

    check: str
    bonus: int


class MadeCheck(msgspec.Struct, frozen=True, kw_only=True):
    """An ability check made in the surprise step, reused as initiative."""

    check: str
    total: int


class A5eTable(FiveEState, frozen=True, kw_only=True):
    """The 5e slice (combat/fivee/state.py) and a5e's own bookkeeping."""

    round_seconds: int = 6
    scene: str = ""
    positions: dict[str, str] = {}
    environment: Environment | None = None
    # World action name -> the round of its last use or recharge roll, while it is spent.
    spent: dict[str, int] = {}
    world_round: int = 0  # the round world actions were last used in
    world_used: int = 0  # how many in that round
    struck: dict[str, tuple[str, ...]] = {}  # world action -> participants it may not target again
    surprise_checks: dict[str, MadeCheck] = {}
    called_checks: dict[str, CalledCheck] = {}
    sudden: tuple[str, ...] = ()  # instigators of a sudden action: initiative with advantage
    presses: tuple[Press, ...] = ()
    sprinting: tuple[str, ...] = ()  # attacks against them have advantage until their next turn
    sprints: dict[str, tuple[int, ...]] = {}  # rounds each participant sprinted in
    sprint_checks: dict[str, tuple[int, ...]] = {}  # rounds of their Constitution (Athletics) checks
    speeds: dict[str, dict[str, int]] = {}  # special speeds: fly, swim, climb, burrow...
    # A roll-off that tied again, by the tie's count: units from the highest d20, those still
    # tied sharing a tuple (only they roll again). Unset, and so not in the JSON, while none is.
    roll_offs: dict[str, tuple[tuple[str, ...], ...]] | msgspec.UnsetType = msgspec.UNSET

    def damage_dice(self, notation: str, damage_type: str) -> str:
        """An attack's damage dice as rolled here (combat/fivee/damage_dice.py): Echo's point per die."""
        return echoed(self.environment, notation, damage_type)


def minute_in_rounds(state: EncounterState) -> int:
    """How many rounds make up the last minute, at the scene's round length."""
    return max(1, 60 // state.rules.round_seconds)
