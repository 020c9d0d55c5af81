"""Dropping to 0 Hit Points: instant death, falling Unconscious, Death Saving Throws,
stabilising, and knocking a creature out instead of killing it.

SRD 5.2, Rule.json, "Dropping to 0 Hit Points":
  "Monster Death. A monster dies the instant it drops to 0 Hit Points, although a Game Master
  can ignore this rule for an individual monster and treat it like a character."
  "Massive Damage. When damage reduces a character to 0 Hit Points and damage remains, the
  character dies if the remainder equals or exceeds their Hit Point maximum."
  "If you reach 0 Hit Points and don't die instantly, you have the Unconscious condition ...
  until you regain any Hit Points, and you now face making Death Saving Throws."
  "Whenever you start your turn with 0 Hit Points, you must make a Death Saving Throw ...
  Roll 1d20. If the roll is 10 or higher, you succeed. Otherwise, you fail. ... On your third
  success, you become Stable ... On your third failure, you die."
  "The number of both is reset to zero when you regain any Hit Points or become Stable."
  "When you roll a 1 on the d20 for a Death Saving Throw, you suffer two failures. If you roll
  a 20 on the d20, you regain 1 Hit Point."
  "If you take any damage while you have 0 Hit Points, you suffer a Death Saving Throw failure.
  If the damage is from a Critical Hit, you suffer two failures instead. If the damage equals
  or exceeds your Hit Point maximum, you die."
  "You can take the Help action to try to stabilize a creature with 0 Hit Points, which
  requires a successful DC 10 Wisdom (Medicine) check."
  "A Stable creature doesn't make Death Saving Throws even though it has 0 Hit Points, but it
  still has the Unconscious condition. If the creature takes damage, it stops being Stable."
"Knocking out a Creature":
  "When you would reduce a creature to 0 Hit Points with a melee attack, you can instead reduce
  the creature to 1 Hit Point and give it the Unconscious condition. ... The condition ends
  early if the creature regains any Hit Points or if someone takes an action to administer
  first aid to it, making a successful DC 10 Wisdom (Medicine) check."
ConditionDescription.json, Unconscious: "When this condition ends, you remain Prone."

These rules are played when the encounter's `death_saves` setting is true, as it is for every
new srd-2024, srd-2024-variant and a5e encounter. Logs recorded before the setting existed carry
no such setting and keep the reading they were played with: a character stays Unconscious until
healed and the GM rules on the rest. a5e's "Turn-Based Action" text says nothing about 0 Hit
Points, so a5e follows these same rules. A Stable creature's 1 HP after 1d4 hours is outside a
fight and left to the GM (`heal`).

The round each creature died in is kept (the 5e slice's `deaths`) while it stays dead, for Revivify's
"a creature that has died within the last minute" (combat/fivee/spell_restoration.py).
"""

from __future__ import annotations

from typing import ClassVar, Literal

import msgspec

from combat.common.concentration import end_concentration
from combat.common.events import CombatantDowned, CombatantRevived, Healed
from combat.common.regained_movement import restore_movement
from combat.common.zero_hp import ZeroHitPoints
from combat.fivee.check_events import CheckMade
from combat.fivee.state import DeathSaves, Dying, FiveEState, keeps_fivee
from combat.fivee.until_next_turn import stops_dodging
from combat.kernel.commands import Command, Faces
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionApplied, ConditionSpec, Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import Combatant, EncounterState, with_combatant, with_rules

__all__ = [
    "SETTING",
    "dying_of",
    "with_dying",
    "DEFAULTS",
    "STABILIZE_DC",
    "KNOCKED_OUT",
    "rules_on",
    "dies_at_zero",
    "at_death_door",
    "dropped_to_zero",
    "damaged_at_zero",
    "dropped_to_zero_further",
    "owe_death_save",
    "require_no_death_save",
    "revive",
    "noted_death",
    "died_in",
    "stabilize_or_wake",
    "DeathSave",
    "TreatAsCharacter",
    "TreatedAsCharacter",
    "DeathSaveOwed",
    "DeathSaveMade",
    "DeathSaveFailed",
    "CombatantStabilized",
    "CombatantDied",
    "CombatantKnockedOut",
    "RULES",
]

SETTING = "death_saves"
DEFAULTS = {SETTING: True}
STABILIZE_DC = 10
DEATH_SAVE_DC = 10
KNOCKED_OUT = ConditionSpec(name="unconscious", source="knocked out")
PRONE_AFTER = ConditionSpec(name="prone", source="was unconscious")


