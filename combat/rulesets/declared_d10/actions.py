"""The actions other than Attack, and the free attacks they open.

- "Parry/Dodge (no attack damage, but Disadvantage added to foe to hit roll until your next
  action and if they move away, you get a free attack). This action uses your attack and
  move actions."
- "Move (... If you move away from a foe, they get a free attack)."
- "Disengage (roll a normal to hit and if you succeed, you can move freely about the combat
  area and the foe does not get a free attack, but you have also spent your attack action)"
- "Use/Ready Item (used in place of an attack or parry/dodge ...). You can still move".
- "Sprint/Flee (... If you are fleeing from the opponent, they get a free attack on you.
  This takes up your attack and move action".

Readings: a free attack is offered to each foe left behind that can still act, taken with a
melee attack before the end of the mover's turn, and spends nothing; the Disengage roll is
d20 + the attack's bonus against the foe's AC, like any to-hit; a grappled creature cannot
move, sprint or flee until it breaks free; sneaking (a Stealth check against the GM's DC) is
how a combatant "successfully used the Stealth skill", and it takes the move; a combatant who
flees the battlefield is gone at the end of its turn, after the free attacks on it.
"""

from __future__ import annotations

from collections.abc import Collection
from typing import Any, ClassVar

from combat.common.attacks import choose_attack
from combat.kernel.commands import Command
from combat.kernel.decider import Check, Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_rules
from combat.rulesets.declared_d10.acting import acting_problem, name_of, require_acting, unable
from combat.rulesets.declared_d10.attacks import situation
from combat.rulesets.declared_d10.declarations import MOVE_FITS, declaration_problem, require_declared
from combat.rulesets.declared_d10.economy import already_used, require_unspent, spend
from combat.rulesets.declared_d10.rolls import roll_d20
from combat.rulesets.declared_d10.state import FreeAttack, traits_of

__all__ = [
    "D10Move",
    "D10ParryDodge",
    "D10Disengage",
    "D10UseItem",
    "D10Cast",
    "D10SprintFlee",
    "D10Sneak",
    "D10Moved",
    "D10Parrying",
    "D10DisengageRolled",
    "D10ItemUsed",
    "D10SpellCast",
    "D10Sprinted",
    "D10StealthChecked",
    "D10FreeAttackOffered",
    "held_fast",
    "no_foe_to_disengage",
    "RULES",
]


class D10Move(Command, frozen=True, kw_only=True):
    combatant: str
    away_from: tuple[str, ...] = ()  # foes it moves away from
    detail: str = ""


class D10ParryDodge(Command, frozen=True, kw_only=True):
    combatant: str


class D10Disengage(Command, frozen=True, kw_only=True):
    combatant: str
    foe: str
    attack: str | None = None
    faces: tuple[int, ...] | None = None


class D10UseItem(Command, frozen=True, kw_only=True):
    combatant: str
    item: str
    detail: str = ""


class D10Cast(Command, frozen=True, kw_only=True):
    """A spell that is not an attack roll (its targets may save: saving_throw)."""

    combatant: str
    spell: str
    target: str | None = None
    detail: str = ""


class D10SprintFlee(Command, frozen=True, kw_only=True):
    combatant: str
    flee_from: tuple[str, ...] = ()
    leaves_battlefield: bool = False
    detail: str = ""


class D10Sneak(Command, frozen=True, kw_only=True):
    gm_fields: ClassVar[tuple[str, ...]] = ("dc",)

    combatant: str
    dc: int
    faces: tuple[int, ...] | None = None


class D10Moved(Event, frozen=True, kw_only=True):
    combatant: str
    away_from: tuple[str, ...] = ()
    detail: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


class D10Parrying(Event, frozen=True, kw_only=True):
    combatant: str
    hidden: ClassVar[Hidden] = PUBLIC


class D10DisengageRolled(Event, frozen=True, kw_only=True):
    combatant: str
    foe: str
    total: int
    natural: int
    roll_mode: str
    target_number: int
    success: bool
    hidden: ClassVar[Hidden] = Hidden.of(foe=("target_number",), combatant=("natural",), aloud=("total",))


