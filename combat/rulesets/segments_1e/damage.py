"""Damage and what it sets off: falling at 0 hit points, broken concentration, and the
simultaneous blow.

"Simultaneous (tied) actions both take effect, even if one combatant dies in that segment":
a creature felled by the acting creature during a turn that is simultaneous with its own
(the same slot) still takes that turn.
"""

from __future__ import annotations

from typing import Any

from combat.common.commands import Damage, Heal
from combat.common.consistency import CHECKS as SHARED_CHECKS
from combat.common.events import CombatantDowned, DamageTaken, Healed
from combat.common.hitpoints import HANDLERS as HP_HANDLERS
from combat.common.hitpoints import amount_or_roll
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.names import checked_damage_type
from combat.kernel.state import EncounterState
from combat.rulesets.segments_1e import phases as P
from combat.rulesets.segments_1e.concentration import interrupt
from combat.rulesets.segments_1e.events import SimultaneousActionKept
from combat.rulesets.segments_1e.ledger import Slot, with_creature
from combat.rulesets.segments_1e.segments import slot_for, step_name

__all__ = ["after_damage", "has_turn_in", "RULES"]


def after_damage(tx: Tx, cid: str, amount: int, *, segment: int, by: str | None = None, spell: bool = False) -> None:
    """`spell`: the damage is a spell going off, simultaneous with any other spell going
    off in that segment."""
    if amount <= 0:
        return
    c = tx.state.combatants[cid]
    if c.hp == 0 and c.status == "active":
        _keep_simultaneous_turn(tx, cid, by)
        # A monster at 0 hit points is dead; a character is out of the fight (see the module docstring).
        tx.emit(CombatantDowned(combatant=cid, status="dead" if c.kind == "monster" else "unconscious"))
    interrupt(tx, cid, "took damage", segment, simultaneous_spell=spell)


def _keep_simultaneous_turn(tx: Tx, cid: str, by: str | None) -> None:
    ledger = tx.state.rules
    current = ledger.slot
    if current is None or by is None or by == cid or tx.state.turn != by or current.key == P.SPELLS:
        return
    if has_turn_in(tx.state, cid, current):
        tx.emit(SimultaneousActionKept(combatant=cid, slot=current))


def has_turn_in(state: EncounterState, cid: str, slot: Slot) -> bool:
    """`cid` has a turn of its own still to take in `slot` (the turn being played): a blow
    that fells it then is simultaneous with its own. (The re-check asks this too.)"""
    ledger = state.rules
    return slot.key not in ledger.creatures[cid].done and slot_for(state, ledger, cid, slot.key) == slot


def _damage(tx: Tx, cmd: Damage) -> None:
    target = tx.combatant(cmd.target)
    if target.status == "dead":
        raise RuleError("target/dead", f"{target.name} is dead", allowed="a living combatant")
    damage_type = checked_damage_type(tx, cmd.damage_type, custom=cmd.custom_type)
    amount = amount_or_roll(tx, cmd.amount, cmd.notation, cmd.faces, purpose="damage", roller=cmd.source or "gm")
    tx.emit(
        DamageTaken(
            target=target.id, amount=amount, damage_type=damage_type, rolled=amount, source=cmd.source, custom=cmd.custom_type
        )
    )
    after_damage(tx, target.id, amount, segment=tx.state.rules.segment, by=cmd.source)


def _on_kept(state: EncounterState, e: SimultaneousActionKept) -> EncounterState:
    return with_creature(state, e.combatant, downed_in=e.slot)


def _check_kept(state: EncounterState, e: SimultaneousActionKept, ctx: dict[str, Any]) -> str | None:
    """The fallen still has that simultaneous turn to take (the question `_keep_simultaneous_turn` asks)."""
    if not has_turn_in(state, e.combatant, e.slot):
        c = state.combatants[e.combatant]
        return f"{c.name} has no turn in segment {e.slot.segment} of {step_name(e.slot.key)} now: no blow of its own to land as it falls"
    return None


RULES = Rules(
    handlers={Damage: _damage, Heal: HP_HANDLERS[Heal]},
    appliers={SimultaneousActionKept: _on_kept},
    # Healing and falling mean here what they mean in the shared rules; damage is re-judged
    # in spells.py, which also follows a spell's damage to each of its targets.
    checks={
        SimultaneousActionKept: _check_kept,
        Healed: SHARED_CHECKS[Healed],
        CombatantDowned: SHARED_CHECKS[CombatantDowned],
    },
    narration={
        SimultaneousActionKept: lambda n, e: (
            f"{n.name(e.combatant)} falls in segment {e.slot.segment} but acts in that same segment: its blow still lands"
        ),
    },
)
