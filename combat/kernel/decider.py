"""decide / evolve, composed from a ruleset's tables.

`decide(ruleset, state, command)` returns the events a command produces or raises a
`RuleError` (nothing is appended). It is pure: dice come from the command's entered faces
or from the encounter's seed and roll count, both part of the input.

`evolve(ruleset, state, event)` applies one event; it never fails and never rolls.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, NamedTuple, TypeVar

import msgspec

from combat.kernel import dice
from combat.kernel.commands import COMMAND_TYPES, Command, Reveal, TurnStartDice, trigger_of
from combat.kernel.error_kinds import ErrorCode
from combat.kernel.errors import RuleError
from combat.kernel.events import (
    EVENT_TYPES,
    CombatantRemoved,
    ConditionApplied,
    DiceRolled,
    Event,
    PhaseChanged,
    Revealed,
    TurnStarted,
)
from combat.kernel.phases import PhaseTable
from combat.kernel.state import Combatant, EncounterState, NoRules
from combat.kernel.views import Views

__all__ = [
    "GM",
    "Handler",
    "Applier",
    "Check",
    "Narrate",
    "Guard",
    "Rules",
    "assemble",
    "merged",
    "Ruleset",
    "Tx",
    "decide",
    "decided",
    "Decided",
    "evolve",
    "fold",
    "followed",
    "unchanged",
]

# The actor name of the GM (a player's name can never be it: see the service's token names).
GM = "gm"

Handler = Callable[["Tx", Any], None]
Applier = Callable[[EncounterState, Any], EncounterState]
# A check on an event after a change to the past: fn(state, event, context) -> problem or None.
Check = Callable[[EncounterState, Any, dict[str, Any]], "str | None"]
# One human line for an event: fn(narrator, event) -> str (see projections.narrative).
Narrate = Callable[[Any, Any], str]
# A condition a ruleset puts in front of a command's rule: fn(tx, command), raising RuleError to refuse.
Guard = Callable[["Tx", Any], None]


@dataclass(frozen=True)
class Rules:
    """One rule module's part of a ruleset: the commands it decides, the events it applies,
    the checks it makes on events after a change to the past, and a line of narration for
    each event of its own. Each rule module exposes one; a ruleset is `assemble(...)` of them.

    A ruleset changes a shared rule in one of three ways, all declared here:
    - replace it: its own entry in `handlers` or `appliers`, in a later bundle; a handler that
      builds on the shared rule calls it by its public name (the shared attack rule, say);
    - refuse first: `guards` run, in bundle order, before whichever handler the command has
      (a guard keyed by a base class, such as `Command`, runs before those of every command
      of that class, ahead of the command's own);
    - keep its own books: `after` appliers run, in bundle order, after the event's applier;
    - fill a part a shared rule leaves open: `ports`, keyed by the class the shared rule names
      (combat/common's `ZeroHitPoints`, say), the instance it calls. A shared rule asks
      `tx.ruleset.port(Kind)` and falls back to its plain behaviour when the ruleset fills none.
    """

    handlers: Mapping[type, Handler] = field(default_factory=dict)
    appliers: Mapping[type, Applier] = field(default_factory=dict)
    checks: Mapping[type, Check] = field(default_factory=dict)
    narration: Mapping[type, Narrate] = field(default_factory=dict)
    guards: Mapping[type, tuple[Guard, ...]] = field(default_factory=dict)
    after: Mapping[type, tuple[Applier, ...]] = field(default_factory=dict)
    ports: Mapping[type, Any] = field(default_factory=dict)


K = TypeVar("K")
P = TypeVar("P")
V = TypeVar("V")


def merged(*tables: Mapping[K, V]) -> dict[K, V]:
    """One table from several, in order: a later table's entry replaces an earlier one."""
    joined: dict[K, V] = {}
    for table in tables:
        joined.update(table)
    return joined


def assemble(*parts: Rules) -> Rules:
    """The bundles joined in order. A later bundle's entry for a command or event type
    replaces an earlier one: a ruleset changes a shared rule by listing the shared bundle
    first and its own after it, and a reader finds the rule that wins in the last bundle
    that names the type."""
    guards: dict[type, tuple[Guard, ...]] = {}
    after: dict[type, tuple[Applier, ...]] = {}
    for part in parts:
        for command_type, more_guards in part.guards.items():
            guards[command_type] = guards.get(command_type, ()) + tuple(more_guards)
        for event_type, more_after in part.after.items():
            after[event_type] = after.get(event_type, ()) + tuple(more_after)
    return Rules(
        handlers=merged(*(part.handlers for part in parts)),
        appliers=merged(*(part.appliers for part in parts)),
        checks=merged(*(part.checks for part in parts)),
        narration=merged(*(part.narration for part in parts)),
        guards=guards,
        after=after,
        ports=merged(*(part.ports for part in parts)),
    )


def _guarded(handler: Handler, guards: tuple[Guard, ...]) -> Handler:
    def run(tx: Tx, cmd: Any) -> None:
        for guard in guards:
            guard(tx, cmd)
        handler(tx, cmd)

    return run


def followed(applier: Applier, after: tuple[Applier, ...]) -> Applier:
    """`applier`, then each of `after` on what it left: one event's effect as one call."""
    if len(after) == 1:
        (then,) = after
        return lambda state, event: then(applier(state, event), event)

    def apply(state: EncounterState, event: Any) -> EncounterState:
        state = applier(state, event)
        for more in after:
            state = more(state, event)
        return state

    return apply


def unchanged(state: EncounterState, event: Any) -> EncounterState:
    """The applier of an event that changes nothing (before what follows it)."""
    return state


@dataclass(frozen=True)
class Ruleset:
    """A ruleset is data: its phase table, its command handlers and its event appliers.

    `flow` runs after every command (boardgame.io's endIf checks) and may emit automatic
    events such as the end of the fight. `state_type` is what the ruleset remembers on its
    own (`EncounterState.rules`, built with no arguments at the start); `state_key` names it
    in the JSON views of the state ("" for a ruleset that keeps nothing of its own).
    """

    id: str
    title: str
    summary: str
    phases: PhaseTable
    handlers: Mapping[type[Command], Handler]
    appliers: Mapping[type[Event], Applier]
    turn_order: Callable[[EncounterState, bool], list[str]]
    flow: Callable[[Tx], None] = lambda tx: None
    defaults: Mapping[str, Any] = field(default_factory=dict)
    state_type: type[Any] = NoRules
    state_key: str = ""
    # Event and command types beyond the kernel's (combat.kernel.events, combat.kernel.commands):
    # the ruleset's own and those of the rule modules it is built from (the 5e family's, beside
    # their rules in combat/fivee). The catalog joins them all into the public unions.
    events: tuple[type[Event], ...] = ()
    commands: tuple[type[Command], ...] = ()
    # Checks run on events after a change to the past: fn(state, event, context) -> problem or None.
    checks: Mapping[type[Event], Check] = field(default_factory=dict)
    # One human line per own event type: fn(narrator, event) -> str (see projections.narrative).
    narration: Mapping[type[Event], Narrate] = field(default_factory=dict)
    # The condition and damage type names its text declares (lower case); empty: not checked.
    conditions: frozenset[str] = frozenset()
    damage_types: frozenset[str] = frozenset()
    # What the readers that serve every ruleset show of this one (combat/kernel/views.py).
    views: Views = field(default_factory=Views)
    # The parts its shared rules leave open, filled (`Rules.ports`): kind -> instance.
    ports: Mapping[type, Any] = field(default_factory=dict)
    # The error codes its rules raise, its own and the shared ones (fivee's), each with its
    # kind: combat/app/error_registry.py merges them with the kernel's, the application's
    # and the service's. A code no ruleset declares is answered as refused.
    error_codes: tuple[ErrorCode, ...] = ()

    @classmethod
    def of(cls, rules: Rules, **fields: Any) -> Ruleset:
        """A ruleset from its assembled rules; its own event and command types are those
        its rules handle or apply beyond the kernel's shared ones."""
        fields.setdefault("events", tuple(t for t in rules.appliers if t not in EVENT_TYPES))
        fields.setdefault("commands", tuple(t for t in rules.handlers if t not in COMMAND_TYPES))
        handlers = {}
        for command_type, handler in rules.handlers.items():
            guards = tuple(g for base in reversed(command_type.__mro__) for g in rules.guards.get(base, ()))
            handlers[command_type] = _guarded(handler, guards) if guards else handler
        appliers = dict(rules.appliers)
        for event_type, after in rules.after.items():
            appliers[event_type] = followed(appliers.get(event_type, unchanged), after)
        fields.setdefault("ports", rules.ports)
        return cls(handlers=handlers, appliers=appliers, checks=rules.checks, narration=rules.narration, **fields)

    def port(self, kind: type[P]) -> P | None:
        """The instance of `kind` this ruleset fills a shared rule's open part with, if any."""
        return self.ports.get(kind)

    def initial_state(self) -> EncounterState:
        return EncounterState(ruleset=self.id, phase=self.phases.initial, rules=self.state_type())

    @property
    def evolvers(self) -> Mapping[type[Event], Applier]:
        """Each event type's whole effect as one call: its applier, then what every ruleset
        does with a roll or a reveal. `evolve` looks an event up here once, not three times.
        Built once per `appliers` and kept beside it, not on the ruleset, which stays plain
        data (copied field by field, compared field by field)."""
        found = _EVOLVERS.get(id(self.appliers))
        if found is None or found[0] is not self.appliers:
            found = _EVOLVERS[id(self.appliers)] = (self.appliers, _evolvers(self.appliers))
        return found[1]

    def settings(self, given: Mapping[str, Any] | None) -> dict[str, Any]:
        unknown = set(given or {}) - set(self.defaults)
        if unknown:
            raise RuleError(
                "settings/unknown",
                f"unknown setting(s) for {self.id}: {', '.join(sorted(unknown))}",
                allowed=", ".join(sorted(self.defaults)) or "no settings",
            )
        for name, value in (given or {}).items():
            _check_setting_type(name, value, self.defaults[name])
        return {**self.defaults, **(given or {})}


def _check_setting_type(name: str, value: Any, default: Any) -> None:
    """A setting takes the JSON type of its default (rules read them as such); a default of
    None leaves the check to the ruleset."""
    if default is None:
        return
    # bool is an int subclass: true is no number of actions, and 1 is no yes/no answer.
    kind = bool if isinstance(default, bool) else int if isinstance(default, int) else type(default)
    if isinstance(value, bool) != (kind is bool) or not isinstance(value, kind):
        wanted = {bool: "true or false", int: "a whole number", str: "text"}.get(kind, kind.__name__)
        raise RuleError(
            "settings/invalid",
            f"setting {name} cannot be {value!r}",
            allowed=f"{wanted}, such as the default {msgspec.json.encode(default).decode()}",
        )


class Tx:
    """A command being decided: events emitted so far and the state they lead to."""

    def __init__(self, ruleset: Ruleset, state: EncounterState, actor: str = GM):
        self.ruleset = ruleset
        self.state = state
        self.actor = actor
        self.events: list[Event] = []
        # The dice a command enters for the effects that act as a turn starts (`turn_start_faces`
        # of end_turn, goto_turn, previous_turn): those effects roll in the ruleset's flow, after
        # the handler, so the faces wait here; each roll takes its own, and what is left when the
        # flow is done is refused.
        self.turn_start_faces: dict[str, TurnStartDice] = {}

    def emit(self, event: Event) -> None:
        evolver = self.ruleset.evolvers.get(type(event))
        if evolver is None:
            # A rule emitting an event its ruleset does not apply is a ruleset assembled without
            # the bundle that applies it: the event would be stored and folded as if it changed
            # nothing. Refused at once (a fault of the rules, never of the command).
            raise TypeError(f"{self.ruleset.id} emits {type(event).__name__} but has no applier for it")
        self.events.append(event)
        self.state = evolver(self.state, event)

    def roll(
        self,
        notation: str,
        *,
        purpose: str,
        roller: str,
        faces: Sequence[int] | None = None,
    ) -> DiceRolled:
        rng = None if faces is not None else dice.rng_for(self.state.seed, self.state.rolls)
        result = dice.roll(notation, faces=faces, rng=rng)
        event = DiceRolled(
            roller=roller,
            purpose=purpose,
            notation=result.notation,
            dice=result.dice,
            total=result.total,
            source=result.source,  # type: ignore[arg-type]
        )
        self.emit(event)
        return event

    def combatant(self, cid: str) -> Combatant:
        try:
            return self.state.combatants[cid]
        except KeyError:
            known = ", ".join(self.state.combatants) or "none yet"
            raise RuleError("combatant/unknown", f"no combatant '{cid}'", allowed=known) from None

    def move_to(self, trigger: str) -> None:
        """Follow `trigger` in the phase table, recording a phase change if it leads elsewhere."""
        previous = self.state.phase
        target = self.ruleset.phases.target(previous, trigger)
        if target != previous:
            self.emit(PhaseChanged(previous=previous, phase=target))


class Decided(NamedTuple):
    """A command's events and the state they lead to, folded once as the rules emitted them
    (its `version` is left for the store to set)."""

    events: list[Event]
    state: EncounterState


def decide(ruleset: Ruleset, state: EncounterState, command: Command, actor: str = GM) -> list[Event]:
    return decided(ruleset, state, command, actor).events


def decided(ruleset: Ruleset, state: EncounterState, command: Command, actor: str = GM) -> Decided:
    trigger = trigger_of(type(command))
    if actor != GM:
        _refuse_gm_fields(command, trigger, actor)
    if type(command).any_phase:
        tx = Tx(ruleset, state, actor)
        _ANY_PHASE[type(command)](tx, command)
        return Decided(tx.events, tx.state)
    ruleset.phases.require(state.phase, trigger)
    handler = ruleset.handlers.get(type(command))
    if handler is None:  # the table allows it but the ruleset has no rule for it
        raise RuleError(
            "command/unsupported",
            f"{ruleset.id} has no rule for '{trigger}'",
            allowed=", ".join(ruleset.phases.commands(state.phase)),
        )
    tx = Tx(ruleset, state, actor)
    tx.turn_start_faces = dict(getattr(command, "turn_start_faces", None) or {})
    tx.move_to(trigger)  # a command that moves the fight on (begin_combat, end_combat...)
    handler(tx, command)
    ruleset.flow(tx)
    _refuse_unused_turn_start_faces(tx)
    return Decided(tx.events, tx.state)


def _refuse_unused_turn_start_faces(tx: Tx) -> None:
    if tx.turn_start_faces:
        started = next((e.combatant for e in reversed(tx.events) if isinstance(e, TurnStarted)), None)
        whose = (
            f"as {tx.state.combatants[started].name}'s turn started" if started in tx.state.combatants else "(no turn started)"
        )
        raise RuleError(
            "dice/unused-faces",
            f"no effect named {', '.join(repr(k) for k in tx.turn_start_faces)} rolled {whose}",
            allowed="turn_start_faces only for the effects that roll as the next turn starts (Searing Smite's burn...)",
        )


def _refuse_gm_fields(command: Command, trigger: str, actor: str) -> None:
    """Finding: a player set the DC and bonus of their own save, or entered the dice of the
    creature they grappled. Those numbers are the GM's or the state's (see docs/trust.md)."""
    given = command.gm_fields_given()
    if given:
        raise RuleError(
            "command/gm-field",
            f"{actor} may not set {', '.join(given)} in '{trigger}': DCs, bonuses and reasons come "
            "from the stat block, the conditions or the GM, and another creature's dice from its own roller",
            allowed=f"the command without {', '.join(given)}; the GM may send it with them",
        )


def _reveal(tx: Tx, cmd: Reveal) -> None:
    sides = {c.side for c in tx.state.combatants.values()}
    unknown = [c for c in cmd.combatants if c not in tx.state.combatants] + [s for s in cmd.sides if s not in sides]
    if unknown or not (cmd.combatants or cmd.sides):
        raise RuleError(
            "reveal/unknown",
            f"nothing to reveal called {', '.join(unknown)}" if unknown else "name combatants or sides to reveal",
            allowed=f"combatants: {', '.join(tx.state.combatants) or 'none yet'}; sides: {', '.join(sorted(sides)) or 'none yet'}",
        )
    tx.emit(Revealed(combatants=cmd.combatants, sides=cmd.sides))


_ANY_PHASE: dict[type[Command], Handler] = {Reveal: _reveal}


def _revealed(state: EncounterState, event: Revealed) -> EncounterState:
    return msgspec.structs.replace(
        state,
        revealed=tuple(dict.fromkeys((*state.revealed, *event.combatants))),
        revealed_sides=tuple(dict.fromkeys((*state.revealed_sides, *event.sides))),
    )


# id(appliers) -> (those appliers, kept so the id is not reused, and their evolvers): one per
# ruleset folded with, a handful in a process.
_EVOLVERS: dict[int, tuple[Mapping[type[Event], Applier], Mapping[type[Event], Applier]]] = {}


def _evolvers(appliers: Mapping[type[Event], Applier]) -> Mapping[type[Event], Applier]:
    table = dict(appliers)
    for kind, shared in ((DiceRolled, _rolled), (Revealed, _revealed), (ConditionApplied, _remember_hidden_condition)):
        own = table.get(kind)
        table[kind] = shared if own is None else followed(own, (shared,))
    own_removal = table.get(CombatantRemoved)
    if own_removal is not None:  # what was removed is remembered before the ruleset forgets it
        table[CombatantRemoved] = lambda state, event: own_removal(_remember_departed(state, event), event)
    return table


def _remember_departed(state: EncounterState, event: CombatantRemoved) -> EncounterState:
    """A removed creature's events stay in the log: whether they are hidden is judged on what it was."""
    c = state.combatants.get(event.combatant)
    if c is None:
        return state
    return msgspec.structs.replace(state, departed={**state.departed, c.id: (c.kind, c.side)})


def _remember_hidden_condition(state: EncounterState, event: ConditionApplied) -> EncounterState:
    """Its end may be read without its start (`/events?after=N`): the name stays known to be the GM's."""
    key = (event.target, event.condition.name)
    if not event.condition.hidden or key in state.hidden_conditions:
        return state
    return msgspec.structs.replace(state, hidden_conditions=(*state.hidden_conditions, key))


def _rolled(state: EncounterState, event: DiceRolled) -> EncounterState:
    return msgspec.structs.replace(state, rolls=state.rolls + 1)


def evolve(ruleset: Ruleset, state: EncounterState, event: Event) -> EncounterState:
    evolver = ruleset.evolvers.get(type(event))
    return state if evolver is None else evolver(state, event)


def fold(ruleset: Ruleset, events: Iterable[Event], state: EncounterState | None = None) -> EncounterState:
    state = state if state is not None else ruleset.initial_state()
    evolvers = ruleset.evolvers
    for event in events:
        evolver = evolvers.get(type(event))
        if evolver is not None:
            state = evolver(state, event)
    return state
