"""Phase order as data: one `transitions` Machine per ruleset, used only as a rule table.

The Machine is never bound to an encounter (that would change state without an event);
the encounter's phase comes from its `PhaseChanged` events, and `decide` asks the table
whether a command may run in that phase and where an automatic step leads.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from transitions import Machine

from combat.kernel.errors import OutOfPhase

__all__ = ["Step", "PhaseTable"]


@dataclass(frozen=True)
class Step:
    """A trigger allowed in `sources`; `dest` None means it stays in the phase."""

    trigger: str
    sources: Sequence[str]
    dest: str | None = None
    automatic: bool = False  # emitted by the flow, never sent as a command


class PhaseTable:
    def __init__(self, name: str, phases: Sequence[str], steps: Iterable[Step], initial: str):
        self.name = name
        self.phases = tuple(phases)
        self.steps = tuple(steps)
        self.initial = initial
        self._automatic = {s.trigger for s in self.steps if s.automatic}
        self._transitions = [{"trigger": s.trigger, "source": list(s.sources), "dest": s.dest} for s in self.steps]
        self.machine = Machine(
            model=None,
            states=list(self.phases),
            transitions=self._transitions,
            initial=initial,
            auto_transitions=False,
        )

    def commands(self, phase: str) -> list[str]:
        """The commands a player or GM may send in `phase`, in the table's order."""
        allowed = set(self.machine.get_triggers(phase)) - self._automatic
        return [s.trigger for s in self.steps if s.trigger in allowed and phase in s.sources]

    def allows(self, phase: str, trigger: str) -> bool:
        return bool(self.machine.get_transitions(trigger, phase))

    def require(self, phase: str, trigger: str) -> None:
        if trigger in self._automatic or not self.allows(phase, trigger):
            raise OutOfPhase(trigger, phase, self.commands(phase))

    def target(self, phase: str, trigger: str) -> str:
        """Where `trigger` leads from `phase` (an automatic step or a phase-changing command)."""
        transitions = self.machine.get_transitions(trigger, phase)
        if not transitions:
            raise OutOfPhase(trigger, phase, self.commands(phase))
        return transitions[0].dest or phase

    def mermaid(self) -> str:
        # Drawing needs a model to draw for; build a throwaway machine rather than bind one.
        # Only `combat diagram` draws: its extension pulls in asyncio, which every start would pay.
        from transitions.extensions import GraphMachine

        drawing = GraphMachine(
            states=list(self.phases),
            transitions=self._transitions,
            initial=self.initial,
            auto_transitions=False,
            graph_engine="mermaid",
            title=f"{self.name} phases",
        )
        text = drawing.get_graph().draw(None)
        # The diagram describes the rule table, not a running encounter: drop the
        # active-state styling the library adds for the machine's own current state.
        return "\n".join(line for line in text.splitlines() if not line.strip().startswith("Class "))