class D10ItemUsed(Event, frozen=True, kw_only=True):
    combatant: str
    item: str
    detail: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


class D10SpellCast(Event, frozen=True, kw_only=True):
    combatant: str
    spell: str
    target: str | None = None
    detail: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


class D10Sprinted(Event, frozen=True, kw_only=True):
    combatant: str
    flee_from: tuple[str, ...] = ()
    leaves_battlefield: bool = False
    detail: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


class D10StealthChecked(Event, frozen=True, kw_only=True):
    combatant: str
    total: int
    dc: int
    success: bool
    hidden: ClassVar[Hidden] = Hidden.said("total", "dc")


class D10FreeAttackOffered(Event, frozen=True, kw_only=True):
    attacker: str
    target: str
    reason: str
    hidden: ClassVar[Hidden] = PUBLIC


def _foes(tx: Tx, c: Combatant, ids: tuple[str, ...]) -> list[Combatant]:
    foes = [tx.combatant(fid) for fid in ids]
    allies = [f.name for f in foes if f.side == c.side]
    if allies:
        raise RuleError("move/ally", f"{', '.join(allies)} is an ally of {c.name}", allowed="foes only")
    return foes


def held_fast(c: Combatant, doing: str) -> str | None:
    """A grappled creature cannot move, sprint or flee until it breaks free."""
    return f"{c.name} is grappled and cannot {doing}" if c.has("grappled") else None


def _not_held(c: Combatant, doing: str) -> None:
    problem = held_fast(c, doing)
    if problem:
        raise RuleError("move/grappled", problem, allowed="d10_break_grapple first")


def no_foe_to_disengage(foe: Combatant) -> str | None:
    return f"{foe.name} is {foe.status}: there is no one to disengage from" if foe.status != "active" else None


def offer_free_attacks(tx: Tx, mover: Combatant, foes: list[Combatant], reason: str, exempt: tuple[str, ...] = ()) -> None:
    for foe in foes:
        open_already = any((o.attacker, o.target) == (foe.id, mover.id) for o in tx.state.rules.free_attacks)
        if foe.id in exempt or open_already or unable(tx.state, foe, "take a free attack"):
            continue
        tx.emit(D10FreeAttackOffered(attacker=foe.id, target=mover.id, reason=reason))


def _move(tx: Tx, cmd: D10Move) -> None:
    c = require_acting(tx, cmd.combatant, "move")
    foes = _foes(tx, c, cmd.away_from)
    require_declared(tx, c, MOVE_FITS, doing="move")
    require_unspent(tx, c, "move")
    _not_held(c, "move")
    tx.emit(D10Moved(combatant=c.id, away_from=cmd.away_from, detail=cmd.detail))
    offer_free_attacks(tx, c, foes, "moved away", exempt=tx.state.rules.disengaged_from)


def _parry_dodge(tx: Tx, cmd: D10ParryDodge) -> None:
    c = require_acting(tx, cmd.combatant, "parry and dodge")
    require_declared(tx, c, ("parry_dodge",), doing="parry and dodge")
    require_unspent(tx, c, "attack", "move")
    tx.emit(D10Parrying(combatant=c.id))


def _disengage(tx: Tx, cmd: D10Disengage) -> None:
    c = require_acting(tx, cmd.combatant, "disengage")
    [foe] = _foes(tx, c, (cmd.foe,))
    require_declared(tx, c, ("disengage",), doing="disengage")
    require_unspent(tx, c, "attack")
    problem = no_foe_to_disengage(foe)
    if problem:
        raise RuleError("disengage/no-foe", problem)
    profile = choose_attack(c, cmd.attack)
    adv, dis = situation(tx, c, foe, profile.kind == "melee")
    roll, mode, natural, _, _ = roll_d20(
        tx, c, profile.bonus, purpose="disengage (to hit)", advantage=adv, disadvantage=dis, to_hit=True, faces=cmd.faces
    )
    success = natural == 20 or (natural != 1 and roll.total >= foe.ac)
    tx.emit(
        D10DisengageRolled(
            combatant=c.id, foe=foe.id, total=roll.total, natural=natural, roll_mode=mode, target_number=foe.ac, success=success
        )
    )


