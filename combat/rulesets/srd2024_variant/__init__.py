"""srd-2024-variant: the 5e 2024 core rules with a table's changes (the Δ marks of
srd-2024-table-variants.txt). Everything not listed here is srd-2024's: the shared 5e rules
(`fivee.core`) and srd-2024's initiative, listed first in RULES; each module's bundle after
them replaces or adds to them.

Phase order: set-up -> surprise -> initiative -> reorder (when the `initiative_reorder`
setting is on, the default) -> turns, round after round -> ended.

What changes (each in a module named for its rule):
- initiative: the single roll for a group of identical entities is optional (setting
  `group_initiative`, off by default); tied players reroll a d20, the GM orders the rest.
- reorder: before round 1, players in Initiative order may propose a swap with another
  player, the GM may swap among their entities; a surprised combatant cannot swap.
- communication: extended communication among allies costs an action or a bonus action,
  a reply costs a reaction.
- cover: half and three-quarters cover add +2/+5 to Constitution saves (and AC, as before).
- unarmed: Unarmed Strike with its damage, grapple and shove options; grapple and shove by a
  Constitution save against 8 + Strength modifier + Proficiency Bonus; size limit; one
  grapple per hand; escape with an action.
- jumping, speeds, movement: jumps, special speeds and switching between them, climbing,
  swimming, crawling, Difficult Terrain, moving through other entities' spaces, Prone.
- mounts: mounting and dismounting cost movement equal to the mount's size; controlled and
  independent mounts; falling off.
- Concentration is srd-2024's: DC max(10, half the damage) up to 30.
- The GM may require a bonus action (not only an action) for an interaction that needs
  special care: take_action utilize with bonus_action true is accepted.
- consistency: after an undo or an amended ruling, which later events the variant's rules
  would no longer allow (a controlled mount's deeds on its rider's turn, grapple DCs from the
  noted traits, swaps before round 1, saves to stay mounted...), on top of srd-2024's checks.
- traits: the GM notes what the core stat block lacks (Strength modifier, Proficiency
  Bonus, special speeds, free hands, trained mount); the rules that need them refuse until
  they are noted rather than guess.

Where the text is silent, each module's docstring says what the engine does; the ruleset's
docs page, generated from them, shows them all.
"""

from __future__ import annotations

from combat import fivee
from combat.common import conditions as shared_conditions
from combat.common import turns
from combat.common.commands import ApplyCondition
from combat.common.error_codes import COMMON_ERROR_CODES
from combat.fivee import actions as shared_actions
from combat.fivee import banked_actions, monster_actions, one_slot_per_turn, reactions, spell_effects_ongoing, stat_blocks
from combat.fivee import initiative as shared_initiative
from combat.fivee.action_commands import BonusAction, TakeAction
from combat.fivee.action_events import ActionTaken, BonusActionTaken, ReactionTaken
from combat.fivee.attack_commands import Attack
from combat.fivee.attack_events import AttackMade
from combat.fivee.error_codes import FIVEE_ERROR_CODES
from combat.fivee.initiative import unresolved_ties
from combat.fivee.views import views_with
from combat.kernel.commands import EndTurn
from combat.kernel.decider import Guard, Rules, Ruleset, Tx, assemble
from combat.kernel.events import TurnStarted
from combat.kernel.phases import PhaseTable, Step
from combat.kernel.state import with_rules
from combat.kernel.views import hide_combatant_entries
from combat.rulesets import srd2024
from combat.rulesets.srd2024_variant.error_codes import ERROR_CODES
from combat.rulesets.srd2024_variant.state import SrdVariantState

from . import communication, consistency, cover, initiative, jumping, mounts, movement, reorder, traits, unarmed
from .bookkeeping import is_controlled_mount

__all__ = ["RULESET", "RULES", "PHASES", "DEFAULTS", "flow"]

DEFAULTS = {"group_initiative": False, "initiative_reorder": True, **srd2024.DEFAULTS}

