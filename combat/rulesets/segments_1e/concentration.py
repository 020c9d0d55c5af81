"""Concentration: "always broken by any the following conditions occurring during the time
period of concentration: caster takes damage; caster fails a save; caster's movement or
ability to act is impeded."

Two kinds are held here. A spell in casting ("All incantations require deep concentration
during the casting time. If this concentration is broken, the spell being cast fails and is
lost as if cast.") is spoiled by a break that comes before it goes off - "damage to the
caster before then spoils it" (rules README). A spell goes off at the end of its last
segment (segments.spell_due), so a blow landing in that segment, before it goes off, spoils
it too; only another spell going off in the same segment is simultaneous with it, and both
take effect. (Logs from before the setting `spells_on_timeline` keep their reading: any
break in the segment the spell goes off was simultaneous.) An effect maintained by
concentration (the shared `concentration` field) ends at any break. No save is rolled: a
first-edition break is automatic.

Chosen: damage between the declaration and the start of the casting spoils the spell too
(setting `spoil_before_casting`, on by default: tables differ on it).
"""

from __future__ import annotations

from combat.common import concentration as shared
from combat.common import conditions, saves
from combat.common.commands import ApplyCondition, EndConcentration, SavingThrow, StartConcentration
from combat.common.concentration import end_concentration
from combat.common.events import ConcentrationEnded, ConcentrationStarted
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import EncounterState
from combat.rulesets.segments_1e.events import SpellSpoiled
from combat.rulesets.segments_1e.ledger import Casting
from combat.rulesets.segments_1e.segments import spells_on_timeline

__all__ = ["IMPEDING", "interrupt", "spoils", "RULES"]

# Conditions that impede a creature's movement or ability to act.
IMPEDING = frozenset(
    {"held", "grappled", "entangled", "restrained", "webbed", "paralyzed", "stunned", "unconscious", "petrified"}
)


def spoils(state: EncounterState, cast: Casting, segment: int, *, simultaneous_spell: bool = False) -> bool:
    """Does a break in `segment` of this round come before the spell goes off?
    `simultaneous_spell`: the break is another spell going off in that segment."""
    if not cast.started:
        return bool(state.settings.get("spoil_before_casting", True))
    now, done = (state.round, segment), (cast.completes_round, cast.completes_segment)
    if now == done:
        return spells_on_timeline(state) and not simultaneous_spell
    return now < done


def interrupt(tx: Tx, cid: str, reason: str, segment: int | None = None, *, simultaneous_spell: bool = False) -> None:
    """Break `cid`'s concentration in `segment` (by default the segment being played)."""
    ledger = tx.state.rules
    rec = ledger.creatures[cid]
    when = ledger.segment if segment is None else segment
    if rec.casting is not None and spoils(tx.state, rec.casting, when, simultaneous_spell=simultaneous_spell):
        tx.emit(SpellSpoiled(caster=cid, spell=rec.casting.spell, segment=when, reason=reason))
    end_concentration(tx, cid, reason)


def _saving_throw(tx: Tx, cmd: SavingThrow) -> None:
    if cmd.cover != "none":
        raise RuleError("save/cover", "cover gives no bonus to saving throws in segments-1e", allowed="cover: none")
    save = saves.saving_throw(
        tx, cmd.combatant, cmd.ability, cmd.dc, cmd.bonus or 0, cmd.roll_mode, cmd.faces, cmd.reason, conditions=False
    )
    if not save.success:
        interrupt(tx, cmd.combatant, "failed a saving throw")


def _apply_condition(tx: Tx, cmd: ApplyCondition) -> None:
    cmd = conditions.named(tx, cmd)
    conditions.apply_condition(tx, cmd)
    if cmd.condition.name in IMPEDING:
        interrupt(tx, cmd.target, f"is {cmd.condition.name}")


RULES = Rules(
    handlers={
        StartConcentration: shared.HANDLERS[StartConcentration],
        EndConcentration: shared.HANDLERS[EndConcentration],
        SavingThrow: _saving_throw,
        ApplyCondition: _apply_condition,
    },
    # Concentration held and broken, never a save to keep it: a state with no saves owed.
    appliers={
        ConcentrationStarted: shared.APPLIERS[ConcentrationStarted],
        ConcentrationEnded: shared.APPLIERS[ConcentrationEnded],
        **saves.APPLIERS,
    },
    narration={t: shared.NARRATION[t] for t in (ConcentrationStarted, ConcentrationEnded)},
)
