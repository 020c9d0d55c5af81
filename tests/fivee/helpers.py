"""Helpers of the 5e-family tests (srd-2024, srd-2024-variant, a5e): a fight with initiative in the order given."""

from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import BeginCombat
from tests.helpers import Table


def fight(ruleset: str, *specs, settings: dict | None = None) -> Table:
    """Initiative in the order given (20, 19, 18 ...); the variant skips its swap step."""
    given = dict(settings or {})
    if ruleset == "srd-2024-variant":
        given.setdefault("initiative_reorder", False)
    t = Table(ruleset=ruleset, settings=given).add(*specs)
    t.do(BeginCombat())
    for i, spec in enumerate(specs):
        t.do(RollInitiative(combatant=spec.id, faces=(20 - i,)))
    return t
