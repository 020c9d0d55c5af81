"""How long the `combat` command takes to answer, against a bare `python -c pass` timed in the
same run by the same interpreter (bytecode written, as an installed package has it): `combat --help`, and `combat do` sending one attack (with
service-rolled dice) to a fight in its turns, which opens the store, loads the encounter from
its snapshot, decides, appends and prints the narrative. Each figure is the median of
alternating runs, so a burst of load on the machine touches all three alike."""

from __future__ import annotations

import os
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from combat.bench.fixtures import SIDES

__all__ = ["run", "TARGETS"]

TARGETS = {"help": 3.0, "do": 8.0}  # at most this many times a bare interpreter's start (issue 33)


def _combat() -> list[str]:
    script = Path(sys.executable).with_name("combat")
    return [str(script)] if script.exists() else [sys.executable, "-m", "combat.cli"]


def _fight(db: Path) -> str:
    from combat.app.application import Encounters
    from combat.fivee.initiative import RollInitiative
    from combat.kernel.commands import AddCombatant, BeginCombat

    encounters = Encounters(db)
    try:
        eid = encounters.create("srd-2024", "startup", seed=5)
        for spec in SIDES[:1] + SIDES[2:3]:  # Aria against the ogre
            encounters.execute(eid, AddCombatant(combatant=spec))
        encounters.execute(eid, BeginCombat())
        encounters.execute(eid, RollInitiative(combatant="aria", faces=(20,)))
        encounters.execute(eid, RollInitiative(combatant="ogre", faces=(1,)))
        return str(eid)
    finally:
        encounters.close()


def _seconds(argv: list[str], env: dict[str, str]) -> float:
    start = time.perf_counter()
    subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, env=env)
    return time.perf_counter() - start


def run(workdir: Path, repeat: int) -> dict[str, Any]:
    db = workdir / "startup.db"
    eid = _fight(db)
    # As an installed package runs: with its bytecode written (a first run writes it) and
    # d20's parser cached, so the untimed warm-up below pays for both.
    env = {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}
    env["COMBAT_DB"] = str(db)
    combat = _combat()
    for argv in ([*combat, "--help"], [*combat, "show", eid]):
        subprocess.run(argv, check=True, stdout=subprocess.DEVNULL, env=env)
    turns = ("aria", "ogre")
    bare, help_, do = [], [], []
    for i in range(repeat):
        bare.append(_seconds([sys.executable, "-c", "pass"], env))
        help_.append(_seconds([*combat, "--help"], env))
        # One attack per turn, then the turn ends, so every `do` timed is one that appends.
        who = turns[i % 2]
        do.append(
            _seconds([*combat, "do", eid, f'{{"type": "attack", "attacker": "{who}", "target": "{turns[1 - i % 2]}"}}'], env)
        )
        subprocess.run(
            [*combat, "do", eid, f'{{"type": "end_turn", "combatant": "{who}"}}'], check=True, stdout=subprocess.DEVNULL, env=env
        )
    medians = {name: statistics.median(times) * 1000 for name, times in (("bare", bare), ("help", help_), ("do", do))}
    ratios = {name: medians[name] / medians["bare"] for name in TARGETS}
    return {
        "runs": repeat,
        "bare_python_ms": medians["bare"],
        "help_ms": medians["help"],
        "do_ms": medians["do"],
        "ratio_help": ratios["help"],
        "ratio_do": ratios["do"],
        "targets": TARGETS,
        "met": all(ratios[name] <= TARGETS[name] for name in TARGETS),
    }
