"""How long a condition lasts, in words: the narrative's "until the end of Mira's turn", for
a condition of any ruleset (its `ends`, `rounds`, `concentration` and repeated `save`)."""

from __future__ import annotations

from collections.abc import Callable

from msgspec import UNSET

from combat.kernel.events import ConditionSpec

__all__ = ["lasting_words"]


def lasting_words(cond: ConditionSpec, name_of: Callable[[str | None], str]) -> str:
    """What ends `cond`, in words for the narrative (empty when nothing does)."""
    parts = []
    if cond.ends:
        rounds = f" {cond.rounds} rounds on (round {cond.until_round})" if cond.rounds is not UNSET else ""
        parts.append(f"until the {cond.ends} of {name_of(cond.ends_on)}'s turn{rounds}")
    if cond.concentration is not UNSET:
        parts.append(f"while {name_of(cond.concentration)} concentrates on {cond.effect}")
    if cond.save is not UNSET:
        dc = "" if cond.save.dc is None else f"DC {cond.save.dc} "  # None: a hidden caster's, not shown
        parts.append(f"repeating a {dc}{cond.save.ability.title()} save at the end of each of its turns")
    return ", ".join(parts)
