"""The audit: who did what and when, every roll and its source, every undo and amendment
with its reason and the events it touched, the conflicts, and a dice audit per roller.

Unlike the state, the audit keeps everything: a retracted event is still listed, marked
with the seq of what retracted it.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from typing import Any

import msgspec

from combat.app.history import effective, replay
from combat.kernel import events as ev
from combat.kernel.records import Recorded
from projections.narrative import Narrator

__all__ = ["Audit", "audit", "chi_square_p_value", "MIN_ROLLS_FOR_FAIRNESS"]

# Pearson's chi-square test is only trusted when every face is expected at least 5 times:
# 5 x 20 faces. Below that the audit shows the counts and no p-value, rather than one that
# would call a fair die loaded (or a loaded one fair) on too little evidence.
MIN_ROLLS_FOR_FAIRNESS = 100


class Entry(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    at: str
    actor: str
    command_id: str
    type: str
    line: str
    counts: bool
    retracted_by: int | None = None


class RollEntry(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    roller: str
    actor: str
    purpose: str
    notation: str | None  # None: the roll of a combatant not revealed to this reader
    faces: tuple[int, ...]
    total: int | None  # None: the total of a combatant not revealed to this reader (its rolled HP)
    source: str
    counts: bool


class Change(msgspec.Struct, frozen=True, kw_only=True):
    seq: int
    kind: str  # retraction, amendment, override
    actor: str
    at: str
    reason: str
    touched: tuple[int, ...]
    replaced_by: tuple[int, ...] = ()
    counts: bool = True


class DiceAudit(msgspec.Struct, frozen=True, kw_only=True):
    """The d20 faces one roller produced in the effective history: counts of 1..20 and, from
    MIN_ROLLS_FOR_FAIRNESS d20s on, how plausible they are if the die is fair."""

    roller: str
    d20s: int
    entered: int
    faces: tuple[int, ...]  # faces[0] is how many 1s
    chi_square: float | None
    p_value: float | None


class Audit(msgspec.Struct, frozen=True, kw_only=True):
    entries: tuple[Entry, ...]
    rolls: tuple[RollEntry, ...]
    changes: tuple[Change, ...]
    conflicts: tuple[dict[str, Any], ...]
    overridden: tuple[dict[str, Any], ...]
    dice: tuple[DiceAudit, ...]


def audit(records: Iterable[Recorded], shown: Callable[[Recorded], Recorded] = lambda rec: rec) -> Audit:
    """The audit of a log; `shown` gives each record as the reader may see it (the fold
    that finds conflicts reads the records as they are: see projections.redaction)."""
    records = list(records)
    history = effective(records)
    state = replay(records)
    narrator = Narrator()
    entries: list[Entry] = []
    rolls: list[RollEntry] = []
    changes: list[Change] = []
    by_roller: dict[str, list[tuple[int, str]]] = {}
    for rec in map(shown, records):
        counts = rec.seq not in history.retracted_by
        at = msgspec.json.encode(rec.timestamp).decode().strip('"')
        entries.append(
            Entry(
                seq=rec.seq,
                at=at,
                actor=rec.actor,
                command_id=rec.command_id,
                type=type(rec.event).__name__,
                line=narrator.line(rec),
                counts=counts,
                retracted_by=history.retracted_by.get(rec.seq),
            )
        )
        e = rec.event
        if isinstance(e, ev.DiceRolled):
            rolls.append(
                RollEntry(
                    seq=rec.seq,
                    roller=narrator.name(e.roller),
                    actor=rec.actor,
                    purpose=e.purpose,
                    notation=e.notation,
                    faces=tuple(d.face for d in e.dice),
                    total=e.total,
                    source=e.source,
                    counts=counts,
                )
            )
            for die in e.dice if counts else ():  # undone rolls and the originals of an amendment don't count
                if die.sides == 20:
                    by_roller.setdefault(narrator.name(e.roller), []).append((die.face, e.source))
        elif isinstance(e, (ev.EventsRetracted, ev.RulingAmended, ev.ConflictOverridden)):
            kind = {ev.EventsRetracted: "retraction", ev.RulingAmended: "amendment"}.get(type(e), "override")
            replaced = (
                tuple(r.seq for r in records if r.command_id == rec.command_id and r.seq > rec.seq) if kind == "amendment" else ()
            )
            changes.append(
                Change(
                    seq=rec.seq,
                    kind=kind,
                    actor=rec.actor,
                    at=at,
                    reason=str(getattr(e, "reason", None) or getattr(e, "ruling", "")),
                    touched=e.seqs,
                    replaced_by=replaced,
                    counts=counts,
                )
            )
    overridden = tuple(
        {"seq": seq, "ruling_seq": by, "line": entries[seq - 1].line} for seq, by in sorted(history.overridden.items())
    )
    conflicts = tuple({**msgspec.to_builtins(c), "line": entries[c.seq - 1].line} for c in state.conflicts)
    return Audit(
        entries=tuple(entries),
        rolls=tuple(rolls),
        changes=tuple(changes),
        conflicts=conflicts,
        overridden=overridden,
        dice=tuple(_dice_audit(roller, faces) for roller, faces in sorted(by_roller.items())),
    )


def _dice_audit(roller: str, faces: list[tuple[int, str]]) -> DiceAudit:
    counts = [0] * 20
    for face, _ in faces:
        counts[face - 1] += 1
    n = len(faces)
    chi = p = None
    if n >= MIN_ROLLS_FOR_FAIRNESS:
        expected = n / 20
        chi = sum((c - expected) ** 2 / expected for c in counts)
        p = chi_square_p_value(chi, 19)
    return DiceAudit(
        roller=roller,
        d20s=n,
        entered=sum(1 for _, s in faces if s == "entered"),
        faces=tuple(counts),
        chi_square=None if chi is None else round(chi, 4),
        p_value=None if p is None else round(p, 6),
    )


def chi_square_p_value(statistic: float, dof: int) -> float:
    """P(X >= statistic) for a chi-square distribution: the regularized upper gamma Q(dof/2, x/2)."""
    return _gamma_q(dof / 2, statistic / 2)


def _gamma_q(a: float, x: float) -> float:
    if x <= 0:
        return 1.0
    if x < a + 1:  # series for P, then Q = 1 - P
        term = total = 1.0 / a
        n = a
        for _ in range(1000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-15:
                break
        return max(0.0, 1.0 - total * math.exp(-x + a * math.log(x) - math.lgamma(a)))
    # continued fraction (Lentz) for Q
    tiny = 1e-300
    b = x + 1 - a
    c = 1 / tiny
    d = 1 / b
    h = d
    for i in range(1, 1000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        delta = d * c
        h *= delta
        if abs(delta - 1) < 1e-15:
            break
    return min(1.0, math.exp(-x + a * math.log(x) - math.lgamma(a)) * h)
