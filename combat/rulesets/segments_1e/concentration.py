"""Concentration: "always broken by any the following conditions occurring during the time
period of concentration: caster takes damage; caster fails a save; caster's movement or
ability to act is impeded."

Two kinds are held here. A spell in casting ("All incantations require deep concentration
during the casting time. If this concentration is broken, the spell being cast fails and is
lost as if cast.") is spoiled when the break comes in a segment before the spell goes off -
a break in the very segment it goes off is simultaneous, and both take effect. An effect
maintained by concentration (the shared `concentration` field) ends at any break. No save
is rolled: a first-edition break is automatic.

Chosen: damage between the declaration and the start of the casting spoils the spell too
(setting `spoil_before_casting`, on by default: tables differ on it).
"""

from __future__ import annotations

from combat.fivee import concentration as shared
from combat.fivee import conditions, saves
from combat.kernel.commands import ApplyCondition, EndConcentration, SavingThrow, StartConcentration
from combat.fivee.concentration import end_concentration
from combat.kernel.decider import Tx
from combat.rulesets.segments_1e.events import SpellSpoiled
from combat.rulesets.segments_1e.ledger import Casting

__all__ = ["IMPEDING", "interrupt", "spoils", "HANDLERS", "APPLIERS"]

# Conditions that impede a creature's movement or ability to act.
IMPEDING = frozenset(
    {"held", "grappled", "entangled", "restrained", "webbed", "paralyzed", "stunned", "unconscious", "petrified"}
)


def spoils(tx: Tx, cast: Casting, segment: int) -> bool:
    """Does a break in `segment` of this round fall within the casting, before it goes off?"""
    if not cast.started:
        return bool(tx.state.settings.get("spoil_before_casting", True))
    return (tx.state.round, segment) < (cast.completes_round, cast.completes_segment)


def interrupt(tx: Tx, cid: str, reason: str, segment: int | None = None) -> None:
    """Break `cid`'s concentration in `segment` (by default the segment being played)."""
    ledger = tx.state.rules
    rec = ledger.creatures[cid]
    when = ledger.segment if segment is None else segment
    if rec.casting is not None and spoils(tx, rec.casting, when):
        tx.emit(SpellSpoiled(caster=cid, spell=rec.casting.spell, segment=when, reason=reason))
    end_concentration(tx, cid, reason)


def _saving_throw(tx: Tx, cmd: SavingThrow) -> None:
    save = saves.saving_throw(tx, cmd.combatant, cmd.ability, cmd.dc, cmd.bonus, cmd.roll_mode, cmd.faces, cmd.reason)
    if not save.success:
        interrupt(tx, cmd.combatant, "failed a saving throw")


def _apply_condition(tx: Tx, cmd: ApplyCondition) -> None:
    conditions.HANDLERS[ApplyCondition](tx, cmd)
    if cmd.condition.name in IMPEDING:
        interrupt(tx, cmd.target, f"is {cmd.condition.name}")


HANDLERS = {
    StartConcentration: shared.HANDLERS[StartConcentration],
    EndConcentration: shared.HANDLERS[EndConcentration],
    SavingThrow: _saving_throw,
    ApplyCondition: _apply_condition,
}
APPLIERS = {**shared.APPLIERS, **saves.APPLIERS}
