"""previous_turn in a5e takes a surprised participant's first turn back without ending it.

"Surprised creatures ... are unable to use a reaction until after their first turn": the end of
that first turn ends the surprise, but a turn the GM takes back will come again, so its
surprise stands, and a re-check after a changed past (the demo amends a ruling earlier) does
not call it a conflict. Found by the decider fuzzer (a5e demo, seed 2, 85 events)."""

from __future__ import annotations

import msgspec

from combat.app.application import Encounters
from combat.app.history import HISTORY_TYPES, extend, replay
from combat.demos import get_demo
from combat.fivee.turn_pointer import PreviousTurn
from combat.kernel.decider import decide
from combat.kernel.events import TurnEnded
from combat.rulesets import get_ruleset


def test_taking_back_a_surprised_first_turn_keeps_the_surprise_and_no_conflict(tmp_path):
    encounters = Encounters(tmp_path / "a5e.db")
    try:
        demo = get_demo("a5e")(encounters, seed=2, report=lambda outcome: None)
        records = list(encounters.records(demo, upto=85))
    finally:
        encounters.close()
    assert any(isinstance(r.event, HISTORY_TYPES) for r in records)  # the past was changed earlier
    state = replay(records)
    current = state.combatants[state.turn]
    events = decide(get_ruleset("a5e"), state, PreviousTurn(reason="the GM skipped ahead by mistake"))
    later = [
        msgspec.structs.replace(records[-1], originator_version=records[-1].seq + i, event=e, hash="")
        for i, e in enumerate(events, start=1)
    ]
    ended = [e for e in events if isinstance(e, TurnEnded)]
    assert ended and ended[0].taken_back and ended[0].combatant == current.id
    live = extend(state, later)
    assert live is not None and live.combatants[current.id].surprised == current.surprised
    assert replay(records + later) == live  # the re-check finds nothing the decision allowed
