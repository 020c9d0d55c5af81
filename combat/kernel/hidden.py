"""Hidden information, declared per event type: what a player or viewer sees of an event
about a combatant the GM keeps behind the screen.

Every event class says it once, next to its fields, as the class variable `hidden`:

    class AttackMade(Event, frozen=True, kw_only=True):
        ...
        hidden: ClassVar[Hidden] = Hidden.of(target=("target_ac",), attacker=("natural",))

reads "when the `target` is hidden from the reader, `target_ac` is blanked; when the
`attacker` is, `natural` (total minus natural is its bonus)". `PUBLIC` says the event
carries nothing secret; `Hidden.custom(fn)` hands the event to `fn(event, judge)` when the
secret is inside a nested value (a combatant's whole stat block at set-up, a hidden
condition's name). Blanked means `None`, or `()` for a list: "not shown", never a zero.

A secret also leaks through what is *derived* from it (issue 30): a hidden monster's rolled
HP in its roll's total, its resistance in the damage taken next to the damage rolled, its
save DC, its attack's name. So every field whose name says it may carry such a number
(`carries_numbers`: a total, a DC, an attack, an amount, a roll...) is declared too: blanked
with the combatant it comes from, or said aloud at the table (`aloud=`, a to-hit total the
GM calls out), and `undeclared_numbers` names every field that is neither. A custom rule
says which fields it covers (`covers=`).

Who is hidden from whom is the reader's `Judge` (projections/redaction.py, judged on the
encounter's state); this module only says what each event keeps back. The registry refuses
a ruleset with an event type that does not declare it (`undeclared`), and a test goes over
every registered type, so a new event cannot leak by being forgotten.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from typing import Any, Protocol

import msgspec

__all__ = [
    "shown",
    "Hidden",
    "Judge",
    "PUBLIC",
    "UNDECLARED",
    "blank",
    "carries_numbers",
    "damage_dealt",
    "undeclared",
    "undeclared_numbers",
]


class Judge(Protocol):
    """A reader's view of what is hidden, judged on the encounter's state."""

    def hidden(self, cid: str | None, kind: str | None = None, side: str | None = None) -> bool:
        """Is this combatant's sheet hidden from the reader? `kind` and `side` describe one
        the state does not know (being added)."""
        ...

    def hidden_condition(self, target: str, name: str) -> bool:
        """Is `name` a hidden condition of `target` the reader may not know of (now or once)?"""
        ...


@dataclass(frozen=True)
class Hidden:
    """One event type's rule: for each field naming a combatant (a str, a tuple of them, or
    None), the fields blanked when that combatant is hidden; or a function of its own."""

    blanks: tuple[tuple[str, tuple[str, ...]], ...] = ()
    redact: Callable[[Any, Judge], Any] | None = None
    declared: bool = True
    # Fields shown to every reader although their names say they may carry numbers: what is
    # said aloud at the table (an attack's total, initiative), or numbers of no hidden sheet.
    aloud: tuple[str, ...] = ()
    # The fields a custom rule blanks or words over (it names them itself).
    covers: tuple[str, ...] = ()

    @classmethod
    def of(cls, aloud: tuple[str, ...] = (), **about: tuple[str, ...]) -> Hidden:
        """`Hidden.of(target=("target_ac",), aloud=("total",))`: blank `target_ac` when
        `target` is hidden; `total` is said aloud."""
        return cls(blanks=tuple(about.items()), aloud=aloud)

    @classmethod
    def custom(cls, redact: Callable[[Any, Judge], Any], covers: tuple[str, ...] = (), aloud: tuple[str, ...] = ()) -> Hidden:
        return cls(redact=redact, covers=covers, aloud=aloud)

    @classmethod
    def said(cls, *aloud: str) -> Hidden:
        """Nothing secret: these numbers are said aloud (`PUBLIC`, with its numbers named)."""
        return cls(aloud=aloud)

    @property
    def public(self) -> bool:
        return self.declared and not self.blanks and self.redact is None

    def declares(self, name: str) -> bool:
        """Whether this rule says what a reader sees of field `name`: blanked, covered or aloud."""
        return name in self.fields() or name in self.covers or name in self.aloud

    def apply(self, event: Any, judge: Judge) -> Any:
        """The event as the judged reader may see it (the same object when nothing is kept back)."""
        if not self.declared:
            return _withheld(event, judge)
        if self.redact is not None:
            return self.redact(event, judge)
        names: list[str] = []
        for about, fields in self.blanks:
            if _names_hidden(getattr(event, about), judge):
                names.extend(fields)
        return blank(event, names) if names else event

    def fields(self) -> tuple[str, ...]:
        """Every field this rule may blank (the redacted schemas make them optional)."""
        return tuple(dict.fromkeys(name for _, names in self.blanks for name in names))


PUBLIC = Hidden()
# The base class's: a type that said nothing. The registry refuses it; were one read anyway,
# every field but its type is kept from a reader who is not the GM.
UNDECLARED = Hidden(declared=False)


def _names_hidden(value: Any, judge: Judge) -> bool:
    if isinstance(value, str):
        return judge.hidden(value)
    if isinstance(value, tuple):
        return any(isinstance(v, str) and judge.hidden(v) for v in value)
    return False


def blank(struct: Any, names: Iterable[str]) -> Any:
    """The struct with these fields emptied: None, or () for a list (not shown, not zero)."""
    fields = set(struct.__struct_fields__)
    changes = {n: () if isinstance(getattr(struct, n), tuple) else None for n in names if n in fields}
    return msgspec.structs.replace(struct, **changes) if changes else struct


def _withheld(event: Any, judge: Judge) -> Any:
    return blank(event, event.__struct_fields__)


# The words of a field name that say it may carry a combatant's numbers, or what they give
# away: a roll and its total, a DC, a bonus or modifier, AC, HP, damage rolled and taken, an
# attack's name (it names a stat block's attack profile).
NUMBER_WORDS = frozenset(
    ("total", "natural", "dc", "ac", "hp", "bonus", "modifier", "needed", "number", "rolled")
    + ("amount", "damage", "dr", "attack", "strike", "dice", "notation")
)


def carries_numbers(name: str) -> bool:
    """Whether a field named so may carry a combatant's numbers (`opponent_total`, `dc`...)."""
    return not NUMBER_WORDS.isdisjoint(name.split("_"))


