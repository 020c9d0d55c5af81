"""Grappling: "An opposed roll with the attacker and target rolling a d20+Feats of Strength
bonus. If the attacker rolls higher, they have grappled the target and if the defender rolls
higher, they have evaded the grapple." "Breaking a grapple: On the next round if the grappled
defender has not been fully subdued ... they can attempt to break the grapple with a regular
grapple opposed roll."

Readings: a grapple or an attempt to break one is the declared action "grapple" and spends
the attack; a tie leaves things as they were (the attacker did not roll higher; the one
breaking free did not either); breaking free can be tried in any round after the one the
grapple was made in.
"""

from __future__ import annotations

from typing import Any, ClassVar

from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionEnded, ConditionSpec, Event
from combat.kernel.hidden import Hidden
from combat.kernel.state import Combatant, EncounterState, with_rules
from combat.rulesets.declared_d10.acting import acting_problem, name_of, require_acting
from combat.rulesets.declared_d10.declarations import declaration_problem, require_declared
from combat.rulesets.declared_d10.economy import already_used, require_unspent, spend
from combat.rulesets.declared_d10.opposition import opposed
from combat.rulesets.declared_d10.state import Grapple, traits_of

__all__ = [
    "D10Grapple",
    "D10BreakGrapple",
    "D10GrappleRolled",
    "cannot_be_grappled",
    "already_holds",
    "cannot_break_free",
    "RULES",
]


class D10Grapple(Command, frozen=True, kw_only=True):
    gm_fields: ClassVar[tuple[str, ...]] = ("target_faces",)

    attacker: str
    target: str
    faces: tuple[int, ...] | None = None
    target_faces: tuple[int, ...] | None = None


class D10BreakGrapple(Command, frozen=True, kw_only=True):
    gm_fields: ClassVar[tuple[str, ...]] = ("grappler_faces",)

    combatant: str
    faces: tuple[int, ...] | None = None
    grappler_faces: tuple[int, ...] | None = None


class D10GrappleRolled(Event, frozen=True, kw_only=True):
    """`attacker` rolled against `target`; when `breaking`, the grappled one against its grappler."""

    attacker: str
    target: str
    attacker_total: int
    target_total: int
    success: bool
    breaking: bool = False
    hidden: ClassVar[Hidden] = Hidden.said("attacker_total", "target_total")


def cannot_be_grappled(attacker: Combatant, target: Combatant) -> str | None:
    """Only another combatant still standing can be grappled."""
    if target.id == attacker.id:
        return f"{attacker.name} cannot grapple itself"
    return f"{target.name} is {target.status} and cannot be grappled" if target.status != "active" else None


def already_holds(attacker: Combatant, target: Combatant) -> str | None:
    held = any(x.name == "grappled" and x.source == attacker.id for x in target.conditions)
    return f"{attacker.name} already holds {target.name}" if held else None


def cannot_break_free(state: EncounterState, c: Combatant) -> str | None:
    """'On the next round ... they can attempt to break the grapple': not grappled, or grappled this round."""
    if not c.has("grappled"):
        return f"{c.name} is not grappled"
    since = state.rules.grapples.get(c.id)
    if since is not None and since.round >= state.round:
        return f"{c.name} was grappled this round and cannot try to break free until the next"
    return None


def _strength_contest(
    tx: Tx,
    mover: Combatant,
    faces: tuple[int, ...] | None,
    opponent: Combatant,
    opponent_faces: tuple[int, ...] | None,
    *,
    purpose: str,
    breaking: bool = False,
) -> bool:
    """Feats of Strength, `mover` against `opponent`, recorded as a D10GrappleRolled: whether the mover won."""
    m_total, o_total = opposed(
        tx,
        mover.id,
        traits_of(tx.state, mover.id).feats_of_strength,
        faces,
        opponent.id,
        traits_of(tx.state, opponent.id).feats_of_strength,
        opponent_faces,
        purpose=f"{purpose}: Feats of Strength",
    )
    success = m_total > o_total
    tx.emit(
        D10GrappleRolled(
            attacker=mover.id,
            target=opponent.id,
            attacker_total=m_total,
            target_total=o_total,
            success=success,
            breaking=breaking,
        )
    )
    return success