# -- state -----------------------------------------------------------------------------------


def dying_of(state: EncounterState) -> Dying:
    """The 0 HP bookkeeping; none in a ruleset outside the 5e family, whose damage and healing
    (combat/common/hitpoints.py, shared) ask too."""
    held = state.rules.dying if keeps_fivee(state) else msgspec.UNSET
    return Dying() if held is msgspec.UNSET else held


def with_dying(state: EncounterState[FiveEState], **changes: object) -> EncounterState[FiveEState]:
    new = msgspec.structs.replace(dying_of(state), **changes)
    return with_rules(state, dying=msgspec.UNSET if new == Dying() else new)


# -- commands --------------------------------------------------------------------------------


class DeathSave(Command, frozen=True, kw_only=True):
    """The Death Saving Throw owed at the start of the turn: a d20, faces entered or rolled."""

    combatant: str
    faces: Faces = None


class TreatAsCharacter(Command, frozen=True, kw_only=True):
    """The GM sets aside Monster Death for one monster: at 0 HP it falls Unconscious instead."""

    gm_only: ClassVar[bool] = True

    combatant: str
    reason: str = ""


# -- events ----------------------------------------------------------------------------------


class TreatedAsCharacter(Event, frozen=True, kw_only=True):
    combatant: str
    reason: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


class DeathSaveOwed(Event, frozen=True, kw_only=True):
    """The creature started its turn at 0 HP and not Stable; the turn waits for the save."""

    combatant: str
    hidden: ClassVar[Hidden] = PUBLIC


class DeathSaveMade(Event, frozen=True, kw_only=True):
    combatant: str
    natural: int
    outcome: Literal["success", "failure", "two failures", "regains 1 HP"]
    hidden: ClassVar[Hidden] = Hidden.said("natural")  # a character's d20, rolled in the open


class DeathSaveFailed(Event, frozen=True, kw_only=True):
    """Failures suffered without a roll: damage taken at 0 HP (two from a Critical Hit)."""

    combatant: str
    failures: int
    cause: str
    hidden: ClassVar[Hidden] = PUBLIC


class CombatantStabilized(Event, frozen=True, kw_only=True):
    combatant: str
    reason: str
    hidden: ClassVar[Hidden] = PUBLIC


class CombatantDied(Event, frozen=True, kw_only=True):
    """Death by the 0 HP rules: massive damage, a third failure, or damage at 0 HP."""

    combatant: str
    cause: str
    hidden: ClassVar[Hidden] = PUBLIC


class CombatantKnockedOut(Event, frozen=True, kw_only=True):
    """A melee attack that would have dropped the creature to 0 HP left it at 1 HP, Unconscious."""

    combatant: str
    by: str
    hidden: ClassVar[Hidden] = PUBLIC


# -- the rules -------------------------------------------------------------------------------


def rules_on(state: EncounterState) -> bool:
    return bool(state.settings.get(SETTING))


def dies_at_zero(state: EncounterState, c: Combatant) -> bool:
    """'A monster dies the instant it drops to 0 Hit Points' unless the GM treats it as a character."""
    return c.kind == "monster" and c.id not in dying_of(state).as_characters


def at_death_door(state: EncounterState, c: Combatant) -> bool:
    """At 0 HP, Unconscious and still making Death Saving Throws (not Stable, not dead)."""
    return c.status == "unconscious" and c.hp == 0 and not _tally(state, c.id).stable


def _tally(state: EncounterState, cid: str) -> DeathSaves:
    return dying_of(state).tallies.get(cid, DeathSaves())


def dropped_to_zero(tx: Tx, c: Combatant, remainder: int) -> None:
    """`c` has just dropped to 0 HP with `remainder` damage left over."""
    if rules_on(tx.state) and not dies_at_zero(tx.state, c) and remainder >= c.max_hp:
        tx.emit(CombatantDied(combatant=c.id, cause=f"massive damage: {remainder} remained, Hit Point maximum {c.max_hp}"))
        end_concentration(tx, c.id, "died")
        return
    status = "dead" if dies_at_zero(tx.state, c) else "unconscious"
    tx.emit(CombatantDowned(combatant=c.id, status=status))  # type: ignore[arg-type]
    end_concentration(tx, c.id, "died" if status == "dead" else "fell unconscious")


