"""Test helpers: a table that runs commands through decide/evolve with no database, and a
few stat blocks. Tests read as given / when / then stories."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from pathlib import Path

import msgspec
import pytest

from combat.app.application import Encounters
from combat.kernel.commands import AddCombatant, BeginCombat, Command, MarkSurprised, RollInitiative
from combat.kernel.decider import decide, fold
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile, CombatantSpec, EncounterCreated, Event
from combat.rulesets import get_ruleset
from combat.kernel.state import Combatant, EncounterState

LONGSWORD = AttackProfile(name="Longsword", bonus=5, damage="1d8+3", damage_type="slashing")
SCIMITAR = AttackProfile(name="Scimitar", bonus=4, damage="1d6+2", damage_type="slashing")
SHORTBOW = AttackProfile(
    name="Shortbow", bonus=4, damage="1d6+2", damage_type="piercing", kind="ranged", normal_range=80, long_range=320
)


def pc(cid: str, **kw: object) -> CombatantSpec:
    fields = {"id": cid, "name": cid.title(), "kind": "pc", "side": "party", "max_hp": 20, "ac": 15,
              "initiative_bonus": 0, "con_save": 2, "attacks": (LONGSWORD,)}
    fields.update(kw)
    return msgspec.convert(fields, CombatantSpec, from_attributes=True)


def monster(cid: str, **kw: object) -> CombatantSpec:
    fields = {"id": cid, "name": cid.replace("-", " ").title(), "kind": "monster", "side": "monsters",
              "max_hp": 7, "ac": 15, "initiative_bonus": 0, "attacks": (SCIMITAR,)}
    fields.update(kw)
    return msgspec.convert(fields, CombatantSpec, from_attributes=True)


class Table:
    """An encounter run through the pure decider: no store, no clock."""

    def __init__(self, ruleset: str = "srd-2024", seed: int = 1, settings: dict | None = None):
        self.ruleset = get_ruleset(ruleset)
        created = EncounterCreated(ruleset=self.ruleset.id, name="test", seed=seed, settings=self.ruleset.settings(settings))
        self.state: EncounterState = fold(self.ruleset, [created])
        self.events: list[Event] = [created]

    def do(self, command: Command, actor: str = "gm") -> list[Event]:
        new = decide(self.ruleset, self.state, command, actor)
        self.state = fold(self.ruleset, new, self.state)
        self.events.extend(new)
        return new

    def rejects(self, command: Command, code: str, actor: str = "gm") -> RuleError:
        """The command is refused with `code`, and nothing changes."""
        before, count = self.state, len(self.events)
        with pytest.raises(RuleError) as caught:
            self.do(command, actor)
        assert caught.value.code == code, caught.value
        assert self.state is before and len(self.events) == count
        return caught.value

    def __getitem__(self, cid: str) -> Combatant:
        return self.state.combatants[cid]

    def rebuilt(self) -> EncounterState:
        return fold(self.ruleset, self.events)

    def add(self, *specs: CombatantSpec) -> Table:
        for spec in specs:
            self.do(AddCombatant(combatant=spec))
        return self

    def start(self, initiative: dict[str, int], surprised: Sequence[str] = ()) -> Table:
        """Begin combat and roll initiative with entered d20 faces (`{id: face}`), in that order.

        Two faces are entered for a surprised combatant (Disadvantage): the face given and a 20.
        """
        self.do(BeginCombat())
        if surprised:
            self.do(MarkSurprised(combatants=tuple(surprised)))
        for cid, face in initiative.items():
            faces = (face, 20) if self[cid].surprised else (face,)
            self.do(RollInitiative(combatant=cid, faces=faces))
        return self


def of_type(events: Iterable[Event], kind: type) -> list:
    return [e for e in events if isinstance(e, kind)]


@pytest.fixture
def table() -> Table:
    return Table()


@pytest.fixture
def encounters(tmp_path: Path):
    store = Encounters(tmp_path / "combat.db")
    yield store
    store.close()
