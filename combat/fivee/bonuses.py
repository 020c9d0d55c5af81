"""The bonus a creature adds to its saving throws and ability checks, read from what the
encounter holds about it: the one place a save or check bonus is read.

A creature added from a stat block (combat/fivee/monsters.py) reads its block: "Saving Throw:
d20 + ability modifier + Proficiency Bonus if proficient" is what the block's Saves line
already adds up, so a save the block lists uses that number and any other the modifier of
the block's score ("subtract 10 from the score and then divide the result by 2 (round
down)"). A check with a skill the block lists (Skills line) uses that number, any other check
the ability's modifier. A combatant entered by hand carries no scores: its `con_save` for a
Constitution save (what concentration has always read), 0 for everything else.

A character added by sheet (combat/fivee/characters.py) reads its sheet: the ability modifier
plus the Proficiency Bonus for a proficient save, and for a check with a skill it is
proficient in (twice with Expertise), as `combat.characters.sheet` computes them.

`saving_throw`, `ability_check` and `contest` use these when their `bonus` is left out; a
bonus the GM gives replaces it.
"""

from __future__ import annotations

from combat.characters import sheet as sheets
from combat.characters.sheet import SKILL_ABILITY, modifier
from combat.fivee.characters import character
from combat.fivee.monsters import sheet
from combat.kernel.state import EncounterState

__all__ = ["save_bonus", "check_bonus"]


def save_bonus(state: EncounterState, cid: str, ability: str) -> int:
    """The bonus `cid` adds to a saving throw of `ability` (one of the six, in full, lower case)."""
    pc = character(state, cid)
    if pc is not None:
        return sheets.save_bonus(pc.sheet, ability)  # type: ignore[arg-type]
    found = sheet(state, cid)
    if found is None:
        return state.combatants[cid].con_save if ability == "constitution" else 0
    block = found.block
    return block.saves[ability] if ability in block.saves else modifier(block.abilities.get(ability, 10))


def check_bonus(state: EncounterState, cid: str, ability: str, skill: str | None) -> int:
    """The bonus `cid` adds to an ability check of `ability`, with `skill` if one is named."""
    pc = character(state, cid)
    if pc is not None:
        if skill is not None and skill in SKILL_ABILITY:
            return sheets.skill_bonus(pc.sheet, skill, ability)  # type: ignore[arg-type]
        return modifier(getattr(pc.sheet.abilities, ability, 10))
    found = sheet(state, cid)
    if found is None:
        return 0
    block = found.block
    if skill is not None and skill in block.skills:
        return block.skills[skill]
    return modifier(block.abilities.get(ability, 10))
