"""The registry of rulesets: adding one is a module and a line here."""

from __future__ import annotations

from combat.decider import Ruleset
from combat.errors import RuleError
from combat.rulesets import srd2024

__all__ = ["RULESETS", "get_ruleset"]

RULESETS: dict[str, Ruleset] = {r.id: r for r in (srd2024.RULESET,)}


def get_ruleset(ruleset_id: str) -> Ruleset:
    try:
        return RULESETS[ruleset_id]
    except KeyError:
        raise RuleError("ruleset/unknown", f"no ruleset '{ruleset_id}'", allowed=", ".join(RULESETS)) from None
