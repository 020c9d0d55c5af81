"""segments-1e: first-edition style rounds of ten six-second segments
(../shared/rules/segmented-1e-rounds.txt).

Phase order (phases.py, `combat diagram segments-1e`): set-up -> surprise check (once) ->
surprise segments -> every round: declare actions -> group initiative -> fast actions ->
first multi-attack routines -> HIGH -> LOW -> remaining multi-attack routines -> spells by
casting time -> end of round.

The rules live in modules named for them: segments.py (the timeline and who acts when),
surprise.py, declarations.py, initiative.py, delay.py, turns.py (one major action, no
switching), actions.py (minor actions and time), attacks.py with attack_tables.py and
hit_dice.py, damage.py, concentration.py, spells.py, grid.py, morale.py, round.py (the flow),
and consistency.py (what a changed past makes a conflict).

Where the text is silent or points at its missing charts, this is what the engine does
(each module's docstring says more; the ruleset's docs page shows them all):
- Surprise: d6 per side, 1 or 2 = surprised for that many segments (`surprised_on`);
  "surprises on 1-3" creatures widen it for their foes; Dexterity surprise bonus cancels
  segments for one individual; the unsurprised act in the surprise segments, one segment each.
- A group acts in the segment shown by the best opposing group d6 (tied groups: the tied
  roll's segment); within a segment: D1 innate abilities and spells, D2 missiles, D3 melee
  (lower weapon speed first), D4 other; equal slots are simultaneous; complex activities go
  last in segment 10; fast actions in segment 1 (parley, flee, charge, go first).
- Dexterity reaction adjustments move an individual between HIGH and LOW for everything but
  spells (`dex_reaction_initiative`).
- Spells: casting starts in the caster's acting segment (an invocation's in segment 1) and
  goes off after its casting time, carrying into the next round when it runs past segment
  10; "1 round" ends in segment 10. Damage or any other break before it goes off spoils it;
  damage in the segment it goes off is simultaneous and both take effect. Damage between
  declaration and casting spoils it too (`spoil_before_casting`).
- A charge adds +2 to hit (`charge_bonus`); free and immediate attacks use the first routine.
- A monster at 0 hit points is dead; a character is out of the fight (unconscious), and
  what follows is the GM's ruling. The fight ends when only one side has anyone standing.
- Saving throws: d20 + bonus against the save number the GM gives as `dc`; morale: d20 +
  the enhanced hit dice bonus against the GM's number.
"""

from __future__ import annotations

from combat.fivee import conditions
from combat.kernel.commands import RemoveCondition
from combat.kernel.decider import Ruleset
from combat.kernel.encounter import ENCOUNTER
from combat.kernel.events import (
    CombatantDowned,
    CombatantRevived,
    ConditionApplied,
    ConditionEnded,
    DamageTaken,
    Healed,
)
from combat.fivee.hitpoints import APPLIERS as HP_APPLIERS
from combat.rulesets.segments_1e import (
    actions,
    attacks,
    concentration,
    consistency,
    creatures,
    damage,
    declarations,
    delay,
    grid,
    initiative,
    morale,
    round as round_flow,
    spells,
    surprise,
    turns,
)
from combat.rulesets.segments_1e.commands import COMMANDS
from combat.rulesets.segments_1e.events import EVENTS
from combat.rulesets.segments_1e.narration import NARRATION
from combat.rulesets.segments_1e.phases import PHASES
from combat.rulesets.segments_1e.segments import turn_order
from combat.rulesets.segments_1e.ledger import Ledger

__all__ = ["RULESET", "DEFAULTS"]

DEFAULTS = {
    "surprised_on": 2,  # d6 faces that surprise a side: 1-2
    "dex_reaction_initiative": True,  # Dexterity reaction adjustments move individuals between HIGH and LOW
    "charge_bonus": 2,  # to hit, for a declared charge
    "spoil_before_casting": True,  # damage after a spell is declared but before casting begins spoils it
}

_MODULES = (creatures, surprise, declarations, initiative, delay, turns, actions, grid, attacks, damage, concentration, spells, morale)


def _merge(*tables: dict) -> dict:
    merged: dict = {}
    for table in tables:
        merged.update(table)
    return merged


HANDLERS = _merge(
    ENCOUNTER.handlers,
    {
        RemoveCondition: conditions.HANDLERS[RemoveCondition],
    },
    *(m.HANDLERS for m in _MODULES),
)
APPLIERS = _merge(
    ENCOUNTER.appliers,
    {
        ConditionApplied: conditions.APPLIERS[ConditionApplied],
        ConditionEnded: conditions.APPLIERS[ConditionEnded],
        DamageTaken: HP_APPLIERS[DamageTaken],
        Healed: HP_APPLIERS[Healed],
        CombatantDowned: HP_APPLIERS[CombatantDowned],
        CombatantRevived: HP_APPLIERS[CombatantRevived],
    },
    round_flow.APPLIERS,
    *(getattr(m, "APPLIERS", {}) for m in _MODULES),
)

RULESET = Ruleset(
    id="segments-1e",
    title="First-edition segmented rounds",
    summary="One-minute rounds of 10 segments; declare actions, then group d6 initiative every round "
    "(HIGH/LOW, a tie puts both in HIGH); timed actions and spells spoiled by damage; "
    "descending AC and attack tables.",
    phases=PHASES,
    handlers=HANDLERS,
    appliers=APPLIERS,
    turn_order=turn_order,
    flow=round_flow.flow,
    defaults=DEFAULTS,
    events=EVENTS,
    commands=COMMANDS,
    checks=consistency.CHECKS,
    narration=NARRATION,
    state_type=Ledger,
    state_key="segments_1e",
)
