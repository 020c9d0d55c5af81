"""The stat block rules (monsters, their limited uses, monster_actions, legendary actions and resistance) as one bundle for a 5e-family
ruleset, and the steps they add to its phase table.

Where a ruleset replaces the attack rule, its own handler calls
`monster_actions.by_stat_block` with its rule, so a monster's block still counts.
"""

from __future__ import annotations

from combat.fivee import legendary, legendary_resistance, monster_actions, monster_consistency, monster_uses, monsters
from combat.kernel.decider import assemble
from combat.kernel.phases import PhaseTable, Step

__all__ = ["RULES", "with_steps", "TURN_COMMANDS"]

TURN_COMMANDS = ("multiattack", "monster_action", "recharge", "legendary_action")
# A sheet's features (combat/fivee/resources.py) and spells (combat/fivee/spellcasting.py, a
# stat block's too): in the turns, on anyone's for a reaction.
CHARACTER_TURN_COMMANDS = ("use_resource", "end_rage", "cast_spell", "spell_effect")

RULES = assemble(
    monsters.RULES,
    monster_uses.RULES,
    monster_actions.RULES,
    legendary.RULES,
    legendary_resistance.RULES,
    monster_consistency.RULES,
)


def with_steps(phases: PhaseTable) -> PhaseTable:
    """`phases` with add_creature and add_character (combat/fivee/characters.py) where add_combatant is allowed, the stat block's actions in
    its turns, a character sheet's features and spells (use_resource, end_rage, cast_spell) beside them, and Legendary Resistance where saving throws are, each beside its kin so the
    lists of allowed commands read well; cast_spell also where begin_combat is, for a ritual before the fight."""
    steps = []
    for step in phases.steps:
        steps.append(step)
        if step.trigger == "add_combatant":
            steps.append(Step("add_creature", step.sources))
            steps.append(Step("add_character", step.sources))
        elif step.trigger == "attack":
            steps += [Step(name, ("turns",)) for name in TURN_COMMANDS + CHARACTER_TURN_COMMANDS]
        elif step.trigger == "saving_throw":
            steps.append(Step("use_legendary_resistance", step.sources))
        elif step.trigger == "begin_combat":
            steps.append(Step("cast_spell", step.sources))  # a ritual before the fight (combat/fivee/casting_rules.py)
    return PhaseTable(phases.name, phases.phases, steps, phases.initial)
