"""Plugging the stat block rules (monsters, monster_actions, legendary) into a 5e-family ruleset."""

from __future__ import annotations

import dataclasses

from combat.fivee import legendary, monster_actions, monster_consistency, monsters
from combat.kernel.decider import Applier, Handler, Ruleset, followed, unchanged
from combat.kernel.phases import PhaseTable, Step

__all__ = ["with_stat_blocks", "TURN_COMMANDS"]

TURN_COMMANDS = ("multiattack", "monster_action", "recharge", "legendary_action")
# The GM's rulings during a turn never wait for the recharge roll.
RULINGS = frozenset("damage heal grant_temp_hp apply_condition remove_condition start_concentration end_concentration "
                    "concentration_save saving_throw recharge legendary_action".split())


_MODULES = (monsters, monster_actions, legendary)


def with_stat_blocks(ruleset: Ruleset) -> Ruleset:
    """`ruleset` with add_monster where add_combatant is allowed, the stat block's actions in
    its turns, Legendary Resistance where saving throws are, and its attacks read from blocks."""
    if "monsters" not in getattr(ruleset.state_type, "__struct_fields__", ()):
        raise TypeError(f"{ruleset.id}: its state_type needs a `monsters: MonstersSlot = msgspec.UNSET` field")
    phases = ruleset.phases
    steps = []
    for step in phases.steps:  # each new command beside its kin, so the lists of allowed commands read well
        steps.append(step)
        if step.trigger == "add_combatant":
            steps.append(Step("add_monster", step.sources))
        elif step.trigger == "attack":
            steps += [Step(name, ("turns",)) for name in TURN_COMMANDS]
        elif step.trigger == "saving_throw":
            steps.append(Step("use_legendary_resistance", step.sources))
    table = PhaseTable(phases.name, phases.phases, steps, phases.initial)
    handlers: dict[type, Handler] = {**ruleset.handlers, **monsters.HANDLERS, **monster_actions.HANDLERS, **legendary.HANDLERS}
    # Every attack command (a5e's make_attack too) names its attacker and the attack it makes.
    for kind in [k for k in handlers if {"attacker", "attack"} <= set(getattr(k, "__struct_fields__", ()))]:
        handlers[kind] = monster_actions.attack_handler(handlers[kind])
    # The recharge roll comes first on the creature's turn: every command it could act by waits.
    acting = frozenset(s.trigger for s in steps if tuple(s.sources) == ("turns",)) - RULINGS
    handlers = {kind: monster_actions.recharge_first(h, acting) for kind, h in handlers.items()}
    appliers: dict = {**ruleset.appliers, **monsters.APPLIERS, **monster_actions.APPLIERS, **legendary.APPLIERS}
    afters: dict[type, list[Applier]] = {}
    for after in (monster_actions.AFTER, legendary.AFTER):
        for kind, fn in after.items():
            afters.setdefault(kind, []).append(fn)
    for kind, fns in afters.items():  # one call each, not one nested in another per module
        appliers[kind] = followed(appliers.get(kind, unchanged), tuple(fns))
    return dataclasses.replace(
        ruleset,
        phases=table,
        handlers=handlers,
        appliers=appliers,
        events=(*ruleset.events, *(e for m in _MODULES for e in m.EVENTS)),
        commands=(*ruleset.commands, *(c for m in _MODULES for c in m.COMMANDS)),
        checks={**ruleset.checks, **monster_consistency.CHECKS},
        narration={**ruleset.narration, **{k: v for m in _MODULES for k, v in m.NARRATION.items()}},
    )
