"""The statistics tables on PostgreSQL (issue 34: "in the same store (SQLite by default,
PostgreSQL when the service uses it)"): the same numbers as on SQLite, and a rebuild."""

from __future__ import annotations

from combat.app.application import Encounters
from combat.stats.answers import Scope
from combat.store.stats_tables import COLUMNS
from tests.stats.helpers import play_two_fights


def test_the_two_fights_add_up_the_same_on_postgresql(postgres):
    """Brann 32 dealt in 3 hits and 6 d20s, Elara 48 and one miss; one undo, one amendment;
    a rebuild gives the same rows (a column named `natural`, reserved in PostgreSQL, included)."""
    encounters = Encounters(env=postgres)
    try:
        played = play_two_fights(encounters)
        found = encounters.stats.gm(Scope(campaign=str(played.campaign)))
        assert [(c.name, c.damage_dealt, c.hits, c.misses, c.d20.rolls) for c in found.characters] == [
            ("Brann", 32, 3, 0, 6),
            ("Elara", 48, 0, 1, 3),
            ("Goblin 1", 0, 0, 1, 3),
            ("Goblin 2", 0, 0, 0, 1),
        ]
        assert found.rulings == {"amend": 1, "retract": 1}
        before = {t: encounters.stats.tables.select(t, counted=False) for t in COLUMNS}
        encounters.stats.rebuild()
        assert {t: encounters.stats.tables.select(t, counted=False) for t in COLUMNS} == before
    finally:
        encounters.close()
