"""Rulesets that live outside the package, to show that one plugs in without kernel changes."""
