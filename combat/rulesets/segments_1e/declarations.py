"""Declare Actions: "All individuals Declare Actions (as required or if desired)."

Spells (incantations) and invocations must be declared, targets optional until the caster's
group turn; complex activities must be declared; a declared delay acts on LOW. Until the
GM closes the declarations an individual may change its mind (the later declaration
stands); afterwards the declaration holds - "a caster may decide not to cast but cannot
switch actions" (see turns.ALLOWED_MAJOR).
"""

from __future__ import annotations

from typing import Any

from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant, EncounterState
from combat.rulesets.segments_1e.acting import able, unable
from combat.rulesets.segments_1e.commands import CloseDeclarations, DeclareRoundAction
from combat.rulesets.segments_1e.events import RoundActionDeclared
from combat.rulesets.segments_1e.ledger import Casting, Creature, Declared, with_creature
from combat.rulesets.segments_1e.round import fight_over
from combat.rulesets.segments_1e.segments import ROUND_SEGMENTS, carries_casting
from combat.rulesets.segments_1e.turns import ALLOWED_MAJOR
from combat.rulesets.segments_1e.wording import names, plural

__all__ = ["ACTIONS", "still_casting", "RULES"]

ACTIONS = tuple(a for a in ALLOWED_MAJOR if a is not None)
SPELLS = ("spell", "invocation")
_ROUTINE_KIND = {"melee": "melee", "charge": "melee", "missile": "missile"}


def still_casting(c: Combatant, rec: Creature, round_: int, action: str) -> RuleError | None:
    """A spell carried over from last round takes this one too: nothing else is declared,
    and "only one spell can be cast per round". (The guard raises it; the re-check after a
    change to the past reports its words.)"""
    if not carries_casting(rec, round_):
        return None
    cast = rec.casting
    assert cast is not None
    if action in SPELLS:
        return RuleError(
            "spell/one-per-round",
            f"{c.name} is still casting {cast.spell} (it goes off in round {cast.completes_round}); only one spell can be cast per round",
            allowed="nothing: the casting takes this round",
        )
    return RuleError("declaration/still-casting", f"{c.name} is still casting {cast.spell}", allowed="nothing this round")


def _declare(tx: Tx, cmd: DeclareRoundAction) -> None:
    c = tx.combatant(cmd.combatant)
    problem = unable(tx.state, c, "declare an action", own_turn=False)
    if problem:
        raise RuleError("combatant/incapacitated", problem)
    rec = tx.state.rules.creatures[c.id]
    action = cmd.action.lower()
    if action not in ACTIONS:
        raise RuleError("declaration/unknown-action", f"'{cmd.action}' is not an action to declare", allowed=", ".join(ACTIONS))
    refusal = still_casting(c, rec, tx.state.round, action)
    if refusal is not None:
        raise refusal
    if action in SPELLS:
        if not (cmd.spell or "").strip():
            raise RuleError("declaration/spell-name", "a spell declaration names the spell", allowed="spell: e.g. 'Sleep'")
        if cmd.casting_segments < 1:
            raise RuleError(
                "declaration/casting-time", "casting time below 1 segment", allowed=f"segments, {ROUND_SEGMENTS} for '1 round'"
            )
    elif cmd.spell is not None:
        raise RuleError(
            "declaration/spell-name", f"a spell was named but the action is {action}", allowed="action: spell or invocation"
        )
    kind = _ROUTINE_KIND.get(action)
    if kind is not None:
        routines = [r for r in rec.stats.routines if r.kind == kind]
        if cmd.routine is not None:
            routines = [r for r in routines if r.name.lower() == cmd.routine.lower()]
        if not routines:
            raise RuleError(
                "declaration/no-routine",
                f"{c.name} has no {kind} routine{f' called {cmd.routine!r}' if cmd.routine else ''}",
                allowed=", ".join(r.name for r in rec.stats.routines if r.kind == kind) or "another action",
            )
    if cmd.minor_segments < 0:
        raise RuleError("declaration/minor", "minor actions cannot take negative time", allowed="0 or more segments")
    for t in cmd.targets:
        tx.combatant(t)
    declared = Declared(**{name: getattr(cmd, name) for name in Declared.__struct_fields__ if name != "action"}, action=action)
    tx.emit(RoundActionDeclared(combatant=c.id, declared=declared))


def _close(tx: Tx, cmd: CloseDeclarations) -> None:
    """Everyone who wished to has declared; the phase table moves on to group initiative."""


def _on_declared(state: EncounterState, e: RoundActionDeclared) -> EncounterState:
    d = e.declared
    casting = None
    if d.action in SPELLS:
        casting = Casting(
            spell=d.spell or "",
            kind="invocation" if d.action == "invocation" else "incantation",
            casting_segments=d.casting_segments,
            range_ft=d.range_ft,
            targets=d.targets,
            declared_round=state.round,
        )
    return with_creature(state, e.combatant, declared=d, casting=casting)


def _check_declared(state: EncounterState, e: RoundActionDeclared, ctx: dict[str, Any]) -> str | None:
    problem = fight_over(state) or able(state, e.combatant, "declare an action", own_turn=False)
    if problem:
        return problem
    c, rec = state.combatants[e.combatant], state.rules.creatures[e.combatant]
    refusal = still_casting(c, rec, state.round, e.declared.action)
    return refusal.message if refusal is not None else None


def _declared_line(n: Any, e: RoundActionDeclared) -> str:
    d = e.declared
    what = d.action.replace("_", " ")
    if d.spell:
        what += f": {d.spell} ({plural(d.casting_segments, 'segment')})"
    elif d.routine:
        what += f" ({d.routine})"
    at = f" at {names(n, d.targets)}" if d.targets else ""
    return f"{n.name(e.combatant)} declares {what}{at}" + (f" - {d.description}" if d.description else "")


RULES = Rules(
    handlers={DeclareRoundAction: _declare, CloseDeclarations: _close},
    appliers={RoundActionDeclared: _on_declared},
    checks={RoundActionDeclared: _check_declared},
    narration={RoundActionDeclared: _declared_line},
)
