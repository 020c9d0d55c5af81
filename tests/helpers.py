"""Helpers every folder of tests imports: a table that runs commands through decide/evolve with
no database, a few stat blocks, where the repository's files are, and how to reach the test
PostgreSQL server. Tests read as given / when / then stories. (Fixtures are in conftest.py.)"""

from __future__ import annotations

import importlib.util
import os
import signal
import site
import subprocess
import sys
import time
from collections.abc import Callable, Iterable, Sequence
from pathlib import Path
from typing import Any
from uuid import UUID

import httpx
import msgspec

from combat import testing
from combat.bench.servers import connect_postgres as connect_postgres  # for the tests that read the store directly
from combat.bench.servers import postgres_settings
from combat.characters.build import build_sheet
from combat.characters.sheet import CharacterSheet
from combat.fivee.characters import AddCharacter
from combat.fivee.initiative import OrderTie, RollInitiative
from combat.fivee.monsters import AddCreature
from combat.kernel.commands import AddCombatant, BeginCombat, Command, EndTurn, MarkSurprised
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile, CombatantSpec, Event
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState
from projections.audit import audit

ROOT = Path(__file__).resolve().parent.parent  # the repository
REPLAYS = ROOT / "replays"
DOCS = ROOT / "docs"
# The SRD 5.2 records as Open5e compiles them, which scripts/ build the shipped data from: in
# ../shared beside the repository (or beside the folder of worktrees), when they are there.
SRD_RECORDS = next(
    (
        p / "shared" / "data" / "srd-5.2"
        for p in (ROOT.parent, ROOT.parent.parent)
        if (p / "shared" / "data" / "srd-5.2").exists()
    ),
    Path("../shared/data/srd-5.2"),
)

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

    @classmethod
    def as_rolled(cls, ruleset: str = "srd-2024") -> Table:
        """A table of `ruleset` whose turns go in the order initiative rolled (srd-2024-variant's
        players may re-order them before round 1 unless told not to)."""
        return cls(ruleset, settings={"initiative_reorder": False} if ruleset == "srd-2024-variant" else None)

    def add(self, *specs: CombatantSpec) -> Table:
        for spec in specs:
            self.do(AddCombatant(combatant=spec))
        return self

    def foes(self, *names: str, first: int = 10) -> dict[str, int]:
        """One creature of each stat block named, one by one (`bandit-1`, `bandit-2`...: the
        stat block and the place in the list), on the side "foes": each one's id and its initiative
        face, `first`, then one less for each."""
        order = {}
        for i, name in enumerate(names):
            cid = f"{name.lower()}-{i + 1}"
            self.do(AddCreature(creature=name, side="foes", id_prefix=cid))
            order[cid] = first - i
        return order

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


# The six scores the spell tests' casters share, by class (their docstrings say what a spell reads
# from them: Intelligence 20 is +5, spell save DC 19 at level 17; Wisdom 18 is +4).
CASTER_SCORES = {
    "Wizard": "STR 8 DEX 14 CON 14 INT 20 WIS 12 CHA 10",
    "Cleric": "STR 10 DEX 10 CON 14 INT 10 WIS 18 CHA 12",
    "Druid": "STR 10 DEX 12 CON 14 INT 10 WIS 18 CHA 10",
}


def spellcaster(name: str, class_name: str, level: int, *spells: str, scores: str | None = None, **kw: object) -> CharacterSheet:
    """`build_sheet` of a spellcaster knowing `spells`, with its class's CASTER_SCORES unless `scores` are given."""
    return build_sheet(
        name=name, class_name=class_name, level=level, scores=scores or CASTER_SCORES[class_name], spells=spells, **kw
    )  # type: ignore[arg-type]


# The party the tests meet again and again, each always with the same class and six scores
# (Elara: Intelligence 16, Dexterity 14; Brann: Strength 16; Vex: Dexterity 16); what each
# carries and knows, and the level, are each test's own.
PARTY = {
    "Elara": ("Wizard", "STR 8 DEX 14 CON 12 INT 16 WIS 12 CHA 10"),
    "Brann": ("Fighter", "STR 16 DEX 12 CON 14 INT 10 WIS 12 CHA 8"),
    "Vex": ("Rogue", "STR 8 DEX 16 CON 14 INT 12 WIS 10 CHA 13"),
}


def member(name: str, level: int = 5, *spells: str, **kw: object) -> CharacterSheet:
    """`build_sheet` of one of the PARTY at `level`, knowing `spells`, with `kw` (armor, weapons...)."""
    class_name, scores = PARTY[name]
    return spellcaster(name, class_name, level, *spells, scores=scores, **kw)


def first_of(creature: str, count: int) -> str:
    """The id of the first of `count` `creature`s added at once (`bandit` alone, `bandit-1` of a
    group): a group rolls one initiative, under that id."""
    base = creature.lower().replace(" ", "-")
    return f"{base}-1" if count > 1 else base


