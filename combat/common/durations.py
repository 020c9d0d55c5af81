"""Lasting effects: a condition that lasts some rounds, one held by a creature's concentration,
and one the target shakes off with a save repeated at the end of each of its turns.

The condition carries them (`ConditionSpec.rounds`, `concentration`/`effect`, `save`), given
on `apply_condition` by the GM or by a spell's rules; each ends by a `ConditionEnded` in the
command that ends it, never silently in the fold. Only a ruleset that fills the
`LastingEffects` port runs them (the 5e family); the others refuse them.

Rounds. SRD 5.2 (Combat): "A round represents about 6 seconds", so a duration of "1 minute"
is 10 rounds. A condition of `rounds: N` applied in round R ends as `ends_on`'s turn starts
(or ends, with `ends: "end"`) in round R + N: applied by the caster on its own turn in round 1,
"1 minute" ends as the caster's turn starts in round 11, ten full rounds of turns later
(the same point in the initiative, the caster's turn, ten rounds on). Applied outside the
fight's rounds (round 0, before the first), it counts from round 1. The round is recorded as
`until_round` when the condition is applied; moving the turn back (`previous_turn`,
`goto_turn` into an earlier round) does not end it sooner, and a turn that never comes (its
creature dead) ends it all the same, as any "start of its turn" condition does. `ends_on`
left out is the `source`, when the source is a combatant.

Concentration. "until the spell ends", for a spell held by concentration: the condition
names the concentrating creature (`concentration`) and what it concentrates on (`effect`).
Whenever that concentration ends (end_concentration, a failed Constitution save, a new
concentration, an Incapacitating condition, 0 Hit Points, death), every condition tied to
it ends in the same command, each with its `ConditionEnded`. The creature must be
concentrating on it as the condition is applied (start_concentration first).

Repeated saves. Hold Person: "The target must succeed on a Wisdom saving throw or have the
Paralyzed condition for the duration. At the end of each of its turns, the target repeats the
save, ending the spell on itself on a success." The condition carries the save (`save:
{ability, dc}`); in the 5e family (combat/fivee/turn_ends.py `repeat_saves`), as its bearer's
turn ends (end_turn, or goto_turn moving the turn on; not previous_turn, which takes the turn
back) the save is rolled with the bearer's own bonus (combat/fivee/bonuses.py) and what its conditions do to it (a Paralyzed creature fails
Strength and Dexterity saves without a roll), after what ends with its turn has ended. Its
faces are entered on the command that ends the turn (`save_faces`, one list per save owed,
in the order the bearer's conditions are listed), or rolled by the service from the seed.
A success ends the condition (`SaveMade`, then `ConditionEnded`); a failure keeps it.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec

from combat.common.abilities import save_ability
from combat.common.condition_effects import SPEED_ZERO
from combat.common.regained_movement import restore_movement
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import ConditionEnded, ConditionSpec, RepeatedSave
from combat.kernel.names import normalised
from combat.kernel.state import Combatant

__all__ = ["LastingEffects", "prepared", "runs_out", "ending", "end_tied", "no_repeated_saves"]

UNSET = msgspec.UNSET


def prepared(tx: Tx, spec: ConditionSpec) -> ConditionSpec:
    """The condition `apply_condition` records: its lasting-effect fields checked and completed
    (the round it runs out in, the effect concentrated on, the save's ability in full)."""
    lasting = [name for name in _LASTING if getattr(spec, name) is not UNSET]
    runs = tx.ruleset.port(LastingEffects)
    if lasting and runs is None:
        raise RuleError(
            "condition/lasting-effect",
            f"{tx.ruleset.id} does not run {', '.join(lasting)} on a condition",
            allowed="ends and ends_on: the start or end of a creature's turn",
        )
    if spec.until_round is not UNSET:
        raise RuleError(
            "condition/until-round",
            "the round a condition runs out in is set by the rules from its rounds",
            allowed="rounds: how many rounds it lasts (10 for 1 minute)",
        )
    if spec.rounds is not UNSET:
        spec = _counted(tx, spec, spec.rounds)
    if spec.concentration is not UNSET:
        spec = _tied(tx, spec, spec.concentration)
    elif spec.effect is not UNSET:
        raise RuleError(
            "condition/effect-alone",
            f"'{spec.name}' names the effect {spec.effect} but not who concentrates on it",
            allowed="concentration: the id of the concentrating creature, with effect",
        )
    if spec.spell_level is UNSET and runs is not None:
        spec = _with_level_cast(tx, spec, runs)
    if spec.save is not UNSET:
        if spec.save.dc < 1:
            raise RuleError("condition/save-dc", f"a DC of {spec.save.dc} for the repeated save", allowed="a DC of 1 or more")
        spec = msgspec.structs.replace(spec, save=RepeatedSave(ability=save_ability(spec.save.ability), dc=spec.save.dc))
    return spec


_LASTING = ("rounds", "until_round", "concentration", "effect", "save")


class LastingEffects:
    """The part of lasting effects a ruleset that runs them fills (its port): the level a spell
    cast in this command was cast at, for a condition it applies (Dispel Magic reads it). A
    ruleset that fills none runs no lasting effects: declared-d10 and segments-1e, which take
    the condition rule alone, refuse them."""

    def level_cast(self, tx: Tx, spec: ConditionSpec) -> int | None:
        return None


def _with_level_cast(tx: Tx, spec: ConditionSpec, lasting: LastingEffects) -> ConditionSpec:
    level = lasting.level_cast(tx, spec)
    return spec if level is None else msgspec.structs.replace(spec, spell_level=level)


def _counted(tx: Tx, spec: ConditionSpec, rounds: int) -> ConditionSpec:
    if rounds < 1:
        raise RuleError(
            "condition/rounds", f"'{spec.name}' cannot last {rounds} rounds", allowed="1 or more rounds (10 for 1 minute)"
        )
    if spec.ends == "end of next turn":
        raise RuleError(
            "condition/rounds",
            "a condition lasts some rounds or until the end of a next turn, not both",
            allowed="ends: start or end, with rounds",
        )
    ends_on = spec.ends_on or (spec.source if spec.source in tx.state.combatants else None)
    if ends_on is None:
        raise RuleError(
            "condition/duration",
            f"'{spec.name}' lasts {rounds} rounds, but whose turn counts them is not named",
            allowed="ends_on: the id of the creature whose turn ends it (the caster), or a source that is a combatant",
        )
    return msgspec.structs.replace(spec, ends=spec.ends or "start", ends_on=ends_on, until_round=max(tx.state.round, 1) + rounds)


def _tied(tx: Tx, spec: ConditionSpec, cid: str) -> ConditionSpec:
    holder = tx.combatant(cid)
    if holder.concentration is None:
        raise RuleError(
            "condition/not-concentrating",
            f"{holder.name} is not concentrating on anything to hold '{spec.name}'",
            allowed=f"start_concentration for {cid} first, or no concentration",
        )
    if spec.effect is UNSET:
        return msgspec.structs.replace(spec, effect=holder.concentration)
    if normalised(spec.effect) != normalised(holder.concentration):
        raise RuleError(
            "condition/not-concentrating",
            f"{holder.name} concentrates on {holder.concentration}, not {spec.effect}",
            allowed=f"effect: {holder.concentration}",
        )
    return msgspec.structs.replace(spec, effect=holder.concentration)


def runs_out(cond: ConditionSpec, cid: str, moment: str, round_: int) -> bool:
    """Whether `cond` runs out at the `moment` ('start'/'end') of `cid`'s turn in `round_`."""
    if cond.ends != moment or cond.ends_on != cid:
        return False
    return cond.until_round is UNSET or round_ >= cond.until_round


def ending(target: Combatant, cond: ConditionSpec, reason: str) -> ConditionEnded:
    """The `ConditionEnded` of this very entry: it names the entry when the target has another
    condition of the same name, which might otherwise end in its place, and when it carries a
    spell's riders (what ends with it, Haste's lethargy, is read from the entry)."""
    twin = sum(1 for c in target.conditions if c.name == cond.name) > 1
    named = twin or cond.riders is not UNSET
    return ConditionEnded(target=target.id, condition=cond.name, reason=reason, entry=cond if named else UNSET)


def end_tied(tx: Tx, cid: str, effect: str) -> None:
    """`cid`'s concentration on `effect` has ended: so does every condition it held."""
    name = tx.state.combatants[cid].name
    for target in list(tx.state.combatants.values()):
        for cond in target.conditions:
            if cond.concentration == cid and cond.effect == effect:
                tx.emit(ending(tx.state.combatants[target.id], cond, f"{name}'s concentration on {effect} ended"))
                if cond.name in SPEED_ZERO:
                    restore_movement(tx, target.id, reason=f"no longer {cond.name}")


def no_repeated_saves(tx: Tx, faces: Sequence[Sequence[int]]) -> None:
    """Refuse save faces on a ruleset's end of turn that repeats no saves (declared-d10, segments-1e)."""
    if faces:
        raise RuleError(
            "dice/unused-faces", f"{tx.ruleset.id} repeats no saves as a turn ends", allowed="end_turn without save_faces"
        )
