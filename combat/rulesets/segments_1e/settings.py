"""The settings of segments-1e and their defaults (tables disagree, or the text is silent).

Settings new encounters record as true whose absence keeps an old log's reading (see
segments.py and spells.py): `spells_on_timeline`, `multi_attackers_close_in`,
`one_spell_in_surprise_segments`.
"""

from __future__ import annotations

from typing import Any

from combat.rulesets.segments_1e.segments import CLOSE_IN, SPELLS_ON_TIMELINE

__all__ = ["DEFAULTS", "ONE_SPELL_IN_SURPRISE"]

# "Only one spell can be cast per round": the surprise segments (one or two, before the first
# round) allow one spell between them. Logs from before the setting let a caster cast in each.
ONE_SPELL_IN_SURPRISE = "one_spell_in_surprise_segments"

DEFAULTS: dict[str, Any] = {
    "surprised_on": 2,  # d6 faces that surprise a side: 1-2
    "dex_reaction_initiative": True,  # Dexterity reaction adjustments move individuals between HIGH and LOW
    "charge_bonus": 2,  # to hit, for a declared charge
    "spoil_before_casting": True,  # damage after a spell is declared but before casting begins spoils it
    SPELLS_ON_TIMELINE: True,  # spells go off in time order; a blow in their last segment spoils them
    CLOSE_IN: True,  # a multi-attacker not yet in melee closes in with its group before its routines
    ONE_SPELL_IN_SURPRISE: True,  # one spell between the surprise segments, as in a round
}
