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

from typing import ClassVar

from combat.kernel.commands import Command
from combat.kernel.decider import Tx, Applier, Handler, Narrate
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionEnded, ConditionSpec, Event
from combat.rulesets.declared_d10.declarations import require_declared
from combat.rulesets.declared_d10.economy import require_unspent, spend
from combat.rulesets.declared_d10.opposition import opposed
from combat.rulesets.declared_d10.state import Grapple, traits_of
from combat.kernel.state import EncounterState, with_rules
from combat.fivee.turns import require_able, require_turn

__all__ = ["D10Grapple", "D10BreakGrapple", "D10GrappleRolled", "HANDLERS", "APPLIERS", "NARRATION"]


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


def _grapple(tx: Tx, cmd: D10Grapple) -> None:
    attacker = require_turn(tx, cmd.attacker)
    require_able(attacker, "grapple")
    target = tx.combatant(cmd.target)
    require_declared(tx, attacker, ("grapple",), doing=f"grapple {target.name}", target=target.id)
    require_unspent(tx, attacker, "attack")
    if target.id == attacker.id or target.status != "active":
        raise RuleError("grapple/target", f"{target.name} cannot be grappled by {attacker.name}", allowed="another standing combatant")
    if any(x.name == "grappled" and x.source == attacker.id for x in target.conditions):
        raise RuleError("grapple/already", f"{attacker.name} already holds {target.name}")
    a_total, t_total = opposed(
        tx,
        attacker.id,
        traits_of(tx.state, attacker.id).feats_of_strength,
        cmd.faces,
        target.id,
        traits_of(tx.state, target.id).feats_of_strength,
        cmd.target_faces,
        purpose="grapple: Feats of Strength",
    )
    success = a_total > t_total
    tx.emit(D10GrappleRolled(attacker=attacker.id, target=target.id, attacker_total=a_total, target_total=t_total, success=success))
    if success:
        tx.emit(ConditionApplied(target=target.id, condition=ConditionSpec(name="grappled", source=attacker.id)))


def _break(tx: Tx, cmd: D10BreakGrapple) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "break free")
    held = next((x for x in c.conditions if x.name == "grappled"), None)
    if held is None:
        raise RuleError("grapple/not-grappled", f"{c.name} is not grappled")
    since = tx.state.rules.grapples.get(c.id)
    if since is not None and since.round >= tx.state.round:
        raise RuleError("grapple/same-round", f"{c.name} was grappled this round", allowed="try to break free next round")
    require_declared(tx, c, ("grapple",), doing="break the grapple")
    require_unspent(tx, c, "attack")
    grappler = tx.combatant(held.source or "")
    c_total, g_total = opposed(
        tx,
        c.id,
        traits_of(tx.state, c.id).feats_of_strength,
        cmd.faces,
        grappler.id,
        traits_of(tx.state, grappler.id).feats_of_strength,
        cmd.grappler_faces,
        purpose="breaking a grapple: Feats of Strength",
    )
    success = c_total > g_total
    tx.emit(
        D10GrappleRolled(attacker=c.id, target=grappler.id, attacker_total=c_total, target_total=g_total, success=success, breaking=True)
    )
    if success:
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
        return f"{n.name(e.attacker)} tries to break {n.name(e.target)}'s grapple: {e.attacker_total} vs {e.target_total} - {result}"
    result = "grappled" if e.success else "evaded"
    return f"{n.name(e.attacker)} grapples {n.name(e.target)}: {e.attacker_total} vs {e.target_total} - {result}"


HANDLERS: dict[type, Handler] = {D10Grapple: _grapple, D10BreakGrapple: _break}
APPLIERS: dict[type, Applier] = {D10GrappleRolled: _on_rolled}
NARRATION: dict[type, Narrate] = {D10GrappleRolled: _line}
