"""What the declared-d10 ruleset remembers beyond the shared encounter state.

It is the ruleset's `state_type`: `state.rules` holds a `D10State`, and appliers write a
changed copy with `combat.kernel.state.with_rules`. The JSON views show it under "d10".
"""

from __future__ import annotations

from typing import Literal

import msgspec

from combat.kernel.state import Combatant, EncounterState

__all__ = [
    "Tier",
    "RoundKind",
    "D10Traits",
    "Declaration",
    "FreeAttack",
    "Grapple",
    "Timer",
    "D10State",
    "traits_of",
    "group_of",
    "is_fully_surprised",
    "can_act",
    "will_act",
]

Tier = Literal["masterwork", "common", "shoddy"]
RoundKind = Literal["normal", "surprise", "full surprise"]


class D10Traits(msgspec.Struct, frozen=True, kw_only=True):
    """What this ruleset reads from a stat block that the shared one does not carry."""

    stealth: int = 0
    perception: int = 0
    feats_of_strength: int = 0
    dr: int = 0
    minion: bool = False
    # Attack name -> tier, for the optional weapon-tier rule (physical attacks only).
    weapon_tiers: dict[str, Tier] = {}
    # Attacks that are spells: no tier, and a critical does not double their damage.
    spells: tuple[str, ...] = ()
    # Attacks that disregard the target's damage reduction.
    ignores_dr: tuple[str, ...] = ()


class Declaration(msgspec.Struct, frozen=True, kw_only=True):
    combatant: str
    action: str
    target: str | None = None
    detail: str = ""
    ruling: str | None = None  # the GM's words when a change was allowed


class FreeAttack(msgspec.Struct, frozen=True, kw_only=True):
    """An open chance for `attacker` to strike `target`, until the end of the current turn."""

    attacker: str
    target: str
    reason: str


class Grapple(msgspec.Struct, frozen=True, kw_only=True):
    grappler: str
    round: int


class Timer(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    what: str
    rounds_left: int
    fired: bool = False


class D10State(msgspec.Struct, frozen=True, kw_only=True):
    # This round: normal, or a surprise round and who has the upper hand.
    round_kind: RoundKind = "normal"
    attackers: str | None = None
    defenders: str | None = None
    declaration_seconds: int | None = None
    declarations: dict[str, Declaration] = {}
    locked: bool = False
    # Within a group: who goes first, as its players (or the GM) chose.
    group_orders: dict[str, tuple[str, ...]] = {}
    acted: tuple[str, ...] = ()  # who has started a turn this round, in order
    spent: tuple[str, ...] = ()  # "attack", "move": what the current turn has used
    disengaged_from: tuple[str, ...] = ()  # foes the current combatant got away from this turn
    leaving: tuple[str, ...] = ()  # fleeing the battlefield at the end of their turn
    parrying: tuple[str, ...] = ()  # until their next action
    free_attacks: tuple[FreeAttack, ...] = ()
    stealthy: dict[str, int] = {}  # combatant -> the round its Stealth last succeeded
    grapples: dict[str, Grapple] = {}  # grappled combatant -> who holds it, since when
    to_hit: dict[str, int] = {}  # wound modifiers to hit, shown while they apply
    traits: dict[str, D10Traits] = {}
    timers: tuple[Timer, ...] = ()


def traits_of(state: EncounterState, cid: str) -> D10Traits:
    return state.rules.traits.get(cid, D10Traits())


def group_of(c: Combatant) -> str:
    """Who rolls initiative together: a monster's named group, else everyone of its side
    (so the characters of a side are the players' group and unnamed creatures one big group)."""
    return c.group or c.side


def is_fully_surprised(t: D10State, c: Combatant) -> bool:
    return t.round_kind == "full surprise" and c.side == t.defenders


def can_act(state: EncounterState, c: Combatant) -> bool:
    """Standing and not caught by full surprise: may declare, act and take free attacks."""
    return c.status == "active" and not is_fully_surprised(state.rules, c)


def will_act(state: EncounterState, c: Combatant) -> bool:
    """Takes a turn this round: can act and did not hesitate past the time limit."""
    declared = state.rules.declarations.get(c.id)
    return can_act(state, c) and not (declared is not None and declared.action == "hesitate")