def undeclared_numbers(types: Iterable[type]) -> list[str]:
    """`Type.field` for every field that may carry a hidden combatant's numbers and that its
    type's `hidden` neither blanks, covers nor says aloud."""
    missing = []
    for t in types:
        rule = vars(t).get("hidden")
        for name in t.__struct_fields__:  # type: ignore[attr-defined]
            if carries_numbers(name) and not (isinstance(rule, Hidden) and rule.declares(name)):
                missing.append(f"{t.__name__}.{name}")
    return missing


def damage_dealt(amount: int | None, rolled: int, damage_type: str) -> str:
    """Damage in a narrative line as a reader may see it: what was taken, and what was rolled
    when that differs; only what was rolled when the amount is blanked (next to the roll, it
    would give a hidden creature's resistances away)."""
    if amount is None:
        return f"{rolled} {damage_type} rolled"
    return f"{amount} {damage_type}" + (f" ({rolled} rolled)" if amount != rolled else "")


def undeclared(types: Iterable[type]) -> list[str]:
    """The names of the event types that do not declare `hidden` themselves (an inherited
    rule would be another type's, written for other fields)."""
    return [t.__name__ for t in types if not isinstance(vars(t).get("hidden"), Hidden)]


def shown(text: str | None, before: str = "", after: str = "") -> str:
    """A blanked (None) value's words left out of a line; otherwise `before`, it, `after`."""
    return "" if text is None else f"{before}{text}{after}"