ALL = ("setup", "surprise", "initiative", "reorder", "turns", "ended")
BEFORE_ROUNDS = ("setup", "surprise", "initiative", "reorder")
TURN_COMMANDS = srd2024.TURN_COMMANDS + (
    "traverse",
    "jump",
    "drop_prone",
    "stand_up_from_prone",
    "unarmed_strike",
    "escape_grapple",
    "release_grapple",
    "communicate_with_allies",
    "reply_to_ally",
    "dismount",
    "save_to_stay_mounted",
)
RULING_COMMANDS = srd2024.RULING_COMMANDS + ("save_behind_cover",)

PHASES = PhaseTable(
    "srd-2024-variant",
    ALL,
    [
        Step("add_combatant", BEFORE_ROUNDS + ("turns",)),
        Step("note_traits", BEFORE_ROUNDS + ("turns",)),
        Step("remove_combatant", ("setup",)),
        Step("treat_as_character", BEFORE_ROUNDS + ("turns",)),
        Step("mount", ("setup", "turns")),
        Step("begin_combat", ("setup",), "surprise"),
        Step("mark_surprised", ("surprise",)),
        Step("roll_initiative", ("setup",)),
        Step("roll_initiative", ("surprise",), "initiative"),
        Step("roll_initiative", ("initiative", "reorder", "turns")),
        Step("order_tie", ("initiative", "reorder", "turns")),
        Step("reroll_tie", ("initiative", "reorder", "turns")),
        Step("open_reorder", ("initiative",), "reorder", automatic=True),
        Step("propose_swap", ("reorder",)),
        Step("answer_swap", ("reorder",)),
        Step("pass_swap", ("reorder",)),
        Step("end_reorder", ("reorder",)),
        Step("start_rounds", ("initiative", "reorder"), "turns", automatic=True),
        *(Step(name, ("turns",)) for name in TURN_COMMANDS + RULING_COMMANDS),
        *(Step(name, BEFORE_ROUNDS + ("turns",)) for name in srd2024.ANYTIME_COMMANDS),
        Step("ruling", ALL),
        Step("end_combat", ("surprise", "initiative", "reorder", "turns"), "ended"),
        Step("side_defeated", ("turns",), "ended", automatic=True),
    ],
    initial="setup",
)

turn_order = mounts.turn_order
acting_order = mounts.acting_order


def flow(tx: Tx) -> None:
    """After every command: settle initiative and open the reorder or round 1; keep grapples
    and mounted pairs true to the state; end a decided fight."""
    state = tx.state
    if state.phase in ("reorder", "turns"):
        mounts.sync_initiative(tx)
    if state.phase == "initiative" and not mounts.unrolled_units(state) and not unresolved_ties(state):
        mounts.sync_initiative(tx)
        if state.settings.get("initiative_reorder", True):
            reorder.open_reorder(tx, turn_order)
        else:
            tx.move_to("start_rounds")
            turns.start_round(tx, acting_order)
    unarmed.end_broken_grapples(tx)
    mounts.upkeep(tx)
    spell_effects_ongoing.follow(tx)  # what the command's events set off: Heroism's Temporary Hit Points...
    banked_actions.redeem(tx)
    turns.end_fight_if_decided(tx)


# Cunning Action and the like, plus Δ "the GM might require you to use an action or bonus
# action" for an interaction that needs special care.
BONUS_ACTION_OK = frozenset({"dash", "disengage", "hide", "utilize"})


# Where the variant changes a shared rule, its own handler below says how and calls the
# shared rule by its public name; what it refuses first is in GUARDS.


def _take_action(tx: Tx, cmd: TakeAction) -> None:
    """A controlled mount's three options; anyone else takes srd-2024's actions, with the
    variant's bonus-action options."""
    if is_controlled_mount(tx.state, cmd.combatant):
        mounts.controlled_mount_action(tx, cmd)
        return
    shared_actions.take_action(tx, cmd, bonus_ok=BONUS_ACTION_OK)


