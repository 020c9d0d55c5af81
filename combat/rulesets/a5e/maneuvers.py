"""Press the Attack and Fall Back; Tumble.

Press the Attack: "Before you take the Attack action, you can use a bonus action to designate
one creature within your reach which is not currently the target of a Press the Attack action.
Until the beginning of your next turn, your melee attacks against that creature gain an
expertise die, and all attacks against you are made with advantage. You cannot gain expertise
dice in this way on attacks made at disadvantage. When you Press the Attack, your target can
use its reaction to Fall Back."

Fall Back: "you can use your reaction to yield ground. You move backwards 5 feet, and your
attacker does not gain an expertise die against you from using Press the Attack. As part of
its action, your attacker can move 5 feet towards you. Neither you nor the attacker provoke
opportunity attacks from this movement. A creature using the Rage class feature cannot choose
to Fall Back."

Tumble: "You can use an action or bonus action to Tumble through a hostile creature's space
... Make a Dexterity saving throw against the target's combat maneuver DC. ... If you have
proficiency with Acrobatics, you gain an expertise die on the save (or you gain a 1d6
expertise die if you also have the tumbling specialty.) The creature can choose to just let
you pass and no save is required. If you are smaller than the target, you have advantage. If
you are larger than the target, you have disadvantage (though if you are two or more sizes
larger than the target, you can move through the hostile creature's space without making a
save)."
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from combat.common.attacks import d20_notation
from combat.common.events import SaveMade
from combat.common.turns import require_able, require_turn
from combat.fivee.actions import require_reaction, spend_check
from combat.kernel.commands import Command, Faces
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_combatant, with_rules
from combat.rulesets.a5e.table import Press

__all__ = [
    "RULES",
    "SIZES",
    "PressTheAttack",
    "FallBack",
    "Tumble",
    "AttackPressed",
    "FellBack",
    "Tumbled",
    "RAGING",
    "pressed_too_late",
    "not_pressable",
    "already_pressed",
    "not_pressed",
    "raging",
]

SIZES = ("tiny", "small", "medium", "large", "huge", "gargantuan")
RAGING = frozenset({"raging", "rage"})


class PressTheAttack(Command, frozen=True, kw_only=True):
    combatant: str
    target: str


class FallBack(Command, frozen=True, kw_only=True):
    """The pressed creature yields 5 feet; its attacker may follow 5 feet."""

    combatant: str
    attacker_follows: bool = True


class Tumble(Command, frozen=True, kw_only=True):
    gm_fields: ClassVar[tuple[str, ...]] = ("dc", "save_bonus", "tumbling_specialty", "let_pass")

    combatant: str
    through: str
    dc: int  # the target's combat maneuver DC
    save_bonus: int = 0  # Dexterity saving throw
    acrobatics: bool = False
    tumbling_specialty: bool = False
    let_pass: bool = False  # the creature lets you through
    bonus_action: bool = False
    faces: Faces = None


class AttackPressed(Event, frozen=True, kw_only=True):
    combatant: str
    target: str
    hidden: ClassVar[Hidden] = PUBLIC


class FellBack(Event, frozen=True, kw_only=True):
    combatant: str
    attacker: str
    attacker_followed: bool = True
    hidden: ClassVar[Hidden] = PUBLIC


class Tumbled(Event, frozen=True, kw_only=True):
    combatant: str
    through: str
    uses: Literal["action", "bonus_action"] = "action"
    success: bool
    how: str  # "save", "let through", "two or more sizes larger"
    hidden: ClassVar[Hidden] = PUBLIC


def pressed_too_late(c: Combatant) -> str | None:
    """'Before you take the Attack action, you can use a bonus action...'"""
    if c.economy.action and not c.economy.attacks_left:
        return None
    return f"Press the Attack comes before the Attack action, and {c.name} has already used its action"


def not_pressable(c: Combatant, target: Combatant) -> str | None:
    """'... designate one creature within your reach': a living foe."""
    return f"{target.name} is not a foe {c.name} can press" if target.side == c.side or target.status == "dead" else None


def already_pressed(state: EncounterState, target: Combatant) -> str | None:
    """'... which is not currently the target of a Press the Attack action.'"""
    pressing = next((p for p in state.rules.presses if p.target == target.id), None)
    if pressing is None:
        return None
    return f"{target.name} is already the target of {state.combatants[pressing.attacker].name}'s Press the Attack"


def not_pressed(state: EncounterState, c: Combatant) -> str | None:
    """Fall Back answers a Press the Attack against `c` that it has not yet fallen back from."""
    if any(p.target == c.id and not p.fell_back for p in state.rules.presses):
        return None
    return f"no one is pressing the attack against {c.name}"


def raging(c: Combatant) -> str | None:
    """'A creature using the Rage class feature cannot choose to Fall Back.'"""
    return f"{c.name} is raging and cannot choose to Fall Back" if any(x.name in RAGING for x in c.conditions) else None


def _press(tx: Tx, cmd: PressTheAttack) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "press the attack")
    spend_check(c, "bonus_action")
    problem = pressed_too_late(c)
    if problem:
        raise RuleError("press/after-attack", problem, allowed="bonus_action for something else")
    target = tx.combatant(cmd.target)
    problem = not_pressable(c, target)
    if problem:
        raise RuleError("press/target", problem, allowed="a living foe in reach")
    problem = already_pressed(tx.state, target)
    if problem:
        raise RuleError("press/already-pressed", problem, allowed="another foe")
    tx.emit(AttackPressed(combatant=c.id, target=target.id))


def _fall_back(tx: Tx, cmd: FallBack) -> None:
    c = tx.combatant(cmd.combatant)
    problem = not_pressed(tx.state, c)
    if problem:
        raise RuleError("fall-back/not-pressed", problem, allowed="fall back only when targeted by Press the Attack")
    problem = raging(c)
    if problem:
        raise RuleError("fall-back/raging", problem, allowed="stand and fight")
    press = next(p for p in tx.state.rules.presses if p.target == c.id and not p.fell_back)
    require_reaction(c)
    tx.emit(FellBack(combatant=c.id, attacker=press.attacker, attacker_followed=cmd.attacker_follows))


def _tumble(tx: Tx, cmd: Tumble) -> None:
    c = require_turn(tx, cmd.combatant)
    require_able(c, "tumble")
    uses = "bonus_action" if cmd.bonus_action else "action"
    spend_check(c, uses)
    target = tx.combatant(cmd.through)
    if target.side == c.side:
        raise RuleError(
            "tumble/ally", f"{target.name} is an ally; tumbling is through a hostile creature's space", allowed="a foe"
        )
    if cmd.tumbling_specialty and not cmd.acrobatics:
        raise RuleError(
            "tumble/specialty",
            "the tumbling specialty's 1d6 comes with proficiency in Acrobatics",
            allowed="acrobatics: true with the specialty",
        )
    larger = SIZES.index(c.size) - SIZES.index(target.size)
    how = "let through" if cmd.let_pass else "two or more sizes larger" if larger >= 2 else "save"
    if how != "save":
        if cmd.faces is not None:
            raise RuleError("dice/unused-faces", f"no save is needed ({how})", allowed="no faces")
        tx.emit(Tumbled(combatant=c.id, through=target.id, uses=uses, success=True, how=how))  # type: ignore[arg-type]
        return
    mode = "advantage" if larger < 0 else "disadvantage" if larger == 1 else "normal"
    expertise = "+1d6" if cmd.tumbling_specialty else "+1d4" if cmd.acrobatics else ""
    roll = tx.roll(
        d20_notation(mode, cmd.save_bonus) + expertise, purpose="dexterity save (tumble)", roller=c.id, faces=cmd.faces
    )
    success = roll.total >= cmd.dc
    tx.emit(
        SaveMade(
            combatant=c.id,
            ability="dexterity",
            dc=cmd.dc,
            total=roll.total,
            success=success,
            reason=f"Tumble through {target.name}",
        )
    )
    tx.emit(Tumbled(combatant=c.id, through=target.id, uses=uses, success=success, how=how))  # type: ignore[arg-type]


def _spend(state: EncounterState, cid: str, **changes: object) -> EncounterState:
    c = state.combatants[cid]
    return with_combatant(state, cid, economy=msgspec.structs.replace(c.economy, **changes))


def _on_pressed(state: EncounterState, e: AttackPressed) -> EncounterState:
    state = _spend(state, e.combatant, bonus_action=False)
    return with_rules(state, presses=state.rules.presses + (Press(attacker=e.combatant, target=e.target),))


def _on_fell_back(state: EncounterState, e: FellBack) -> EncounterState:
    state = _spend(state, e.combatant, reaction=False)
    presses = tuple(msgspec.structs.replace(p, fell_back=True) if p.target == e.combatant else p for p in state.rules.presses)
    return with_rules(state, presses=presses)


def _tumbled(n, e: Tumbled) -> str:
    through = f"{n.name(e.combatant)} tumbles through {n.name(e.through)}'s space"
    if e.how != "save":
        return f"{through} ({e.how})"
    return through if e.success else f"{n.name(e.combatant)} fails to tumble past {n.name(e.through)}"


RULES = Rules(
    handlers={PressTheAttack: _press, FallBack: _fall_back, Tumble: _tumble},
    appliers={
        AttackPressed: _on_pressed,
        FellBack: _on_fell_back,
        Tumbled: lambda state, e: _spend(state, e.combatant, **{e.uses: False}),
    },
    narration={
        AttackPressed: lambda n, e: (
            f"{n.name(e.combatant)} presses the attack against {n.name(e.target)} "
            "(expertise die on melee attacks; attacks against them have advantage)"
        ),
        FellBack: lambda n, e: (
            f"{n.name(e.combatant)} falls back 5 ft from {n.name(e.attacker)}"
            + (", who follows 5 ft" if e.attacker_followed else "")
            + ": no expertise die from the press"
        ),
        Tumbled: _tumbled,
    },
)
