"""Helpers every folder of tests imports: a table that runs commands through decide/evolve with
no database, a few stat blocks, where the repository's files are, and how to reach the test
PostgreSQL server. Tests read as given / when / then stories. (Fixtures are in conftest.py.)"""

from __future__ import annotations

import importlib.util
import os
import site
import subprocess
import sys
from collections.abc import Iterable, Sequence
from pathlib import Path
from uuid import UUID

import msgspec

from combat import testing
from combat.bench.servers import connect_postgres as connect_postgres  # for the tests that read the store directly
from combat.bench.servers import postgres_settings
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import AddCombatant, BeginCombat, EndTurn, MarkSurprised
from combat.kernel.events import AttackProfile, CombatantSpec, Event
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState

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


class Table(testing.Table):
    """The shipped harness (combat.testing), srd-2024 by default, with the 5e set-up in a line:
    combatants added and initiative rolled with entered faces."""

    def __init__(self, ruleset: str = "srd-2024", seed: int = 1, settings: dict | None = None):
        super().__init__(ruleset, seed, settings)

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


def played_demo(db: Path, ruleset: str, seed: int) -> tuple[list[Recorded], EncounterState]:
    """The ruleset's scripted demo fight played to its end on a new store at `db`: its records and its state."""
    from combat.app.application import Encounters
    from combat.demos import get_demo

    encounters = Encounters(db)
    try:
        eid = get_demo(ruleset)(encounters, seed=seed, report=lambda outcome: None)
        return list(encounters.records(eid)), encounters.state(eid)
    finally:
        encounters.close()


def left_wounded_in_a_fight(db: Path | str, character: str, hp: int) -> None:
    """The default campaign's `character`, stored at `db`, joins a srd-2024 skirmish there and is left at `hp`."""
    from combat.app.application import Encounters
    from combat.campaigns.records import DEFAULT_CAMPAIGN
    from combat.fivee.characters import AddCharacter
    from combat.fivee.gm_edit_commands import SetHp

    store = Encounters(db)
    try:
        eid = store.create("srd-2024", "a skirmish", seed=1, campaign=DEFAULT_CAMPAIGN)
        store.execute(eid, AddCharacter(character=character, side="party"))
        store.execute(eid, SetHp(combatant=character.lower(), hp=hp))
    finally:
        store.close()


def stored_fight(encounters, name: str, specs: Sequence[CombatantSpec], initiative: dict[str, int], *, seed: int = 1) -> UUID:
    """A srd-2024 encounter stored in `encounters`: `specs` added in order, combat begun, and
    initiative rolled with entered faces (`{id: face}`) in that order."""
    eid = encounters.create("srd-2024", name, seed=seed)
    for spec in specs:
        encounters.execute(eid, AddCombatant(combatant=spec))
    encounters.execute(eid, BeginCombat())
    for cid, face in initiative.items():
        encounters.execute(eid, RollInitiative(combatant=cid, faces=(face,)))
    return eid


def redone(encounters, eid, command, why: str) -> tuple[EncounterState, EncounterState]:
    """`command` sent, undone as disputed, and the undo undone (a redo) because `why`: the state
    the command left and the state after the redo, whose one retracted event is the first undo."""
    encounters.execute(eid, command)
    sent = encounters.state(eid)
    encounters.undo_last(eid, reason="disputed")
    encounters.undo_last(eid, reason=why)
    state = encounters.state(eid)
    assert state.retracted == (state.version - 1,)
    return sent, state


def turn_of(t: Table, cid: str) -> None:
    while t.state.turn != cid:
        t.do(EndTurn(combatant=t.state.turn))


def plugin_env(*paths: Path) -> dict[str, str]:
    """The environment of a `combat` run in a subprocess: this checkout's code first (as the
    tests import it), then `paths`."""
    return {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), *map(str, paths)]),
        "PIP_DISABLE_PIP_VERSION_CHECK": "1",
        "PIP_NO_INPUT": "1",
    }


def fresh_venv(where: Path) -> Path:
    """A fresh venv (its python) that sees the packages of the environment running the tests
    (combat and its dependencies, pip, setuptools, pytest) without copying them, so nothing
    is downloaded for it and nothing is installed into the environment running the tests."""
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(where)], check=True)
    python = where / "bin" / "python"
    purelib = subprocess.run(
        [python, "-c", "import sysconfig; print(sysconfig.get_paths()['purelib'])"], check=True, capture_output=True, text=True
    ).stdout.strip()
    (Path(purelib) / "_combat_under_test.pth").write_text(
        "".join(f"import site; site.addsitedir({p!r})\n" for p in site.getsitepackages())
    )
    return python


def _builds_offline() -> bool:
    """setuptools builds a wheel by itself from 70.1; before, it needs `wheel` beside it."""
    import setuptools

    major, minor = (int(part) for part in setuptools.__version__.split(".")[:2])
    return (major, minor) >= (70, 1) or importlib.util.find_spec("wheel") is not None


def pip_install(python: Path, project: Path, cwd: Path) -> None:
    """`pip install` the project at `project` (no dependencies: the venv sees them) into `python`'s venv."""
    # Without build isolation where setuptools can build the wheel here (no index needed);
    # otherwise pip fetches setuptools for the build from the configured index.
    offline = ["--no-build-isolation"] if _builds_offline() else []
    installed = subprocess.run(
        [python, "-m", "pip", "install", "-q", "--no-deps", *offline, str(project)],
        capture_output=True,
        text=True,
        env=plugin_env(),
        cwd=cwd,
    )
    assert installed.returncode == 0, installed.stdout + installed.stderr


# PostgreSQL at 127.0.0.1:5432 (trust auth, database `test`; POSTGRES_HOST, _PORT, _USER, _PASSWORD,
# _DBNAME override): the `postgres` fixture of tests/conftest.py and the tests that read the store
# directly (connect_postgres), as the benchmarks reach it.
POSTGRES_SETTINGS = postgres_settings()
