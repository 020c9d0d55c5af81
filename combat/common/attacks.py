"""What every attack roll shares: the attack a combatant makes by name, and the d20 it rolls
with Advantage or Disadvantage, and what cover adds to AC (and to a Dexterity save) (the 5e attack rule, combat/fivee/attacks.py, builds on these;
declared-d10 picks its attacks by name the same way)."""

from __future__ import annotations

from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile
from combat.kernel.state import Combatant

__all__ = ["COVER_AC", "roll_mode", "d20_notation", "choose_attack"]

# "Half +2 bonus to AC ... Three-Quarters +5 ... Total: can't be targeted directly"
COVER_AC = {"none": 0, "half": 2, "three-quarters": 5}


def roll_mode(advantage: list[str], disadvantage: list[str]) -> str:
    """'If circumstances cause a roll to have both Advantage and Disadvantage, ... neither.'"""
    if advantage and not disadvantage:
        return "advantage"
    if disadvantage and not advantage:
        return "disadvantage"
    return "normal"


def d20_notation(mode: str, bonus: int) -> str:
    die = {"advantage": "2d20kh1", "disadvantage": "2d20kl1"}.get(mode, "1d20")
    return f"{die}{bonus:+d}"


def choose_attack(c: Combatant, name: str | None, *, melee_only: bool = False) -> AttackProfile:
    options = [a for a in c.attacks if a.kind == "melee" or not melee_only]
    if not options:
        raise RuleError(
            "attack/none", f"{c.name} has no {'melee ' if melee_only else ''}attack", allowed="add attacks to its stat block"
        )
    if name is None:
        return options[0]
    for a in options:
        if a.name.lower() == name.lower():
            return a
    raise RuleError("attack/unknown", f"{c.name} has no attack called '{name}'", allowed=", ".join(a.name for a in options))
