"""The 5e saving throw the GM calls for: the bonus left out is the creature's own (its stat
block's save, or its `con_save`: combat/fivee/bonuses.py), and a save rolled without a DC waits
in the state for the GM's `judge_save` (combat/fivee/judged_saves.py). The roll itself, and
what conditions and cover do to it, is the shared rule's (combat/common/saves.py)."""

from __future__ import annotations

from combat.common.abilities import save_ability
from combat.common.commands import SavingThrow
from combat.common.events import SaveMade, SaveRolled
from combat.common.saves import save
from combat.fivee import judged_saves
from combat.fivee.bonuses import save_bonus
from combat.kernel.decider import Rules, Tx

__all__ = ["RULES"]


def _saving_throw(tx: Tx, cmd: SavingThrow) -> None:
    ability = save_ability(cmd.ability)
    bonus = save_bonus(tx.state, tx.combatant(cmd.combatant).id, ability) if cmd.bonus is None else cmd.bonus
    save(tx, cmd, ability, bonus, awaits_dc=judged_saves.keeps_rolled_saves(tx.state))


RULES = Rules(
    handlers={SavingThrow: _saving_throw},
    appliers={SaveMade: judged_saves.on_judged, SaveRolled: judged_saves.on_rolled},
)
