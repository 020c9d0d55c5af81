"""Twenty-one, as a ruleset from outside the package: players count up in turn, each adding
1, 2 or 3 to the running total; whoever says 21 loses. Two phases (setup, counting), one
command of its own, one event of its own, its own typed state; everything else is the
kernel's (an encounter is created, phases change, the GM rules in words).

A plug-in: `pip install ./examples/twenty_one` and the registry finds `RULESET` through the
entry point in its pyproject.toml (docs/write-a-ruleset.md walks through this file)."""

from __future__ import annotations

from typing import ClassVar

import msgspec

from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Ruleset, Tx, assemble
from combat.kernel.encounter import ENCOUNTER
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import Hidden
from combat.kernel.phases import PhaseTable, Step
from combat.kernel.state import EncounterState, with_rules


class Count(Command, frozen=True, kw_only=True):
    """Say the next number: the running total plus 1, 2 or 3."""

    player: str
    by: int  # 1, 2 or 3, and never past 21


class Counted(Event, frozen=True, kw_only=True):
    """`player` said `total`."""

    player: str
    total: int
    hidden: ClassVar[Hidden] = Hidden.said("total")  # said aloud: that is the game


class Tally(msgspec.Struct, frozen=True, kw_only=True):
    total: int = 0
    said_by: tuple[str, ...] = ()  # who said each number, in order


def _count(tx: Tx, cmd: Count) -> None:
    total = tx.state.rules.total
    if not 1 <= cmd.by <= 3 or total + cmd.by > 21:
        raise RuleError("count/invalid", f"cannot add {cmd.by} to {total}", allowed=f"1 to {min(3, 21 - total)}")
    tx.emit(Counted(player=cmd.player, total=total + cmd.by))


def _counted(state: EncounterState[Tally], e: Counted) -> EncounterState[Tally]:
    said = state.rules.said_by + (e.player,) * (e.total - state.rules.total)
    return with_rules(state, total=e.total, said_by=said)


COUNTING = Rules(
    handlers={Count: _count}, appliers={Counted: _counted}, narration={Counted: lambda n, e: f"{e.player} says {e.total}"}
)

RULESET = Ruleset.of(
    assemble(ENCOUNTER, COUNTING),
    id="twenty-one",
    title="Twenty-one",
    summary="Count up by 1 to 3; whoever says 21 loses.",
    phases=PhaseTable(
        "twenty-one",
        ("setup", "counting"),
        [Step("count", ("setup", "counting"), "counting"), Step("ruling", ("setup", "counting"))],
        "setup",
    ),
    turn_order=lambda state, include_surprised: [],
    state_type=Tally,
    state_key="twenty_one",
)
