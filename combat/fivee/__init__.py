"""The 5e rules that srd-2024, srd-2024-variant and a5e share: initiative, the turn's end, actions, attacks, death saves, spells, stat blocks, reactions, and the checks run after a changed past, on the rules every ruleset with hit points shares (combat/common: set-up, turns, conditions, concentration, damage and healing, saves), whose ports they fill.

Each rule module exposes its part as one `RULES` bundle (a `Rules`), or as a function
returning one where the part depends on the ruleset (`turn_pointer.rules(order)`,
`ability_checks.rules(skills)`). `core` lists the bundles all three rulesets take, in the
order they are assembled; each ruleset lists it first and its own bundles after it, so that
its own entry for a command or event replaces the shared one (see `combat.kernel.decider.Rules`).
"""

from __future__ import annotations

from combat.common import concentration, conditions, hitpoints, regained_movement, saves, setup, turns
from combat.common.turns import OrderFn
from combat.fivee import (
    ability_checks,
    actions,
    attacks,
    banked_actions,
    characters,
    consistency,
    damage_reduction,
    damage_rolls,
    dying,
    gm_edits,
    held_open,
    last_attacks,
    mirror_image,
    reactions,
    resources,
    sanctuary,
    save_effects,
    saving_throws,
    sheet_claims,
    spell_effect_uses,
    spell_targets,
    spellcasting,
    stat_blocks,
    turn_ends,
    turn_pointer,
    until_next_turn,
)
from combat.fivee.ability_checks import SRD_SKILLS
from combat.fivee.command_groups import ANYTIME_COMMANDS, GM_TURN_COMMANDS, RULING_COMMANDS
from combat.kernel.commands import EndTurn
from combat.kernel.decider import Rules

__all__ = ["core", "GM_TURN_COMMANDS", "RULING_COMMANDS", "ANYTIME_COMMANDS"]


def core(order: OrderFn, skills: tuple[str, ...] = SRD_SKILLS) -> tuple[Rules, ...]:
    """The bundles srd-2024, the variant and a5e share, in assembly order. `order` is the
    ruleset's order of turns (ending a turn, the GM's turn pointer and the checks of whose
    turn came when follow it); `skills` are the skill names an ability check may name.
    Initiative is not among them: a5e decides it its own way."""
    return (
        setup.RULES,
        turns.RULES,
        Rules(handlers={EndTurn: turn_ends.end_turn_handler(order)}, checks=consistency.turn_checks(order)),
        actions.RULES,
        held_open.RULES,  # a Help lapses at its helper's turn, opportunities at the turn's end
        until_next_turn.RULES,  # Dodge, Disengage and a readied action lapse at the turn's start
        attacks.RULES,
        hitpoints.RULES,
        conditions.RULES,
        concentration.RULES,
        saves.RULES,
        saving_throws.RULES,
        save_effects.RULES,
        spellcasting.RULES,
        spell_effect_uses.RULES,
        dying.RULES,
        regained_movement.RULES,
        gm_edits.RULES,
        banked_actions.RULES,
        turn_pointer.rules(order),
        ability_checks.rules(skills),
        damage_rolls.RULES,
        consistency.RULES,
        characters.RULES,
        resources.RULES,
        sheet_claims.RULES,
        stat_blocks.RULES,  # after attacks: a monster's attack is the shared one as its block makes it
        reactions.RULES,  # after spellcasting: a spell may be held in a window, or answer one
        last_attacks.RULES,
        mirror_image.RULES,
        sanctuary.RULES,
        spell_targets.RULES,  # the creature types a condition's immunity asks about
        damage_reduction.RULES,
    )
