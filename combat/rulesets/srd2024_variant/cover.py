"""Cover Δ: half and three-quarters cover add to AC and to Constitution saves.

"Half: +2 bonus to AC and Constitution saves. Three-Quarters: +5 bonus to AC and
Constitution saves. Total: can't be targeted directly." The AC half is the shared Attack
command's `cover`; this module adds the save half. Cover gives nothing to other saves in
this variant (plain 2024 rules give it to Dexterity saves instead), so naming another
ability is refused rather than silently ignored. A concentration save is not a save against
an effect from across the cover, so cover does not apply to it.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from combat.common.attacks import COVER_AC
from combat.common.saves import saving_throw
from combat.kernel.commands import Command, Cover, Faces
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError

__all__ = ["RULES", "COVER_SAVE", "SaveBehindCover"]

COVER_SAVE = COVER_AC  # the same +2 / +5


class SaveBehindCover(Command, frozen=True, kw_only=True):
    """A Constitution save by a creature behind cover from the effect's origin."""

    gm_fields: ClassVar[tuple[str, ...]] = ("dc", "cover", "bonus", "roll_mode")

    combatant: str
    dc: int
    cover: Cover
    ability: str = "constitution"
    bonus: int | None = None  # the stat block's Constitution save bonus if not given
    roll_mode: Literal["normal", "advantage", "disadvantage"] = "normal"
    faces: Faces = None
    reason: str = ""


def _save(tx: Tx, cmd: SaveBehindCover) -> None:
    c = tx.combatant(cmd.combatant)
    if cmd.ability.lower() != "constitution":
        raise RuleError(
            "cover/constitution-only",
            f"cover adds to AC and Constitution saves in this variant, not to {cmd.ability} saves",
            allowed="saving_throw without cover, or ability constitution",
        )
    if cmd.cover == "total":
        raise RuleError(
            "cover/total", f"{c.name} has Total Cover and can't be targeted directly", allowed="half or three-quarters"
        )
    if cmd.cover == "none":
        raise RuleError("cover/none", "no cover named", allowed="half or three-quarters, or saving_throw without cover")
    base = c.con_save if cmd.bonus is None else cmd.bonus
    reason = ", ".join(filter(None, [cmd.reason, f"{cmd.cover} cover +{COVER_SAVE[cmd.cover]}"]))
    saving_throw(tx, c.id, "constitution", cmd.dc, base + COVER_SAVE[cmd.cover], cmd.roll_mode, cmd.faces, reason)


RULES = Rules(
    handlers={SaveBehindCover: _save},
)