def _use_item(tx: Tx, cmd: D10UseItem) -> None:
    c = require_acting(tx, cmd.combatant, "use an item")
    require_declared(tx, c, ("use_item",), doing=f"use {cmd.item}")
    require_unspent(tx, c, "attack")
    tx.emit(D10ItemUsed(combatant=c.id, item=cmd.item, detail=cmd.detail))


def _cast(tx: Tx, cmd: D10Cast) -> None:
    c = require_acting(tx, cmd.combatant, "cast")
    if cmd.target is not None:
        tx.combatant(cmd.target)
    require_declared(tx, c, ("cast",), doing=f"cast {cmd.spell}", target=cmd.target)
    require_unspent(tx, c, "attack")
    tx.emit(D10SpellCast(combatant=c.id, spell=cmd.spell, target=cmd.target, detail=cmd.detail))


def _sprint_flee(tx: Tx, cmd: D10SprintFlee) -> None:
    c = require_acting(tx, cmd.combatant, "sprint or flee")
    foes = _foes(tx, c, cmd.flee_from)
    require_declared(tx, c, ("sprint_flee",), doing="sprint or flee")
    require_unspent(tx, c, "attack", "move")
    _not_held(c, "sprint or flee")
    tx.emit(D10Sprinted(combatant=c.id, flee_from=cmd.flee_from, leaves_battlefield=cmd.leaves_battlefield, detail=cmd.detail))
    offer_free_attacks(tx, c, foes, "flees")


def _sneak(tx: Tx, cmd: D10Sneak) -> None:
    c = require_acting(tx, cmd.combatant, "sneak")
    require_declared(tx, c, MOVE_FITS, doing="sneak")
    require_unspent(tx, c, "move")
    roll, *_ = roll_d20(tx, c, traits_of(tx.state, c.id).stealth, purpose="Stealth", faces=cmd.faces)
    tx.emit(D10StealthChecked(combatant=c.id, total=roll.total, dc=cmd.dc, success=roll.total >= cmd.dc))


def _on_disengage(state: EncounterState, e: D10DisengageRolled) -> EncounterState:
    state = spend(state, "attack")
    if e.success:
        state = with_rules(state, disengaged_from=state.rules.disengaged_from + (e.foe,))
    return state


def _on_sprinted(state: EncounterState, e: D10Sprinted) -> EncounterState:
    state = spend(state, "attack", "move")
    if e.leaves_battlefield:
        state = with_rules(state, leaving=state.rules.leaving + (e.combatant,))
    return state


def _on_stealth(state: EncounterState, e: D10StealthChecked) -> EncounterState:
    state = spend(state, "move")
    if e.success:
        state = with_rules(state, stealthy={**state.rules.stealthy, e.combatant: state.round})
    return state


def _on_offered(state: EncounterState, e: D10FreeAttackOffered) -> EncounterState:
    offer = FreeAttack(attacker=e.attacker, target=e.target, reason=e.reason)
    return with_rules(state, free_attacks=state.rules.free_attacks + (offer,))


def _on_parrying(state: EncounterState, e: D10Parrying) -> EncounterState:
    state = spend(state, "attack", "move")
    return with_rules(state, parrying=state.rules.parrying + (e.combatant,))


def _turn_action(
    doing: str, fits: Collection[str], slots: Collection[str], *, held: bool = False, targeted: bool = False
) -> Check:
    """The check of an action of a combatant's own turn: what its guard asks, in the same order."""

    def check(state: EncounterState, e: Any, ctx: dict[str, Any]) -> str | None:
        problem = acting_problem(state, e.combatant, doing)
        if problem:
            return problem
        c = state.combatants[e.combatant]
        target = getattr(e, "target", None) if targeted else None
        return (
            declaration_problem(state, c, fits, doing, target)
            or already_used(state, c, *slots)
            or (held_fast(c, doing) if held else None)
        )

    return check


