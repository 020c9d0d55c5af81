"""The narrative log: one human line per event, e.g.
`Round 2 - Goblin 1 attacks Aria: 17 vs AC 15, hit, 7 slashing`."""

from __future__ import annotations

from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from combat.kernel import events as ev
from combat.kernel.condition_words import lasting_words
from combat.kernel.hidden import shown
from combat.kernel.records import Recorded
from combat.rulesets import RULESETS
from projections.visible import visible

__all__ = ["Narrator", "narrate"]


@dataclass
class Narrator:
    """A fold that remembers names and the round, so each line reads on its own."""

    names: dict[str, str] = field(default_factory=dict)
    round: int = 0
    amending: tuple[str, tuple[int, ...]] | None = None  # (command id, seqs replaced) of the last amendment
    rounds: dict[int, int] = field(default_factory=dict)  # seq -> the round it stands in

    def name(self, ref: str | None) -> str:
        if ref is None:
            return "the GM"
        return self.names.get(ref, ref)

    def line(self, rec: Recorded) -> str:
        event = rec.event
        if isinstance(event, ev.CombatantAdded):
            self.names[event.combatant.id] = event.combatant.name
            if event.combatant.group:
                self.names.setdefault(event.combatant.group, event.combatant.group.replace("-", " ").title())
        if isinstance(event, ev.RoundStarted):
            self.round = event.round
        text = _line_of(type(event))(self, event)
        round_ = self.round
        if isinstance(event, ev.RulingAmended):
            self.amending = (rec.command_id, event.seqs)
        elif self.amending and self.amending[0] == rec.command_id:
            # A corrected event takes effect where the replaced ones stood, so it is told
            # under their round, not the round the GM corrected it in.
            text += f" [in place of {_seqs(self.amending[1])}]"
            round_ = self.rounds.get(min(self.amending[1]), round_)
        self.rounds[rec.seq] = round_
        # Free text (descriptions, reasons, names) is shown, never obeyed: no line breaks or escapes.
        return visible(f"Round {round_} - {text}" if round_ else text)


def narrate(records: Iterable[Recorded]) -> Iterator[str]:
    narrator = Narrator()
    for rec in records:
        yield narrator.line(rec)


def _generic(n: Narrator, e: ev.Event) -> str:
    return type(e).__name__


def _seqs(seqs: tuple[int, ...]) -> str:
    return ", ".join(str(s) for s in seqs)


def _faces(e: ev.DiceRolled) -> str:
    return ", ".join(str(d.face) if d.kept else f"~{d.face}~" for d in e.dice)


def _condition(n: Narrator, e: ev.ConditionApplied) -> str:
    c = e.condition
    until = f" {lasting_words(c, n.name)}" if c.ends or c.concentration or c.save else ""
    effects = [f"{c.ac_bonus:+d} AC"] if isinstance(c.ac_bonus, int) else []
    if isinstance(c.roll_bonus, str):
        on = ", ".join(r.replace("_", " ") for r in c.roll_bonus_on) if isinstance(c.roll_bonus_on, tuple) else "rolls"
        effects.append(f"{c.roll_bonus if c.roll_bonus.startswith('-') else '+' + c.roll_bonus} on {on}")
    if effects:  # a spell's effect (combat/common/effect_bonuses.py): its numbers are its effect
        return f"{n.name(e.target)} is under {c.name.title()}{until} ({', '.join(effects)})"
    custom = " (a custom condition: no mechanical effect)" if e.custom else ""
    return f"{n.name(e.target)} is {c.name}{until}{custom}"


