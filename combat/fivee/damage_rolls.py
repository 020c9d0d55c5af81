"""Attacks in two steps when dice are entered at the table: the d20, then damage if it hit.

A player enters the to-hit faces (`attack` with `faces` and no `damage_faces`); the engine
says hit or miss. A miss is finished there (`AttackMade`). A hit is recorded as an
`AttackRolled` and its damage waits in the 5e state's `pending_damage`: nobody attacks and the turn does not
end or move until `roll_damage` brings the faces (or asks the service to roll them). An attack
the service rolls, or one entered with its damage faces, stays one step.
"""

from __future__ import annotations

from typing import Any

import msgspec

from combat.common.entered_dice import entering
from combat.common.hitpoints import take_damage
from combat.fivee.attack_commands import RollDamage
from combat.fivee.attack_events import AttackDamageRolled, AttackRolled
from combat.fivee.attacks import land_extra_damage, roll_damage
from combat.fivee.held_open import halved_hits_of, pending_damage_of
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.hidden import damage_dealt
from combat.kernel.state import EncounterState, holding

__all__ = ["RULES", "roll_pending_damage", "no_damage_waiting"]


def no_damage_waiting(state: EncounterState, attacker: str) -> str | None:
    """The problem when no attack of `attacker`'s that hit waits for its damage, else None:
    roll_damage refuses with it, the re-check of an AttackDamageRolled reports it."""
    if any(p.attacker == attacker for p in pending_damage_of(state)):
        return None
    name = state.combatants[attacker].name if attacker in state.combatants else attacker
    return f"{name} has no attack that hit waiting for its damage"


def roll_pending_damage(tx: Tx, cmd: RollDamage) -> None:
    """`roll_damage`: also how a reaction window that held a hit's damage rolls it as it closes."""
    with entering(tx, resistance_faces=cmd.resistance_faces):
        _roll_damage(tx, cmd)


def _roll_damage(tx: Tx, cmd: RollDamage) -> None:
    attacker = tx.combatant(cmd.attacker)
    pending = next((p for p in pending_damage_of(tx.state) if p.attacker == attacker.id), None)
    problem = no_damage_waiting(tx.state, attacker.id)
    if pending is None or problem:
        waiting = ", ".join(p.attacker for p in pending_damage_of(tx.state))
        raise RuleError(
            "damage/nothing-pending",
            problem or "",
            allowed=f"roll_damage for {waiting}" if waiting else "attack with faces first; damage is rolled after a hit",
        )
    if cmd.extra_faces and len(cmd.extra_faces) != len(pending.extra_damage):
        wanted = ", ".join(f"{x.dice} {x.damage_type}" for x in pending.extra_damage) or "none"
        raise RuleError(
            "dice/extra-faces",
            f"{len(cmd.extra_faces)} lists of extra damage faces for {len(pending.extra_damage)} extra damage",
            allowed=f"one list per extra damage, in order ({wanted}), or none for the service to roll",
        )
    target = tx.combatant(pending.target)
    faces: list[tuple[int, ...] | None] = list(cmd.extra_faces) or [None] * len(pending.extra_damage)
    rolled, damage, extra = roll_damage(
        tx,
        attacker.id,
        target,
        pending.attack,
        pending.damage_dice,
        pending.damage_type,
        cmd.faces,
        pending.extra_damage,
        faces,
        halve=attacker.id in halved_hits_of(tx.state),
    )
    tx.emit(
        AttackDamageRolled(
            attacker=attacker.id,
            target=target.id,
            attack=pending.attack,
            critical=pending.critical,
            damage=damage,
            damage_rolled=rolled,
            damage_type=pending.damage_type,
        )
    )
    land_extra_damage(tx, target.id, damage, extra, before=target, critical=pending.critical)


def _on_damage_rolled(state: EncounterState, e: AttackDamageRolled) -> EncounterState:
    waiting = list(pending_damage_of(state))
    done = next((i for i, p in enumerate(waiting) if p.attacker == e.attacker), None)
    if done is not None:
        del waiting[done]
    combatants = {**state.combatants, e.target: take_damage(state.combatants[e.target], e.damage)}
    halved = tuple(a for a in halved_hits_of(state) if a != e.attacker)
    return holding(msgspec.structs.replace(state, combatants=combatants), pending_damage=tuple(waiting), halved_hits=halved)


def _narrate_rolled(n: Any, e: AttackRolled) -> str:
    mode = "" if e.roll_mode == "normal" else f" with {e.roll_mode}"
    hit = "critical hit" if e.critical else "hit"
    # None: not revealed to this reader (projections/redaction.py)
    ac = "" if e.target_ac is None else f" vs AC {e.target_ac}"
    dice = f"{e.damage_dice} {e.damage_type}" if e.damage_dice is not None else e.damage_type
    attack = "" if e.attack is None else f" ({e.attack})"
    return f"{n.name(e.attacker)} attacks {n.name(e.target)}{attack}: {e.total}{mode}{ac}, {hit}; damage {dice} to roll"


def _narrate_damage(n: Any, e: AttackDamageRolled) -> str:
    # None: not revealed to this reader (a hidden attacker's attack, a hidden target's damage taken)
    attack = "attack" if e.attack is None else e.attack
    return f"{n.name(e.attacker)}'s {attack} deals {n.name(e.target)} {damage_dealt(e.damage, e.damage_rolled, e.damage_type)}"


RULES = Rules(
    handlers={RollDamage: roll_pending_damage},
    appliers={AttackDamageRolled: _on_damage_rolled},
    narration={AttackRolled: _narrate_rolled, AttackDamageRolled: _narrate_damage},
)
