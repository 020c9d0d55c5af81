"""a5e: Level Up Advanced 5th Edition, "Turn-Based Action" (the rules and choices: ruleset.py)."""

from combat.rulesets.a5e.ruleset import RULESET

__all__ = ["RULESET"]
