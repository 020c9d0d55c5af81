"""Surprise and sudden actions.

"The Narrator calls for appropriate ability checks to determine whether participants are aware
of each other. Surprised creatures are unable to move or take an action on their first turn,
and are unable to use a reaction until after their first turn."

"Sometimes all participants are aware of each other ... but one side takes an action or
launches an attack while others' guards are down. In this case, no one is surprised, but the
Narrator may allow the instigating creature or party to roll initiative with advantage."

A surprised participant stays `surprised` until its first turn ends; `not_surprised` is the
guard the ruleset puts in front of a command's rule so that moving, acting or reacting before
then is rejected with the reason. Being granted an action is not acting: a GM's `grant_action`
made before the participant's turn banks the action for that turn (`grant_not_surprised`),
where it is as unusable as the participant's own action while the surprise holds.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from combat.common.setup import mark_surprised
from combat.fivee.gm_edit_commands import GrantAction
from combat.kernel.commands import Command, EndTurn, Faces, MarkSurprised
from combat.kernel.decider import Guard, Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event, SurpriseMarked
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_combatant, with_rules
from combat.rulesets.a5e.initiative import normalize_check
from combat.rulesets.a5e.table import MadeCheck

__all__ = [
    "RULES",
    "already_checked",
    "sudden_bars",
    "surprised_before_sudden",
    "rolled_before_sudden",
    "SurpriseCheck",
    "DeclareSuddenAction",
    "SurpriseCheckMade",
    "SuddenActionDeclared",
    "SurpriseEnded",
    "held_back",
    "require_not_surprised",
    "not_surprised",
    "grant_not_surprised",
    "end_surprise",
]


class SurpriseCheck(Command, frozen=True, kw_only=True):
    """An ability check the Narrator calls for in the surprise step. With a `dc` (say the
    sneaking side's Stealth) it decides awareness: below it, the participant is surprised.
    Without one it is the sneaking side's own check. Either way it is kept for initiative."""

    gm_fields: ClassVar[tuple[str, ...]] = ("bonus", "dc")

    combatant: str
    check: str = "wisdom (perception)"
    bonus: int = 0
    dc: int | None = None
    faces: Faces = None


class DeclareSuddenAction(Command, frozen=True, kw_only=True):
    """Everyone is aware, but these participants (ids or a side) strike first."""

    instigators: tuple[str, ...]


class SurpriseCheckMade(Event, frozen=True, kw_only=True):
    combatant: str
    check: str
    total: int
    dc: int | None = None
    aware: bool | None = None  # None: a check with nothing to notice (the sneaking side's own)
    hidden: ClassVar[Hidden] = Hidden.said("total", "dc")


class SuddenActionDeclared(Event, frozen=True, kw_only=True):
    instigators: tuple[str, ...]
    hidden: ClassVar[Hidden] = PUBLIC


class SurpriseEnded(Event, frozen=True, kw_only=True):
    """The surprised participant's first turn is over: it may react again."""

    combatant: str
    hidden: ClassVar[Hidden] = PUBLIC


def already_checked(state: EncounterState, c: Combatant) -> str | None:
    """One surprise-step check per participant."""
    return f"{c.name} has already made a surprise-step check" if c.id in state.rules.surprise_checks else None


def sudden_bars(state: EncounterState, could_surprise: bool) -> str | None:
    """'Everyone is aware' in a sudden action: nothing that could leave someone surprised."""
    return "in a sudden action everyone is aware: no one can be surprised" if could_surprise and state.rules.sudden else None


def surprised_before_sudden(state: EncounterState) -> str | None:
    surprised = [c.name for c in state.combatants.values() if c.surprised]
    return f"a sudden action means no one is surprised, but {surprised[0]} is" if surprised else None


def rolled_before_sudden(state: EncounterState, ids: tuple[str, ...]) -> str | None:
    """A sudden action comes before initiative: its instigators have not rolled yet."""
    rolled = [c.name for cid in ids if (c := state.combatants.get(cid)) is not None and c.initiative is not None]
    return f"{rolled[0]} has already rolled initiative" if rolled else None


def _check(tx: Tx, cmd: SurpriseCheck) -> None:
    c = tx.combatant(cmd.combatant)
    problem = already_checked(tx.state, c)
    if problem:
        raise RuleError("surprise/already-checked", problem, allowed="one check per participant")
    problem = sudden_bars(tx.state, cmd.dc is not None)
    if problem:
        raise RuleError("surprise/sudden-action", problem, allowed="a check without a dc")
    check = normalize_check(cmd.check)
    roll = tx.roll(f"1d20{cmd.bonus:+d}", purpose=f"surprise check ({check})", roller=c.id, faces=cmd.faces)
    aware = None if cmd.dc is None else roll.total >= cmd.dc
    tx.emit(SurpriseCheckMade(combatant=c.id, check=check, total=roll.total, dc=cmd.dc, aware=aware))
    if aware is False:
        tx.emit(SurpriseMarked(combatant=c.id, surprised=True))


def _sudden(tx: Tx, cmd: DeclareSuddenAction) -> None:
    combatants = tx.state.combatants
    ids: list[str] = []
    for ref in cmd.instigators:
        side = [c.id for c in combatants.values() if c.side == ref]
        for cid in side or [tx.combatant(ref).id]:
            if cid not in ids:
                ids.append(cid)
    if not ids:
        raise RuleError("surprise/nobody", "no instigator named", allowed=", ".join(combatants))
    problem = surprised_before_sudden(tx.state)
    if problem:
        raise RuleError(
            "surprise/sudden-action", problem, allowed="mark_surprised with surprised: false first, or no sudden action"
        )
    problem = rolled_before_sudden(tx.state, tuple(ids))
    if problem:
        raise RuleError("initiative/already-rolled", problem, allowed="declare the sudden action before initiative")
    tx.emit(SuddenActionDeclared(instigators=tuple(ids)))


def _mark(tx: Tx, cmd: MarkSurprised) -> None:
    problem = sudden_bars(tx.state, cmd.surprised)
    if problem:
        raise RuleError("surprise/sudden-action", problem, allowed="mark_surprised with surprised: false")
    mark_surprised(tx, cmd)


_WHY = {
    "move": ("surprise/cannot-move", "move on its first turn"),
    "act": ("surprise/cannot-act", "take an action on its first turn"),
    "bonus": ("surprise/cannot-act", "take a bonus action on its first turn"),
    "react": ("surprise/cannot-react", "use a reaction until its first turn is over"),
}


_GRANTED = {"action": "act", "bonus_action": "bonus", "reaction": "react"}


def held_back(state: EncounterState, c: Combatant, doing: str) -> tuple[str, str] | None:
    """What surprise keeps `c` from doing ("move", "act", "bonus", "react"): (code, what), or None."""
    if not c.surprised:
        return None
    if doing == "bonus" and state.settings.get("surprised_bonus_action", False):
        return None
    return _WHY[doing]


def require_not_surprised(tx: Tx, cid: str, doing: str) -> None:
    c = tx.combatant(cid)
    why = held_back(tx.state, c, doing)
    if why is None:
        return
    code, what = why
    raise RuleError(
        code,
        f"{c.name} is surprised and cannot {what}",
        allowed="free actions, or end_turn" if doing != "react" else "wait until its first turn is over",
    )


def not_surprised(who: Callable[[Any], tuple[str, str]]) -> Guard:
    """A guard for a command's rule: refuse first what a surprised participant may not do yet.
    `who(command)` says who acts and what it does ("move", "act", "bonus", "react")."""

    def guard(tx: Tx, cmd: Any) -> None:
        require_not_surprised(tx, *who(cmd))

    return guard


def grant_not_surprised(tx: Tx, cmd: GrantAction) -> None:
    """`grant_action` on a surprised participant. An action or bonus action granted outside its
    turn is only banked for its next turn (combat/fivee/banked_actions.py): the participant does
    nothing now, so the grant is kept, and the banked action is made available only as the
    shared rule allows, so it still cannot be used while the surprise holds (the commands that
    would use it are refused). A grant on its own surprised first turn, or a reaction (given at
    once), would be for now: refused, as the participant may not use it."""
    banked = cmd.kind != "reaction" and tx.state.turn != cmd.combatant
    if not banked:
        require_not_surprised(tx, cmd.combatant, _GRANTED[cmd.kind])


def end_surprise(tx: Tx, cmd: EndTurn) -> None:
    c = tx.combatant(cmd.combatant)
    if c.surprised and tx.state.turn == c.id:
        tx.emit(SurpriseEnded(combatant=c.id))


def _on_checked(state: EncounterState, e: SurpriseCheckMade) -> EncounterState:
    checks = {**state.rules.surprise_checks, e.combatant: MadeCheck(check=e.check, total=e.total)}
    return with_rules(state, surprise_checks=checks)


def _checked(n, e: SurpriseCheckMade) -> str:
    text = f"{n.name(e.combatant)} makes a {e.check} check: {e.total}"
    if e.dc is None:
        return text
    return text + f" vs {e.dc} - " + ("aware" if e.aware else "unaware")


RULES = Rules(
    handlers={SurpriseCheck: _check, DeclareSuddenAction: _sudden, MarkSurprised: _mark},
    appliers={
        SurpriseCheckMade: _on_checked,
        SuddenActionDeclared: lambda state, e: with_rules(state, sudden=e.instigators),
        SurpriseEnded: lambda state, e: with_combatant(state, e.combatant, surprised=False),
    },
    narration={
        SurpriseCheckMade: _checked,
        SuddenActionDeclared: lambda n, e: (
            f"Sudden action: {', '.join(n.name(c) for c in e.instigators)} strike first and roll initiative with advantage"
        ),
        SurpriseEnded: lambda n, e: f"{n.name(e.combatant)} is no longer surprised",
    },
)