def dropped_to_zero_further(tx: Tx, c: Combatant, amount: int) -> None:
    """More of a blow that has just dropped `c` to 0 HP or struck it there: it kills if it alone
    equals the Hit Point maximum; it is no further Death Saving Throw failure."""
    if rules_on(tx.state) and amount >= c.max_hp:
        tx.emit(CombatantDied(combatant=c.id, cause=f"massive damage: {amount} more remained, Hit Point maximum {c.max_hp}"))


def damaged_at_zero(tx: Tx, c: Combatant, amount: int, *, critical: bool) -> None:
    """Damage to a creature already at 0 HP: a failure, two from a Critical Hit, or death."""
    if not rules_on(tx.state) or amount <= 0:
        return
    if amount >= c.max_hp:
        tx.emit(CombatantDied(combatant=c.id, cause=f"{amount} damage at 0 HP, Hit Point maximum {c.max_hp}"))
        return
    failures = 2 if critical else 1
    tx.emit(DeathSaveFailed(combatant=c.id, failures=failures, cause="damage from a Critical Hit" if critical else "damage"))
    _die_on_third_failure(tx, c.id)


def _die_on_third_failure(tx: Tx, cid: str) -> None:
    if _tally(tx.state, cid).failures >= 3:
        tx.emit(CombatantDied(combatant=cid, cause="three failed Death Saving Throws"))


def owe_death_save(tx: Tx, cid: str) -> None:
    """'Whenever you start your turn with 0 Hit Points, you must make a Death Saving Throw.'"""
    c = tx.state.combatants[cid]
    if rules_on(tx.state) and at_death_door(tx.state, c):
        tx.emit(DeathSaveOwed(combatant=cid))


def require_no_death_save(tx: Tx, ending: str) -> None:
    owed = dying_of(tx.state).owed
    if owed:
        who = ", ".join(tx.state.combatants[o].name for o in owed)
        raise RuleError(
            "turn/death-save-owed",
            f"{ending}'s turn cannot end before {who} makes the Death Saving Throw owed at its start",
            allowed="death_save for " + ", ".join(owed),
        )


def revive(tx: Tx, cid: str) -> None:
    """Unconscious ends on regaining Hit Points: 'When this condition ends, you remain Prone.'
    A creature revived during its own turn gets its Speed back for the rest of it."""
    before = tx.state.combatants[cid]
    tx.emit(CombatantRevived(combatant=cid))
    if (rules_on(tx.state) or KNOCKED_OUT in before.conditions) and not tx.state.combatants[cid].has("prone"):
        tx.emit(ConditionApplied(target=cid, condition=PRONE_AFTER))
    restore_movement(tx, cid)


def stabilize_or_wake(tx: Tx, helper: Combatant, target: Combatant, bonus: int, faces: Faces) -> None:
    """The Help action given to an ally at 0 HP (stabilise it) or knocked out (first aid):
    either way 'a successful DC 10 Wisdom (Medicine) check'."""
    roll = tx.roll(f"1d20{bonus:+d}", purpose="medicine check", roller=helper.id, faces=faces)
    success = roll.total >= STABILIZE_DC
    tx.emit(CheckMade(combatant=helper.id, skill="medicine", total=roll.total, dc=STABILIZE_DC, success=success))
    if not success:
        return
    if target.hp == 0:
        tx.emit(CombatantStabilized(combatant=target.id, reason=f"{helper.name} succeeded on a DC 10 Wisdom (Medicine) check"))
    else:
        revive(tx, target.id)


def needs_medicine(state: EncounterState, c: Combatant) -> bool:
    """An ally the Help action can tend: dying at 0 HP, or knocked out."""
    return (rules_on(state) and at_death_door(state, c)) or (c.status == "unconscious" and KNOCKED_OUT in c.conditions)


