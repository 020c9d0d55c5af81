"""The encounter state cache is bounded: a long-running service keeps the most recently used
states and loads any other from its snapshot, with the same result."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from combat.app.application import Encounters
from combat.app.cache import StateCache
from combat.kernel.commands import AddCombatant
from tests.helpers import pc


def test_a_state_pushed_out_of_the_cache_is_loaded_again_unchanged(tmp_path):
    encounters = Encounters(tmp_path / "combat.db", cached=2)
    try:
        ids = [encounters.create("srd-2024", f"table {n}", seed=n) for n in range(5)]
        for eid in ids:
            encounters.execute(eid, AddCombatant(combatant=pc("aria")))
        assert len(encounters._cache) == 2
        first = encounters.state(ids[0])  # long evicted: loaded from the store
        assert first.name == "table 0" and "aria" in first.combatants and first.version == 2
        encounters.execute(ids[0], AddCombatant(combatant=pc("bron")))
        assert set(encounters.state(ids[0]).combatants) == {"aria", "bron"}
        assert len(encounters._cache) == 2
    finally:
        encounters.close()


@settings(max_examples=50, deadline=None)
@given(size=st.integers(1, 5), touches=st.lists(st.integers(0, 9), max_size=40))
def test_the_cache_never_holds_more_than_its_size_and_keeps_the_latest(size, touches):
    cache: StateCache[int] = StateCache(size)
    import uuid

    keys = [uuid.UUID(int=n) for n in range(10)]
    for n in touches:
        cache.put(keys[n], n)
    assert len(cache) <= size
    recent = list(dict.fromkeys(reversed(touches)))[:size]
    assert all(cache.get(keys[n]) == n for n in recent)
