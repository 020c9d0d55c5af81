"""Saving throws the GM calls for: d20 + bonus against a DC, with Advantage or Disadvantage,
and what conditions and cover do to them (combat/common/save_conditions.py).

"Saving Throw: d20 + ability modifier + Proficiency Bonus if proficient": the bonus left out
is the creature's own (combat/fivee/bonuses.py: its stat block's save, or its `con_save`);
a bonus the GM gives replaces it. The ability may be named in any usual spelling (`dex`,
`DEX`, `Dexterity`): the save records it in full, lower case, and so the conditions that
fail or hinder Strength and Dexterity saves see it whatever the spelling. Anything else is
refused (`save/ability`) with the six.

declared-d10 takes `PLAIN_HANDLERS`: the ability as given and a bonus left out as 0, as it
always was.
"""

from __future__ import annotations

from typing import Any

import msgspec

from combat.common.attacks import d20_notation, roll_mode
from combat.common.commands import SavingThrow
from combat.common.condition_effects import d20_penalty
from combat.common.effect_bonuses import effect_roll_dice
from combat.common.events import SaveMade, SaveRolled
from combat.common.rider_reads import effect_save_bonus, saves_with_advantage, saves_with_disadvantage
from combat.common.save_conditions import automatic_failure, cover_bonus, save_disadvantage
from combat.kernel import dice
from combat.kernel.decider import Applier, Handler, Narrate, Rules, Tx, unchanged
from combat.kernel.errors import RuleError
from combat.kernel.events import DiceRolled
from combat.kernel.hidden import shown

__all__ = ["saving_throw", "roll_save", "save", "PLAIN_HANDLERS", "APPLIERS", "RULES"]


def saving_throw(
    tx: Tx,
    cid: str,
    ability: str,
    dc: int | None,
    bonus: int,
    mode: str,
    faces,
    reason: str = "",
    *,
    conditions: bool = True,
    cover: str = "none",
    source: str | None = None,
) -> SaveMade:
    """A save, with what the 5e conditions do to it unless `conditions` is False (segments-1e)
    and cover's bonus to a Dexterity save. `source`: the combatant whose sheet set the DC."""
    whose = msgspec.UNSET if source is None else source  # left out of the JSON when the GM named the DC
    if dc is None:
        raise RuleError("save/no-dc", f"this {ability} save needs its DC here", allowed="dc: the number to meet or beat")
    c = tx.combatant(cid)
    failed_by = automatic_failure(c, ability) if conditions and c.status != "dead" else None
    if failed_by is not None:
        cover_bonus(ability, cover)
        if faces is not None:
            raise RuleError(
                "dice/unused-faces", f"{c.name} is {failed_by} and fails {ability} saves without a roll", allowed="no faces"
            )
        event = SaveMade(
            combatant=c.id,
            ability=ability,
            dc=dc,
            total=0,
            success=False,
            reason=", ".join(r for r in (reason, f"automatically fails: {failed_by}") if r),
            cover=cover,  # type: ignore[arg-type]
            source=whose,
        )
        tx.emit(event)
        return event
    roll = roll_save(tx, cid, ability, bonus, mode, faces, conditions=conditions, cover=cover)
    event = SaveMade(
        combatant=cid,
        ability=ability,
        dc=dc,
        total=roll.total,
        success=roll.total >= dc,
        reason=reason,
        cover=cover,  # type: ignore[arg-type]
        source=whose,
    )
    tx.emit(event)
    return event


def roll_save(
    tx: Tx, cid: str, ability: str, bonus: int, mode: str, faces, *, conditions: bool = True, cover: str = "none"
) -> DiceRolled:
    c = tx.combatant(cid)
    if c.status == "dead":
        raise RuleError("target/dead", f"{c.name} is dead and makes no saves", allowed="a living combatant")
    bonus += cover_bonus(ability, cover)
    if conditions:
        bonus -= d20_penalty(c)  # Exhaustion: "the roll is reduced by 2 times your Exhaustion level"
        bonus += effect_save_bonus(c)  # Warding Bond: "a +1 bonus to AC and saving throws"
    if conditions and saves_with_advantage(c, ability):  # Haste: "Advantage on Dexterity saving throws"
        mode = roll_mode(["effect"], ["given"] if mode == "disadvantage" else [])
    if conditions and (save_disadvantage(c, ability) or saves_with_disadvantage(c, ability)):  # Reduce: Strength
        mode = roll_mode(["advantage"] if mode == "advantage" else [], ["condition"])
    notation = d20_notation(mode, bonus) + (effect_roll_dice(c, "saving_throws") if conditions else "")
    return tx.roll(notation, purpose=f"{ability} save", roller=c.id, faces=faces)


def _plain_saving_throw(tx: Tx, cmd: SavingThrow) -> None:
    save(tx, cmd, cmd.ability, 0 if cmd.bonus is None else cmd.bonus)


def save(tx: Tx, cmd: SavingThrow, ability: str, bonus: int, *, awaits_dc: bool = False) -> None:
    """The `saving_throw` command's save with `bonus`; one without a DC is recorded as rolled,
    `awaits_dc` saying the ruleset keeps it waiting for the GM's `judge_save`."""
    if cmd.dc is None:
        # The DC is not known yet (the GM keeps it secret, or the effect decides later): the
        # roll is recorded and the GM rules on it, with judge_save (combat/fivee/judged_saves.py),
        # damage, a condition or a ruling.
        roll = roll_save(tx, cmd.combatant, ability, bonus, cmd.roll_mode, cmd.faces, cover=cmd.cover)
        natural = dice.kept_d20(roll.dice) or 0
        tx.emit(
            SaveRolled(
                combatant=cmd.combatant,
                ability=ability,
                total=roll.total,
                natural=natural,
                reason=cmd.reason,
                awaits_dc=awaits_dc,
            )
        )
        return
    saving_throw(tx, cmd.combatant, ability, cmd.dc, bonus, cmd.roll_mode, cmd.faces, cmd.reason, cover=cmd.cover)


def _narrate_rolled(n: Any, e: SaveRolled) -> str:
    why = f" ({e.reason})" if e.reason else ""
    return f"{n.name(e.combatant)} rolls a {e.ability} save{why}: {e.total}, for the GM to rule on"


PLAIN_HANDLERS: dict[type, Handler] = {SavingThrow: _plain_saving_throw}
# A save's record changes nothing shared: a ruleset that keeps saves waiting for their DC
# applies them its own way (combat/fivee/saving_throws.py).
APPLIERS: dict[type, Applier] = {SaveMade: unchanged, SaveRolled: unchanged}
NARRATION: dict[type, Narrate] = {
    SaveMade: lambda n, e: (
        f"{n.name(e.combatant)} {e.ability} save: {e.total}{shown(e.dc, ' vs DC ')}"
        + (" (set after the roll)" if e.judged_later else "")
        + " - "
        + ("success" if e.success else "failure")
        + (f" ({e.reason})" if e.reason else "")
    ),
    SaveRolled: _narrate_rolled,
}
RULES = Rules(handlers=PLAIN_HANDLERS, appliers=APPLIERS, narration=NARRATION)
