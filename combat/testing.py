"""The test harness shipped for ruleset authors (docs/write-a-ruleset.md), as structlog ships
`structlog.testing`: an encounter played through the pure decider, with no store, no clock
and no HTTP, so a rule is tested as "given these events, when this command, then these
events or this refusal". It needs no test framework: a failed expectation is an
`AssertionError`, which pytest and unittest both report.

    table = Table(RULESET)                      # or Table("twenty-one"), a registered id
    table.do(Count(player="ann", by=3))         # -> [Counted(player="ann", total=3)]
    table.rejects(Count(player="bo", by=4), "count/invalid")
    assert table.rebuilt() == table.state       # the log folds back to what was played
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from combat.kernel.commands import Command
from combat.kernel.decider import GM, Ruleset, decided, fold
from combat.kernel.errors import RuleError
from combat.kernel.events import EncounterCreated, Event
from combat.kernel.state import Combatant, EncounterState

__all__ = ["Table"]


class Table:
    """One encounter of `ruleset` (a `Ruleset`, or the id of a registered one), created with
    `seed` and `settings` and played command by command. `events` is its log so far and
    `state` what the log folds to."""

    def __init__(self, ruleset: Ruleset | str, seed: int = 1, settings: Mapping[str, Any] | None = None):
        if isinstance(ruleset, str):
            from combat.rulesets import get_ruleset  # an id asks the registry; a Ruleset needs none

            ruleset = get_ruleset(ruleset)
        self.ruleset = ruleset
        created = EncounterCreated(ruleset=ruleset.id, name="test", seed=seed, settings=ruleset.settings(settings))
        self.events: list[Event] = [created]
        self.state: EncounterState = fold(ruleset, self.events)

    def given(self, *events: Event) -> Table:
        """The encounter as if `events` had already happened (folded, not decided)."""
        self.state = fold(self.ruleset, events, self.state)
        self.events.extend(events)
        return self

    def do(self, command: Command, actor: str = GM) -> list[Event]:
        """Decide `command` sent by `actor` and keep its events; a refusal raises its `RuleError`."""
        new, self.state = decided(self.ruleset, self.state, command, actor)
        self.events.extend(new)
        return new

    def rejects(self, command: Command, code: str, actor: str = GM) -> RuleError:
        """Assert `command` is refused with `code` and nothing changed; the refusal, to look into."""
        before, count = self.state, len(self.events)
        try:
            self.do(command, actor)
        except RuleError as refused:
            assert refused.code == code, f"refused as {refused.code}, not {code}: {refused}"
            assert self.state is before and len(self.events) == count, "a refused command changed the encounter"
            return refused
        raise AssertionError(f"{command!r} was not refused (expected {code})")

    def rebuilt(self) -> EncounterState:
        """The state folded afresh from the log: equal to `state` when every event says all it did."""
        return fold(self.ruleset, self.events)

    def __getitem__(self, cid: str) -> Combatant:
        return self.state.combatants[cid]
