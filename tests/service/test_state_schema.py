"""The published JSON Schema of the state (GET /schemas/state, issue 11: "The JSON Schema of
the state is fully typed (one alternative per ruleset)"): a tool following a fight without
Python reads which ruleset the encounter plays from `ruleset`, and that ruleset's own block
from the alternative it names. Each ruleset's demo fight, as the service shows it, is checked."""

from __future__ import annotations

import json

import jsonschema_rs
import pytest

from combat.app.application import Encounters
from combat.demos import DEMOS
from combat.rulesets import RULESETS
from combat.service.schemas import state_schema, stream_schema
from projections.state import render_state_json


@pytest.fixture(scope="module")
def demo_views(tmp_path_factory) -> dict[str, dict]:
    """Each ruleset's demo fight at its end, as the state's JSON view (what GET returns)."""
    encounters = Encounters(tmp_path_factory.mktemp("schema") / "demos.db")
    try:
        return {
            ruleset: json.loads(render_state_json(encounters.state(demo(encounters, seed=1, report=lambda outcome: None))))
            for ruleset, demo in DEMOS.items()
        }
    finally:
        encounters.close()


def _alternative(schema: dict, ruleset: str) -> dict:
    """The part of the schema that describes one ruleset's state."""
    ref = schema["discriminator"]["mapping"][ruleset]
    return {"$schema": schema["$schema"], "$ref": ref, "$defs": schema["$defs"]}


def test_the_state_schema_has_one_alternative_per_ruleset_named_by_its_ruleset():
    schema = state_schema()
    assert set(schema["discriminator"]["mapping"]) == set(RULESETS)
    assert len(schema["oneOf"]) == len(RULESETS)
    for ruleset in RULESETS.values():
        definition = schema["$defs"][schema["discriminator"]["mapping"][ruleset.id].rpartition("/")[2]]
        assert definition["properties"]["ruleset"] == {"const": ruleset.id}
        assert "ruleset" in definition["required"] and definition["additionalProperties"] is False
        # Its own block is typed (a reference to its state type), and no other ruleset's is there.
        others = {r.state_key for r in RULESETS.values() if r.state_key and r.state_key != ruleset.state_key}
        assert not others & set(definition["properties"])
        if ruleset.state_key:
            block = definition["properties"][ruleset.state_key]
            assert block == {"$ref": f"#/$defs/{ruleset.state_type.__name__}"}


@pytest.mark.parametrize("ruleset", list(DEMOS))
def test_each_demo_state_validates_against_its_rulesets_alternative_and_no_other(demo_views, ruleset):
    schema = state_schema()
    view = demo_views[ruleset]
    assert view["ruleset"] == ruleset
    assert jsonschema_rs.validator_for(schema).is_valid(view)
    assert jsonschema_rs.validator_for(_alternative(schema, ruleset)).is_valid(view)
    for other in RULESETS:
        if other != ruleset:
            assert not jsonschema_rs.validator_for(_alternative(schema, other)).is_valid(view), other
            # Not only the name: a block of its own is not a field of another ruleset's state.
            own_key = RULESETS[ruleset].state_key
            if own_key in view:
                renamed = {**view, "ruleset": other}
                assert not jsonschema_rs.validator_for(_alternative(schema, other)).is_valid(renamed), other


def test_a_demo_state_with_a_mistyped_block_is_refused(demo_views):
    """The block is typed, not `object`: an a5e scene whose round length is text does not pass."""
    view = demo_views["a5e"]
    assert "a5e" in view
    broken = {**view, "a5e": {**view["a5e"], "round_seconds": "six"}}
    assert not jsonschema_rs.validator_for(state_schema()).is_valid(broken)


def test_the_stream_message_carries_the_same_alternatives(demo_views):
    schema = stream_schema()
    state = {"$schema": schema["$schema"], **schema["properties"]["state"], "$defs": schema["$defs"]}
    assert state["oneOf"] == state_schema()["oneOf"]
    validator = jsonschema_rs.validator_for(state)
    assert validator.is_valid(demo_views["srd-2024"])
    assert not validator.is_valid({**demo_views["srd-2024"], "ruleset": "no-such-ruleset"})
