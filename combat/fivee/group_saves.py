"""Several creatures saving at once against one effect: a trap, a dragon's breath, a spell.
One function, `resolve_save_effect`, used by the GM's `save_effect` command
(combat/fivee/save_effects.py), by `cast_spell` and by whatever rule makes such an effect.

SRD 5.2 (Rule.json, "Saving Throws and Damage"): "When you create a damaging effect that
forces two or more targets to make saving throws against it at the same time, roll the damage
once for all the targets. For example, when a wizard casts Fireball, the spell's damage is
rolled once for all creatures caught in the blast." "Many saving throw effects deal half
damage (round down) to a target when the target succeeds on the saving throw. The halved
damage is equal to half the damage that would be dealt on a failed save."
"Resistance and Vulnerability", Order of Application: "adjustments such as bonuses,
penalties, or multipliers are applied first; Resistance is applied second; and Vulnerability
is applied third": the half for a success comes first, then each target's own Resistance,
Vulnerability or Immunity (combat/common/hitpoints.py `adjusted_damage`).

In order: each target saves (its own bonus, combat/fivee/bonuses.py, and what its conditions
do: a Paralyzed target fails a Dexterity save without a roll; with Advantage from its traits
or the GM, its cover, and a failure it turns with Legendary Resistance counting as a success:
combat/fivee/save_modifiers.py), in the order the targets are named; the damage is rolled
once, if anyone takes it (when no target takes any, no die is rolled and the damage faces
entered are left unused); each target takes its share (every success's half, or nothing
without `half_on_success`; with Evasion nothing on a success and half on a failure), and
what that damage sets off follows as for any damage
(0 HP: a monster dies, a character falls Unconscious; a concentration save owed); then the
condition (with its durations, combat/common/durations.py) is applied to each target that
failed and is still alive.

Dice: `faces` are the saves' dice by target id (`{"aria": [12], "bram": [3]}`), each the
target's own; a target left out rolls from the seed. `damage_faces` are the one damage roll's.

"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import msgspec

from combat.common.abilities import save_ability
from combat.common.commands import ApplyCondition
from combat.common.condition_effects import is_incapacitated
from combat.common.conditions import apply_condition
from combat.common.creature_types import source_type
from combat.common.durations import prepared
from combat.common.events import DamageTaken, SaveMade
from combat.common.hitpoints import adjusted_damage, after_damage
from combat.common.rider_reads import immune
from combat.common.saves import saving_throw
from combat.fivee.bonuses import save_bonus
from combat.fivee.characters import character
from combat.fivee.damage_reduction import reduced
from combat.fivee.monsters import sheet as monster_sheet
from combat.fivee.save_modifiers import SaveContext, SaveModifiers, checked_modifiers, require_targets_only, resisted, save_terms
from combat.kernel import dice
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionSpec
from combat.kernel.names import checked_condition, checked_damage_type
from combat.kernel.state import EncounterState

__all__ = ["resolve_save_effect", "share_after_save", "takes_any", "deal_share"]


def resolve_save_effect(
    tx: Tx,
    source: str,
    targets: Sequence[str],
    ability: str,
    dc: int,
    damage_notation: str | None = None,
    damage_type: str | None = None,
    half: bool = False,
    condition: ConditionSpec | None = None,
    faces_by_target: Mapping[str, Sequence[int]] | None = None,
    damage_faces: Sequence[int] | None = None,
    what: str | None = None,
    modifiers: Mapping[str, SaveModifiers] | None = None,
    magical: bool = False,
) -> dict[str, SaveMade]:
    """Resolve the effect (see the module docstring) and return each target's save by id, as
    the effect read it (a failure turned by Legendary Resistance is a success).
    `source` is a combatant's id or words; it is the roller of the damage when a combatant.
    `what` names the effect in the log (a spell's name); left out, the source's name.
    `modifiers`: the GM's word per target (combat/fivee/save_modifiers.py); `magical`: the
    effect is a spell or another magical effect (Magic Resistance)."""
    faces_by_target = faces_by_target or {}
    modifiers = modifiers or {}
    if condition is not None and condition.source is None:
        condition = msgspec.structs.replace(condition, source=source)  # a duration counted on the dragon's turns
    ability, damage_type = _checked(
        tx, targets, ability, dc, damage_notation, damage_type, half, condition, faces_by_target, damage_faces
    )
    checked_modifiers(tx, targets, modifiers)
    what = what or (tx.state.combatants[source].name if source in tx.state.combatants else source)
    context = SaveContext(ability=ability, magical=magical, condition=None if condition is None else condition.name.lower())
    saves = {}
    for tid in targets:
        given = faces_by_target.get(tid)
        mode, cover, why = save_terms(tx.state, tid, context, modifiers.get(tid))
        made = saving_throw(
            tx,
            tid,
            ability,
            dc,
            save_bonus(tx.state, tid, ability),
            mode,
            None if given is None else tuple(given),
            reason="; ".join(r for r in (what, why) if r),
            cover=cover,
            source=source if source in tx.state.combatants else None,
        )
        saves[tid] = resisted(tx, made, modifiers.get(tid))
    # The damage is rolled only when someone takes it: when every target succeeds against an
    # effect whose success takes nothing, a roll would be a number that changes nothing. The
    # damage faces entered are then left unused, as a missed attack's are.
    if takes_any(tx.state, saves, targets, half) and damage_notation is not None and damage_type is not None:
        roller = source if source in tx.state.combatants else "gm"
        rolled = max(
            0,
            tx.roll(
                damage_notation,
                purpose=f"{what} damage",
                roller=roller,
                faces=None if damage_faces is None else tuple(damage_faces),
            ).total,
        )
        for tid in targets:
            share = share_after_save(tx.state, saves[tid], half, rolled)
            if share is not None:
                deal_share(tx, tid, share, rolled, damage_type, what)
    if condition is not None:
        for tid in targets:
            bearer = tx.state.combatants[tid]
            # "immune to the Frightened condition" (Heroism): the failed save lands nothing.
            shield = immune(bearer, condition.name, lambda: source_type(tx, condition))
            if not saves[tid].success and bearer.status != "dead" and shield is None:
                apply_condition(tx, ApplyCondition(target=tid, condition=condition))
    return saves


def takes_any(state: EncounterState, saves: dict[str, SaveMade], targets: Sequence[str], half: bool) -> bool:
    """Does any target take some of the damage, after its save (and Evasion)?"""
    return any(share_after_save(state, saves[t], half, 1) is not None for t in targets)


def share_after_save(state: EncounterState, save: SaveMade, half: bool, rolled: int) -> int | None:
    """What the creature that made `save` takes of the `rolled` damage, or None for nothing.

    "The halved damage is equal to half the damage that would be dealt on a failed save."
    Evasion (a sheet's `features.evasion`, a stat block's trait of that name): "When you're
    subjected to an effect that allows you to make a Dexterity saving throw to take only half
    damage, you instead take no damage if you succeed on the saving throw and only half damage
    if you fail. You can't use this feature if you have the Incapacitated condition."
    """
    evades = half and save.ability == "dexterity" and _has_evasion(state, save.combatant)
    if save.success:
        return rolled // 2 if half and not evades else None
    return rolled // 2 if evades else rolled


def _has_evasion(state: EncounterState, cid: str) -> bool:
    held, block = character(state, cid), monster_sheet(state, cid)
    has = (held is not None and held.sheet.features.evasion) or (block is not None and block.block.has_trait("Evasion"))
    return has and not is_incapacitated(state.combatants[cid])


def deal_share(tx: Tx, tid: str, share: int, rolled: int, damage_type: str, what: str) -> None:
    """`tid`'s share of a roll of damage, after its Resistance, Vulnerability or Immunity, and
    what that damage sets off (0 HP, a concentration save)."""
    before = tx.state.combatants[tid]
    amount = reduced(tx, tid, adjusted_damage(before, share, damage_type), damage_type)
    tx.emit(DamageTaken(target=tid, amount=amount, damage_type=damage_type, rolled=rolled, source=what))
    after_damage(tx, tid, amount, before=before)


def _checked(
    tx: Tx,
    targets: Sequence[str],
    ability: str,
    dc: int,
    damage_notation: str | None,
    damage_type: str | None,
    half: bool,
    condition: ConditionSpec | None,
    faces_by_target: Mapping[str, Sequence[int]],
    damage_faces: Sequence[int] | None,
) -> tuple[str, str | None]:
    """Everything the effect needs, refused before any die is rolled."""
    if not targets:
        raise RuleError(
            "save-effect/no-targets",
            "an effect with no one to save against it",
            allowed="targets: the ids of the creatures in the area, " + (", ".join(tx.state.combatants) or "none yet"),
        )
    twice = sorted({t for t in targets if list(targets).count(t) > 1})
    if twice:
        raise RuleError("save-effect/same-target", f"{', '.join(twice)} named more than once", allowed="each target once")
    for tid in targets:
        c = tx.combatant(tid)
        if c.status == "dead":
            raise RuleError(
                "target/dead",
                f"{c.name} is dead and makes no saves",
                allowed=", ".join(x.id for x in tx.state.combatants.values() if x.status != "dead"),
            )
    full = save_ability(ability)
    if dc < 1:
        raise RuleError("save-effect/dc", f"a DC of {dc}", allowed="a DC of 1 or more")
    require_targets_only(faces_by_target, targets, "dice/unused-faces", "save faces", "faces")
    kind = None
    if damage_notation is None:
        if damage_type is not None or half or damage_faces is not None:
            given = "damage_type" if damage_type is not None else "half_on_success" if half else "damage_faces"
            raise RuleError(
                "save-effect/no-damage",
                f"{given} given, but the effect rolls no damage",
                allowed="damage: dice notation such as 8d6, with its damage_type",
            )
    else:
        if damage_type is None:
            raise RuleError(
                "save-effect/damage-type",
                f"the damage {damage_notation} has no damage type",
                allowed="damage_type: fire, cold, ... (resistances and immunities read it)",
            )
        dice.check_notation(damage_notation)
        kind = checked_damage_type(tx, damage_type, field=None)
    if condition is not None:
        name = checked_condition(tx, condition.name)
        prepared(tx, msgspec.structs.replace(condition, name=name))  # its durations checked now, applied per target later
    return full, kind