def against(
    sheet: CharacterSheet,
    creature: str = "Bandit",
    count: int = 2,
    *,
    initiative: tuple[int, int] = (20, 1),
    ally: CombatantSpec | None = None,
    side: str = "foes",
    table: Table | None = None,
    player: str | None = "sam",
) -> Table:
    """`sheet` (the party's, played by `player`) against `count` `creature`s (`side`), combat
    begun: the character rolls `initiative[0]`, the creatures' group `initiative[1]`, and `ally`
    (if any) joins the party last and rolls a 1."""
    t = table or Table()
    t.do(AddCharacter(character=sheet, side="party", player=player))
    t.do(AddCreature(creature=creature, count=count, side=side))
    order = {sheet.name.lower(): initiative[0], first_of(creature, count): initiative[1]}
    if ally is not None:
        t.add(ally)
        order[ally.id] = 1
    return t.start(order)


def next_turn(t: Table, cid: str) -> list[Event]:
    """The turn at hand ended, then each turn up to `cid`'s next: the last EndTurn's events."""
    events = t.do(EndTurn(combatant=t.state.turn))
    while t.state.turn != cid:
        events = t.do(EndTurn(combatant=t.state.turn))
    return events


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


def stored_fight(
    encounters,
    name: str,
    specs: Sequence[CombatantSpec],
    initiative: dict[str, int],
    *,
    seed: int | None = 1,
    ruleset: str = "srd-2024",
    settings: dict | None = None,
) -> UUID:
    """An encounter of `ruleset` (srd-2024 by default) stored in `encounters`: `specs` added in
    order, combat begun, and initiative rolled with entered faces (`{id: face}`) in that order."""
    eid = encounters.create(ruleset, name, seed=seed, settings=settings)
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


def amended_then_overridden(encounters, eid, seq: int, ruling: str) -> None:
    """The GM lets the conflict an amendment left at `seq` stand by `ruling`: no conflict is
    left, and the audit lists the amendment, then the override of `seq`."""
    encounters.override(eid, [seq], ruling=ruling)
    assert encounters.state(eid).conflicts == ()
    report = audit(encounters.records(eid))
    assert [c.kind for c in report.changes] == ["amendment", "override"]
    assert report.overridden[0]["seq"] == seq


def random_turns(
    live,
    eid: UUID,
    steps: int,
    command_for: Callable[[EncounterState], Command],
    after_each: Callable[[EncounterState], None] | None = None,
) -> None:
    """For the property tests: initiative rolled by the encounter's seed and its ties ordered as
    they stand, then up to `steps` commands of `command_for(state)` while turns last. A refused
    command must change nothing; `after_each` checks the state after each command."""
    live.execute(eid, RollInitiative())
    for tie in live.state(eid).ties:
        live.execute(eid, OrderTie(order=tuple(live.state(eid).combatants[u[0]].unit for u in tie.units)))
    for _ in range(steps):
        before = live.state(eid)
        if before.phase != "turns":
            break
        try:
            live.execute(eid, command_for(before))
        except RuleError:
            assert live.state(eid) == before, "a rejected command changed the state"
        if after_each is not None:
            after_each(live.state(eid))


def turn_of(t: Table, cid: str) -> None:
    while t.state.turn != cid:
        t.do(EndTurn(combatant=t.state.turn))


def killed_mid_stream(*args: str, delays: Sequence[float] = (0.3, 0.5, 0.7)) -> None:
    """`python -c *args` started from the repository once a delay, and each time killed with
    SIGKILL `delay` seconds after it prints "ready" (so mid-way through what it does)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    for delay in delays:
        proc = subprocess.Popen([sys.executable, "-c", *args], stdout=subprocess.PIPE, env=env, cwd=ROOT)
        assert proc.stdout is not None and proc.stdout.readline().strip() == b"ready"
        time.sleep(delay)
        proc.send_signal(signal.SIGKILL)
        proc.wait()


def script_build(script: str, source: Path, to: Path) -> int:
    """What `build(source, to)` of scripts/`script`.py returns (it writes its output to `to`).
    The scripts import their shared module from their folder, as they do when run."""
    if str(ROOT / "scripts") not in sys.path:
        sys.path.append(str(ROOT / "scripts"))
    spec = importlib.util.spec_from_file_location(script, ROOT / "scripts" / f"{script}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.build(source, to)


def first_answer(url: str, server: subprocess.Popen | None = None, **kw: Any) -> httpx.Response:
    """The reply to GET `url` once a `combat serve` just started answers at all (within 20 s;
    `server`, if given, must still be running meanwhile); `kw` are httpx.get's."""
    deadline = time.monotonic() + 20
    while True:
        try:
            return httpx.get(url, **kw)
        except httpx.TransportError:
            assert (server is None or server.poll() is None) and time.monotonic() < deadline, "combat serve did not answer"
            time.sleep(0.1)


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
