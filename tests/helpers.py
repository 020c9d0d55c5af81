"""Helpers every folder of tests imports: a table that runs commands through decide/evolve with
no database, a few stat blocks, where the repository's files are, and how to reach the test
PostgreSQL server. Tests read as given / when / then stories. (Fixtures are in conftest.py.)"""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from pathlib import Path

import msgspec
import pytest

from combat.kernel.commands import AddCombatant, BeginCombat, Command, EndTurn, MarkSurprised, RollInitiative
from combat.kernel.decider import decide, fold
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile, CombatantSpec, EncounterCreated, Event
from combat.kernel.state import Combatant, EncounterState
from combat.rulesets import get_ruleset

ROOT = Path(__file__).resolve().parent.parent  # the repository
REPLAYS = ROOT / "replays"
DOCS = ROOT / "docs"

LONGSWORD = AttackProfile(name="Longsword", bonus=5, damage="1d8+3", damage_type="slashing")
SCIMITAR = AttackProfile(name="Scimitar", bonus=4, damage="1d6+2", damage_type="slashing")
SHORTBOW = AttackProfile(
    name="Shortbow", bonus=4, damage="1d6+2", damage_type="piercing", kind="ranged", normal_range=80, long_range=320
)


def pc(cid: str, **kw: object) -> CombatantSpec:
    fields = {
        "id": cid,
        "name": cid.title(),
        "kind": "pc",
        "side": "party",
        "max_hp": 20,
        "ac": 15,
        "initiative_bonus": 0,
        "con_save": 2,
        "attacks": (LONGSWORD,),
    }
    fields.update(kw)
    return msgspec.convert(fields, CombatantSpec, from_attributes=True)


def monster(cid: str, **kw: object) -> CombatantSpec:
    fields = {
        "id": cid,
        "name": cid.replace("-", " ").title(),
        "kind": "monster",
        "side": "monsters",
        "max_hp": 7,
        "ac": 15,
        "initiative_bonus": 0,
        "attacks": (SCIMITAR,),
    }
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


def turn_of(t: Table, cid: str) -> None:
    while t.state.turn != cid:
        t.do(EndTurn(combatant=t.state.turn))


# PostgreSQL at 127.0.0.1:5432 (trust auth, database `test`; POSTGRES_HOST, _PORT, _USER, _PASSWORD,
# _DBNAME override): the `postgres` fixture of tests/conftest.py and the tests that read the store directly.
POSTGRES_SETTINGS = {
    "POSTGRES_HOST": os.environ.get("POSTGRES_HOST", "127.0.0.1"),
    "POSTGRES_PORT": os.environ.get("POSTGRES_PORT", "5432"),
    "POSTGRES_USER": os.environ.get("POSTGRES_USER", "postgres"),
    "POSTGRES_PASSWORD": os.environ.get("POSTGRES_PASSWORD", ""),
    "POSTGRES_DBNAME": os.environ.get("POSTGRES_DBNAME", "test"),
}


def connect_postgres(settings: dict[str, str] = POSTGRES_SETTINGS):
    """A connection (autocommit) to the server `settings` name, the main one by default."""
    import psycopg

    return psycopg.connect(
        host=settings["POSTGRES_HOST"],
        port=int(settings["POSTGRES_PORT"]),
        user=settings["POSTGRES_USER"],
        password=settings["POSTGRES_PASSWORD"] or None,
        dbname=settings["POSTGRES_DBNAME"],
        autocommit=True,
        connect_timeout=3,
    )
