"""Property: retracting any command (named by any of its events) and then retracting that retraction changes nothing."""

from __future__ import annotations

import tempfile
from pathlib import Path

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from combat.app.application import Encounters
from combat.app.history import replay
from combat.demos.srd2024 import run_demo

_LOGS: dict[int, tuple[Path, object]] = {}
_TMP = tempfile.TemporaryDirectory()


def _recorded_fight(seed: int):
    """One demo fight per seed, recorded once and reused by every example."""
    if seed not in _LOGS:
        db = Path(_TMP.name) / f"fight-{seed}.db"
        encounters = Encounters(db)
        eid = run_demo(encounters, seed=seed, report=lambda outcome: None)
        encounters.close()
        _LOGS[seed] = (db, eid)
    return _LOGS[seed]


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(1, 3), pick=st.floats(0, 1, exclude_max=True))
def test_undo_then_undo_of_the_undo_is_a_no_op(seed, pick):
    db, eid = _recorded_fight(seed)
    with tempfile.TemporaryDirectory() as tmp:
        copy = Path(tmp) / "copy.db"
        copy.write_bytes(db.read_bytes())
        encounters = Encounters(copy)
        try:
            before = encounters.state(eid)
            candidates = [r.seq for r in encounters.records(eid) if r.seq > 1 and r.seq not in before.retracted]
            target = candidates[int(pick * len(candidates))]
            undo = encounters.retract(eid, [target], reason="property", whole=True)
            redo = encounters.retract(eid, [undo.records[0].seq], reason="property, undone")
            after = redo.state
            assert after.version == before.version + 2
            assert after.combatants == before.combatants
            assert (after.phase, after.round, after.turn, after.rolls) == (before.phase, before.round, before.turn, before.rolls)
            assert after.conflicts == before.conflicts
            assert replay(encounters.records(eid)) == after
        finally:
            encounters.close()
