"""Every event a ruleset brings beyond the kernel's has its own line of narration.

The kernel's events are told by projections/narrative.py; a ruleset's own, and those of the
rule modules it is built from (the 5e family's, beside their rules in combat/fivee), are told
by the `narration` of its `Rules`. A type left without a line reads in `combat log` and the
audit as its bare class name."""

from __future__ import annotations

import pytest

from combat.rulesets import RULESETS

RULESETS.load_all()


@pytest.mark.parametrize("ruleset_id", list(RULESETS))
def test_each_event_type_of_the_ruleset_has_a_line_in_it(ruleset_id: str) -> None:
    """'One human line per own event type' (combat/kernel/decider.py, `Ruleset.narration`)."""
    ruleset = RULESETS[ruleset_id]
    assert ruleset.events, "a shipped ruleset brings events of its own"
    assert [t.__name__ for t in ruleset.events if t not in ruleset.narration] == []
