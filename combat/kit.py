"""The kit: everything a ruleset written outside this package imports, from one module
(docs/write-a-ruleset.md). The names live in the kernel's modules; this one only gathers
them, so an author's imports do not follow the kernel's layout as it changes. Its test
harness is `combat.testing`; its reference page, `combat reference --ruleset ID`.

What each name is, and where it lives:

- `Command`: base of a ruleset's commands, tagged by its class name in snake case (combat.kernel.commands).
- `Event`: base of a ruleset's events, tagged by its class name (combat.kernel.events).
- `Hidden`: an event type's declaration of what a player or viewer sees of it (combat.kernel.hidden).
- `PUBLIC`: the `Hidden` of an event that carries nothing secret (combat.kernel.hidden).
- `EncounterState`: the state a handler reads and an applier returns; `.rules` is the ruleset's own (combat.kernel.state).
- `Combatant`: one combatant of the shared state, `state.combatants[id]` (combat.kernel.state).
- `with_rules`: a copy of the state with fields of the ruleset's own slot replaced (combat.kernel.state).
- `Tx`: the command being decided, handed to a handler: `.state`, `.actor`, `.emit`, `.roll` (combat.kernel.decider).
- `Rules`: one rule module's handlers, appliers, narration, guards and after-appliers (combat.kernel.decider).
- `assemble`: bundles of `Rules` joined in order, a later one replacing (combat.kernel.decider).
- `Ruleset`: the ruleset itself, built with `Ruleset.of(rules, ...)` (combat.kernel.decider).
- `GM`: the actor name of the game master, `tx.actor` when the GM sent the command (combat.kernel.decider).
- `ENCOUNTER`: the kernel's bundle every ruleset lists first: created, phases, ruling, begin and end (combat.kernel.encounter).
- `RuleError`: a refusal with a stable code, what was wrong and what is allowed (combat.kernel.errors).
- `declared`: a ruleset's error codes, each `code: meaning` under its kind (`refused=`, `invalid=`...), for `Ruleset.of(..., error_codes=...)` (combat.kernel.error_kinds).
- `PhaseTable`: the phases, the commands each allows and where each leads (combat.kernel.phases).
- `Step`: one row of a phase table: a command's tag, the phases it is allowed in, where it leads (combat.kernel.phases).
- `BeginCombat`, `EndCombat`, `Ruling`: the kernel's commands, handled by `ENCOUNTER` (combat.kernel.commands).
- `DiceRolled`, `PhaseChanged`, `RulingMade`, `CombatEnded`: the kernel's events (combat.kernel.events).
- `Views`: what the readers that serve every ruleset show of this one (combat.kernel.views).
- `hide_combatant_entries`: a state block's map with hidden combatants' entries left out (combat.kernel.views).
- `register`: make a ruleset playable from code, without an entry point (combat.rulesets).
"""

from __future__ import annotations

from combat.kernel.commands import BeginCombat, Command, EndCombat, Ruling
from combat.kernel.decider import GM, Rules, Ruleset, Tx, assemble
from combat.kernel.encounter import ENCOUNTER
from combat.kernel.error_kinds import declared
from combat.kernel.errors import RuleError
from combat.kernel.events import CombatEnded, DiceRolled, Event, PhaseChanged, RulingMade
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.phases import PhaseTable, Step
from combat.kernel.state import Combatant, EncounterState, with_rules
from combat.kernel.views import Views, hide_combatant_entries
from combat.rulesets import register

__all__ = [
    "Command",
    "Event",
    "Hidden",
    "PUBLIC",
    "EncounterState",
    "Combatant",
    "with_rules",
    "Tx",
    "Rules",
    "assemble",
    "Ruleset",
    "GM",
    "ENCOUNTER",
    "RuleError",
    "declared",
    "PhaseTable",
    "Step",
    "BeginCombat",
    "EndCombat",
    "Ruling",
    "DiceRolled",
    "PhaseChanged",
    "RulingMade",
    "CombatEnded",
    "Views",
    "hide_combatant_entries",
    "register",
]