_LINES: dict[type, Callable[[Narrator, Any], str]] = {
    ev.EncounterCreated: lambda n, e: (
        f"Encounter '{e.name}' set up under {e.ruleset} (seed {e.seed})"
        + (f", branched from {e.forked_from} at seq {e.forked_at}" if e.forked_from else "")
    ),
    ev.CombatantAdded: lambda n, e: (
        f"{e.combatant.name} joins the {e.combatant.side} side "
        f"({'character' if e.combatant.kind == 'pc' else 'monster'}"
        + (
            f", {e.combatant.hp if e.combatant.hp is not None else e.combatant.max_hp}/{e.combatant.max_hp} HP, AC {e.combatant.ac})"
            if e.combatant.max_hp is not None
            else ")"
        )  # None: not revealed to this reader
    ),
    ev.Revealed: lambda n, e: (
        "The GM reveals " + ", ".join([*(n.name(c) for c in e.combatants), *(f"the {side} side" for side in e.sides)])
    ),
    ev.CombatantRemoved: lambda n, e: f"{n.name(e.combatant)} leaves the fight" + (f": {e.reason}" if e.reason else ""),
    ev.PhaseChanged: lambda n, e: f"Phase: {e.previous} -> {e.phase}",
    ev.SurpriseMarked: lambda n, e: f"{n.name(e.combatant)} is {'surprised' if e.surprised else 'not surprised'}",
    ev.DiceRolled: lambda n, e: (
        (
            f"{n.name(e.roller)} rolls {e.notation} for {e.purpose}: [{_faces(e)}] = {e.total}"
            if e.notation is not None
            else f"{n.name(e.roller)} rolls for {e.purpose}" + shown(e.total, ": ")  # dice (and total) not revealed
        )
        + (" (entered)" if e.source == "entered" else "")
    ),
    ev.InitiativeSet: lambda n, e: (
        f"{', '.join(n.name(c) for c in e.combatants)}: initiative {e.total}"
        + (" (surprised, Disadvantage)" if e.disadvantage else "")
    ),
    ev.RoundStarted: lambda n, e: "the round begins",
    ev.RoundEnded: lambda n, e: "the round ends",
    ev.TurnStarted: lambda n, e: f"{n.name(e.combatant)}'s turn",
    ev.TurnEnded: lambda n, e: f"{n.name(e.combatant)} ends the turn",
    ev.CombatEnded: lambda n, e: "Combat ends: " + e.reason + (f" ({e.winner} win)" if e.winner else ""),
    ev.RulingMade: lambda n, e: f"GM ruling: {e.text}",
    ev.ConditionApplied: _condition,
    ev.ConditionEnded: lambda n, e: f"{n.name(e.target)} is no longer {e.condition}" + (f" ({e.reason})" if e.reason else ""),
    ev.EventsRetracted: lambda n, e: f"Undone: event{'s' if len(e.seqs) > 1 else ''} {_seqs(e.seqs)} ({e.reason})",
    ev.RulingAmended: lambda n, e: f"Amended: event{'s' if len(e.seqs) > 1 else ''} {_seqs(e.seqs)} replaced ({e.reason})",
    ev.ConflictOverridden: lambda n, e: f"GM lets event{'s' if len(e.seqs) > 1 else ''} {_seqs(e.seqs)} stand: {e.ruling}",
}
_narration: tuple[int, dict[type, Callable[[Narrator, Any], str]]] = (-1, _LINES)


def _line_of(event_type: type) -> Callable[[Narrator, Any], str]:
    line = _lines().get(event_type)
    if line is None and event_type not in ev.EVENT_TYPES:
        # An event of a ruleset not loaded yet (made by importing its module, not read from
        # a log or decided, which load it): every ruleset's lines are read.
        RULESETS.load_all()
        line = _lines().get(event_type)
    return line or _generic


def _lines() -> dict[type, Callable[[Narrator, Any], str]]:
    """The kernel's lines and each loaded ruleset's own, whenever it was registered or loaded."""
    global _narration
    version = RULESETS.version
    if _narration[0] != version:
        lines = dict(_LINES)
        for ruleset in RULESETS.loaded():
            lines.update(ruleset.narration)
        _narration = (version, lines)
    return _narration[1]
