"""A rule may emit only an event its ruleset applies (`Tx.emit`): an event without an applier
would be stored and folded as if it changed nothing. This session's rooms refactor left a
stat block's limited uses (`UseSpent`, combat/fivee/monster_uses.py) out of the 5e assembly
for a while: a Recharge action was used, stored, and never counted as spent. Now such an
assembly fails on the first command that emits the event, naming it."""

from __future__ import annotations

import dataclasses

import pytest

from combat.fivee.monster_actions import MonsterAction
from combat.fivee.monster_uses import UseSpent
from combat.fivee.monsters import AddCreature
from combat.kernel.commands import EndTurn
from combat.rulesets import get_ruleset
from tests.helpers import Table, pc


def _lair(ruleset) -> Table:
    t = Table(ruleset).add(pc("aria", max_hp=120, ac=15))
    t.do(AddCreature(creature="Adult Red Dragon", side="dragon"))
    t.start({"aria": 20, "adult-red-dragon": 1})
    t.do(EndTurn(combatant="aria"))
    return t


def test_a_ruleset_missing_the_applier_of_an_event_its_rules_emit_fails_naming_it():
    """Fire Breath (Recharge 5-6) is spent when used: its `UseSpent` must be applied."""
    full = get_ruleset("srd-2024")
    without = dataclasses.replace(full, appliers={k: v for k, v in full.appliers.items() if k is not UseSpent})
    t = _lair(without)
    with pytest.raises(TypeError, match="srd-2024 emits UseSpent but has no applier for it"):
        t.do(MonsterAction(combatant="adult-red-dragon", action="fire breath"))


def test_the_shipped_ruleset_applies_it():
    t = _lair(get_ruleset("srd-2024"))
    events = t.do(MonsterAction(combatant="adult-red-dragon", action="fire breath"))
    assert any(isinstance(e, UseSpent) for e in events)
