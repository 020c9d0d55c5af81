"""Twenty-one: players count up in turn, each adding 1, 2 or 3 to the running total (or
leaving it to a die); whoever says 21 loses. Two phases (setup, counting), one command and
one event of its own, its own typed state; everything else is the kernel's (an encounter is
created, phases change, the GM rules in words)."""

from __future__ import annotations

from typing import ClassVar

import msgspec

from combat.kit import (
    ENCOUNTER,
    Command,
    EncounterState,
    Event,
    Hidden,
    PhaseTable,
    RuleError,
    Rules,
    Ruleset,
    Step,
    Tx,
    assemble,
    declared,
    with_rules,
)


class Count(Command, frozen=True, kw_only=True):
    """Say the next number: the running total plus 1, 2 or 3, or what a die says."""

    player: str  # who says it
    by: int | None = None  # 1, 2 or 3, and never past 21; left out, a die says it
    faces: tuple[int, ...] | None = None  # that die as rolled at the table; left out, the seed rolls it


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
    most = min(3, 21 - total)
    if most < 1:
        raise RuleError("count/over", "21 has been said", allowed="nothing: the game is over")
    by = cmd.by
    if by is None:
        by = tx.roll(f"1d{most}", purpose="count", roller=cmd.player, faces=cmd.faces).total
    if not 1 <= by <= most:
        raise RuleError("count/invalid", f"cannot add {by} to {total}", allowed=f"1 to {most}")
    tx.emit(Counted(player=cmd.player, total=total + by))


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
    turn_order=lambda state, include_dead: [],
    state_type=Tally,
    state_key="twenty_one",
    error_codes=declared(
        refused={"count/over": "21 has been said: the game is over"},
        invalid={"count/invalid": "a count is 1, 2 or 3, and never past 21"},
    ),
)
