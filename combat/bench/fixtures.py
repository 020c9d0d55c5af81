"""Data the benchmarks build for themselves: long fights decided in memory, then stored.

A stored fight gets the snapshots the application would have taken while it was played
(the state at the end of each command that crossed a multiple of SNAPSHOT_INTERVAL), so
loading it costs what loading a fight played through `Encounters.execute` costs.
"""

from __future__ import annotations

import functools
import uuid
from dataclasses import dataclass
from datetime import UTC, datetime
from uuid import UUID

import msgspec

from combat.app import chain
from combat.app.application import SNAPSHOT_INTERVAL, Encounters
from combat.fivee.action_commands import Move
from combat.fivee.attack_commands import Attack
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn
from combat.kernel.decider import decide, fold
from combat.kernel.events import AttackProfile, CombatantSpec, EncounterCreated, Event
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState, NoRules
from combat.rulesets import get_ruleset
from combat.store.log import Snapshot

__all__ = ["Fight", "long_fight", "long_fight_events", "store_fight", "SIDES", "TARGETS"]

_AXE = AttackProfile(name="Axe", bonus=5, damage="1d8+3", damage_type="slashing")
SIDES = (
    CombatantSpec(id="aria", name="Aria", kind="pc", side="party", max_hp=10**9, ac=15, attacks=(_AXE,)),
    CombatantSpec(id="bron", name="Bron", kind="pc", side="party", max_hp=10**9, ac=14, attacks=(_AXE,)),
    CombatantSpec(id="ogre", name="Ogre", kind="monster", side="ogres", max_hp=10**9, ac=11, attacks=(_AXE,)),
    CombatantSpec(id="troll", name="Troll", kind="monster", side="ogres", max_hp=10**9, ac=15, attacks=(_AXE,)),
)
TARGETS = {"aria": "ogre", "bron": "troll", "ogre": "aria", "troll": "bron"}


@dataclass(frozen=True)
class Fight:
    """A fight nobody can lose: its events grouped by command, and the snapshots taken on the way."""

    commands: list[list[Event]]
    snapshots: dict[int, EncounterState]  # number of commands played -> the state snapshotted after them
    state: EncounterState

    @property
    def events(self) -> int:
        return sum(map(len, self.commands))

    def prefix(self, events: int) -> Fight:
        """The fight up to the end of the first command that reaches `events` events."""
        total, n = 0, 0
        while n < len(self.commands) and total < events:
            total += len(self.commands[n])
            n += 1
        return Fight(self.commands[:n], {k: s for k, s in self.snapshots.items() if k <= n}, self.state)


@functools.lru_cache(maxsize=4)
def long_fight(count: int, seed: int = 1) -> Fight:
    """About `count` events of move, attack, end turn, round after round (built once per size)."""
    ruleset = get_ruleset("srd-2024")
    created = EncounterCreated(ruleset="srd-2024", name=f"bench {count}", seed=seed)
    state = msgspec.structs.replace(fold(ruleset, [created]), version=1)
    commands: list[list[Event]] = [[created]]
    snapshots: dict[int, EncounterState] = {}

    def run(command) -> None:
        nonlocal state
        events = decide(ruleset, state, command)
        before = state.version
        state = msgspec.structs.replace(fold(ruleset, events, state), version=before + len(events))
        commands.append(events)
        if state.version // SNAPSHOT_INTERVAL > before // SNAPSHOT_INTERVAL:  # as Encounters._append
            snapshots[len(commands)] = state

    for spec in SIDES:
        run(AddCombatant(combatant=spec))
    run(BeginCombat())
    for face, spec in zip((20, 15, 10, 5), SIDES):
        run(RollInitiative(combatant=spec.id, faces=(face,)))
    while state.version < count:
        cid = state.turn
        assert cid is not None
        run(Move(combatant=cid, feet=5))
        run(Attack(attacker=cid, target=TARGETS[cid]))
        run(EndTurn(combatant=cid))
    return Fight(commands, snapshots, state)


def long_fight_events(count: int, seed: int = 1) -> list[list[Event]]:
    return long_fight(count, seed).commands


def store_fight(encounters: Encounters, fight: Fight | list[list[Event]], chunk: int = 5000, snapshots: bool = True) -> UUID:
    """Append a prepared fight in large batches (building the data is not what is measured)."""
    if not isinstance(fight, Fight):
        fight = Fight(fight, {}, EncounterState(ruleset="srd-2024", phase="", rules=NoRules()))
    encounter_id = uuid.uuid4()
    seq = 0
    batch: list[Recorded] = []
    states: list[EncounterState] = []
    wanted = {state.version for state in fight.snapshots.values()} if snapshots else set()
    heads: dict[int, str] = {}  # the chain hash at each seq a snapshot is taken at
    head = chain.GENESIS
    at = datetime.now(UTC)

    def put(batch: list[Recorded]) -> None:
        # Sealed into the hash chain as the service seals them, so that a load trusts the
        # snapshots bound to it (an unbound snapshot is passed over: docs/trust.md).
        nonlocal head
        sealed = chain.seal(head, batch)
        head = sealed[-1].hash
        heads.update((r.seq, r.hash) for r in sealed if r.seq in wanted)
        encounters.log.of(encounter_id).events.put(sealed)

    for n, events in enumerate(fight.commands, start=1):
        command_id = uuid.uuid4().hex
        for event in events:
            seq += 1
            batch.append(
                Recorded(
                    originator_id=encounter_id,
                    originator_version=seq,
                    timestamp=at,
                    actor="gm",
                    command_id=command_id,
                    event=event,
                )
            )
        if snapshots and n in fight.snapshots:
            states.append(fight.snapshots[n])
        if len(batch) >= chunk:
            put(batch)
            batch = []
    if batch:
        put(batch)
    snapshots_store = encounters.log.of(encounter_id).snapshots
    if states:
        assert snapshots_store is not None
        snapshots_store.put(
            [
                Snapshot(
                    originator_id=encounter_id,
                    originator_version=state.version,
                    timestamp=at,
                    state=state,
                    head=heads[state.version],
                    digest=chain.snapshot_digest(encounter_id, state.version, heads[state.version], state),
                )
                for state in states
            ]
        )
    return encounter_id