def _attack(tx: Tx, cmd: Attack) -> None:
    """srd-2024's Attack (as a stat block makes it, for a monster), with a grappled creature's
    Disadvantage against anyone but its grappler."""
    monster_actions.attack(tx, unarmed.with_grapple_disadvantage(tx.state, cmd))


def _apply_condition(tx: Tx, cmd: ApplyCondition) -> None:
    """srd-2024's conditions; a rider knocked Prone may fall from its mount."""
    shared_conditions.apply_condition(tx, cmd)
    if cmd.condition.name == "prone":
        mounts.unseat_risk(tx, cmd.target, "knocked prone")


# A controlled mount moves and can only Dash, Disengage or Dodge (its action is in
# _take_action); a turn does not end while a rider owes its save to stay mounted.
GUARDS: dict[type, tuple[Guard, ...]] = {
    Attack: (lambda tx, cmd: mounts.refuse_controlled_mount(tx, cmd.attacker),),
    unarmed.UnarmedStrike: (lambda tx, cmd: mounts.refuse_controlled_mount(tx, cmd.attacker),),
    BonusAction: (lambda tx, cmd: mounts.refuse_controlled_mount(tx, cmd.combatant),),
    EndTurn: (mounts.require_no_fall_pending,),
}

# Bookkeeping that follows a shared event: what a long jump's run-up, a conversation or a
# controlled mount's turn need to know.
_RUN_UP_ENDS = {
    ActionTaken: movement.breaks_run_up("combatant"),
    AttackMade: movement.breaks_run_up("attacker"),
    unarmed.UnarmedStrikeMade: movement.breaks_run_up("attacker"),
    BonusActionTaken: movement.breaks_run_up("combatant"),
    ReactionTaken: movement.breaks_run_up("combatant"),
    communication.AlliesAddressed: movement.breaks_run_up("combatant"),
    TurnStarted: lambda state, e: with_rules(state, run_up=None),
}

RULES = assemble(
    *fivee.core(acting_order),
    shared_initiative.RULES,
    traits.RULES,
    initiative.RULES,
    reorder.rules(acting_order),
    communication.RULES,
    cover.RULES,
    unarmed.RULES,
    movement.RULES,
    jumping.RULES,
    mounts.RULES,
    # The variant's changes to shared rules: its own handlers above, what it refuses first,
    # and its books on shared events (after their appliers and the modules' own).
    Rules(
        handlers={TakeAction: _take_action, Attack: _attack, ApplyCondition: _apply_condition},
        guards=GUARDS,
        after={event: (keep,) for event, keep in _RUN_UP_ENDS.items()},
    ),
    consistency.RULES,
    one_slot_per_turn.RULES,  # srd-2024's: "On a turn, you can expend only one spell slot to cast a spell"
)

RULESET = Ruleset.of(
    RULES,
    id="srd-2024-variant",
    title="5e 2024 with the table's variants",
    summary="srd-2024 with the table's changes: optional group roll, initiative swaps before round 1 "
    "(not for the surprised), tied players reroll, cover adds to Constitution saves, grapple and shove "
    "by Constitution save, extended talk costs an action and a reaction, mounting costs the mount's size.",
    phases=reactions.with_window(stat_blocks.with_steps(PHASES)),
    turn_order=turn_order,
    flow=reactions.with_windows(flow),
    conditions=srd2024.RULESET.conditions,
    damage_types=srd2024.RULESET.damage_types,
    defaults=DEFAULTS,
    state_type=SrdVariantState,
    state_key="srd_variant",
    # Its creatures' stat-block notes by combatant, as declared-d10's.
    views=views_with(lambda block, hidden: hide_combatant_entries(block, "traits", hidden)),
    error_codes=COMMON_ERROR_CODES + FIVEE_ERROR_CODES + ERROR_CODES,
)
