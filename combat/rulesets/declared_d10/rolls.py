"""The dice rules every roll of this ruleset follows: Advantage, Disadvantage, Cinematic
Advantage, the surprise round's effects and the wound modifier.

"The GM can determine that a player or creature has Advantage or Disadvantage or Cinematic
Advantage on a to hit roll and that roll is made with two or three d20's." The Dice section
that text points to is not included; the reading written down here:
- Advantage: two d20, keep the higher. Disadvantage: two d20, keep the lower.
  Cinematic Advantage: three d20, keep the highest.
- Reasons do not stack: any number of Advantage reasons is one step up, any number of
  Disadvantage reasons one step down, Cinematic Advantage two steps up; the steps cancel,
  so Advantage with Disadvantage is a plain roll and Cinematic with Disadvantage is Advantage.
"""

from __future__ import annotations

from collections.abc import Sequence

from combat.kernel import dice
from combat.kernel.decider import Tx
from combat.kernel.events import DiceRolled
from combat.kernel.state import Combatant, EncounterState
from combat.rulesets.declared_d10.state import D10State

__all__ = ["MODES", "roll_mode", "die_notation", "surprise_reasons", "penalty_for", "roll_d20"]

MODES = ("disadvantage", "normal", "advantage", "cinematic")
_KEEP = {"disadvantage": "2{d}kl1", "normal": "1{d}", "advantage": "2{d}kh1", "cinematic": "3{d}kh1"}


def roll_mode(advantage: Sequence[str], disadvantage: Sequence[str], cinematic: str | None = None) -> str:
    up = 2 if cinematic else 1 if advantage else 0
    down = 1 if disadvantage else 0
    return MODES[max(-1, up - down) + 1]


def die_notation(mode: str, die: str = "d20") -> str:
    return _KEEP[mode].format(d=die)


def surprise_reasons(t: D10State, c: Combatant) -> tuple[list[str], list[str]]:
    """'Attackers roll their dice with Advantage and defenders roll with Disadvantage during that round.'"""
    if t.round_kind == "normal":
        return [], []
    if c.side == t.attackers:
        return [f"{t.round_kind} round"], []
    if c.side == t.defenders and t.round_kind == "surprise":
        return [], ["surprised this round"]
    return [], []


def penalty_for(state: EncounterState, c: Combatant, *, to_hit: bool) -> int:
    """'Half Total Hit Points: -2 penalty to hit (GM determines if this penalty applies to
    other actions during combat)': to-hit rolls always, other rolls if the table says so."""
    if not to_hit and not state.settings.get("half_hp_penalty_on_all_rolls", False):
        return 0
    return state.rules.to_hit.get(c.id, 0)


def roll_d20(
    tx: Tx,
    roller: Combatant | None,
    bonus: int,
    *,
    purpose: str,
    advantage: Sequence[str] = (),
    disadvantage: Sequence[str] = (),
    cinematic: str | None = None,
    to_hit: bool = False,
    faces: Sequence[int] | None = None,
    name: str | None = None,
) -> tuple[DiceRolled, str, int, list[str], int]:
    """One d20 roll with every reason that applies to `roller`.

    Returns the roll, its mode, the natural face kept, the reasons and the wound modifier.
    """
    adv, dis = list(advantage), list(disadvantage)
    penalty = 0
    if roller is not None:
        s_adv, s_dis = surprise_reasons(tx.state.rules, roller)
        adv += s_adv
        dis += s_dis
        penalty = penalty_for(tx.state, roller, to_hit=to_hit)
    mode = roll_mode(adv, dis, cinematic)
    notation = f"{die_notation(mode)}{bonus:+d}" + (f"{penalty:+d}" if penalty else "")
    roll = tx.roll(notation, purpose=purpose, roller=roller.id if roller else (name or "gm"), faces=faces)
    reasons = [f"advantage: {r}" for r in adv] + [f"disadvantage: {r}" for r in dis]
    if cinematic:
        reasons.insert(0, f"cinematic advantage: {cinematic}")
    return roll, mode, dice.kept_d20(roll.dice) or 0, reasons, penalty
