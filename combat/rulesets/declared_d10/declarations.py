"""Declared actions: "Before Initiative is rolled for the round, each player declares their
action and the GM declares the actions of each creature. Once the round begins, the actions
declared cannot be changed."

"The GM can allow a change in declared action if the circumstances warrant it": the GM's
ruling, allowed or refused, is an event. Acting against a declaration is rejected.

Readings:
- A player declares for their own character (the GM may enter any declaration); only the GM
  declares for creatures. Declaring again while declarations are open replaces the first.
- A declaration names one action (the text's list, plus cast and grapple) and may name a
  target; with no target ("the nearest goblin standing") any target fits.
- Moving fits every declaration except Parry/Dodge and Sprint/Flee, which spend the move.
- Free attacks are reactions, not the declared action, so they are always allowed.
- With a time limit set (`declaration_seconds`), the GM may close declarations when time is
  up; whoever has not declared hesitates and takes no turn that round. Without one, every
  combatant able to act must declare before initiative is rolled.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, ClassVar

from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_rules
from combat.rulesets.declared_d10.acting import cannot_act, gone, name_of
from combat.rulesets.declared_d10.state import Declaration, can_act

__all__ = [
    "ACTIONS",
    "MOVE_FITS",
    "D10Declare",
    "D10CloseDeclarations",
    "D10RuleOnChange",
    "D10ActionDeclared",
    "D10DeclarationsClosed",
    "D10ChangeRuled",
    "nothing_declared",
    "declaration_problem",
    "undeclared",
    "require_declared",
    "RULES",
]

# Each action as the table says it, alone and with a target.
ACTIONS = {
    "attack": ("attack", "attack {}"),
    "cast": ("cast a spell", "cast a spell at {}"),
    "parry_dodge": ("Parry/Dodge", "Parry/Dodge"),
    "move": ("move", "move"),
    "disengage": ("disengage", "disengage from {}"),
    "use_item": ("use or ready an item", "use or ready an item"),
    "sprint_flee": ("Sprint/Flee", "Sprint/Flee from {}"),
    "grapple": ("grapple", "grapple {}"),
}
HESITATE = "hesitate"
MOVE_FITS = frozenset(ACTIONS) - {"parry_dodge", "sprint_flee"}


class D10Declare(Command, frozen=True, kw_only=True):
    combatant: str
    action: str
    target: str | None = None
    detail: str = ""


class D10CloseDeclarations(Command, frozen=True, kw_only=True):
    """Declarations are locked and initiative is rolled; `time_up` when the time limit ran out."""

    time_up: bool = False


class D10RuleOnChange(Command, frozen=True, kw_only=True):
    """The GM allows (or refuses) a change to a locked declaration, and says why."""

    gm_only: ClassVar[bool] = True  # the GM's ruling, never the player's

    combatant: str
    allowed: bool
    ruling: str
    action: str | None = None
    target: str | None = None
    detail: str = ""


class D10ActionDeclared(Event, frozen=True, kw_only=True):
    combatant: str
    action: str
    target: str | None = None
    detail: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


class D10DeclarationsClosed(Event, frozen=True, kw_only=True):
    round: int
    hesitating: tuple[str, ...] = ()
    hidden: ClassVar[Hidden] = PUBLIC


class D10ChangeRuled(Event, frozen=True, kw_only=True):
    combatant: str
    allowed: bool
    action: str
    target: str | None
    detail: str
    ruling: str
    hidden: ClassVar[Hidden] = PUBLIC


def phrase(action: str, target: str | None, detail: str = "") -> str:
    """'attack Grukk the Chief (grabs the warrior)': an action as the table would say it."""
    alone, targeted = ACTIONS.get(action, (action, action + " {}"))
    return (targeted.format(target) if target else alone) + (f" ({detail})" if detail else "")


def describe(d: Declaration, state: EncounterState) -> str:
    target = state.combatants[d.target].name if d.target in state.combatants else d.target
    return phrase(d.action, target, d.detail)


def _may_declare_for(tx: Tx, c: Combatant) -> bool:
    return tx.actor == "gm" or (c.kind == "pc" and c.player is not None and tx.actor == c.player)


def _declare(tx: Tx, cmd: D10Declare) -> None:
    c = tx.combatant(cmd.combatant)
    if not _may_declare_for(tx, c):
        raise RuleError(
            "declaration/not-yours",
            f"{tx.actor} cannot declare for {c.name}",
            allowed=f"the GM, or {c.player}" if c.kind == "pc" and c.player else "the GM declares for creatures",
        )
    problem = cannot_act(tx.state, c, "act this round")
    if problem:
        raise RuleError("declaration/cannot-act", problem)
    if cmd.action not in ACTIONS:
        raise RuleError("declaration/unknown-action", f"'{cmd.action}' is not an action", allowed=", ".join(ACTIONS))
    if cmd.target is not None and tx.combatant(cmd.target).status == "dead":
        raise RuleError("target/dead", f"{tx.state.combatants[cmd.target].name} is dead", allowed="a living target")
    tx.emit(D10ActionDeclared(combatant=c.id, action=cmd.action, target=cmd.target, detail=cmd.detail))


def undeclared(state: EncounterState) -> list[Combatant]:
    """Who can act this round and has not declared: closing waits for them, or (time up) they hesitate."""
    declared = state.rules.declarations
    return [c for c in state.combatants.values() if can_act(state, c) and c.id not in declared]


def _close(tx: Tx, cmd: D10CloseDeclarations) -> None:
    t = tx.state.rules
    missing = undeclared(tx.state)
    if cmd.time_up and t.declaration_seconds is None:
        raise RuleError(
            "declaration/no-time-limit",
            "this table sets no time limit for declarations",
            allowed="the setting declaration_seconds, or wait for every declaration",
        )
    if missing and not cmd.time_up:
        raise RuleError(
            "declaration/missing",
            f"{', '.join(c.name for c in missing)} {'has' if len(missing) == 1 else 'have'} not declared yet",
            allowed="d10_declare for "
            + ", ".join(c.id for c in missing)
            + (", or time_up once the time limit has passed" if t.declaration_seconds else ""),
        )
    tx.emit(D10DeclarationsClosed(round=tx.state.round, hesitating=tuple(c.id for c in missing)))


def _rule_on_change(tx: Tx, cmd: D10RuleOnChange) -> None:
    if tx.actor != "gm":
        raise RuleError("declaration/gm-rules", "only the GM can allow a change to a declared action", allowed="the GM")
    c = tx.combatant(cmd.combatant)
    problem = nothing_declared(tx.state, c.id)
    if problem:
        raise RuleError("declaration/none", problem)
    current = tx.state.rules.declarations[c.id]
    if not cmd.ruling.strip():
        raise RuleError("ruling/empty", "a ruling needs its words", allowed="ruling: why the change is or is not allowed")
    action = cmd.action or current.action
    if action not in ACTIONS:
        raise RuleError("declaration/unknown-action", f"'{action}' is not an action", allowed=", ".join(ACTIONS))
    if cmd.target is not None:
        tx.combatant(cmd.target)
    target = cmd.target if cmd.target is not None else current.target
    tx.emit(
        D10ChangeRuled(combatant=c.id, allowed=cmd.allowed, action=action, target=target, detail=cmd.detail, ruling=cmd.ruling)
    )


def nothing_declared(state: EncounterState, cid: str) -> str | None:
    return None if cid in state.rules.declarations else f"{name_of(state, cid)} declared nothing this round"


def declaration_problem(
    state: EncounterState, c: Combatant, fits: Collection[str], doing: str, target: str | None = None
) -> str | None:
    """'Once the round begins, the actions declared cannot be changed': the problem when `c`'s
    declaration does not allow `doing` (one of `fits`, at `target` if it named one), else None."""
    declared = state.rules.declarations.get(c.id)
    if declared is None:
        return nothing_declared(state, c.id)
    wrong_action = declared.action not in fits
    wrong_target = target is not None and declared.target is not None and declared.target != target
    if wrong_action or wrong_target:
        return f"{c.name} declared '{describe(declared, state)}' and cannot {doing} instead"
    return None


def require_declared(tx: Tx, c: Combatant, fits: Collection[str], *, doing: str, target: str | None = None) -> None:
    """Reject what `c` does unless its locked declaration allows it."""
    problem = declaration_problem(tx.state, c, fits, doing, target)
    if problem is None:
        return
    if c.id not in tx.state.rules.declarations:
        raise RuleError("declaration/none", problem, allowed="act only after declaring")
    raise RuleError("declaration/mismatch", problem, allowed="what was declared, or a change the GM allows (d10_rule_on_change)")


def _on_declared(state: EncounterState, e: D10ActionDeclared) -> EncounterState:
    declared = Declaration(combatant=e.combatant, action=e.action, target=e.target, detail=e.detail)
    return with_rules(state, declarations={**state.rules.declarations, e.combatant: declared})


def _on_closed(state: EncounterState, e: D10DeclarationsClosed) -> EncounterState:
    hesitating = {cid: Declaration(combatant=cid, action=HESITATE, detail="did not declare in time") for cid in e.hesitating}
    return with_rules(state, locked=True, declarations={**state.rules.declarations, **hesitating})


def _on_ruled(state: EncounterState, e: D10ChangeRuled) -> EncounterState:
    if not e.allowed:
        return state
    changed = Declaration(combatant=e.combatant, action=e.action, target=e.target, detail=e.detail, ruling=e.ruling)
    return with_rules(state, declarations={**state.rules.declarations, e.combatant: changed})


def _ruled_line(n, e: D10ChangeRuled) -> str:
    wanted = phrase(e.action, n.name(e.target) if e.target else None)
    verdict = "allows" if e.allowed else "refuses"
    return f"GM {verdict} {n.name(e.combatant)}'s change to '{wanted}': {e.ruling}"


def _check_declared(state: EncounterState, e: D10ActionDeclared, ctx: dict[str, Any]) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None:
        return f"{e.combatant} is not in the fight any more"
    return cannot_act(state, c, "act this round") or (gone(state, e.target) if e.target else None)


def _check_closed(state: EncounterState, e: D10DeclarationsClosed, ctx: dict[str, Any]) -> str | None:
    silent = [c.name for c in undeclared(state) if c.id not in e.hesitating]
    if not silent:
        return None
    return f"{', '.join(silent)} {'is' if len(silent) == 1 else 'are'} able to act now but never declared this round"


RULES = Rules(
    handlers={D10Declare: _declare, D10CloseDeclarations: _close, D10RuleOnChange: _rule_on_change},
    appliers={D10ActionDeclared: _on_declared, D10DeclarationsClosed: _on_closed, D10ChangeRuled: _on_ruled},
    checks={
        D10ActionDeclared: _check_declared,
        D10DeclarationsClosed: _check_closed,
        D10ChangeRuled: lambda state, e, ctx: nothing_declared(state, e.combatant),
    },
    narration={
        D10ActionDeclared: lambda n, e: (
            f"{n.name(e.combatant)} declares: {phrase(e.action, n.name(e.target) if e.target else None, e.detail)}"
        ),
        D10DeclarationsClosed: lambda n, e: (
            "declarations are locked"
            + (
                f"; time is up for {', '.join(n.name(c) for c in e.hesitating)}, who "
                + ("hesitates" if len(e.hesitating) == 1 else "hesitate")
                if e.hesitating
                else ""
            )
        ),
        D10ChangeRuled: _ruled_line,
    },
)