def _death_save(tx: Tx, cmd: DeathSave) -> None:
    c = tx.combatant(cmd.combatant)
    if c.id not in dying_of(tx.state).owed:
        raise RuleError(
            "death-save/not-owed",
            f"{c.name} owes no Death Saving Throw: one is made at the start of a turn begun at 0 HP, not Stable",
            allowed=", ".join(f"death_save for {o}" for o in dying_of(tx.state).owed) or "no Death Saving Throws owed",
        )
    roll = tx.roll("1d20", purpose="death save", roller=c.id, faces=cmd.faces)
    natural = roll.total
    outcome = (
        "regains 1 HP"
        if natural == 20
        else "two failures"
        if natural == 1
        else "success"
        if natural >= DEATH_SAVE_DC
        else "failure"
    )
    tx.emit(DeathSaveMade(combatant=c.id, natural=natural, outcome=outcome))  # type: ignore[arg-type]
    if outcome == "regains 1 HP":
        tx.emit(Healed(target=c.id, amount=1, source="a 20 on a Death Saving Throw"))
        revive(tx, c.id)
    elif _tally(tx.state, c.id).successes >= 3:
        tx.emit(CombatantStabilized(combatant=c.id, reason="three successful Death Saving Throws"))
    else:
        _die_on_third_failure(tx, c.id)


def _treat_as_character(tx: Tx, cmd: TreatAsCharacter) -> None:
    c = tx.combatant(cmd.combatant)
    if c.kind != "monster":
        raise RuleError("treat-as-character/not-monster", f"{c.name} is already a character", allowed="a monster")
    if c.status == "dead":
        raise RuleError("target/dead", f"{c.name} is already dead", allowed="a living monster")
    if c.id in dying_of(tx.state).as_characters:
        raise RuleError("treat-as-character/already", f"{c.name} is already treated like a character")
    tx.emit(TreatedAsCharacter(combatant=c.id, reason=cmd.reason))


# -- appliers --------------------------------------------------------------------------------


def _with_tally(state: EncounterState, cid: str, tally: DeathSaves | None) -> EncounterState:
    tallies = {k: v for k, v in dying_of(state).tallies.items() if k != cid}
    if tally is not None:
        tallies[cid] = tally
    return with_dying(state, tallies=tallies, owed=tuple(o for o in dying_of(state).owed if o != cid))


def _on_save_made(state: EncounterState, e: DeathSaveMade) -> EncounterState:
    t = _tally(state, e.combatant)
    if e.outcome == "success":
        t = msgspec.structs.replace(t, successes=t.successes + 1)
    elif e.outcome in ("failure", "two failures"):
        t = msgspec.structs.replace(t, failures=t.failures + (2 if e.outcome == "two failures" else 1))
    return _with_tally(state, e.combatant, t)


def _on_failed(state: EncounterState, e: DeathSaveFailed) -> EncounterState:
    t = _tally(state, e.combatant)
    # "If the creature takes damage, it stops being Stable and starts making Death Saving Throws again."
    return _with_tally(state, e.combatant, DeathSaves(successes=t.successes, failures=t.failures + e.failures))


def _on_died(state: EncounterState, e: CombatantDied) -> EncounterState:
    state = noted_death(_with_tally(state, e.combatant, None), e.combatant)
    c = msgspec.structs.replace(state.combatants[e.combatant], status="dead")
    return stops_dodging(msgspec.structs.replace(state, combatants={**state.combatants, c.id: c}), c.id)


def _on_knocked_out(state: EncounterState, e: CombatantKnockedOut) -> EncounterState:
    c = state.combatants[e.combatant]
    c = msgspec.structs.replace(c, hp=1, status="unconscious", conditions=c.conditions + (KNOCKED_OUT,))
    return stops_dodging(msgspec.structs.replace(state, combatants={**state.combatants, c.id: c}), c.id)


def on_revived(state: EncounterState, cid: str) -> EncounterState:
    """Regaining Hit Points resets both tallies (called by the CombatantRevived applier); a
    creature brought back from death is no longer dead since a round."""
    deaths = _deaths(state)
    if cid in deaths:
        left = {k: v for k, v in deaths.items() if k != cid}
        state = with_rules(state, deaths=left or msgspec.UNSET)
    held = dying_of(state)
    if cid not in held.tallies and cid not in held.owed:
        return state
    return _with_tally(state, cid, None)


def _deaths(state: EncounterState) -> dict[str, int]:
    held = state.rules.deaths if keeps_fivee(state) else msgspec.UNSET
    return {} if held is msgspec.UNSET else held


def noted_death(state: EncounterState, cid: str) -> EncounterState:
    """The round `cid` died in, kept while it stays dead (a ruleset outside the 5e family keeps
    none). The 5e slice's `deaths`, which the state's JSON leaves out (combat/fivee/views.py)."""
    if not keeps_fivee(state):
        return state
    return with_rules(state, deaths={**_deaths(state), cid: state.round})


