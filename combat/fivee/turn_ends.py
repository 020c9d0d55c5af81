"""Ending a turn in the 5e family: it waits for what is owed (a concentration save, an attack's
damage, a Death Saving Throw), then what lasts until the end of the turn ends, the creature
repeats the saves its conditions call for "at the end of each of its turns", and the next
living creature's turn starts, wrapping into a new round."""

from __future__ import annotations

from collections.abc import Callable, Sequence

from msgspec import UNSET

from combat.common.concentration import pending_checks_of
from combat.common.conditions import expire_conditions
from combat.common.durations import ending
from combat.common.saves import saving_throw
from combat.common.turns import OrderFn, next_turn, require_turn, start_round
from combat.fivee.bonuses import save_bonus
from combat.fivee.dying import require_no_death_save
from combat.fivee.held_open import pending_damage_of
from combat.fivee.spell_effects_ongoing import fail_into
from combat.kernel.commands import EndTurn
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import RoundEnded, TurnEnded

__all__ = ["advance", "end_turn_effects", "end_turn_handler", "require_nothing_owed", "repeat_saves"]


def advance(
    tx: Tx, order: OrderFn, new_round: Callable[[Tx], None] | None = None, save_faces: Sequence[Sequence[int]] = ()
) -> None:
    """End the current turn and start the next, wrapping into a new round.

    `new_round` lets a ruleset open its rounds its own way (a5e's world actions come first).
    `save_faces`: the dice of the saves the creature repeats as its turn ends (`end_turn_effects`).
    """
    current = tx.state.turn
    if current is not None:
        tx.emit(TurnEnded(combatant=current))
    end_turn_effects(tx, current, save_faces)
    full = order(tx.state, True)
    if next_turn(tx, full[full.index(current) + 1 :] if current in full else []):
        return
    tx.emit(RoundEnded(round=tx.state.round))
    if new_round is None:
        start_round(tx, order)
    else:
        new_round(tx)


def end_turn_effects(tx: Tx, cid: str | None, save_faces: Sequence[Sequence[int]] = ()) -> None:
    """What happens as `cid`'s turn ends (after its `TurnEnded`): what lasts until then ends,
    then the saves it repeats "at the end of each of its turns" (`repeat_saves`).
    Faces entered with no turn ending, or more than the saves owed, are refused."""
    if cid is not None:
        expire_conditions(tx, cid, "end")
    repeat_saves(tx, cid, save_faces)


def end_turn_handler(order: OrderFn, new_round: Callable[[Tx], None] | None = None):
    def _end_turn(tx: Tx, cmd: EndTurn) -> None:
        c = require_turn(tx, cmd.combatant)
        require_nothing_owed(tx, f"{c.name}'s turn cannot end")
        require_no_death_save(tx, c.name)
        advance(tx, order, new_round, cmd.save_faces)

    return _end_turn


def require_nothing_owed(tx: Tx, refused: str) -> None:
    """The turn waits for a concentration save owed or an attack's damage still to roll."""
    pending = pending_checks_of(tx.state)
    if pending:
        who = ", ".join(tx.state.combatants[p.combatant].name for p in pending)
        raise RuleError(
            "turn/pending-save",
            f"{refused} while a concentration save is owed by {who}",
            allowed="concentration_save for " + ", ".join(p.combatant for p in pending),
        )
    if pending_damage_of(tx.state):
        p = pending_damage_of(tx.state)[0]
        raise RuleError(
            "turn/pending-damage",
            f"{refused} while the damage of {p.attacker}'s {p.attack} is still to be rolled",
            allowed=f"roll_damage for {p.attacker}",
        )


def repeat_saves(tx: Tx, cid: str | None, faces: Sequence[Sequence[int]] = ()) -> None:
    """As `cid`'s turn ends: each condition it has with a repeated save, the save rolled
    (`faces[i]` for the i-th, or from the seed) and the condition ended on a success."""
    c = tx.state.combatants.get(cid) if cid is not None else None
    owed = [cond for cond in c.conditions if cond.save is not UNSET] if c is not None and c.status != "dead" else []
    if len(faces) > len(owed):
        who = c.name if c is not None else "nobody"
        raise RuleError(
            "dice/unused-faces",
            f"{len(faces)} save faces entered, but {who} repeats {len(owed)} saves as the turn ends",
            allowed=f"save_faces: at most {len(owed)} lists" + (f" ({', '.join(x.name for x in owed)})" if owed else ""),
        )
    for i, cond in enumerate(owed):
        assert c is not None and cond.save is not UNSET
        bearer = tx.state.combatants[c.id]
        if bearer.status == "dead" or cond not in bearer.conditions:
            continue
        ability = cond.save.ability
        given = tuple(faces[i]) if i < len(faces) else None
        made = saving_throw(
            tx,
            c.id,
            ability,
            cond.save.dc,
            save_bonus(tx.state, c.id, ability),
            "normal",
            given,
            reason=f"repeats the save against {cond.name}",
            source=cond.source,
        )
        if made.success:
            tx.emit(ending(tx.state.combatants[c.id], cond, f"succeeded on the repeated {ability} save"))
        elif cond.riders is not UNSET and cond.riders.fails_into is not UNSET:
            fail_into(tx, c.id, cond)
