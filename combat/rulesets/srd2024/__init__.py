"""srd-2024: the 5e 2024 core combat rules (SRD 5.2).

Phase order: set-up -> surprise -> initiative -> turns, round after round -> ended.

- Initiative is d20 + modifier (a Dexterity check), rolled once and fixed for the fight;
  "If a combatant is surprised by combat starting, that combatant has Disadvantage on
  their Initiative roll."
- "For a group of identical creatures, the GM makes a single roll": monsters that share a
  `group` share one roll and act one after another in the order they were added.
- Ties: "the GM decides the order among tied monsters, and the players decide the order
  among tied characters. The GM decides the order if the tie is between a monster and a
  player character." A tie stays unresolved (and the first round waits) until ordered.

Where the text is silent (written down here, and on the ruleset's docs page generated from it):
- A group with any surprised member rolls with Disadvantage.
- A tie among characters is ordered by the GM or by a player of one of the tied characters.
- A late arrival who ties a count already ordered goes after those already ordered (who keep
  their order) until the GM or players order the tie again.
- 0 HP follows the SRD 5.2 "Dropping to 0 Hit Points" and "Knocking out a Creature" rules
  (combat/fivee/dying.py): monster death, massive damage, Death Saving Throws owed at the
  start of the turn (the turn waits for them), stabilising with Help. Encounters recorded
  before the `death_saves` setting existed keep the old reading: a character stays
  unconscious until healed and the GM rules on the rest.
- Conditions and damage types are the SRD 5.2 glossary's (combat/common/glossary.py), in any
  case (`Prone` is `prone`); another name is refused unless sent as custom, with no effect.
- Revived or freed from a Speed 0 condition during its own turn, a creature gets its Speed
  back for the rest of the turn (combat/common/regained_movement.py).
- The fight ends by itself when every combatant of all sides but one is dead or
  unconscious; the GM can end it earlier (surrender, flight, truce) with end_combat.
- A concentration save owed after damage must be made before the current turn ends.
- stand_up: a Prone creature spends half its Speed (round down) of its movement to end Prone
  (combat/fivee/standing.py); "If your Speed is 0, you can't right yourself."
- GM moves at a real table (combat/fivee/gm_edits.py, turn_pointer.py, ability_checks.py,
  damage_rolls.py): set_hp, change_stat_block, goto_turn, previous_turn, grant_action (an
  action granted before the creature's turn is kept for that turn: banked_actions.py),
  ability_check and contest, saving_throw without a DC and judge_save to set its DC later
  (judged_saves.py), roll_damage for an attack whose to-hit faces were entered alone. roll_initiative is accepted in set-up (Avrae rolls as each
  character joins): the roll stands when combat begins, and a character who rolled then is
  not marked surprised afterwards.
"""

from __future__ import annotations

from combat import fivee
from combat.common import turns
from combat.common.error_codes import COMMON_ERROR_CODES
from combat.common.glossary import SRD_CONDITIONS, SRD_DAMAGE_TYPES
from combat.fivee import (
    banked_actions,
    dying,
    initiative,
    one_slot_per_turn,
    reactions,
    spell_effects_ongoing,
    standing,
    stat_blocks,
)
from combat.fivee.error_codes import FIVEE_ERROR_CODES
from combat.fivee.initiative import turn_order, units, unresolved_ties
from combat.fivee.views import FIVEE_VIEWS
from combat.kernel.decider import Ruleset, Tx, assemble
from combat.kernel.phases import PhaseTable, Step
from combat.rulesets.srd2024.state import Srd2024State

__all__ = ["RULESET", "RULES", "PHASES", "TURN_COMMANDS", "RULING_COMMANDS", "ANYTIME_COMMANDS", "DEFAULTS", "flow"]

TURN_COMMANDS = (
    "move",
    "attack",
    "opportunity_attack",
    "take_action",
    "bonus_action",
    "interact_with_object",
    "use_reaction",
    "death_save",
    "stand_up",
    "end_turn",
    *fivee.GM_TURN_COMMANDS,
)
RULING_COMMANDS = fivee.RULING_COMMANDS
# The GM's edits and the checks a GM calls for happen whenever the fight is not over.
ANYTIME_COMMANDS = fivee.ANYTIME_COMMANDS
ALL = ("setup", "surprise", "initiative", "turns", "ended")

PHASES = PhaseTable(
    "srd-2024",
    ALL,
    [
        Step("add_combatant", ("setup", "surprise", "initiative", "turns")),
        Step("remove_combatant", ("setup",)),
        Step("treat_as_character", ("setup", "surprise", "initiative", "turns")),
        Step("begin_combat", ("setup",), "surprise"),
        Step("mark_surprised", ("surprise",)),
        Step("roll_initiative", ("setup",)),
        Step("roll_initiative", ("surprise",), "initiative"),
        Step("roll_initiative", ("initiative", "turns")),
        Step("order_tie", ("initiative", "turns")),
        Step("start_rounds", ("initiative",), "turns", automatic=True),
        *(Step(name, ("turns",)) for name in TURN_COMMANDS + RULING_COMMANDS),
        *(Step(name, ("setup", "surprise", "initiative", "turns")) for name in ANYTIME_COMMANDS),
        Step("ruling", ALL),
        Step("end_combat", ("surprise", "initiative", "turns"), "ended"),
        Step("side_defeated", ("turns",), "ended", automatic=True),
    ],
    initial="setup",
)


def flow(tx: Tx) -> None:
    """After every command: start round 1 once initiative is settled; end a decided fight."""
    state = tx.state
    if state.phase == "initiative":
        everyone_rolled = all(members[0].initiative is not None for members in units(state).values())
        if everyone_rolled and not unresolved_ties(state):
            tx.move_to("start_rounds")
            turns.start_round(tx, turn_order)
    spell_effects_ongoing.follow(tx)  # what the command's events set off: Heroism's Temporary Hit Points...
    banked_actions.redeem(tx)
    turns.end_fight_if_decided(tx)


DEFAULTS = dict(dying.DEFAULTS)

# The shared 5e rules, srd-2024's initiative and standing up from Prone (the variant and a5e
# stand up by their own texts), and the 2024 rule of one spell slot per turn (a5e keeps its own).
RULES = assemble(*fivee.core(turn_order), initiative.RULES, standing.RULES, one_slot_per_turn.RULES)

RULESET = Ruleset.of(
    RULES,
    id="srd-2024",
    title="5e 2024 (SRD 5.2) core combat",
    summary="Individual Dexterity initiative fixed for the fight; surprise gives Disadvantage on it; "
    "one roll per group of identical creatures; ties ordered by the GM and the players.",
    phases=reactions.with_window(stat_blocks.with_steps(PHASES)),
    turn_order=turn_order,
    flow=reactions.with_windows(flow),
    conditions=SRD_CONDITIONS,
    damage_types=SRD_DAMAGE_TYPES,
    defaults=DEFAULTS,
    state_type=Srd2024State,
    state_key="srd_2024",
    views=FIVEE_VIEWS,
    error_codes=COMMON_ERROR_CODES + FIVEE_ERROR_CODES,
)
