"""Each ruleset loads when it is first needed (issue 33: every `combat` command imported all
five, and `combat do` took 11.4-11.9x a bare interpreter's start). A command on an srd-2024
fight loads srd-2024 alone; a log of another ruleset, read by a process that has not loaded
it, reads back exactly as it was written, from the store and from its JSONL export.

The test process has every ruleset loaded, so what a fresh process loads is asked of one."""

from __future__ import annotations

import importlib
import json
import os
import subprocess
import sys

from combat.app.application import Encounters
from combat.app.interchange import to_jsonl
from combat.demos import get_demo
from combat.rulesets import BUILT_IN, RULESETS
from projections.state import render_state_json
from tests.helpers import ROOT, monster, pc, stored_fight

_FRESH = """
import json, sys
from uuid import UUID
from combat.app.application import Encounters
from combat.rulesets import BUILT_IN

db, eid, at, command = sys.argv[1], UUID(sys.argv[2]), int(sys.argv[3]) or None, sys.argv[4]
encounters = Encounters(db)
if command:
    from combat.app.catalog import decode_command
    encounters.execute(eid, decode_command(command, "srd-2024"))
from projections.state import render_state_json
state = render_state_json(encounters.state(eid, at=at))
loaded = sorted(m for m in BUILT_IN.values() if m in sys.modules)
print(json.dumps({"loaded": loaded, "state": json.loads(state)}))
"""


def _fresh(db, eid, *, at: int = 0, command: str = "") -> dict:
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    done = subprocess.run(
        [sys.executable, "-c", _FRESH, str(db), str(eid), str(at), command], capture_output=True, text=True, env=env
    )
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_every_built_in_ruleset_package_is_named_in_the_registry_with_its_id():
    """'Adding one is a module and a line in BUILT_IN': each package of combat/rulesets with a
    RULESET is listed, under the RULESET's own id, so none is left out of the lazy registry."""
    packages = {f"combat.rulesets.{p.name}" for p in (ROOT / "combat" / "rulesets").iterdir() if (p / "__init__.py").exists()}
    assert set(BUILT_IN.values()) == packages
    for ruleset_id, module in BUILT_IN.items():
        assert importlib.import_module(module).RULESET.id == ruleset_id
        assert RULESETS[ruleset_id] is importlib.import_module(module).RULESET


def test_an_attack_in_an_srd_2024_fight_loads_srd_2024_alone(tmp_path):
    """Aria attacks the goblin from a fresh process, as `combat do` does: the attack is
    decided and stored, and the other four rulesets stay unloaded."""
    db = tmp_path / "fight.db"
    encounters = Encounters(db)
    eid = stored_fight(encounters, "Bridge", (pc("aria"), monster("goblin")), {"aria": 20, "goblin": 1}, seed=3)
    before = encounters.state(eid).version
    encounters.close()
    attack = {"type": "attack", "attacker": "aria", "target": "goblin", "faces": [15]}
    fresh = _fresh(db, eid, command=json.dumps(attack))
    assert fresh["loaded"] == ["combat.rulesets.srd2024"]
    assert fresh["state"]["version"] > before


def test_an_a5e_fight_reads_back_whole_in_a_process_that_had_not_loaded_a5e(tmp_path):
    """The a5e demo read by a fresh process from the store, part-way (no snapshot before it:
    every row decoded from the first) and at its end, and replayed from its JSONL export by
    `combat replay`: the same state as where it was played."""
    db = tmp_path / "a5e.db"
    encounters = Encounters(db)
    eid = get_demo("a5e")(encounters, seed=4, report=lambda outcome: None)
    records = list(encounters.records(eid))
    middle = 60
    expected = {at: json.loads(render_state_json(encounters.state(eid, at=at or None))) for at in (middle, 0)}
    exported = tmp_path / "a5e.jsonl"
    exported.write_bytes(b"".join(to_jsonl(records)))
    encounters.close()
    assert any(type(r.event).__module__.startswith("combat.rulesets.a5e") for r in records[:middle])
    for at, state in expected.items():
        fresh = _fresh(db, eid, at=at)
        assert fresh["state"] == state
        assert "combat.rulesets.a5e" in fresh["loaded"]
    replayed = subprocess.run(
        [sys.executable, "-m", "combat.cli", "replay", str(exported), "--json"],
        capture_output=True,
        text=True,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert replayed.returncode == 0, replayed.stderr
    assert json.loads(replayed.stdout) == expected[0]
