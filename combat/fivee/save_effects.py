"""The GM's `save_effect`: an area or effect that several creatures save against at once (a
trap, a dragon's breath), resolved as any such effect is (combat/fivee/group_saves.py).

A monster's breath (Fire Breath, Recharge 5-6): name the stat block's action in `action` and
the dragon as `source`: the action is used as `monster_action` uses it (on the dragon's turn,
its action spent, the Recharge spent until a 5 or 6 brings it back), then the save is
resolved. Without `action`, the GM records it with `monster_action` first, then sends
`save_effect` with the numbers from the block ("Dexterity Saving Throw: DC 21 ... Failure: 59
(17d6) Fire damage. Success: Half damage.": ability dex, dc 21, damage 17d6, damage_type
fire, half_on_success).
"""

from __future__ import annotations

from typing import ClassVar

from combat.fivee.group_saves import resolve_save_effect
from combat.fivee.monster_actions import MonsterAction, monster_action
from combat.fivee.save_modifiers import SaveModifiers
from combat.kernel.commands import Command, Faces
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionSpec

__all__ = ["SaveEffect", "RULES"]


class SaveEffect(Command, frozen=True, kw_only=True):
    """Several creatures save at once against one effect that is not a spell (a trap, a
    dragon's breath): the damage rolled once for all, half (or none) on a success, a
    condition on a failure."""

    gm_only: ClassVar[bool] = True

    source: str  # a combatant's id (the dragon), or words for the log (a pit trap)
    targets: tuple[str, ...]
    ability: str  # strength... or dex, DEX, Dexterity
    dc: int
    damage: str | None = None  # dice notation rolled once for all the targets, e.g. 17d6
    damage_type: str | None = None
    half_on_success: bool = False  # a success takes half the damage (round down); otherwise none
    condition: ConditionSpec | None = None  # applied on a failed save, with its durations (rounds, concentration, save)
    # The saves' dice by target id, e.g. {"aria": [12]}; a target left out rolls from the seed.
    faces: dict[str, tuple[int, ...]] = {}
    damage_faces: Faces = None
    # The source's stat-block action this is (Fire Breath): used as monster_action uses it.
    action: str | None = None
    # The GM's word per target id: Advantage/Disadvantage reasons, cover, Legendary Resistance
    # used on a failure, e.g. {"dragon": {"legendary_resistance": true}}. Left out: none.
    save_modifiers: dict[str, SaveModifiers] = {}
    magical: bool = False  # a magical effect (not a spell): Magic Resistance gives Advantage against it


def _save_effect(tx: Tx, cmd: SaveEffect) -> None:
    if cmd.action is not None:
        if cmd.source not in tx.state.combatants:
            raise RuleError(
                "save-effect/action-source",
                f"the action {cmd.action} needs its creature as source, not '{cmd.source}'",
                allowed="source: the id of the creature whose stat block has it, "
                + (", ".join(tx.state.combatants) or "none yet"),
            )
        # The note names no DC: a hidden creature's DC is kept back with its SaveMade events
        # (their `source`), and a note is free text no redaction can read.
        monster_action(tx, MonsterAction(combatant=cmd.source, action=cmd.action, note=f"{cmd.ability} save"))
    resolve_save_effect(
        tx,
        cmd.source,
        cmd.targets,
        cmd.ability,
        cmd.dc,
        cmd.damage,
        cmd.damage_type,
        cmd.half_on_success,
        cmd.condition,
        cmd.faces,
        cmd.damage_faces,
        modifiers=cmd.save_modifiers,
        magical=cmd.magical,
    )


RULES = Rules(handlers={SaveEffect: _save_effect})
