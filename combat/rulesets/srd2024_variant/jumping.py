"""Jumping Δ: how far a Long Jump or a High Jump goes, and landing in Difficult Terrain.

- "Long Jump (Horizontal). ... you leap horizontally a number of feet up to 5 x your
  Strength modifier ..., provided you move at least 10 feet immediately before the jump.
  When you make a standing Long Jump, you can leap only half that distance."
- "High Jump (Vertical). ... a number of feet equal to half those of a Long Jump. When you
  make a standing High Jump, you can jump only half that distance (i.e. a quarter of a
  Long Jump)."
- "Either way, each foot you jump costs a foot of movement. If you land in Difficult
  Terrain, you must succeed on a DC 10 Acrobatics (DEX) check or have the Prone condition."

The run-up is the walking the jumper did just before, with nothing else in between (an
action, an attack, a bonus action or another kind of movement starts it over); fractions
of a foot are dropped (Strength +3: a 7 ft standing Long Jump).
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from combat.common.turns import require_able
from combat.fivee.check_events import CheckMade
from combat.kernel.commands import Command, Faces
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionSpec, Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_combatant, with_rules

from .bookkeeping import traits_of
from .mounts import require_mover, require_not_riding
from .speeds import prone_crawls, require_movement

__all__ = ["RULES", "Jump", "Jumped", "RUN_UP_FEET", "LANDING_DC", "jump_limit", "running_start", "out_of_reach"]

RUN_UP_FEET = 10
LANDING_DC = 10


class Jump(Command, frozen=True, kw_only=True):
    gm_fields: ClassVar[tuple[str, ...]] = ("acrobatics_bonus",)

    combatant: str
    kind: Literal["long", "high"]
    feet: int
    lands_in_difficult_terrain: bool = False
    acrobatics_bonus: int = 0
    faces: Faces = None  # the landing check's d20


class Jumped(Event, frozen=True, kw_only=True):
    combatant: str
    kind: Literal["long", "high"]
    feet: int
    running: bool
    hidden: ClassVar[Hidden] = PUBLIC


def jump_limit(strength: int, kind: str, running: bool) -> int:
    """Feet a jump may cover: 5 x Strength running long; halved standing; halved again high."""
    quarters = 4 * 5 * max(0, strength)
    if kind == "high":
        quarters //= 2
    if not running:
        quarters //= 2
    return quarters // 4


def running_start(state: EncounterState, c: Combatant) -> bool:
    """'... if you move at least 10 feet immediately before it': the run-up is unbroken."""
    run = state.rules.run_up
    return run is not None and run[0] == c.id and run[1] >= RUN_UP_FEET


def out_of_reach(state: EncounterState, c: Combatant, kind: str, feet: int) -> str | None:
    """The problem when `c` cannot jump `feet` now (the distance follows from its Strength
    modifier and a run-up just before), else None."""
    strength = traits_of(state, c.id).strength
    if strength is None:
        return f"{c.name}'s Strength modifier is not noted, and a jump's distance depends on it"
    running = running_start(state, c)
    limit = jump_limit(strength, kind, running)
    if feet <= limit:
        return None
    how = "after a 10 ft run-up" if running else "standing (no 10 ft run-up just before)"
    return f"{c.name}'s {kind} jump {how} reaches {limit} ft, not {feet}"


def _jump(tx: Tx, cmd: Jump) -> None:
    c = require_mover(tx, tx.combatant(cmd.combatant))
    require_able(c, "jump")
    require_not_riding(tx, c)
    problem = prone_crawls(c, "jump")
    if problem:
        raise RuleError("move/prone", problem, allowed="stand_up_from_prone first")
    if cmd.feet <= 0:
        raise RuleError("move/distance", f"cannot jump {cmd.feet} ft", allowed="a positive number of feet")
    problem = out_of_reach(tx.state, c, cmd.kind, cmd.feet)
    strength = traits_of(tx.state, c.id).strength
    running = running_start(tx.state, c)
    if problem and strength is None:
        raise RuleError("traits/missing", problem, allowed=f"note_traits for {c.id} with strength")
    if problem and strength is not None:
        limit = jump_limit(strength, cmd.kind, running)
        raise RuleError(
            "jump/too-far",
            problem,
            allowed=f"up to {limit} ft"
            + ("" if running else f", or {jump_limit(strength, cmd.kind, True)} ft after moving 10 ft first"),
        )
    require_movement(tx.state, c, cmd.feet, "walk", f"a {cmd.feet} ft {cmd.kind} jump")
    if cmd.faces is not None and not cmd.lands_in_difficult_terrain:
        raise RuleError("dice/unused-faces", "only a landing in Difficult Terrain needs a check", allowed="no faces")
    tx.emit(Jumped(combatant=c.id, kind=cmd.kind, feet=cmd.feet, running=running))
    if cmd.lands_in_difficult_terrain:
        roll = tx.roll(f"1d20{cmd.acrobatics_bonus:+d}", purpose="acrobatics check to land", roller=c.id, faces=cmd.faces)
        landed = roll.total >= LANDING_DC
        tx.emit(CheckMade(combatant=c.id, skill="acrobatics", total=roll.total, dc=LANDING_DC, success=landed))
        if not landed:
            tx.emit(ConditionApplied(target=c.id, condition=ConditionSpec(name="prone", source="a bad landing")))


def _on_jumped(state: EncounterState, e: Jumped) -> EncounterState:
    c = state.combatants[e.combatant]
    state = with_combatant(state, c.id, economy=msgspec.structs.replace(c.economy, moved=c.economy.moved + e.feet))
    return with_rules(state, run_up=None)


RULES = Rules(
    handlers={Jump: _jump},
    appliers={Jumped: _on_jumped},
    narration={
        Jumped: lambda n, e: (
            f"{n.name(e.combatant)} makes a {'running' if e.running else 'standing'} {e.kind} jump of {e.feet} ft"
        )
    },
)
