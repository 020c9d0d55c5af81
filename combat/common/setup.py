"""Set-up: who is in the fight and who is surprised (with the kernel's shared encounter rules:
begin_combat, rulings in words, end_combat)."""

from __future__ import annotations

import re

import msgspec

from combat.kernel.commands import AddCombatant, MarkSurprised, RemoveCombatant
from combat.kernel.decider import Applier, Handler, Rules, Tx
from combat.kernel.encounter import ENCOUNTER
from combat.kernel.errors import RuleError
from combat.kernel.events import (
    CombatantAdded,
    CombatantRemoved,
    CombatantSpec,
    InitiativeSet,
    SurpriseMarked,
)
from combat.kernel.names import checked_damage_type
from combat.kernel.state import Combatant, EncounterState, with_combatant

__all__ = ["validate_spec", "HANDLERS", "APPLIERS", "RULES", "add_combatant", "mark_surprised"]

_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")


def validate_spec(state: EncounterState, spec: CombatantSpec) -> None:
    def bad(what: str, allowed: str) -> RuleError:
        return RuleError("combatant/invalid", f"{spec.id or spec.name}: {what}", allowed=allowed)

    if not _ID.match(spec.id):
        raise bad(f"id {spec.id!r} is not usable", "lower-case letters, digits, - and _, e.g. goblin-1")
    if spec.id in state.combatants or any(c.group == spec.id for c in state.combatants.values()):
        raise RuleError("combatant/duplicate", f"'{spec.id}' is already in the fight", allowed="a new id")
    if spec.max_hp <= 0:
        raise bad(f"max_hp {spec.max_hp}", "at least 1")
    if spec.hp is not None and not 0 <= spec.hp <= spec.max_hp:
        raise bad(f"hp {spec.hp} with max_hp {spec.max_hp}", f"0 to {spec.max_hp}")
    if spec.ac < 0 or spec.speed < 0:
        raise bad("AC and speed cannot be negative", "0 or more")
    if spec.attacks_per_action < 1:
        raise bad("attacks_per_action below 1", "1 or more")
    if spec.group is not None:
        if spec.group in state.combatants:
            raise bad(f"group '{spec.group}' is the id of a combatant", "a group name no combatant uses")
        if spec.kind != "monster":
            raise bad("only identical monsters share a group initiative roll", "no group for characters")
        members = [c for c in state.combatants.values() if c.group == spec.group]
        if members and members[0].initiative_bonus != spec.initiative_bonus:
            raise bad(
                f"group '{spec.group}' rolls at {members[0].initiative_bonus:+d}, not {spec.initiative_bonus:+d}",
                "identical creatures in one group",
            )


def named_types(tx: Tx, spec: CombatantSpec) -> CombatantSpec:
    """The stat block with its damage types (attacks, resistances, vulnerabilities, immunities)
    as the ruleset spells them; an unknown one is refused with the list."""
    attacks = tuple(
        msgspec.structs.replace(a, damage_type=checked_damage_type(tx, a.damage_type, field=None)) for a in spec.attacks
    )
    lists = {
        field: tuple(checked_damage_type(tx, name, field=None) for name in getattr(spec, field))
        for field in ("resistances", "vulnerabilities", "immunities")
    }
    return msgspec.structs.replace(spec, attacks=attacks, **lists)


def add_combatant(tx: Tx, cmd: AddCombatant) -> None:
    validate_spec(tx.state, cmd.combatant)
    tx.emit(CombatantAdded(combatant=named_types(tx, cmd.combatant)))
    join_rolled_group(tx, cmd.combatant)


def join_rolled_group(tx: Tx, spec: CombatantSpec) -> None:
    """'For a group of identical creatures, the GM makes a single roll': a creature arriving
    after its group rolled shares the group's count and acts with it."""
    rolled = [c for c in tx.state.combatants.values() if spec.group and c.group == spec.group and c.initiative is not None]
    if rolled:
        tx.emit(InitiativeSet(combatants=(spec.id,), total=rolled[0].initiative))  # type: ignore[arg-type]


def _remove(tx: Tx, cmd: RemoveCombatant) -> None:
    c = tx.combatant(cmd.combatant)
    tx.emit(CombatantRemoved(combatant=c.id, reason=cmd.reason))


def mark_surprised(tx: Tx, cmd: MarkSurprised) -> None:
    if not cmd.combatants:
        raise RuleError("surprise/nobody", "no combatant named", allowed=", ".join(tx.state.combatants))
    for cid in cmd.combatants:
        c = tx.combatant(cid)
        if c.initiative is not None:
            raise RuleError("surprise/too-late", f"{c.name} has already rolled initiative")
        tx.emit(SurpriseMarked(combatant=c.id, surprised=cmd.surprised))


def _on_added(state: EncounterState, e: CombatantAdded) -> EncounterState:
    combatant = Combatant.from_spec(e.combatant)
    return msgspec.structs.replace(state, combatants={**state.combatants, combatant.id: combatant})


def _on_removed(state: EncounterState, e: CombatantRemoved) -> EncounterState:
    combatants = {k: v for k, v in state.combatants.items() if k != e.combatant}
    return msgspec.structs.replace(state, combatants=combatants)


HANDLERS: dict[type, Handler] = {
    **ENCOUNTER.handlers,  # begin_combat, ruling, end_combat: the kernel's
    AddCombatant: add_combatant,
    RemoveCombatant: _remove,
    MarkSurprised: mark_surprised,
}
APPLIERS: dict[type, Applier] = {
    **ENCOUNTER.appliers,  # the encounter created, phase changes, rulings, the end of the fight
    CombatantAdded: _on_added,
    CombatantRemoved: _on_removed,
    SurpriseMarked: lambda state, e: with_combatant(state, e.combatant, surprised=e.surprised),
}
RULES = Rules(handlers=HANDLERS, appliers=APPLIERS)  # declared-d10 takes the tables
