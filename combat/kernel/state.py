"""The encounter's state: what a fold over its events gives. Never stored as the truth."""

from __future__ import annotations

from typing import Any

import msgspec

from combat.kernel.events import AttackProfile, CombatantSpec, ConditionSpec

__all__ = [
    "Economy",
    "Combatant",
    "Tie",
    "Help",
    "PendingCheck",
    "Conflict",
    "SrdVariantState",
    "VariantTraits",
    "VariantGrapple",
    "VariantMount",
    "VariantTalk",
    "EncounterState",
    "with_combatant",
]


class Economy(msgspec.Struct, frozen=True, kw_only=True):
    """What a combatant has left to spend; refreshed at the start of its turn."""

    movement: int = 0
    moved: int = 0
    action: bool = True
    bonus_action: bool = True
    reaction: bool = True
    object_interaction: bool = True
    attacks_left: int = 0


class Combatant(msgspec.Struct, frozen=True, kw_only=True):
    id: str
    name: str
    kind: str
    side: str
    max_hp: int
    hp: int
    temp_hp: int = 0
    ac: int
    initiative_bonus: int = 0
    speed: int = 30
    size: str = "medium"
    group: str | None = None
    player: str | None = None
    con_save: int = 0
    attacks: tuple[AttackProfile, ...] = ()
    attacks_per_action: int = 1
    resistances: tuple[str, ...] = ()
    vulnerabilities: tuple[str, ...] = ()
    immunities: tuple[str, ...] = ()
    status: str = "active"  # active, unconscious, dead
    surprised: bool = False
    initiative: int | None = None
    conditions: tuple[ConditionSpec, ...] = ()
    concentration: str | None = None
    economy: Economy = Economy(reaction=True)
    dodging: bool = False
    disengaged: bool = False
    readied: str | None = None

    @classmethod
    def from_spec(cls, spec: CombatantSpec) -> Combatant:
        fields = msgspec.structs.asdict(spec)
        fields["hp"] = spec.max_hp if spec.hp is None else spec.hp
        return cls(**fields)

    def has(self, condition: str) -> bool:
        return any(c.name == condition for c in self.conditions)

    @property
    def unit(self) -> str:
        """What rolls initiative as one: its group, or itself."""
        return self.group or self.id


class Tie(msgspec.Struct, frozen=True, kw_only=True):
    total: int
    units: tuple[tuple[str, ...], ...]
    decided_by: str
    order: tuple[str, ...] = ()  # unit ids, once ordered


class Help(msgspec.Struct, frozen=True, kw_only=True):
    """The Help action: the next ally attack against `against` has Advantage."""

    helper: str
    against: str


class PendingCheck(msgspec.Struct, frozen=True, kw_only=True):
    combatant: str
    dc: int
    damage: int


class Conflict(msgspec.Struct, frozen=True, kw_only=True):
    """A later event that no longer fits the rules after the past was changed."""

    seq: int
    type: str
    problem: str
    caused_by: tuple[int, ...] = ()  # the retractions or amendments that changed the past


# -- srd-2024-variant's own bookkeeping (rules in combat/rulesets/srd2024_variant/) --------


class VariantTraits(msgspec.Struct, frozen=True, kw_only=True):
    """What the core stat block lacks and the variant's rules read."""

    strength: int | None = None  # Strength modifier
    proficiency: int | None = None  # Proficiency Bonus
    speeds: dict[str, int] = {}  # special speeds: fly, climb, swim, burrow
    hands: int = 2  # free hands (or equivalent parts) to grapple with
    trained_mount: bool = False  # trained to accept a rider, so it can be controlled


class VariantGrapple(msgspec.Struct, frozen=True, kw_only=True):
    grappler: str
    target: str
    dc: int


class VariantMount(msgspec.Struct, frozen=True, kw_only=True):
    rider: str
    mount: str
    controlled: bool


class VariantTalk(msgspec.Struct, frozen=True, kw_only=True):
    """Extended communication among allies, open until the speaker's turn ends."""

    speaker: str
    listeners: tuple[str, ...]
    replied: tuple[str, ...] = ()


class SrdVariantState(msgspec.Struct, frozen=True, kw_only=True):
    traits: dict[str, VariantTraits] = {}
    reorder_queue: tuple[str, ...] = ()  # players who may still propose a swap, first first
    swap_proposal: tuple[str, str] | None = None  # (proposer, asked)
    tie_rerolls: dict[str, tuple[int, ...]] = {}  # tied player -> d20 rerolls so far
    talk: VariantTalk | None = None
    grapples: tuple[VariantGrapple, ...] = ()
    mounts: tuple[VariantMount, ...] = ()
    falls_pending: tuple[str, ...] = ()  # riders who owe a DC 10 Dexterity save to stay mounted
    run_up: tuple[str, int] | None = None  # (who, feet just moved) for a running jump


class EncounterState(msgspec.Struct, frozen=True, kw_only=True):
    ruleset: str = ""
    name: str = ""
    seed: int = 0
    settings: dict[str, Any] = {}
    version: int = 0
    rolls: int = 0
    phase: str = "setup"
    round: int = 0
    turn: str | None = None
    combatants: dict[str, Combatant] = {}
    ties: tuple[Tie, ...] = ()
    helps: tuple[Help, ...] = ()
    opportunities: tuple[tuple[str, str], ...] = ()  # (who may react, who left its reach)
    pending_checks: tuple[PendingCheck, ...] = ()
    winner: str | None = None
    ended_reason: str | None = None
    # The declared-d10 ruleset's own state, as plain JSON values (see combat/rulesets/declared_d10/state.py).
    d10: dict[str, Any] = {}
    # The a5e ruleset's own state, as plain JSON values (see combat/rulesets/a5e/table.py).
    a5e: dict[str, Any] = {}
    # The segments-1e ruleset's own state, as plain JSON values (see combat/rulesets/segments_1e/ledger.py).
    segments_1e: dict[str, Any] = {}
    srd_variant: SrdVariantState = SrdVariantState()  # see combat/rulesets/srd2024_variant/
    retracted: tuple[int, ...] = ()  # seqs that no longer count (undone or amended)
    conflicts: tuple[Conflict, ...] = ()  # unresolved; see combat.history
    # What the GM has shown players and viewers (events.Revealed): combatant ids and sides.
    revealed: tuple[str, ...] = ()
    revealed_sides: tuple[str, ...] = ()


def with_combatant(state: EncounterState, cid: str, **changes: Any) -> EncounterState:
    combatants = dict(state.combatants)
    combatants[cid] = msgspec.structs.replace(combatants[cid], **changes)
    return msgspec.structs.replace(state, combatants=combatants)
