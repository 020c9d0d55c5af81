"""Dispel Magic (SRD 5.2, level 3): the spells on its target end (a reviewed entry's `dispels`).

"Choose one creature, object, or magical effect within range. Any ongoing spell of level 3 or
lower on the target ends. For each ongoing spell of level 4 or higher on the target, make an
ability check using your spellcasting ability (DC 10 plus that spell's level). On a successful
check, the spell ends." Using a Higher-Level Spell Slot: "You automatically end a spell on the
target if the spell's level is equal to or less than the level of the spell slot you use."

- The target is a creature (a combatant); an object or a magical effect is the GM's.
- An ongoing spell on it is a lasting effect it bears from a spell: a condition held by a
  caster's concentration (its `effect`, Hold Person's Paralyzed), or one named for the spell
  (Mage Armor, Bless, Searing Smite), grouped by spell and caster: Ensnaring Strike's
  Restrained and its thorns are one spell.
- Its level is the level it was cast at, as the condition records it (`spell_level`, set when
  the casting applied it: combat/common/durations.py); a condition recorded before that, or
  applied later by the spell (a zone's Restrained), reads the level on its caster's marker of
  the spell where there is one, else the spell's own level from the library (which an upcast
  spell exceeds).
- The text says the spell ends, not its effect on the target: a spell held by concentration
  ends the caster's concentration ("the spell ends"), and with it the spell's effects on every
  creature (combat/common/durations.py `end_tied`); a spell without concentration ends on the
  target (what one casting left elsewhere, Aid's other creatures, is the GM's: the state does
  not tell one casting from another by the same caster).
- The checks: d20 + the caster's own check bonus with its spellcasting ability
  (combat/fivee/ability_checks.py, its conditions' Disadvantage included), one per spell above
  the slot, in the order the target's conditions are listed. Their faces are the cast's
  `check_faces`, by the spell's name (a spell left out is rolled by the service); faces for
  a spell that needs no check, or that is not on the target, refuse the whole cast
  (`dice/unused-faces`), nothing appended.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

import msgspec

from combat.common.concentration import end_concentration
from combat.common.condition_effects import SPEED_ZERO
from combat.common.durations import ending
from combat.common.regained_movement import restore_movement
from combat.fivee.ability_checks import rolled_check
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionSpec
from combat.kernel.names import normalised
from combat.kernel.state import Combatant, EncounterState
from combat.spells import library
from combat.spells.model import Spell

if TYPE_CHECKING:
    from combat.fivee.casts import Caster

__all__ = ["ongoing_spells", "dispel"]

UNSET = msgspec.UNSET


class OngoingSpell(msgspec.Struct, frozen=True, kw_only=True):
    """One spell on a creature: its name, its caster (or concentrating creature) and level."""

    name: str
    caster: str | None
    level: int
    concentration: str | None  # who holds it by concentration, if anyone
    conditions: tuple[ConditionSpec, ...]


def _spell_of(cond: ConditionSpec, known: Mapping[str, Spell]) -> tuple[str, int | None] | None:
    """The spell a condition comes from and its base level, or None for one no spell gave."""
    name = cond.effect if cond.effect is not UNSET else cond.name
    found = known.get(normalised(name))
    if found is not None:
        return found.name, found.level
    if cond.spell_level is not UNSET:  # a GM-defined spell, its level recorded as it was cast
        return name, None
    return None


def ongoing_spells(state: EncounterState, c: Combatant) -> list[OngoingSpell]:
    """The spells on `c`, in the order their first condition is listed."""
    known = library.by_name()
    found: dict[tuple[str, str | None], list[ConditionSpec]] = {}
    base: dict[tuple[str, str | None], int | None] = {}
    for cond in c.conditions:
        spell = _spell_of(cond, known)
        if spell is None:
            continue
        holder = cond.concentration if cond.concentration is not UNSET else cond.source
        key = (spell[0], holder)
        found.setdefault(key, []).append(cond)
        base[key] = spell[1]
    spells = []
    for (name, holder), conds in found.items():
        levels = [x.spell_level for x in conds if x.spell_level is not UNSET]
        level = max(levels) if levels else _marked_level(state, holder, name) or base[(name, holder)]
        assert level is not None
        held = next((x.concentration for x in conds if x.concentration is not UNSET), None)
        spells.append(OngoingSpell(name=name, caster=holder, level=level, concentration=held, conditions=tuple(conds)))
    return spells


def _marked_level(state: EncounterState, holder: str | None, name: str) -> int | None:
    """The level on the caster's own marker of the spell (a spell it uses again later keeps it:
    combat/fivee/spell_effects_ongoing.py `marker`), for an effect applied after the casting."""
    caster = state.combatants.get(holder) if holder is not None else None
    for cond in caster.conditions if caster is not None else ():
        if normalised(cond.name) == normalised(name) and cond.riders is not UNSET and cond.riders.cast_at is not UNSET:
            return cond.riders.cast_at
    return None


def dispel(
    tx: Tx,
    c: Combatant,
    spell: Spell,
    caster: Caster,
    slot: int | None,
    targets: Sequence[str],
    faces: Mapping[str, Sequence[int]],
) -> None:
    """Each spell on the target ends, up to the slot's level; each above it, on a check."""
    if not spell.dispels:
        if faces:
            raise RuleError("dice/unused-faces", f"{spell.name} calls for no ability check", allowed="no check_faces")
        return
    ability = caster.ability or "intelligence"  # a Caster made without its ability names none
    auto = max(slot or spell.level, spell.level)  # "level 3 or lower", or the slot's level
    left = {normalised(k): k for k in faces}
    for tid in targets:
        on = [s for s in ongoing_spells(tx.state, tx.state.combatants[tid]) if s.name != spell.name]
        checked = {normalised(s.name) for s in on if s.level > auto}
        unused = [k for key, k in left.items() if key not in checked]
        if unused:
            raise RuleError(
                "dice/unused-faces",
                f"no spell on {tx.state.combatants[tid].name} called {', '.join(unused)} needs a check",
                allowed="check_faces for " + (", ".join(s.name for s in on if s.level > auto) or "none: every spell ends"),
            )
        for s in on:
            if not any(cond in tx.state.combatants[tid].conditions for cond in s.conditions):
                continue  # ended with one dispelled before it
            if s.level > auto:
                dc = 10 + s.level
                # One list per name: a second spell of that name (another caster's) is rolled.
                given = faces[left.pop(normalised(s.name))] if normalised(s.name) in left else None
                made = rolled_check(tx, c.id, ability, None if given is None else tuple(given), dc)
                if not made.success:
                    continue
            _end(tx, tid, s, f"{spell.name} ended {s.name} (level {s.level})")


def _end(tx: Tx, tid: str, s: OngoingSpell, why: str) -> None:
    """The spell ends: the concentration that holds it, or its effects on the target."""
    holder = tx.state.combatants.get(s.concentration) if s.concentration is not None else None
    if holder is not None and holder.concentration is not None and normalised(holder.concentration) == normalised(s.name):
        end_concentration(tx, holder.id, why)
    for cond in s.conditions:
        if cond in tx.state.combatants[tid].conditions:
            tx.emit(ending(tx.state.combatants[tid], cond, why))
            if cond.name in SPEED_ZERO:  # the movement of the turn it ends in comes back, as remove_condition gives it
                restore_movement(tx, tid, reason=f"no longer {cond.name}")
