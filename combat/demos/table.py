"""The GM's side of a scripted fight: sends commands, reports every appended event, and lets
a ruleset's demo add what a table does at once after each outcome (saves owed, free attacks)."""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from combat.app.application import Encounters, Outcome
from combat.common.commands import ConcentrationSave, Heal
from combat.common.concentration import pending_checks_of
from combat.fivee.action_commands import BonusAction
from combat.fivee.dying import DeathSave, dying_of
from combat.fivee.held_open import reaction_window_of
from combat.fivee.reactions import PassReaction
from combat.kernel.commands import Command, EndCombat
from combat.kernel.state import Combatant, EncounterState

__all__ = ["DemoTable", "healing_word", "make_owed_saves", "play_rounds", "standing_foes", "weakest_foe"]


class DemoTable:
    def __init__(self, encounters: Encounters, encounter_id: UUID, report: Callable[[Outcome], None]):
        self.encounters = encounters
        self.id = encounter_id
        self.report = report

    @property
    def state(self) -> EncounterState:
        return self.encounters.state(self.id)

    def __call__(self, command: Command, actor: str = "gm") -> Outcome:
        return self._settle(self.encounters.execute(self.id, command, actor=actor), command=True)

    def undo(self, reason: str) -> Outcome:
        return self._settle(self.encounters.undo_last(self.id, reason=reason), command=False)

    def amend(self, seq: int, command: Command, reason: str) -> Outcome:
        return self._settle(self.encounters.amend(self.id, [seq], command, reason=reason), command=False)

    def override(self, seqs: tuple[int, ...], ruling: str) -> Outcome:
        return self._settle(self.encounters.override(self.id, seqs, ruling=ruling), command=False)

    def let_stand(self, outcome: Outcome, ruling: str) -> None:
        """The GM's ruling on whatever a change to the past left in conflict: it stands."""
        conflicts = tuple(c.seq for c in outcome.state.conflicts)
        if conflicts:
            self.override(conflicts, ruling=ruling)

    def _settle(self, outcome: Outcome, *, command: bool) -> Outcome:
        self.report(outcome)
        self.pass_reactions()
        self.after(outcome, command=command)
        return outcome

    def pass_reactions(self) -> None:
        """A scripted fight's creatures take no reaction a window offers them: each passes, so
        the script goes on as it was written (a demo that reacts sends `react` itself first)."""
        window = reaction_window_of(self.state)
        while window is not None and window.reactors:
            waiting = next(cid for cid in window.reactors if cid not in window.answered)
            self.report(self.encounters.execute(self.id, PassReaction(combatant=waiting)))
            window = reaction_window_of(self.state)

    def after(self, outcome: Outcome, *, command: bool) -> None:
        """What the table does at once after an outcome; `command` is False after an undo,
        amendment or override."""


def make_owed_saves(table: DemoTable, outcome: Outcome) -> None:
    """Concentration saves owed after damage, and a Death Saving Throw owed as a turn starts."""
    for check in pending_checks_of(outcome.state):
        table(ConcentrationSave(combatant=check.combatant))
    for cid in list(dying_of(outcome.state).owed):
        if cid in dying_of(table.state).owed:  # a save above may have settled the fight
            table(DeathSave(combatant=cid))


def healing_word(table: DemoTable, cid: str, notation: str) -> None:
    """The cleric `cid` casts Healing Word (a Bonus Action) on the first of the party lying unconscious, if any."""
    fallen = [c for c in table.state.combatants.values() if c.side == "party" and c.status == "unconscious"]
    if fallen:
        table(BonusAction(combatant=cid, description=f"casts Healing Word on {fallen[0].name}"))
        table(Heal(target=fallen[0].id, notation=notation, source=cid))


def standing_foes(state: EncounterState, c: Combatant) -> list[Combatant]:
    return [f for f in state.combatants.values() if f.side != c.side and f.status == "active"]


def weakest_foe(state: EncounterState, c: Combatant, foes: list[Combatant] | None = None) -> Combatant | None:
    """The standing foe with the fewest HP (ties by id, so a seed always plays the same)."""
    foes = standing_foes(state, c) if foes is None else foes
    return min(foes, key=lambda f: (f.hp, f.id)) if foes else None


def play_rounds(
    table: DemoTable,
    play_turn: Callable[..., None],
    *,
    review: Callable[..., None],
    max_rounds: int,
    end_reason: str,
) -> None:
    """Turn after turn until the fight ends; between rounds 1 and 2 the table argues (`review`),
    and after `max_rounds` the GM calls it (`end_reason`)."""
    reviewed = False
    while table.state.phase == "turns":
        state = table.state
        if state.round == 2 and not reviewed:
            reviewed = True
            review(table)
            continue
        if state.round > max_rounds:
            table(EndCombat(reason=end_reason))
            break
        play_turn(table, state.combatants[state.turn])  # type: ignore[index]
