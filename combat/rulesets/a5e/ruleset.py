"""a5e: Level Up Advanced 5th Edition, "Turn-Based Action".

Phases: set-up (set the scene, then surprise, then initiative) -> initiative rounds, each one
world actions -> every participant's turn -> end of round -> ended. Each rule lives in a module
named for it: scene, surprise, initiative, rounds, world_actions, environments, movement,
actions, sprint, maneuvers (Press the Attack, Fall Back, Tumble), attacks; consistency holds
the checks run on later events after an undo or amended ruling.

Where the text is silent, this is what the engine does (docs/rulesets/a5e, generated from these docstrings):
- Without `set_scene`, rounds are 6 seconds and there is no environment (no world step).
- A surprised participant may not take a bonus action on its first turn either (a bonus
  action is an action); setting `surprised_bonus_action` allows it. Free actions are allowed.
- A participant joining a fight already under way (a summoned shadow, reinforcements) who
  ties an initiative count acts after those already at it; ties before round 1 are rolled off.
  If a roll-off ties again, only those still tied roll again; the others keep their places.
- A group of identical monsters may share one initiative check, as in the shared rules.
- The world takes one world action per round (it "gets its own turn"); setting
  `world_actions_per_round` changes that. Recharge is rolled right after use, as the text says;
  setting `recharge_roll_after_use: false` waits for the start of the next round instead.
- A world action's damage is rolled once for everyone it reaches (as for area spells); save
  bonuses are entered per target, defaulting to the Constitution save for Constitution saves
  and +0 otherwise; cover adds to Dexterity saves and Dodge gives them advantage.
- Shadow Puppet's shadow uses the shadow stat block (AC 12, 16 HP, Strength Drain) and the
  Leeches the swarm of insects; each newcomer is hostile to everyone (a side of its own). Leeches
  roll a Dexterity check for initiative on arrival.
- Dodge follows a5e's own text, not the 2024 one: it is refused at Speed 0 ("You cannot take
  the Dodge action when your Speed is reduced to 0"), and its benefits last "until the start of
  your next turn" though the dodger is then Incapacitated (Stunned, say) or its Speed drops to 0
  (Grappled), which would end the 2024 Dodge; the text states no such loss. Attacks still have
  disadvantage only "if you can see the attacker": not against a Blinded dodger, an attacker
  Invisible, hidden or `attacker_unseen`, or a dodger Unconscious or at 0 Hit Points (unaware
  of its surroundings). New encounters record this as the setting `dodge_to_next_turn`; logs
  from before it carry no such setting and keep the 2024 reading they were played with.
- Expertise dice from several sources raise the die a step (d4, d6, d8) instead of stacking.
- Sprint counts the turns sprinted in the last minute (at the scene's round length); fatigue
  is a condition, one entry per level, removed by the Narrator (`remove_condition`).
- Prone uses the melee/ranged distinction for "within 5 feet". A `move` says how many of its
  feet are Difficult Terrain, each costing 1 extra foot (on top of crawling's or climbing's
  extra, movement.py); grid positions and squeezing are the Narrator's rulings.
- Echo (cavernous) adds 1 per die to thunder damage rolled with dice: the Narrator's `damage`
  and an attack's thunder damage or thunder extra damage, once, after a Critical Hit doubles
  the dice (echo.py).
- 0 HP: the text says nothing of it, so the SRD 5.2 rules apply as in srd-2024 (monster
  death, massive damage, Death Saving Throws, stabilising, knocking out; combat/fivee/dying.py),
  and a creature revived or freed during its own turn regains its Speed for the rest of it.
- After a change to the past, a later event that could not have happened is a conflict (see
  consistency.py); a participant made surprised by an amended check is held to it only until
  round 1 passes its place in the order, and its first turn's end not ending the surprise is
  itself a conflict (amend that end_turn to record the surprise ending).
- The GM moves of the 5e family (set_hp, change_stat_block, goto_turn, previous_turn,
  grant_action, ability_check with a5e's skills, contest, saving_throw without a DC, judge_save,
  roll_damage) work as in srd-2024; goto_turn ends a surprised participant's first turn as
  end_turn would. Granting is not acting: a grant_action made before a surprised participant's
  first turn is banked for that turn, where the banked action, like its own, cannot be used
  while it is surprised (a bonus action only if `surprised_bonus_action` allows it); unused, it
  lapses with that turn as any grant does. roll_initiative is not taken in set-up: a5e's
  initiative checks come after the surprise checks, which "are reused as" initiative, so there
  is nothing to roll earlier.
- Characters by sheet and spells: the text's attack rules ("Spell attacks utilize the
  spellcasting ability of the spellcaster", "You add your proficiency bonus ... when you are
  attacking with a spell", "A natural 20 on an attack roll is a critical hit") agree with the
  SRD 5.2's, and its spells are in a chapter (Chapter 11: Spellcasting) that is not part of
  this text, so `add_character`, `use_resource` and `cast_spell` play the SRD 5.2 sheets and
  spells as in srd-2024 (combat/fivee/characters.py, spellcasting.py). A sheet's skills may
  name a5e's Culture and Engineering. A Critical Hit widened by a sheet (a Champion's 19) is
  the sheet's feature, which the text leaves to the feature.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import combat.rulesets.a5e.actions as a5e_actions
import combat.rulesets.a5e.attacks as a5e_attacks
from combat import fivee
from combat.common import turns
from combat.common.condition_effects import DODGE_SETTING
from combat.common.error_codes import COMMON_ERROR_CODES
from combat.common.glossary import SRD_CONDITIONS, SRD_DAMAGE_TYPES
from combat.fivee import ability_checks, dying, reactions, stat_blocks, turn_pointer
from combat.fivee import initiative as shared_initiative
from combat.fivee.action_commands import BonusAction, Move, TakeAction, UseReaction
from combat.fivee.attack_commands import Attack, OpportunityAttack
from combat.fivee.error_codes import FIVEE_ERROR_CODES
from combat.fivee.gm_edit_commands import GrantAction
from combat.fivee.initiative import turn_order
from combat.fivee.turn_pointer import GotoTurn
from combat.fivee.views import FIVEE_VIEWS
from combat.kernel.commands import EndTurn
from combat.kernel.decider import Rules, Ruleset, Tx, assemble
from combat.kernel.events import TurnStarted
from combat.kernel.phases import PhaseTable, Step
from combat.kernel.state import EncounterState, with_rules
from combat.rulesets.a5e import consistency, echo, initiative, maneuvers, movement, rounds, scene, sprint, surprise, world_actions
from combat.rulesets.a5e.error_codes import ERROR_CODES
from combat.rulesets.a5e.table import A5eTable

__all__ = ["RULESET", "RULES", "PHASES", "DEFAULTS"]

TURN_COMMANDS = (
    "move",
    "stand_up",
    "attack",
    "make_attack",
    "opportunity_attack",
    "take_action",
    "press_the_attack",
    "fall_back",
    "sprint",
    "tumble",
    "bonus_action",
    "interact_with_object",
    "free_action",
    "use_reaction",
    "death_save",
    "end_turn",
    *fivee.GM_TURN_COMMANDS,
)
# The Narrator's edits and the checks a Narrator calls for, whenever the fight is not over.
ANYTIME_COMMANDS = fivee.ANYTIME_COMMANDS
RULING_COMMANDS = fivee.RULING_COMMANDS
ALL = ("setup", "surprise", "initiative", "world", "turns", "ended")
UNDER_WAY = ("surprise", "initiative", "world", "turns")

PHASES = PhaseTable(
    "a5e",
    ALL,
    [
        Step("set_scene", ("setup",)),
        Step("add_combatant", ("setup", *UNDER_WAY)),
        Step("set_speeds", ("setup", *UNDER_WAY)),
        Step("remove_combatant", ("setup",)),
        Step("treat_as_character", ("setup", *UNDER_WAY)),
        Step("begin_combat", ("setup",), "surprise"),
        Step("surprise_check", ("surprise",)),
        Step("mark_surprised", ("surprise",)),
        Step("declare_sudden_action", ("surprise",)),
        Step("call_initiative_check", UNDER_WAY),
        Step("roll_initiative", ("surprise",), "initiative"),
        Step("roll_initiative", ("initiative", "world", "turns")),
        Step("roll_off", ("initiative",)),
        Step("start_rounds", ("initiative",), "turns", automatic=True),
        Step("world_step", ("initiative", "turns"), "world", automatic=True),
        Step("roll_recharge", ("world",)),
        Step("use_world_action", ("world",)),
        Step("end_world_step", ("world",), "turns"),
        *(Step(name, ("turns",)) for name in TURN_COMMANDS),
        *(Step(name, ("world", "turns")) for name in RULING_COMMANDS),
        *(Step(name, ("setup", *UNDER_WAY)) for name in ANYTIME_COMMANDS),
        Step("ruling", ALL),
        Step("end_combat", UNDER_WAY, "ended"),
        Step("side_defeated", ("turns",), "ended", automatic=True),
    ],
    initial="setup",
)

DEFAULTS = {
    "surprised_bonus_action": False,
    "world_actions_per_round": 1,
    "recharge_roll_after_use": True,
    DODGE_SETTING: True,
    **dying.DEFAULTS,
}

_ATTACK_USES = {"action": "act", "bonus_action": "bonus", "reaction": "react"}

# What each turn command asks of a participant who may still be surprised: (who, what it does).
# grant_action has its own guard (surprise.grant_not_surprised): a grant banked for a later
# turn asks nothing of the participant now.
_SURPRISE_GUARDS: dict[type, Callable[[Any], tuple[str, str]]] = {
    Move: lambda c: (c.combatant, "move"),
    movement.StandUp: lambda c: (c.combatant, "move"),
    TakeAction: lambda c: (c.combatant, "bonus" if c.bonus_action else "act"),
    BonusAction: lambda c: (c.combatant, "bonus"),
    Attack: lambda c: (c.attacker, _ATTACK_USES["reaction" if c.readied else c.using]),
    a5e_attacks.MakeAttack: lambda c: (c.attacker, _ATTACK_USES["reaction" if c.readied else c.using]),
    OpportunityAttack: lambda c: (c.attacker, "react"),
    UseReaction: lambda c: (c.combatant, "react"),
    maneuvers.PressTheAttack: lambda c: (c.combatant, "bonus"),
    maneuvers.FallBack: lambda c: (c.combatant, "react"),
    maneuvers.Tumble: lambda c: (c.combatant, "bonus" if c.bonus_action else "act"),
    sprint.Sprint: lambda c: (c.combatant, "act"),
}


def _on_turn_started(state: EncounterState, e: TurnStarted) -> EncounterState:
    """'Until the beginning of your next turn' (Press the Attack), 'until the start of your
    next turn' (Sprint): both end as the presser's or sprinter's turn starts."""
    state = turns.on_turn_started(state, e)
    notes = state.rules
    if not any(p.attacker == e.combatant for p in notes.presses) and e.combatant not in notes.sprinting:
        return state
    return with_rules(
        state,
        presses=tuple(p for p in notes.presses if p.attacker != e.combatant),
        sprinting=tuple(c for c in notes.sprinting if c != e.combatant),
    )


