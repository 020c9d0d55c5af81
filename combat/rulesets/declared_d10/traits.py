"""A combatant's numbers the shared stat block does not carry: Stealth, Perception, Feats of
Strength, damage reduction, minion, weapon tiers, spells and attacks that ignore DR."""

from __future__ import annotations

from typing import ClassVar

from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import Hidden
from combat.kernel.state import EncounterState, with_rules
from combat.rulesets.declared_d10.state import D10Traits

__all__ = ["D10SetTraits", "D10TraitsSet", "RULES"]


class D10SetTraits(Command, frozen=True, kw_only=True):
    gm_only: ClassVar[bool] = True  # part of the stat block

    combatant: str
    traits: D10Traits


class D10TraitsSet(Event, frozen=True, kw_only=True):
    combatant: str
    traits: D10Traits
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("traits",))


def _set_traits(tx: Tx, cmd: D10SetTraits) -> None:
    c = tx.combatant(cmd.combatant)
    known = {a.name for a in c.attacks}
    named = set(cmd.traits.weapon_tiers) | set(cmd.traits.spells) | set(cmd.traits.ignores_dr)
    if named - known:
        raise RuleError(
            "traits/unknown-attack",
            f"{c.name} has no attack called {', '.join(sorted(named - known))}",
            allowed=", ".join(sorted(known)) or "add attacks to its stat block first",
        )
    if cmd.traits.dr < 0:
        raise RuleError("traits/dr", f"damage reduction {cmd.traits.dr} is negative", allowed="0 or more")
    tx.emit(D10TraitsSet(combatant=c.id, traits=cmd.traits))


def _on_traits(state: EncounterState, e: D10TraitsSet) -> EncounterState:
    return with_rules(state, traits={**state.rules.traits, e.combatant: e.traits})


def _line(n, e: D10TraitsSet) -> str:
    t = e.traits
    if t is None:  # not revealed to this reader (projections/redaction.py)
        return f"{n.name(e.combatant)}: traits noted by the GM"
    parts = [f"Stealth {t.stealth:+d}", f"Perception {t.perception:+d}", f"Feats of Strength {t.feats_of_strength:+d}"]
    if t.dr:
        parts.append(f"DR {t.dr}")
    if t.minion:
        parts.append("minion")
    parts += [f"{name} {tier}" for name, tier in t.weapon_tiers.items()]
    return f"{n.name(e.combatant)}: " + ", ".join(parts)


RULES = Rules(handlers={D10SetTraits: _set_traits}, appliers={D10TraitsSet: _on_traits}, narration={D10TraitsSet: _line})
