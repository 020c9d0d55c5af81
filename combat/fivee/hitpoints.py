"""Hit points: damage after resistances, temporary HP, healing, and what 0 HP means."""

from __future__ import annotations

import msgspec

from combat.kernel.commands import Damage, GrantTempHp, Heal
from combat.fivee.concentration import concentration_dc, end_concentration
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import (
    CombatantDowned,
    CombatantRevived,
    ConcentrationCheckRequired,
    ConditionSpec,
    DamageTaken,
    Healed,
    TempHPGranted,
)
from combat.kernel.state import Combatant, EncounterState, with_combatant

__all__ = ["adjusted_damage", "take_damage", "after_damage", "drop_to_zero", "amount_or_roll", "HANDLERS", "APPLIERS"]

UNCONSCIOUS_AT_ZERO = ConditionSpec(name="unconscious", source="0 HP")


def adjusted_damage(target: Combatant, amount: int, damage_type: str) -> int:
    """Immunity stops it, Resistance halves it (round down), Vulnerability doubles it."""
    if damage_type in target.immunities:
        return 0
    if damage_type in target.resistances:
        amount //= 2
    if damage_type in target.vulnerabilities:
        amount *= 2
    return max(0, amount)


def take_damage(c: Combatant, amount: int) -> Combatant:
    """Temporary HP soak damage first; HP never drop below 0."""
    absorbed = min(c.temp_hp, amount)
    return msgspec.structs.replace(c, temp_hp=c.temp_hp - absorbed, hp=max(0, c.hp - (amount - absorbed)))


def after_damage(tx: Tx, target_id: str, amount: int) -> None:
    """What damage sets off: falling at 0 HP, or a concentration save."""
    if amount <= 0:
        return
    c = tx.state.combatants[target_id]
    if c.hp == 0 and c.status == "active":
        drop_to_zero(tx, c.id)
    elif c.concentration is not None and c.status == "active":
        tx.emit(ConcentrationCheckRequired(combatant=c.id, dc=concentration_dc(amount), damage=amount))


def drop_to_zero(tx: Tx, cid: str) -> None:
    """A creature just brought to 0 HP: a monster dies, a character falls unconscious."""
    c = tx.state.combatants[cid]
    status = "dead" if c.kind == "monster" else "unconscious"
    tx.emit(CombatantDowned(combatant=c.id, status=status))  # type: ignore[arg-type]
    end_concentration(tx, c.id, "died" if status == "dead" else "fell unconscious")


def amount_or_roll(tx: Tx, amount: int | None, notation: str | None, faces, *, purpose: str, roller: str) -> int:
    if (amount is None) == (notation is None):
        raise RuleError("amount/ambiguous", "give either an amount or dice notation", allowed="amount: 7, or notation: 2d6+3")
    if amount is not None:
        if amount < 0:
            raise RuleError("amount/negative", f"amount {amount} is negative", allowed="0 or more")
        if faces is not None:
            raise RuleError("dice/unused-faces", "faces were entered but no dice are rolled", allowed="notation with faces, or an amount alone")
        return amount
    return max(0, tx.roll(notation, purpose=purpose, roller=roller, faces=faces).total)  # type: ignore[arg-type]


def _living(tx: Tx, cid: str) -> Combatant:
    c = tx.combatant(cid)
    if c.status == "dead":
        raise RuleError("target/dead", f"{c.name} is dead", allowed="a living combatant")
    return c


def _damage(tx: Tx, cmd: Damage) -> None:
    target = _living(tx, cmd.target)
    rolled = amount_or_roll(tx, cmd.amount, cmd.notation, cmd.faces, purpose="damage", roller=cmd.source or "gm")
    amount = adjusted_damage(target, rolled, cmd.damage_type)
    tx.emit(DamageTaken(target=target.id, amount=amount, damage_type=cmd.damage_type, rolled=rolled, source=cmd.source))
    after_damage(tx, target.id, amount)


def _heal(tx: Tx, cmd: Heal) -> None:
    target = _living(tx, cmd.target)
    amount = amount_or_roll(tx, cmd.amount, cmd.notation, cmd.faces, purpose="healing", roller=cmd.source or "gm")
    tx.emit(Healed(target=target.id, amount=amount, source=cmd.source))
    if target.status == "unconscious" and tx.state.combatants[target.id].hp > 0:
        tx.emit(CombatantRevived(combatant=target.id))


def _temp_hp(tx: Tx, cmd: GrantTempHp) -> None:
    target = _living(tx, cmd.target)
    if cmd.amount <= 0:
        raise RuleError("amount/not-positive", f"temporary HP of {cmd.amount}", allowed="a positive number")
    tx.emit(TempHPGranted(target=target.id, amount=cmd.amount, source=cmd.source))


def _on_damage(state: EncounterState, e: DamageTaken) -> EncounterState:
    return msgspec.structs.replace(
        state, combatants={**state.combatants, e.target: take_damage(state.combatants[e.target], e.amount)}
    )


def _on_healed(state: EncounterState, e: Healed) -> EncounterState:
    c = state.combatants[e.target]
    return with_combatant(state, e.target, hp=min(c.max_hp, c.hp + e.amount))


def _on_temp(state: EncounterState, e: TempHPGranted) -> EncounterState:
    # Temporary HP don't stack: the higher number stays.
    c = state.combatants[e.target]
    return with_combatant(state, e.target, temp_hp=max(c.temp_hp, e.amount))


def _on_downed(state: EncounterState, e: CombatantDowned) -> EncounterState:
    c = state.combatants[e.combatant]
    conditions = c.conditions + ((UNCONSCIOUS_AT_ZERO,) if e.status == "unconscious" else ())
    return with_combatant(state, e.combatant, status=e.status, conditions=conditions, dodging=False)


def _on_revived(state: EncounterState, e: CombatantRevived) -> EncounterState:
    c = state.combatants[e.combatant]
    conditions = tuple(x for x in c.conditions if x != UNCONSCIOUS_AT_ZERO)
    return with_combatant(state, e.combatant, status="active", conditions=conditions)


HANDLERS = {Damage: _damage, Heal: _heal, GrantTempHp: _temp_hp}
APPLIERS = {
    DamageTaken: _on_damage,
    Healed: _on_healed,
    TempHPGranted: _on_temp,
    CombatantDowned: _on_downed,
    CombatantRevived: _on_revived,
}
