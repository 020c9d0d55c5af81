"""The shared rules (combat/common) keep no state type of their own: where one keeps something
between events, it writes a slot the ruleset's own state declares. A ruleset that applies the
event which writes the slot must declare it, or its first use fails mid-fight."""

from __future__ import annotations

import msgspec
import pytest

from combat.common.commands import ConcentrationSave, Damage, StartConcentration
from combat.common.events import ConcentrationCheckRequired
from combat.rulesets import RULESETS
from projections.state import render_state_json
from tests.helpers import Table, monster, pc

RULESETS.load_all()

# Each event of the shared rules that writes a slot of the ruleset's state, and that slot.
WRITES_A_SLOT = {ConcentrationCheckRequired: "pending_checks"}


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_a_ruleset_applying_a_shared_event_declares_the_slot_it_writes(ruleset_id: str) -> None:
    ruleset = RULESETS[ruleset_id]
    fields = {f.name for f in msgspec.structs.fields(ruleset.state_type)}
    missing = [slot for event, slot in WRITES_A_SLOT.items() if event in ruleset.appliers and slot not in fields]
    assert missing == []


def test_segments_1e_owes_no_concentration_save_and_keeps_no_slot_for_one() -> None:
    """1e: concentration is 'always broken by ... caster takes damage': no save to keep it."""
    assert ConcentrationCheckRequired not in RULESETS["segments-1e"].appliers


def test_a_concentration_save_owed_shows_in_the_5e_block_until_it_is_made() -> None:
    """'Whenever you take damage while you are concentrating on a spell, you must make a
    Constitution saving throw to maintain your concentration. The DC equals 10 or half the
    damage you take, whichever number is higher.' Aria, concentrating, takes 24: DC 12."""
    t = Table().add(pc("aria", max_hp=40), monster("goblin")).start({"aria": 15, "goblin": 10})
    t.do(StartConcentration(combatant="aria", effect="Bless"))
    t.do(Damage(target="aria", amount=24, damage_type="slashing"))
    view = msgspec.json.decode(render_state_json(t.state))
    assert view["srd_2024"]["pending_checks"] == [{"combatant": "aria", "dc": 12, "damage": 24}]
    assert "pending_checks" not in view
    t.do(ConcentrationSave(combatant="aria", faces=(15,)))
    assert "pending_checks" not in msgspec.json.decode(render_state_json(t.state)).get("srd_2024", {})
