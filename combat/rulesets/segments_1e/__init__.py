"""segments-1e: first-edition style rounds of ten six-second segments
(../shared/rules/segmented-1e-rounds.txt).

Phase order (phases.py, `combat diagram segments-1e`): set-up -> surprise check (once) ->
surprise segments -> every round: declare actions -> group initiative -> fast actions ->
first multi-attack routines -> HIGH -> LOW -> remaining multi-attack routines -> spells by
casting time -> end of round.

The rules live in modules named for them: segments.py (the timeline and who acts when),
surprise.py, declarations.py, initiative.py, delay.py, turns.py (one major action, no
switching), acting.py (who may act now), actions.py (minor actions and time), attacks.py
with attack_tables.py and hit_dice.py, damage.py, concentration.py, spells.py ("one spell
per round"), grid.py, morale.py, round.py (the flow), creatures.py (stat blocks), settings.py.

Each rule module exposes one bundle, `RULES`: its commands, the events they apply, the
checks run on those events after an undo or an amended ruling, and their narration. A check
asks the same predicate the command's guard refused with (`major_refusal`, `segment_spent`,
`free_attack_refusal`, `casting_refusal`, `closing_in_problem`, `spell_due`...), so a later
event that could no longer have happened is reported, as a conflict for the GM to resolve,
in the words the command would now be refused with. Beyond the guards, the checks report
the timeline the flow would lay down now (round.py: a turn skipped, out of order, or a step
left while someone still had a turn in it), strikes wasted on the fallen (attacks.py), a
spell's damage missing a target who stands now (spells.py) and a fight that ended by
itself while a foe still stands; a fight the GM ended with `end_combat` is never a
conflict. Damage is never re-judged by amount (there is no damage reduction here).

Where the text is silent or points at its missing charts, this is what the engine does
(each module's docstring says more; the ruleset's docs page shows them all):
- Surprise: d6 per side, 1 or 2 = surprised for that many segments (`surprised_on`);
  "surprises on 1-3" creatures widen it for their foes; Dexterity surprise bonus cancels
  segments for one individual; the unsurprised act in the surprise segments, one segment
  each: any action that fits in one segment - an attack routine, a move of a tenth of the
  movement, a minor or major action, a spell of one segment's casting (named as it begins).
- A group acts in the segment shown by the best opposing group d6 (tied groups: the tied
  roll's segment); within a segment: D1 innate abilities and spells, D2 missiles, D3 melee
  (lower weapon speed first), D4 other; equal slots are simultaneous; complex activities go
  last in segment 10; fast actions in segment 1 (parley, flee, charge, go first).
- A multi-attacker with no foe in melee when step 4 comes takes its turn with its group
  (step 5) instead, closing in (one move ending beside a foe) before its first routine;
  its remaining routines follow in step 6 (`multi_attackers_close_in`).
- Dexterity reaction adjustments move an individual between HIGH and LOW for everything but
  spells (`dex_reaction_initiative`).
- Spells: casting starts in the caster's acting segment (an invocation's in segment 1) and
  goes off at the end of the segment its casting time ends in, carrying into the next round
  when it runs past segment 10; "1 round" ends in segment 10. It goes off in time order with
  everything else in the round - after that segment's other turns, before any turn of a
  later segment, whichever step that turn belongs to - so its damage lands before a later
  blow, and step 7 is left with the spells going off after the round's last turn
  (`spells_on_timeline`). Damage or any other break before it goes off spoils it, a blow in
  its last segment included; only another spell going off in that segment is simultaneous,
  and both take effect. Damage between declaration and casting spoils it too
  (`spoil_before_casting`). "Only one spell can be cast per round": the surprise segments
  allow one spell between them (`one_spell_in_surprise_segments`).
- Logs recorded before `spells_on_timeline`, `multi_attackers_close_in` and
  `one_spell_in_surprise_segments` existed carry none of them and keep the reading they were
  played with: every spell in step 7, a blow in the segment a spell goes off simultaneous
  with it, multi-attackers in step 4 wherever they stand, and a spell in each surprise
  segment.
- A charge adds +2 to hit (`charge_bonus`); free and immediate attacks use the first routine.
- A monster at 0 hit points is dead; a character is out of the fight (unconscious), and
  what follows is the GM's ruling. The fight ends when only one side has anyone standing.
- Saving throws: d20 + bonus against the save number the GM gives as `dc`; morale: d20 +
  the enhanced hit dice bonus against the GM's number.
"""

