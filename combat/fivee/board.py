"""What a 5e board shows of a combatant beyond the shared state, read from the ruleset's own
block: the spell slots a character has left per level, and the death saves of one dying.
The 5e rulesets declare them as their views (combat/kernel/views.py: `slots_left`,
`death_saves`), which `combat show` prints; the table screen reads the same from the state's
JSON (combat/web/static/js/sheet.js)."""

from __future__ import annotations

from dataclasses import dataclass

from combat.fivee.characters import character
from combat.fivee.dying import dying_of
from combat.kernel.state import EncounterState

__all__ = ["SlotsLeft", "slots_left", "death_saves", "dying", "slot_words"]

_ORDINAL = ("1st", "2nd", "3rd", "4th", "5th", "6th", "7th", "8th", "9th")


@dataclass(frozen=True)
class SlotsLeft:
    level: str  # "1st" ... "9th", or "pact (3rd)"
    left: int
    of: int

    def __str__(self) -> str:
        return f"{self.level} {self.left}/{self.of}"


def slots_left(state: EncounterState, cid: str) -> tuple[SlotsLeft, ...]:
    """The spell slots `cid` has left per level (its sheet's, less those spent), Pact Magic's
    last; none for a combatant without a sheet or without spellcasting."""
    found = character(state, cid)
    casting = found.sheet.spellcasting if found is not None else None
    if found is None or casting is None:
        return ()
    spent = found.slots_spent
    slots = [
        SlotsLeft(_ORDINAL[i], max(0, of - (spent[i] if i < len(spent) else 0)), of) for i, of in enumerate(casting.slots) if of
    ]
    if casting.pact_slots:
        level = _ORDINAL[casting.pact_level - 1] if 0 < casting.pact_level <= 9 else str(casting.pact_level)
        slots.append(SlotsLeft(f"pact ({level})", max(0, casting.pact_slots - found.pact_spent), casting.pact_slots))
    return tuple(slots)


def dying(state: EncounterState, cid: str) -> bool:
    """At 0 HP and not dead: a character, or a creature that has made a death save (the GM
    treats it like one)."""
    c = state.combatants[cid]
    return c.hp == 0 and c.status != "dead" and (c.kind == "pc" or cid in dying_of(state).tallies)


def death_saves(state: EncounterState, cid: str) -> str | None:
    """'1 success, 2 failures' (', stable' once stable) for a dying combatant; None otherwise."""
    if not dying(state, cid):
        return None
    tally = dying_of(state).tallies.get(cid)
    successes, failures = (tally.successes, tally.failures) if tally is not None else (0, 0)
    text = f"{successes} success{'' if successes == 1 else 'es'}, {failures} failure{'' if failures == 1 else 's'}"
    return text + (", stable" if tally is not None and tally.stable else "")


def slot_words(state: EncounterState, cid: str) -> tuple[str, ...]:
    return tuple(map(str, slots_left(state, cid)))
