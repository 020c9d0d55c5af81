"""Dodge, Disengage and a readied action are the 5e block's, not every combatant's
(combat/fivee/until_next_turn.py): what a tool reads in the state's JSON, and that the block
holds them only while they last."""

import msgspec

from combat.fivee.action_commands import TakeAction
from combat.fivee.until_next_turn import has_disengaged, is_dodging, readied_of
from combat.kernel.commands import EndTurn
from combat.kernel.state import Combatant
from projections.state import render_state_json
from tests.helpers import Table, monster, pc


def _json(state) -> dict:
    """The state as a tool reads it (GET /encounters/{id}, `combat show --json`)."""
    return msgspec.json.decode(render_state_json(state))


def test_no_ruleset_s_combatant_carries_the_5e_turn_flags():
    """The kernel's combatant holds what every ruleset reads; a Dodge is the 5e family's."""
    assert not {"dodging", "disengaged", "readied"} & {f.name for f in msgspec.structs.fields(Combatant)}


def test_a_dodge_a_disengage_and_a_readied_action_show_in_the_5e_block_until_the_next_turn():
    """Dodge: 'Until the start of your next turn, any attack roll made against you has
    Disadvantage'; Ready: 'you can take the action ... before the start of your next turn'."""
    t = Table().add(pc("aria"), monster("goblin"), pc("bram")).start({"aria": 15, "goblin": 10, "bram": 5})
    fresh = _json(t.state).get("srd_2024", {})
    t.do(TakeAction(combatant="aria", action="dodge"))
    t.do(EndTurn(combatant="aria"))
    t.do(TakeAction(combatant="goblin", action="disengage"))
    t.do(EndTurn(combatant="goblin"))
    t.do(TakeAction(combatant="bram", action="ready", detail="the goblin comes within reach"))
    block = _json(t.state)["srd_2024"]
    assert (block["dodging"], block["disengaged"]) == (["aria"], ["goblin"])
    assert block["readied"] == {"bram": "the goblin comes within reach"}
    assert "dodging" not in _json(t.state)["combatants"]["aria"]
    t.do(EndTurn(combatant="bram"))  # round 2: Aria's turn starts, her Dodge ends
    assert not is_dodging(t.state, "aria") and has_disengaged(t.state, "goblin")
    assert readied_of(t.state, "bram") == "the goblin comes within reach"
    t.do(EndTurn(combatant="aria"))
    t.do(EndTurn(combatant="goblin"))  # Bram's turn: his readied action lapses unused
    assert readied_of(t.state, "bram") is None and not has_disengaged(t.state, "goblin")
    assert _json(t.state).get("srd_2024", {}) == fresh  # an emptied slot is unset, not []