def _check_disengage(state: EncounterState, e: D10DisengageRolled, ctx: dict[str, Any]) -> str | None:
    problem = _turn_action("disengage", ("disengage",), ("attack",))(state, e, ctx)
    if problem:
        return problem
    foe = state.combatants.get(e.foe)
    return f"{e.foe} is not in the fight any more" if foe is None else no_foe_to_disengage(foe)


def _check_offered(state: EncounterState, e: D10FreeAttackOffered, ctx: dict[str, Any]) -> str | None:
    attacker = state.combatants.get(e.attacker)
    if attacker is None:
        return f"{e.attacker} is not in the fight any more"
    return unable(state, attacker, f"take a free attack at {name_of(state, e.target)}")


RULES = Rules(
    handlers={
        D10Move: _move,
        D10ParryDodge: _parry_dodge,
        D10Disengage: _disengage,
        D10UseItem: _use_item,
        D10Cast: _cast,
        D10SprintFlee: _sprint_flee,
        D10Sneak: _sneak,
    },
    appliers={
        D10Moved: lambda state, e: spend(state, "move"),
        D10Parrying: _on_parrying,
        D10DisengageRolled: _on_disengage,
        D10ItemUsed: lambda state, e: spend(state, "attack"),
        D10SpellCast: lambda state, e: spend(state, "attack"),
        D10Sprinted: _on_sprinted,
        D10StealthChecked: _on_stealth,
        D10FreeAttackOffered: _on_offered,
    },
    checks={
        D10Moved: _turn_action("move", MOVE_FITS, ("move",), held=True),
        D10Parrying: _turn_action("parry and dodge", ("parry_dodge",), ("attack", "move")),
        D10DisengageRolled: _check_disengage,
        D10ItemUsed: _turn_action("use an item", ("use_item",), ("attack",)),
        D10SpellCast: _turn_action("cast a spell", ("cast",), ("attack",), targeted=True),
        D10Sprinted: _turn_action("sprint or flee", ("sprint_flee",), ("attack", "move"), held=True),
        D10StealthChecked: _turn_action("sneak", MOVE_FITS, ("move",)),
        D10FreeAttackOffered: _check_offered,
    },
    narration={
        D10Moved: lambda n, e: (
            f"{n.name(e.combatant)} moves"
            + (f" away from {', '.join(n.name(f) for f in e.away_from)}" if e.away_from else "")
            + (f": {e.detail}" if e.detail else "")
        ),
        D10Parrying: lambda n, e: (
            f"{n.name(e.combatant)} parries and dodges: foes have Disadvantage to hit until its next action"
        ),
        D10DisengageRolled: lambda n, e: (
            f"{n.name(e.combatant)} tries to disengage from {n.name(e.foe)}: {e.total}"
            + (f" with {e.roll_mode}" if e.roll_mode != "normal" else "")
            + ("" if e.target_number is None else f" vs AC {e.target_number}")
            + " - "
            + ("gets away freely" if e.success else "fails")
        ),
        D10ItemUsed: lambda n, e: f"{n.name(e.combatant)} uses {e.item}" + (f": {e.detail}" if e.detail else ""),
        D10SpellCast: lambda n, e: (
            f"{n.name(e.combatant)} casts {e.spell}"
            + (f" on {n.name(e.target)}" if e.target else "")
            + (f": {e.detail}" if e.detail else "")
        ),
        D10Sprinted: lambda n, e: (
            f"{n.name(e.combatant)} "
            + (f"flees from {', '.join(n.name(f) for f in e.flee_from)}" if e.flee_from else "sprints")
            + (" toward the edge of the battlefield" if e.leaves_battlefield else "")
            + (f": {e.detail}" if e.detail else "")
        ),
        D10StealthChecked: lambda n, e: (
            f"{n.name(e.combatant)} sneaks: Stealth {e.total} vs DC {e.dc} - " + ("unseen" if e.success else "spotted")
        ),
        D10FreeAttackOffered: lambda n, e: f"{n.name(e.attacker)} may take a free attack at {n.name(e.target)} ({e.reason})",
    },
)
