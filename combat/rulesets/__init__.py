"""The registry of rulesets: adding one is a module and a line here (or, from outside the
package, one call to `register`)."""

from __future__ import annotations

from combat.kernel.decider import Ruleset
from combat.kernel.errors import RuleError
from combat.kernel.hidden import undeclared
from combat.rulesets import a5e, declared_d10, segments_1e, srd2024, srd2024_variant

__all__ = ["RULESETS", "get_ruleset", "register"]

RULESETS: dict[str, Ruleset] = {r.id: r for r in (srd2024.RULESET, srd2024_variant.RULESET, declared_d10.RULESET, a5e.RULESET, segments_1e.RULESET)}


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise RuleError("ruleset/unknown", f"no ruleset '{ruleset_id}'", allowed=", ".join(RULESETS)) from None


def register(ruleset: Ruleset) -> Ruleset:
    """Make `ruleset` playable by its id: a plug-in (or a test) adds itself in one line.
    Each of its event types must say what players and viewers see of it (combat/kernel/hidden.py)."""
    missing = undeclared(ruleset.events)
    if missing:
        raise TypeError(f"{ruleset.id}: event types without a `hidden` declaration (combat/kernel/hidden.py): "
                        + ", ".join(missing))
    known = RULESETS.get(ruleset.id)
    if known is not None and known is not ruleset:
        raise RuleError("ruleset/duplicate", f"a ruleset '{ruleset.id}' is already registered", allowed="a new id")
    RULESETS[ruleset.id] = ruleset
    return ruleset