_shared_goto = turn_pointer.rules(turn_order).handlers[GotoTurn]


def _goto_turn(tx: Tx, cmd: GotoTurn) -> None:
    """goto_turn ends the current turn as end_turn does, so a surprised participant's first
    turn ends its surprise here too; then the shared goto_turn."""
    if tx.state.turn is not None:
        surprise.end_surprise(tx, EndTurn(combatant=tx.state.turn))
    _shared_goto(tx, cmd)


RULES = assemble(
    *fivee.core(turn_order, ability_checks.A5E_SKILLS),
    # a5e decides initiative by its own checks (initiative.py); the shared rules record and tell it.
    Rules(appliers=shared_initiative.RULES.appliers, narration=shared_initiative.RULES.narration),
    echo.RULES,
    scene.RULES,
    surprise.RULES,
    initiative.RULES,
    world_actions.RULES,
    rounds.RULES,
    movement.RULES,
    a5e_actions.RULES,
    sprint.RULES,
    maneuvers.RULES,
    a5e_attacks.RULES,
    # Where a5e changes a shared rule: the start of a turn, goto_turn, and a surprised
    # participant's first turn (surprise.py) refused before any command's rule.
    Rules(
        handlers={GotoTurn: _goto_turn},
        appliers={TurnStarted: _on_turn_started},
        guards={
            **{kind: (surprise.not_surprised(who),) for kind, who in _SURPRISE_GUARDS.items()},
            GrantAction: (surprise.grant_not_surprised,),
        },
    ),
    consistency.RULES,
)

RULESET = Ruleset.of(
    RULES,
    id="a5e",
    title="Level Up A5E: Turn-Based Action",
    summary="Set the scene, surprise by ability checks, initiative by ability check (surprise checks reused, "
    "ties rolled off on d20); world actions with recharge at the start of every round; Press the Attack, "
    "Fall Back, Sprint, Tumble, flanking and attacks from above.",
    phases=reactions.with_window(stat_blocks.with_steps(PHASES)),
    turn_order=turn_order,
    flow=reactions.with_windows(rounds.flow),
    # The SRD glossary's conditions and damage types, and the conditions the text adds: fatigue
    # (Sprint), encumbered, and raging ("A creature using the Rage class feature cannot ... Fall Back").
    conditions=SRD_CONDITIONS | {"fatigue", "encumbered", "raging"},
    damage_types=SRD_DAMAGE_TYPES,
    defaults=DEFAULTS,
    state_type=A5eTable,
    state_key="a5e",
    views=FIVEE_VIEWS,
    error_codes=COMMON_ERROR_CODES + FIVEE_ERROR_CODES + ERROR_CODES,
)