def died_in(state: EncounterState, cid: str) -> int | None:
    """The round a dead creature died in, if it is known."""
    return _deaths(state).get(cid)


# -- checks after a change to the past (see combat/app/history.py) ----------------------------


def _owed_check(state: EncounterState, e: DeathSaveOwed, ctx: dict) -> str | None:
    c = state.combatants.get(e.combatant)
    if c is None or not at_death_door(state, c):
        return f"{e.combatant} no longer starts its turn at 0 HP"
    return None


def _made_check(state: EncounterState, e: DeathSaveMade, ctx: dict) -> str | None:
    return None if e.combatant in dying_of(state).owed else f"{e.combatant} owed no Death Saving Throw"


class DeathAtZero(ZeroHitPoints):
    """The shared rules' 0 HP moments, as the 5e text has them (the functions above)."""

    records_deaths = True

    def dropped(self, tx: Tx, c: Combatant, remainder: int) -> None:
        dropped_to_zero(tx, c, remainder)

    def struck_again(self, tx: Tx, c: Combatant, amount: int) -> None:
        dropped_to_zero_further(tx, c, amount)

    def damaged_at_zero(self, tx: Tx, c: Combatant, amount: int, *, critical: bool) -> None:
        damaged_at_zero(tx, c, amount, critical=critical)

    def already_struck(self, tx: Tx, cid: str) -> bool:
        return any(isinstance(e, (CombatantDowned, DeathSaveFailed)) and e.combatant == cid for e in tx.events)

    def revived(self, tx: Tx, cid: str) -> None:
        revive(tx, cid)

    def turn_started(self, tx: Tx, cid: str) -> None:
        owe_death_save(tx, cid)

    def died(self, tx: Tx, cid: str, cause: str) -> None:
        tx.emit(CombatantDied(combatant=cid, cause=cause))
        end_concentration(tx, cid, "died")


def _noted_downed(state: EncounterState, e: CombatantDowned) -> EncounterState:
    return noted_death(state, e.combatant) if e.status == "dead" else state


def _revived(state: EncounterState, e: CombatantRevived) -> EncounterState:
    """After the shared applier (status and the 0 HP Unconscious gone): a knock-out's
    Unconscious ends too, and both tallies reset."""
    c = state.combatants[e.combatant]
    if KNOCKED_OUT in c.conditions:
        state = with_combatant(state, c.id, conditions=tuple(x for x in c.conditions if x != KNOCKED_OUT))
    return on_revived(state, e.combatant)


RULES = Rules(
    ports={ZeroHitPoints: DeathAtZero()},
    after={CombatantDowned: (_noted_downed,), CombatantRevived: (_revived,)},
    handlers={DeathSave: _death_save, TreatAsCharacter: _treat_as_character},
    appliers={
        TreatedAsCharacter: lambda s, e: with_dying(s, as_characters=dying_of(s).as_characters + (e.combatant,)),
        DeathSaveOwed: lambda s, e: with_dying(s, owed=dying_of(s).owed + (e.combatant,)),
        DeathSaveMade: _on_save_made,
        DeathSaveFailed: _on_failed,
        CombatantStabilized: lambda s, e: _with_tally(s, e.combatant, DeathSaves(stable=True)),
        CombatantDied: _on_died,
        CombatantKnockedOut: _on_knocked_out,
    },
    checks={DeathSaveOwed: _owed_check, DeathSaveMade: _made_check},
    narration={
        TreatedAsCharacter: lambda n, e: f"{n.name(e.combatant)} will be treated like a character at 0 HP",
        DeathSaveOwed: lambda n, e: f"{n.name(e.combatant)} starts the turn at 0 HP and must make a Death Saving Throw",
        DeathSaveMade: lambda n, e: f"{n.name(e.combatant)} rolls {e.natural} on a Death Saving Throw: {e.outcome}",
        DeathSaveFailed: lambda n, e: (
            f"{n.name(e.combatant)} suffers {e.failures} Death Saving Throw failure"
            + ("s" if e.failures > 1 else "")
            + f" from {e.cause}"
        ),
        CombatantStabilized: lambda n, e: f"{n.name(e.combatant)} is Stable ({e.reason})",
        CombatantDied: lambda n, e: f"{n.name(e.combatant)} dies ({e.cause})",
        CombatantKnockedOut: lambda n, e: f"{n.name(e.by)} knocks {n.name(e.combatant)} out: 1 HP, Unconscious",
    },
)
