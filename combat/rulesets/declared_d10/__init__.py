"""declared-d10: a homebrew with declared actions and group initiative rolled every round.

Phase order: set-up -> opening (the GM starts with a surprise roll or a normal round) ->
declare -> initiative -> turns, and back to declare for every round -> ended.

- Surprise by opposed roll (attackers d20 + lowest Stealth, defenders d20 + highest
  Perception; higher is surprise, 5 or more higher full surprise): surprise.py.
- Every round: everyone declares, declarations lock, each group rolls a d10, groups act from
  highest to lowest, players order their own group: declarations.py, initiative.py, rounds.py.
- One attack and one move per turn; Parry/Dodge, Move, Disengage, Use/Ready Item, Cast,
  Sprint/Flee, and free attacks: economy.py, actions.py.
- To hit, criticals, weapon tiers: attacks.py. "DR reduces damage": wounds.reduced_by_dr;
  cover against area effects, wound thresholds, minions, subdual: wounds.py. Grapples:
  grapples.py. Opposition rolls: opposition.py. Timer dice: timers.py. Stealth, Perception,
  DR and the rest of a stat block this ruleset reads: traits.py. Advantage, Disadvantage,
  Cinematic Advantage: rolls.py. Who may act now (standing, not fully surprised, its turn):
  acting.py.

Each rule module exposes one bundle, `RULES`: its commands, the events they apply, the checks
run on those events after an undo or an amended ruling, and their narration. A check asks the
same predicate the command's guard refused with (`declaration_problem`, `already_used`,
`unable`...), so a later event that could no longer have happened is reported, as a conflict
for the GM to resolve, in the words the command would now be refused with. Beyond the guards,
the checks report numbers that no longer follow from the state (a DR, a wound modifier, a
surprise round's Advantage, a minion), turns started out of order or skipped, and a fight that
ended by itself while both sides now stand; a fight the GM ended with `end_combat` is never a
conflict. The roll itself is never re-rolled: a check says which number is now wrong and, for
a to-hit, what the same die gives; damage that disregarded DR is not questioned when the
target's DR changes.

Each of those modules writes down, in its docstring, what it does where the rules text is
silent. Settings (settings.py; tables disagree):
- `declaration_seconds` (None): a time limit for declarations; when it runs out the GM
  closes them and whoever has not declared hesitates for the round.
- `weapon_tiers` (False): the optional rule, masterwork and shoddy weapons roll damage with
  Advantage and Disadvantage.
- `initiative_ties` ("players_first" or "creatures_first"): who wins a tie of group d10s.
- `surprise_round_order` ("initiative" or "attackers_first").
- `half_hp_penalty_on_all_rolls` (False): the -2 of a creature at half HP also applies to
  opposed rolls, grapples and Stealth, not only to hit.
"""

from __future__ import annotations

from combat.common import conditions, hitpoints, saves, setup, turns
from combat.common.error_codes import COMMON_ERROR_CODES
from combat.common.glossary import SRD_CONDITIONS, SRD_DAMAGE_TYPES
from combat.kernel.commands import EndCombat
from combat.kernel.decider import Rules, Ruleset, Tx, assemble
from combat.kernel.phases import PhaseTable, Step
from combat.rulesets.declared_d10 import (
    actions,
    attacks,
    declarations,
    grapples,
    initiative,
    opposition,
    rounds,
    settings,
    surprise,
    timers,
    traits,
    wounds,
)
from combat.rulesets.declared_d10.error_codes import ERROR_CODES
from combat.rulesets.declared_d10.state import D10State
from combat.rulesets.declared_d10.views import VIEWS
from combat.rulesets.declared_d10.wounds import LASTING_WOUND

__all__ = ["RULESET", "PHASES", "flow"]