def _grapple(tx: Tx, cmd: D10Grapple) -> None:
    attacker = require_acting(tx, cmd.attacker, "grapple")
    target = tx.combatant(cmd.target)
    require_declared(tx, attacker, ("grapple",), doing=f"grapple {target.name}", target=target.id)
    require_unspent(tx, attacker, "attack")
    problem = cannot_be_grappled(attacker, target)
    if problem:
        raise RuleError("grapple/target", problem, allowed="another standing combatant")
    problem = already_holds(attacker, target)
    if problem:
        raise RuleError("grapple/already", problem)
    if _strength_contest(tx, attacker, cmd.faces, target, cmd.target_faces, purpose="grapple"):
        tx.emit(ConditionApplied(target=target.id, condition=ConditionSpec(name="grappled", source=attacker.id)))


def _break(tx: Tx, cmd: D10BreakGrapple) -> None:
    c = require_acting(tx, cmd.combatant, "break free")
    problem = cannot_break_free(tx.state, c)
    if problem and not c.has("grappled"):
        raise RuleError("grapple/not-grappled", problem)
    if problem:
        raise RuleError("grapple/same-round", problem, allowed="try to break free next round")
    held = next(x for x in c.conditions if x.name == "grappled")
    require_declared(tx, c, ("grapple",), doing="break free")
    require_unspent(tx, c, "attack")
    grappler = tx.combatant(held.source or "")
    if _strength_contest(tx, c, cmd.faces, grappler, cmd.grappler_faces, purpose="breaking a grapple", breaking=True):
        tx.emit(ConditionEnded(target=c.id, condition="grappled", reason="broke free"))


def _on_rolled(state: EncounterState, e: D10GrappleRolled) -> EncounterState:
    state = spend(state, "attack")
    grapples = dict(state.rules.grapples)
    if e.success and not e.breaking:
        grapples[e.target] = Grapple(grappler=e.attacker, round=state.round)
    elif e.success:
        grapples.pop(e.attacker, None)
    return with_rules(state, grapples=grapples)


def _line(n, e: D10GrappleRolled) -> str:
    if e.breaking:
        result = "breaks free" if e.success else "stays held"
        return (
            f"{n.name(e.attacker)} tries to break {n.name(e.target)}'s grapple: {e.attacker_total} vs {e.target_total} - {result}"
        )
    result = "grappled" if e.success else "evaded"
    return f"{n.name(e.attacker)} grapples {n.name(e.target)}: {e.attacker_total} vs {e.target_total} - {result}"


def _check_rolled(state: EncounterState, e: D10GrappleRolled, ctx: dict[str, Any]) -> str | None:
    """What the guards of d10_grapple and d10_break_grapple ask, in their order."""
    doing = "break free" if e.breaking else f"grapple {name_of(state, e.target)}"
    problem = acting_problem(state, e.attacker, "break free" if e.breaking else "grapple")
    if problem:
        return problem
    c = state.combatants[e.attacker]
    if e.breaking:
        return (
            cannot_break_free(state, c) or declaration_problem(state, c, ("grapple",), doing) or already_used(state, c, "attack")
        )
    problem = declaration_problem(state, c, ("grapple",), doing, e.target) or already_used(state, c, "attack")
    if problem:
        return problem
    other = state.combatants.get(e.target)
    if other is None:
        return f"{e.target} is not in the fight any more"
    return cannot_be_grappled(c, other) or already_holds(c, other)


RULES = Rules(
    handlers={D10Grapple: _grapple, D10BreakGrapple: _break},
    appliers={D10GrappleRolled: _on_rolled},
    checks={D10GrappleRolled: _check_rolled},
    narration={D10GrappleRolled: _line},
)
