"""Helpers of the srd-2024-variant scenarios: a brawl for the Unarmed Strike options."""

from combat.rulesets.srd2024_variant.traits import NoteTraits
from tests.helpers import Table, monster, pc


def brawl(*extra, aria: dict | None = None) -> Table:
    """Aria (Strength +3, Proficiency +2) against an orc (Con save +1) and a goblin."""
    t = Table("srd-2024-variant", settings={"initiative_reorder": False})
    t.add(pc("aria", **(aria or {})), monster("orc", con_save=1, max_hp=15), monster("goblin", size="small"), *extra)
    t.do(NoteTraits(combatant="aria", strength=3, proficiency=2))
    return t.start({"aria": 18, "orc": 9, "goblin": 5, **{s.id: 1 for s in extra}})
