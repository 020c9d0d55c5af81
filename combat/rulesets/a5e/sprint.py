"""Sprint: "you focus all your effort on moving as fast as possible to the exclusion of everything else."

- "You may not take any other actions, bonus actions, or reactions other than your move Speed
  for the turn."
- "If you are unencumbered, your Speed is quadrupled for one turn; if you are encumbered or
  wearing heavy armor, your Speed is tripled for one turn."
- "You may Sprint for a number of turns equal to your Constitution modifier. Each turn you
  Sprint after that, you make a Constitution (Athletics) check (DC 10 + 1 per previous check
  made in the last minute) or you suffer a level of fatigue."
- "You cannot Sprint if you are suffering from one or more levels of fatigue."
- "Attacks against you are made with advantage until the start of your next turn."

The turns counted are those sprinted in the last minute (at the scene's round length). The
Constitution modifier is given with the command, else the stat block's Constitution save.
"""

from __future__ import annotations

import re
from typing import ClassVar

import msgspec

from combat.common.condition_effects import speed_of
from combat.common.turns import require_able, require_turn
from combat.fivee.check_events import CheckMade
from combat.kernel.commands import Command, Faces
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionEnded, ConditionSpec, Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_combatant, with_rules
from combat.rulesets.a5e.table import minute_in_rounds

__all__ = ["RULES", "Sprint", "Sprinted", "cannot_sprint", "recover_fatigue"]

FATIGUE = "fatigue"
_SPRINT_FATIGUE = re.compile(r"^sprint, round (\d+)$")


class Sprint(Command, frozen=True, kw_only=True):
    gm_fields: ClassVar[tuple[str, ...]] = ("con_modifier", "check_bonus")

    combatant: str
    encumbered: bool = False  # or wearing heavy armor: Speed tripled instead of quadrupled
    con_modifier: int | None = None
    check_bonus: int | None = None  # Constitution (Athletics); defaults to the Constitution modifier
    faces: Faces = None


class Sprinted(Event, frozen=True, kw_only=True):
    combatant: str
    movement: int  # the turn's whole movement
    checked: bool = False  # a Constitution (Athletics) check was due
    hidden: ClassVar[Hidden] = PUBLIC


def _recent(rounds: tuple[int, ...], state: EncounterState) -> int:
    return sum(1 for r in rounds if r > state.round - minute_in_rounds(state))


def cannot_sprint(c: Combatant) -> str | None:
    """'You may not take any other actions, bonus actions, or reactions ... You cannot Sprint if
    you are suffering from one or more levels of fatigue': the problem, or None."""
    if c.has(FATIGUE):
        return f"{c.name} is suffering from fatigue and cannot Sprint"
    e = c.economy
    if not (e.action and e.bonus_action and e.reaction) or e.attacks_left:
        return f"Sprint excludes every other action, bonus action and reaction, and {c.name} has already used one this turn"
    return None


def _sprint(tx: Tx, cmd: Sprint) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "sprint")
    problem = cannot_sprint(c)
    if problem and c.has(FATIGUE):
        raise RuleError("sprint/fatigued", problem, allowed="dash, or another action")
    if problem:
        raise RuleError("sprint/not-alone", problem, allowed="move, end_turn")
    notes = tx.state.rules
    con = cmd.con_modifier if cmd.con_modifier is not None else c.con_save
    checked = _recent(notes.sprints.get(c.id, ()), tx.state) >= con
    fatigued = False
    if checked:
        dc = 10 + _recent(notes.sprint_checks.get(c.id, ()), tx.state)
        bonus = cmd.check_bonus if cmd.check_bonus is not None else con
        roll = tx.roll(f"1d20{bonus:+d}", purpose="sprint check (constitution (athletics))", roller=c.id, faces=cmd.faces)
        success = roll.total >= dc
        tx.emit(CheckMade(combatant=c.id, skill="constitution (athletics)", total=roll.total, dc=dc, success=success))
        fatigued = not success
    elif cmd.faces is not None:
        raise RuleError("dice/unused-faces", f"{c.name} may still Sprint without a check", allowed="no faces")
    movement = speed_of(c) * (3 if cmd.encumbered else 4)
    tx.emit(Sprinted(combatant=c.id, movement=movement, checked=checked))
    # A failed check does not stop this sprint; the fatigue it costs comes after it, so the
    # history's check (no Sprint while fatigued) sees the sprinter as it was when it started.
    if fatigued:
        tx.emit(ConditionApplied(target=c.id, condition=ConditionSpec(name=FATIGUE, source=f"sprint, round {tx.state.round}")))


def recover_fatigue(tx: Tx) -> None:
    """'You recover fatigue suffered from sprinting at a rate of one level per minute': as a round
    starts, a level of sprint fatigue suffered a minute ago or more ends (one level a minute).
    Sprint fatigue recorded before its round was (source "sprint") is left to the Narrator."""
    minute = minute_in_rounds(tx.state)
    for c in list(tx.state.combatants.values()):
        gained = [
            int(m.group(1)) for cond in c.conditions if cond.name == FATIGUE and (m := _SPRINT_FATIGUE.match(cond.source or ""))
        ]
        if c.status != "dead" and gained and tx.state.round >= min(gained) + minute:
            tx.emit(ConditionEnded(target=c.id, condition=FATIGUE, reason="recovered: one level of sprint fatigue a minute"))


def _on_sprinted(state: EncounterState, e: Sprinted) -> EncounterState:
    c = state.combatants[e.combatant]
    economy = msgspec.structs.replace(
        c.economy, movement=e.movement, action=False, bonus_action=False, reaction=False, attacks_left=0
    )
    state = with_combatant(state, c.id, economy=economy)
    notes = state.rules
    checks = notes.sprint_checks
    if e.checked:
        checks = {**checks, c.id: checks.get(c.id, ()) + (state.round,)}
    return with_rules(
        state,
        sprinting=notes.sprinting + (c.id,),
        sprints={**notes.sprints, c.id: notes.sprints.get(c.id, ()) + (state.round,)},
        sprint_checks=checks,
    )


RULES = Rules(
    handlers={Sprint: _sprint},
    appliers={Sprinted: _on_sprinted},
    narration={
        Sprinted: lambda n, e: (
            f"{n.name(e.combatant)} sprints: {e.movement} ft of movement this turn, "
            "nothing else, and attacks against them have advantage"
        )
    },
)
