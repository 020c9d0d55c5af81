"""A ruleset from outside the package plugs in with one registry line and plays through the
same decide/evolve, log and projections as the built-in ones."""

from __future__ import annotations

import pytest

from combat.kernel.commands import Ruling
from combat.kernel.errors import RuleError
from combat.rulesets import RULESETS, register
from projections.state import state_view
from tests.helpers import ROOT, Table
from tests.plugins import twenty_one
from tests.plugins.twenty_one import Count, Counted, Tally


@pytest.fixture
def game():
    register(twenty_one.RULESET)
    yield Table("twenty-one")
    del RULESETS["twenty-one"]


def test_a_game_of_twenty_one_is_played_to_the_end(game):
    """'Each adds 1, 2 or 3 to the running total; whoever says 21 loses.'"""
    assert game.state.phase == "setup" and game.state.rules == Tally()
    for player, by in [("ann", 3), ("bo", 3), ("ann", 3), ("bo", 3), ("ann", 3), ("bo", 3), ("ann", 2)]:
        game.do(Count(player=player, by=by))
    assert game.state.phase == "counting" and game.state.rules.total == 20
    events = game.do(Count(player="bo", by=1))
    assert events == [Counted(player="bo", total=21)]
    assert game.state.rules.said_by[-1] == "bo"  # bo said 21: bo loses
    assert game.rebuilt() == game.state


def test_a_count_out_of_range_is_refused_and_nothing_changes(game):
    """'1, 2 or 3', and never past 21."""
    err = game.rejects(Count(player="ann", by=4), "count/invalid")
    assert err.allowed == "1 to 3"
    for by in (3, 3, 3, 3, 3, 3):
        game.do(Count(player="ann", by=by))
    assert game.rejects(Count(player="bo", by=0), "count/invalid").allowed == "1 to 3"
    game.do(Count(player="bo", by=2))
    assert game.rejects(Count(player="ann", by=2), "count/invalid").allowed == "1 to 1"


def test_the_kernels_shared_rules_come_with_it(game):
    """The GM's ruling in words is the kernel's, not the ruleset's."""
    game.do(Ruling(text="bo's first count stands"))
    with pytest.raises(RuleError) as caught:
        game.do(Ruling(text="  "))
    assert caught.value.code == "ruling/empty"


def test_its_own_state_shows_in_the_json_view_under_its_key(game):
    game.do(Count(player="ann", by=2))
    view = state_view(game.state)
    assert view["twenty_one"] == {"total": 2, "said_by": ("ann", "ann")} and "rules" not in view
    assert view["commands"] == ["count", "ruling"]


def test_registering_another_ruleset_under_a_taken_id_is_refused(game):
    with pytest.raises(RuleError) as caught:
        register(RULESETS["srd-2024"].__class__(**{**RULESETS["srd-2024"].__dict__, "id": "twenty-one"}))
    assert caught.value.code == "ruleset/duplicate"


_STORED_GAME = """
from combat.rulesets import register
from tests.plugins import twenty_one
register(twenty_one.RULESET)  # before the store and the catalog load, as a plug-in's import would

import sys
from combat.app.application import Encounters
from combat.app.interchange import read_jsonl, to_jsonl
from combat.app.history import fold_records
from projections.state import render_state_json
from tests.plugins.twenty_one import Count

encounters = Encounters(sys.argv[1])
eid = encounters.create("twenty-one", "after supper", seed=1)
for player, by in [("ann", 3), ("bo", 2), ("ann", 1)]:
    encounters.execute(eid, Count(player=player, by=by))
live = encounters.state(eid)
encounters._cache.clear()
assert encounters.state(eid) == live  # read back from the store
lines = b"".join(to_jsonl(encounters.records(eid))).splitlines()
assert fold_records(read_jsonl(lines)) == live  # and from its JSONL export
print(render_state_json(live))
"""


def test_a_registered_ruleset_is_stored_exported_and_projected_like_any_other(tmp_path):
    """The log, its JSONL export and the state projection know the plug-in's event and state
    once it is registered: nothing in the kernel or the application names it."""
    import json
    import subprocess
    import sys

    root = ROOT
    done = subprocess.run([sys.executable, "-c", _STORED_GAME, str(tmp_path / "c.db")], capture_output=True, text=True, cwd=root)
    assert done.returncode == 0, done.stderr
    view = json.loads(done.stdout)
    assert view["ruleset"] == "twenty-one" and view["twenty_one"] == {"total": 6, "said_by": ["ann"] * 3 + ["bo"] * 2 + ["ann"]}


_REGISTERED_LATE = """
import sys
from combat.app.application import Encounters
from combat.app.catalog import event_decoder
from combat.app.interchange import read_jsonl, to_jsonl
from combat.app.history import fold_records
from combat.kernel.events import EncounterCreated
from projections.narrative import Narrator

db = sys.argv[1]
encounters = Encounters(db)
first = encounters.create("srd-2024", "before the plug-in", seed=1)
encounters._cache.clear()
assert encounters.state(first).ruleset == "srd-2024"  # the store's decoder is built and used
assert type(event_decoder().decode(b'{"type":"EncounterCreated","ruleset":"srd-2024","name":"x","seed":1}')) is EncounterCreated

from combat.rulesets import register
from tests.plugins import twenty_one
from tests.plugins.twenty_one import Count, Counted
register(twenty_one.RULESET)  # after the catalog, the store and the decoders were built

eid = encounters.create("twenty-one", "after supper", seed=1)
for player, by in [("ann", 3), ("bo", 2), ("ann", 1)]:
    encounters.execute(eid, Count(player=player, by=by))
live = encounters.state(eid)
reopened = Encounters(db)
assert reopened.state(eid) == live  # read back from the store by another service
records = list(reopened.records(eid))
assert [type(r.event) for r in records].count(Counted) == 3
lines = b"".join(to_jsonl(records)).splitlines()
assert fold_records(read_jsonl(lines)) == live  # and from its JSONL export
assert reopened.state(first).ruleset == "srd-2024"  # the older encounter still reads
narrator = Narrator()
print(live.rules.total, [narrator.line(r) for r in records][-1:])
"""


def test_a_ruleset_registered_after_the_store_and_catalog_were_built_is_stored_and_read_back(tmp_path):
    """Registering is safe whenever it runs: what is built from the registry (the event union,
    the log's decoder, the command parsers) is built again once the registry has changed, so
    a plug-in registered after the first encounter was read reads its own events back."""
    import subprocess
    import sys

    root = ROOT
    done = subprocess.run(
        [sys.executable, "-c", _REGISTERED_LATE, str(tmp_path / "c.db")], capture_output=True, text=True, cwd=root
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout.split(" ", 1) == ["6", "['ann says 6']\n"]  # its own narration too


def test_the_catalog_follows_the_registry_in_one_process(game):
    """The catalog's functions read the registry as it is now; the old constant names too."""
    from combat.app import catalog

    assert Counted in catalog.event_types() and Count in catalog.all_command_types()
    assert Counted in catalog.ALL_EVENT_TYPES
    assert catalog.command_types_of("twenty-one")["count"] is Count
    del RULESETS["twenty-one"]
    try:
        assert Counted not in catalog.event_types()
        with pytest.raises(RuleError) as caught:
            catalog.command_types_of("twenty-one")
        assert caught.value.code == "ruleset/unknown"
    finally:
        register(twenty_one.RULESET)
