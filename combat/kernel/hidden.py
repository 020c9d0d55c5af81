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

__all__ = ["Hidden", "Judge", "PUBLIC", "UNDECLARED", "blank", "undeclared"]


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

    @classmethod
    def of(cls, **about: tuple[str, ...]) -> Hidden:
        """`Hidden.of(target=("target_ac",))`: blank `target_ac` when `target` is hidden."""
        return cls(blanks=tuple(about.items()))

    @classmethod
    def custom(cls, redact: Callable[[Any, Judge], Any]) -> Hidden:
        return cls(redact=redact)

    @property
    def public(self) -> bool:
        return self.declared and not self.blanks and self.redact is None

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


def undeclared(types: Iterable[type]) -> list[str]:
    """The names of the event types that do not declare `hidden` themselves (an inherited
    rule would be another type's, written for other fields)."""
    return [t.__name__ for t in types if not isinstance(vars(t).get("hidden"), Hidden)]