ALL = ("setup", "opening", "declare", "initiative", "turns", "ended")
FIGHTING = ("declare", "initiative", "turns")
TURN_COMMANDS = (
    "d10_attack",
    "d10_move",
    "d10_parry_dodge",
    "d10_disengage",
    "d10_use_item",
    "d10_cast",
    "d10_sprint_flee",
    "d10_sneak",
    "d10_grapple",
    "d10_break_grapple",
    "d10_free_attack",
    "end_turn",
)
RULING_COMMANDS = ("d10_damage", "heal", "apply_condition", "remove_condition", "saving_throw")
ANY_TIME = ("d10_opposed_roll", "d10_start_timer")

PHASES = PhaseTable(
    "declared-d10",
    ALL,
    [
        Step("add_combatant", ("setup", "opening", "declare")),
        Step("d10_set_traits", ("setup", "opening", "declare")),
        Step("remove_combatant", ("setup",)),
        Step("begin_combat", ("setup",), "opening"),
        Step("d10_roll_surprise", ("opening",), "declare"),
        Step("d10_start_normal_round", ("opening",), "declare"),
        Step("d10_declare", ("declare",)),
        Step("d10_order_group", FIGHTING),
        Step("d10_close_declarations", ("declare",), "initiative"),
        Step("d10_roll_group_initiative", ("initiative",)),
        Step("start_acting", ("initiative",), "turns", automatic=True),
        Step("d10_rule_on_change", ("initiative", "turns")),
        *(Step(name, ("turns",)) for name in TURN_COMMANDS),
        *(Step(name, FIGHTING) for name in RULING_COMMANDS),
        *(Step(name, ("opening", *FIGHTING)) for name in ANY_TIME),
        Step("round_over", ("turns",), "declare", automatic=True),
        Step("ruling", ALL),
        Step("end_combat", ("opening", *FIGHTING), "ended"),
        Step("side_defeated", FIGHTING, "ended", automatic=True),
    ],
    initial="setup",
)


def flow(tx: Tx) -> None:
    """After every command: once every group has rolled, the first turn starts; a decided
    fight ends."""
    if tx.state.phase == "initiative" and initiative.all_rolled(tx.state):
        tx.move_to("start_acting")
        rounds.next_turn(tx)
    rounds.end_if_decided(tx)


RULES = assemble(
    # The shared pieces first, so this ruleset's own rules replace them where they differ
    # (adding a combatant, healing, the end of a turn, what a round start resets).
    Rules(handlers=setup.HANDLERS, appliers=setup.APPLIERS),
    Rules(handlers={EndCombat: turns.HANDLERS[EndCombat]}, appliers=turns.APPLIERS),
    Rules(handlers=conditions.HANDLERS, appliers=conditions.APPLIERS),
    saves.RULES,  # the ability as given, a bonus left out 0
    Rules(appliers=hitpoints.APPLIERS, narration=hitpoints.NARRATION),
    settings.RULES,
    traits.RULES,
    surprise.RULES,
    declarations.RULES,
    initiative.RULES,
    rounds.RULES,
    actions.RULES,
    attacks.RULES,
    wounds.RULES,
    grapples.RULES,
    opposition.RULES,
    timers.RULES,
)

RULESET = Ruleset.of(
    RULES,
    id="declared-d10",
    title="Declared actions, d10 group initiative (homebrew)",
    summary="Surprise by opposed roll; everyone declares before initiative and is held to it; one d10 per group, "
    "rerolled every round; criticals double damage; damage reduction; wound thresholds, minions, subdual; timer dice.",
    phases=PHASES,
    turn_order=initiative.turn_order,
    flow=flow,
    defaults=settings.DEFAULTS,
    state_type=D10State,
    state_key="d10",
    # The text plays on 5e stat blocks and names their conditions ("the prone condition"); its
    # own mark is the lasting wound. Damage types are the SRD's, or none ("") for untyped.
    conditions=SRD_CONDITIONS | {LASTING_WOUND.name},
    damage_types=SRD_DAMAGE_TYPES,
    views=VIEWS,
    error_codes=COMMON_ERROR_CODES + ERROR_CODES,
)
