"""The encounter's state: what a fold over its events gives. Never stored as the truth.

`EncounterState[S]` holds what every ruleset shares plus one typed slot, `rules: S`, for what
one ruleset remembers on its own (as a Decider owns its state beside the framework's). The
ruleset names `S` (`Ruleset.state_type`); read it as `state.rules` and write a changed copy
with `with_rules`.
"""

from __future__ import annotations

from typing import Any, Generic, TypeVar

import msgspec

from combat.kernel.events import AttackProfile, CombatantSpec, ConditionSpec

__all__ = [
    "Economy",
    "Combatant",
    "Tie",
    "Conflict",
    "NoRules",
    "SharedState",
    "EncounterState",
    "with_combatant",
    "with_rules",
    "slot_of",
    "holding",
    "unresolved_ties",
    "UNSHOWN",
]

S = TypeVar("S")


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


class Conflict(msgspec.Struct, frozen=True, kw_only=True):
    """A later event that no longer fits the rules after the past was changed."""

    seq: int
    type: str
    problem: str
    caused_by: tuple[int, ...] = ()  # the retractions or amendments that changed the past


class NoRules(msgspec.Struct, frozen=True, kw_only=True):
    """The state of a ruleset that keeps nothing beyond the shared fields."""


class SharedState(msgspec.Struct, frozen=True, kw_only=True):
    """What every ruleset's encounter holds."""

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
    winner: str | None = None
    ended_reason: str | None = None
    retracted: tuple[int, ...] = ()  # seqs that no longer count (undone or amended)
    conflicts: tuple[Conflict, ...] = ()  # unresolved; see combat.app.history
    # What the GM has shown players and viewers (events.Revealed): combatant ids and sides.
    revealed: tuple[str, ...] = ()
    revealed_sides: tuple[str, ...] = ()
    # What judging hidden information needs once its subject is gone from `combatants` or
    # from its conditions (projections/redaction.py): the kind and side of each combatant
    # removed from the fight, and every hidden condition ever applied, as (target, name).
    # Bookkeeping, not shown in the state's JSON (projections/state.py).
    departed: dict[str, tuple[str, str]] = {}
    hidden_conditions: tuple[tuple[str, str], ...] = ()


# SharedState fields the state's JSON view leaves out: bookkeeping for hidden information.
UNSHOWN = ("departed", "hidden_conditions")


class EncounterState(SharedState, Generic[S], frozen=True, kw_only=True):
    rules: S  # the ruleset's own state, of its `state_type`


def with_combatant(state: EncounterState, cid: str, **changes: Any) -> EncounterState:
    combatants = dict(state.combatants)
    combatants[cid] = msgspec.structs.replace(combatants[cid], **changes)
    return msgspec.structs.replace(state, combatants=combatants)


def with_rules(state: EncounterState[S], rules: S | None = None, /, **changes: Any) -> EncounterState[S]:
    """A copy of `state` whose ruleset state is `rules`, or the current one with `changes`."""
    new = rules if rules is not None else msgspec.structs.replace(state.rules, **changes)  # type: ignore[type-var]
    return msgspec.structs.replace(state, rules=new)


def slot_of(state: EncounterState, name: str) -> Any:
    """A slot of the ruleset's own state, read by name: None when it is unset, empty, or not
    declared by this ruleset's state. Shared rules read slots by name because they sit below
    the state type that declares them (the 5e family's `FiveEState`)."""
    return getattr(state.rules, name, None) or None


def holding(state: EncounterState, **slots: Any) -> EncounterState:
    """`state` with these slots of its ruleset's state set; one left empty (no entries, no
    window) is unset, so it is absent from the state's JSON and equals a fresh state's."""
    return with_rules(state, **{name: value or msgspec.UNSET for name, value in slots.items()})


def unresolved_ties(state: EncounterState) -> list[Tie]:
    """The ties in initiative the GM has not ordered yet."""
    return [t for t in state.ties if not t.order]
