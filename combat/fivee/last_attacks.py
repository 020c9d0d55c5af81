"""Each creature's last attack on the current turn: what a spell cast "immediately after hitting a
target" follows (combat/fivee/after_hit.py: Divine Smite, the other smites, Ensnaring Strike).

Kept in the 5e state's `last_attacks` slot, stamped with the round and the turn it was made
on, so a new turn needs no reset: a record of an earlier turn is no hit "this turn". An attack
rolled in two steps is recorded as it is rolled and counts as a hit once its damage lands
(`AttackDamageRolled`): one a reaction turned into a miss never does. A log folds to the same
state with or without this slot but for the slot itself, which only the after-hit spells read.
"""

from __future__ import annotations

import msgspec

from combat.fivee.attack_events import AttackDamageRolled, AttackMade, AttackRolled
from combat.kernel.decider import Rules
from combat.kernel.state import EncounterState, with_rules

__all__ = ["LastAttack", "LastAttacks", "LastAttacksSlot", "last_attack", "RULES"]


class LastAttack(msgspec.Struct, frozen=True, kw_only=True):
    """An attack as a spell that follows it needs it: whom, whether it landed, how, and when.
    Only what the table sees (the state is shown to players): not the attack's name, which for
    a hidden monster names its stat block's profile."""

    target: str
    hit: bool
    critical: bool = False
    kind: str = ""  # the attacker's own attack's kind (melee, ranged); empty for a spell attack
    turn: tuple[int, str]  # (round, whose turn)


class LastAttacks(msgspec.Struct, frozen=True, kw_only=True):
    by: dict[str, LastAttack] = {}  # attacker id -> its last attack


# Unset (absent from the state's JSON) until a creature attacks.
LastAttacksSlot = LastAttacks | msgspec.UnsetType


def last_attack(state: EncounterState, cid: str) -> LastAttack | None:
    """`cid`'s last attack, if it was made on the current turn."""
    found = getattr(state.rules, "last_attacks", None)
    record = found.by.get(cid) if isinstance(found, LastAttacks) else None
    if record is None or state.turn is None or record.turn != (state.round, state.turn):
        return None
    return record


def _recorded(state: EncounterState, attacker: str, record: LastAttack) -> EncounterState:
    if not hasattr(state.rules, "last_attacks") or state.turn is None:
        return state
    found = state.rules.last_attacks
    by = found.by if isinstance(found, LastAttacks) else {}
    return with_rules(state, last_attacks=LastAttacks(by={**by, attacker: record}))


def _kind(state: EncounterState, attacker: str, attack: str) -> str:
    c = state.combatants.get(attacker)
    return next((a.kind for a in c.attacks if a.name == attack), "") if c is not None else ""


def _on_attack(state: EncounterState, e: AttackMade | AttackRolled) -> EncounterState:
    landed = isinstance(e, AttackMade) and e.hit
    record = LastAttack(
        target=e.target,
        hit=landed,
        critical=e.critical,
        kind=_kind(state, e.attacker, e.attack),
        turn=(state.round, state.turn or ""),
    )
    return _recorded(state, e.attacker, record)


def _on_damage(state: EncounterState, e: AttackDamageRolled) -> EncounterState:
    record = last_attack(state, e.attacker)
    if record is None or record.target != e.target:
        return state
    return _recorded(state, e.attacker, msgspec.structs.replace(record, hit=True))


RULES = Rules(after={AttackMade: (_on_attack,), AttackRolled: (_on_attack,), AttackDamageRolled: (_on_damage,)})