from __future__ import annotations

import dataclasses

from combat.common import conditions
from combat.common.commands import RemoveCondition
from combat.common.condition_effects import INCAPACITATING
from combat.common.error_codes import COMMON_ERROR_CODES
from combat.common.events import CombatantDowned, CombatantRevived, DamageTaken, Healed
from combat.common.glossary import SRD_DAMAGE_TYPES
from combat.common.hitpoints import APPLIERS as HP_APPLIERS
from combat.kernel.decider import Rules, Ruleset, assemble
from combat.kernel.encounter import ENCOUNTER
from combat.kernel.events import ConditionApplied, ConditionEnded
from combat.rulesets.segments_1e import (
    actions,
    attacks,
    concentration,
    creatures,
    damage,
    declarations,
    delay,
    grid,
    initiative,
    morale,
    spells,
    surprise,
    turns,
)
from combat.rulesets.segments_1e import (
    round as round_flow,
)
from combat.rulesets.segments_1e.acting import safe
from combat.rulesets.segments_1e.commands import COMMANDS
from combat.rulesets.segments_1e.concentration import IMPEDING
from combat.rulesets.segments_1e.error_codes import ERROR_CODES
from combat.rulesets.segments_1e.events import EVENTS
from combat.rulesets.segments_1e.ledger import Ledger
from combat.rulesets.segments_1e.phases import PHASES
from combat.rulesets.segments_1e.segments import turn_order
from combat.rulesets.segments_1e.settings import DEFAULTS
from combat.rulesets.segments_1e.views import VIEWS

__all__ = ["RULESET", "DEFAULTS", "RULES"]

RULES = assemble(
    # The shared pieces first, so this ruleset's own rules replace them where they differ
    # (applying a condition, damage, saving throws, the end of a turn).
    ENCOUNTER,
    Rules(
        handlers={RemoveCondition: conditions.HANDLERS[RemoveCondition]},
        appliers={
            ConditionApplied: conditions.APPLIERS[ConditionApplied],
            ConditionEnded: conditions.APPLIERS[ConditionEnded],
            DamageTaken: HP_APPLIERS[DamageTaken],
            Healed: HP_APPLIERS[Healed],
            CombatantDowned: HP_APPLIERS[CombatantDowned],
            CombatantRevived: HP_APPLIERS[CombatantRevived],
        },
    ),
    round_flow.RULES,
    creatures.RULES,
    surprise.RULES,
    declarations.RULES,
    initiative.RULES,
    delay.RULES,
    turns.RULES,
    actions.RULES,
    grid.RULES,
    attacks.RULES,
    damage.RULES,
    concentration.RULES,
    spells.RULES,
    morale.RULES,
)

RULESET = Ruleset.of(
    # A check reads a past the GM has changed under it: none may stop a replay (acting.safe).
    dataclasses.replace(RULES, checks={t: safe(check) for t, check in RULES.checks.items()}),
    id="segments-1e",
    title="First-edition segmented rounds",
    summary="One-minute rounds of 10 segments; declare actions, then group d6 initiative every round "
    "(HIGH/LOW, a tie puts both in HIGH); timed actions and spells spoiled by damage; "
    "descending AC and attack tables.",
    phases=PHASES,
    turn_order=turn_order,
    flow=round_flow.flow,
    defaults=DEFAULTS,
    events=EVENTS,
    commands=COMMANDS,
    state_type=Ledger,
    state_key="segments_1e",
    # The conditions its rules act on: the text's delayed, held and surprised, what impedes a
    # caster, and what incapacitates. The text names no list of damage types; the weapon and
    # energy kinds a GM writes (as the SRD names them) and `magic` for a spell's damage.
    conditions=IMPEDING | INCAPACITATING | {"delayed", "surprised"},
    damage_types=SRD_DAMAGE_TYPES | {"magic"},
    views=VIEWS,
    error_codes=COMMON_ERROR_CODES + ERROR_CODES,
)
