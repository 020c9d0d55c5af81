"""Hit points: damage after resistances, temporary HP, healing, and what 0 HP means."""

from __future__ import annotations

import msgspec

from combat.common.commands import Damage, GrantTempHp, Heal
from combat.common.concentration import concentration_dc
from combat.common.entered_dice import entering
from combat.common.events import CombatantDowned, CombatantRevived, ConcentrationCheckRequired, DamageTaken, Healed, TempHPGranted
from combat.common.rider_reads import cannot_heal, effect_resistances
from combat.common.zero_hp import zero_hp
from combat.kernel.decider import Applier, Handler, Narrate, Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionSpec
from combat.kernel.hidden import shown
from combat.kernel.names import checked_damage_type, normalised
from combat.kernel.state import Combatant, EncounterState, with_combatant

__all__ = [
    "DamageReduction",
    "adjusted_damage",
    "take_damage",
    "after_damage",
    "drop_to_zero",
    "amount_or_roll",
    "HANDLERS",
    "APPLIERS",
    "RULES",
    "heal",
]

UNCONSCIOUS_AT_ZERO = ConditionSpec(name="unconscious", source="0 HP")


def adjusted_damage(target: Combatant, amount: int, damage_type: str, *, custom: bool = False) -> int:
    """Immunity stops it, Resistance halves it (round down), Vulnerability doubles it; a custom
    damage type has no such effect. Names match whatever their case (`Fire` is `fire`).

    Petrified: "Resist Damage. You have Resistance to all damage", a custom type's too; it is
    one Resistance, however many times it is given ("Multiple instances of Resistance or
    Vulnerability that affect the same damage type count as only one instance"). A spell's
    effect gives Resistance too (Stoneskin's types; Warding Bond's "Resistance to all damage",
    which resists a custom type as Petrified does)."""
    given = effect_resistances(target) if target.conditions else ()
    to_all = target.has("petrified") or "all" in given
    if custom:
        return max(0, amount // 2 if to_all else amount)
    kind = normalised(damage_type)

    def listed(names: tuple[str, ...]) -> bool:
        return any(normalised(n) == kind for n in names)

    if listed(target.immunities):
        return 0
    if to_all or listed(target.resistances) or listed(given):
        amount //= 2
    if listed(target.vulnerabilities):
        amount *= 2
    return max(0, amount)


class DamageReduction:
    """What a target's effects take off damage after its resistances: a part the shared damage
    rule leaves open (the 5e Resistance cantrip's 1d4: combat/fivee/damage_reduction.py). The
    plain rules take nothing off."""

    def reduced(self, tx: Tx, target: str, amount: int, damage_type: str) -> int:
        return amount


_NO_REDUCTION = DamageReduction()


def take_damage(c: Combatant, amount: int) -> Combatant:
    """Temporary HP soak damage first; HP never drop below 0."""
    absorbed = min(c.temp_hp, amount)
    return msgspec.structs.replace(c, temp_hp=c.temp_hp - absorbed, hp=max(0, c.hp - (amount - absorbed)))


def after_damage(tx: Tx, target_id: str, amount: int, *, before: Combatant, critical: bool = False) -> None:
    """What damage sets off: dropping to 0 HP, damage at 0 HP, or a concentration save. Every
    damage path (the GM's `damage`, an attack with its extra damage, a world action) lands here
    once for the whole of one blow, so massive damage is judged on all of it.

    `before` is the target as the damage struck (for the damage left over at 0 HP);
    `critical` says the damage came from a Critical Hit.
    """
    if amount <= 0:
        return
    c = tx.state.combatants[target_id]
    was = before
    at_zero = zero_hp(tx)
    if c.hp == 0 and (c.status == "active" or (was.hp > 0 and c.status == "unconscious")):
        remainder = amount - min(was.temp_hp, amount) - was.hp
        at_zero.dropped(tx, c, remainder)
    elif c.hp == 0 and was.hp == 0 and c.status == "unconscious":
        taken = amount - min(was.temp_hp, amount)
        if at_zero.already_struck(tx, c.id):
            # More damage in the same command to a creature it has just dropped or struck at 0
            # HP (one effect reaching it twice): the same blow, not another failure.
            at_zero.struck_again(tx, c, taken)
        else:
            at_zero.damaged_at_zero(tx, c, taken, critical=critical)
    elif c.concentration is not None and c.status == "active":
        tx.emit(ConcentrationCheckRequired(combatant=c.id, dc=concentration_dc(amount), damage=amount))


def drop_to_zero(tx: Tx, cid: str) -> None:
    """A creature just brought to 0 HP with no damage left over (the GM's `set_hp`)."""
    zero_hp(tx).dropped(tx, tx.state.combatants[cid], 0)


def amount_or_roll(tx: Tx, amount: int | None, notation: str | None, faces, *, purpose: str, roller: str) -> int:
    if (amount is None) == (notation is None):
        raise RuleError("amount/ambiguous", "give either an amount or dice notation", allowed="amount: 7, or notation: 2d6+3")
    if amount is not None:
        if amount < 0:
            raise RuleError("amount/negative", f"amount {amount} is negative", allowed="0 or more")
        if faces is not None:
            raise RuleError(
                "dice/unused-faces",
                "faces were entered but no dice are rolled",
                allowed="notation with faces, or an amount alone",
            )
        return amount
    return max(0, tx.roll(notation, purpose=purpose, roller=roller, faces=faces).total)  # type: ignore[arg-type]


def _living(tx: Tx, cid: str) -> Combatant:
    c = tx.combatant(cid)
    if c.status == "dead":
        raise RuleError("target/dead", f"{c.name} is dead", allowed="a living combatant")
    return c


def _damage(tx: Tx, cmd: Damage) -> None:
    target = _living(tx, cmd.target)
    damage_type = checked_damage_type(tx, cmd.damage_type, custom=cmd.custom_type)
    rolled = amount_or_roll(tx, cmd.amount, cmd.notation, cmd.faces, purpose="damage", roller=cmd.source or "gm")
    with entering(tx, resistance_faces=cmd.resistance_faces):
        amount = adjusted_damage(target, rolled, damage_type, custom=cmd.custom_type)
        reduction = tx.ruleset.port(DamageReduction) or _NO_REDUCTION
        amount = amount if cmd.custom_type else reduction.reduced(tx, target.id, amount, damage_type)
    tx.emit(
        DamageTaken(
            target=target.id, amount=amount, damage_type=damage_type, rolled=rolled, source=cmd.source, custom=cmd.custom_type
        )
    )
    after_damage(tx, target.id, amount, before=target)


def heal(tx: Tx, cmd: Heal) -> None:
    target = _living(tx, cmd.target)
    amount = amount_or_roll(tx, cmd.amount, cmd.notation, cmd.faces, purpose="healing", roller=cmd.source or "gm")
    if cannot_heal(target) is not None:  # Chill Touch: "it can't regain Hit Points until the end of your next turn"
        amount = 0
    tx.emit(Healed(target=target.id, amount=amount, source=cmd.source))
    if target.status == "unconscious" and tx.state.combatants[target.id].hp > 0:
        zero_hp(tx).revived(tx, target.id)


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
    return with_combatant(state, e.combatant, status=e.status, conditions=conditions)


def _on_revived(state: EncounterState, e: CombatantRevived) -> EncounterState:
    c = state.combatants[e.combatant]
    conditions = tuple(x for x in c.conditions if x != UNCONSCIOUS_AT_ZERO)
    return with_combatant(state, e.combatant, status="active", conditions=conditions)


HANDLERS: dict[type, Handler] = {Damage: _damage, Heal: heal, GrantTempHp: _temp_hp}
APPLIERS: dict[type, Applier] = {
    DamageTaken: _on_damage,
    Healed: _on_healed,
    TempHPGranted: _on_temp,
    CombatantDowned: _on_downed,
    CombatantRevived: _on_revived,
}
# One line each in the narrative (projections/narrative.py reads every ruleset's).
NARRATION: dict[type, Narrate] = {
    DamageTaken: lambda n, e: (
        f"{n.name(e.target)} takes "
        + (f"{e.amount} {e.damage_type} damage" if e.amount is not None else f"{e.damage_type} damage ({e.rolled} rolled)")
        + (f" from {n.name(e.source)}" if e.source else "")
        + (f" ({e.rolled} rolled)" if e.amount is not None and e.rolled != e.amount else "")
        + (" (a custom damage type: no resistance applies)" if e.custom else "")
    ),
    Healed: lambda n, e: (
        f"{n.name(e.target)} regains {shown(e.amount, after=' ')}HP" + (f" from {n.name(e.source)}" if e.source else "")
    ),
    TempHPGranted: lambda n, e: f"{n.name(e.target)} gains " + ("" if e.amount is None else f"{e.amount} ") + "temporary HP",
    CombatantDowned: lambda n, e: (
        f"{n.name(e.combatant)} drops to 0 HP and " + ("dies" if e.status == "dead" else "falls unconscious")
    ),
    CombatantRevived: lambda n, e: f"{n.name(e.combatant)} is back on their feet",
}
RULES = Rules(handlers=HANDLERS, appliers=APPLIERS, narration=NARRATION)  # declared-d10 and segments-1e take some of the entries
