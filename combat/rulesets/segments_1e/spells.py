"""Spells: incantations and invocations on the timeline.

- "Only one spell can be cast per round (even if one is cast as an immediate action)."
- "When an incantation or invocation is declared, the target of the effect does not need to
  be declared. However, during the caster's Group initiative turn, the caster must announce
  the target".
- A spell's casting starts in its caster's acting segment and goes off when its casting time
  has passed (rules README); an invocation's "activation always begins on the 1st segment".
  It goes off at the end of its last segment, in time order with every other turn of the
  round (segments.spell_due); step 7 resolves those going off after the round's last turn,
  in the order they go off. (Logs from before the setting `spells_on_timeline` resolve every
  spell in step 7.)
- In a surprise segment "only actions that fit in one segment can be done": a spell with a
  casting time of 1 segment can be cast there, named as it begins (nothing was declared
  before the first round); it goes off at the end of that segment. "Only one spell can be
  cast per round": the surprise segments, shorter than a round, allow one spell between
  them (setting `one_spell_in_surprise_segments`; older logs let a caster cast in each).
  A spell lost as if cast counts, and so does an immediate attack there (it spends the
  major action a spell in a round would need).
- "All incantations require deep concentration during the casting time. If this
  concentration is broken, the spell being cast fails and is lost as if cast."
- "Line of Effect ... Cover of over 50% will break line of effect." "Line of Sight ... the
  caster must be able to see the creature or object when the spell casting is complete.
  Concealment of 75% or more will break line of sight." Both apply to spells with a range
  beyond 0 or touch (`range_ft` above 0).

Chosen: a spell whose caster loses sight of its target by the time it goes off is lost as
if cast; a spell's damage is rolled once and dealt to every target; a spell taking whole
rounds ("1 round") is complete in the last segment of its last round.
"""

from __future__ import annotations

from typing import Any

import msgspec

from combat.common.concentration import end_concentration
from combat.common.consistency import CHECKS as SHARED_CHECKS
from combat.common.events import DamageTaken
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import TurnEnded
from combat.kernel.names import checked_damage_type
from combat.kernel.state import Combatant, EncounterState
from combat.rulesets.segments_1e import phases as P
from combat.rulesets.segments_1e.acting import able, record
from combat.rulesets.segments_1e.attacks import ABANDONED, GAVE_UP_SPELL
from combat.rulesets.segments_1e.commands import BeginCasting, ForgoSpell, ResolveSpell
from combat.rulesets.segments_1e.damage import after_damage
from combat.rulesets.segments_1e.events import CastingDelayed, CastingStarted, SpellForgone, SpellSpoiled, SpellWentOff
from combat.rulesets.segments_1e.grid import distance_ft
from combat.rulesets.segments_1e.ledger import Casting, Creature, with_creature
from combat.rulesets.segments_1e.segments import completion
from combat.rulesets.segments_1e.settings import ONE_SPELL_IN_SURPRISE
from combat.rulesets.segments_1e.turns import (
    action_segment,
    end_turn,
    major_refusal,
    require_turn,
    segment_spent,
    spell_turn,
    spent,
    turn_not_running,
)
from combat.rulesets.segments_1e.wording import names

__all__ = ["RULES", "LINE_OF_EFFECT_COVER", "LINE_OF_SIGHT_CONCEALMENT", "casting_refusal"]

LINE_OF_EFFECT_COVER = 50  # over this much cover breaks line of effect
LINE_OF_SIGHT_CONCEALMENT = 75  # this much concealment or more breaks line of sight


def _undeclared_refusal(c: Combatant) -> RuleError:
    return RuleError(
        "spell/undeclared",
        f"{c.name} declared no spell this round; spells must be declared",
        allowed="declare_round_action with action spell or invocation, next round",
    )


def _declared(tx: Tx, cid: str) -> Casting:
    cast = tx.state.rules.creatures[cid].casting
    if cast is None:
        raise _undeclared_refusal(tx.state.combatants[cid])
    return cast


def _already_casting(c: Combatant, cast: Casting) -> RuleError:
    return RuleError("spell/already-casting", f"{c.name} is already casting {cast.spell}", allowed="end_turn")


def casting_refusal(state: EncounterState, c: Combatant, rec: Creature, trigger: str = "begin_casting") -> RuleError | None:
    """Why `c` could not begin casting (or forgo) its spell now. In a surprise segment: one
    spell at a time, in a segment it has not spent. In a round: the spell declared, not yet
    begun, as the one major action. (The guards raise it; the re-check after a change to
    the past reports its words.)"""
    if state.phase == P.SURPRISE_SEGMENTS and trigger == "begin_casting":
        if rec.casting is not None:
            return _already_casting(c, rec.casting)
        if rec.major_used and state.settings.get(ONE_SPELL_IN_SURPRISE):
            # In the surprise segments only a spell gone off or lost, or an immediate
            # attack, spends the major action (see the module docstring).
            return RuleError(
                "spell/one-per-round",
                f"{c.name} has already cast a spell (or made an immediate attack) in the surprise segments: "
                "only one spell can be cast per round",
                allowed="an attack routine, a move, or a minor or major action of one segment",
            )
        problem = segment_spent(c, rec, state.rules.segment)
        return RuleError("surprise/segment-used", problem, allowed="actions that take no time, end_turn") if problem else None
    if rec.casting is None:
        return _undeclared_refusal(c)
    if rec.casting.started:
        return _already_casting(c, rec.casting)
    return major_refusal(c, rec, trigger)


def _undeclared(tx: Tx, c: Combatant, rec: Creature, cmd: BeginCasting) -> Casting:
    """A spell cast in a surprise segment, where nothing was declared."""
    if not (cmd.spell or "").strip():
        raise RuleError(
            "spell/name-needed",
            "nothing is declared before the first round: name the spell cast in this surprise segment",
            allowed="spell (and its range_ft), with a casting time of 1 segment",
        )
    if cmd.casting_segments != 1:
        raise RuleError(
            "surprise/one-segment",
            f"{cmd.spell} takes {cmd.casting_segments} segments: only actions that fit in one segment can be done in a surprise segment",
            allowed="a spell with a casting time of 1 segment",
        )
    refusal = casting_refusal(tx.state, c, rec)
    if refusal is not None:
        raise refusal
    return Casting(spell=cmd.spell, kind="incantation", casting_segments=1, range_ft=cmd.range_ft, declared_round=tx.state.round)  # type: ignore[arg-type]


def _begin(tx: Tx, cmd: BeginCasting) -> None:
    c, rec = require_turn(tx, cmd.caster)
    if tx.state.phase == P.SURPRISE_SEGMENTS:
        cast, uses = _undeclared(tx, c, rec, cmd), "surprise_segment"
    else:
        if cmd.spell is not None or cmd.range_ft or cmd.casting_segments != 1:
            raise RuleError(
                "spell/declared",
                "in a round the spell cast is the one declared, with its range and casting time",
                allowed="caster, targets and cover_percent only",
            )
        refusal = casting_refusal(tx.state, c, rec)
        if refusal is not None:
            raise refusal
        cast, uses = _declared(tx, c.id), "major"
    targets = cmd.targets or cast.targets
    for t in targets:
        tx.combatant(t)
    if cast.range_ft > 0:
        if not targets:
            raise RuleError(
                "spell/target-needed",
                f"{cast.spell} needs its target announced now",
                allowed="targets: who or what it is cast at",
            )
        if cmd.cover_percent > LINE_OF_EFFECT_COVER:
            raise RuleError(
                "spell/no-line-of-effect",
                f"{cmd.cover_percent}% cover breaks line of effect",
                allowed=f"a target behind {LINE_OF_EFFECT_COVER}% cover or less",
            )
        ledger = tx.state.rules
        here = ledger.creatures[c.id]
        for t in targets:
            there = ledger.creatures[t]
            if None not in (here.x, there.x) and distance_ft((here.x, here.y), (there.x, there.y)) > cast.range_ft:
                raise RuleError(
                    "spell/out-of-range",
                    f"{tx.state.combatants[t].name} is beyond the {cast.range_ft} ft of {cast.spell}",
                    allowed=f"targets within {cast.range_ft} ft, center to center",
                )
    start = 1 if cast.kind == "invocation" else action_segment(tx, rec)
    done_round, done_segment = completion(tx.state.round, start, cast.casting_segments)
    # "While maintaining concentration, any other action that requires concentration will
    # cause any preexisting maintenance to cease."
    end_concentration(tx, c.id, f"began casting {cast.spell}")
    tx.emit(
        CastingStarted(
            caster=c.id,
            spell=cast.spell,
            targets=tuple(targets),
            start_segment=start,
            completes_round=done_round,
            completes_segment=done_segment,
            uses=uses,  # type: ignore[arg-type]
            range_ft=cast.range_ft if uses == "surprise_segment" else 0,
        )
    )


def _forgo(tx: Tx, cmd: ForgoSpell) -> None:
    c, rec = require_turn(tx, cmd.caster)
    refusal = casting_refusal(tx.state, c, rec, "forgo_spell")
    if refusal is not None:
        raise refusal
    tx.emit(SpellForgone(caster=c.id, spell=_declared(tx, c.id).spell))


def _resolve(tx: Tx, cmd: ResolveSpell) -> None:
    c = tx.combatant(cmd.caster)
    if tx.state.turn != c.id:
        require_turn(tx, c.id)
    if not spell_turn(tx.state):
        raise RuleError(
            "spell/not-yet",
            f"{c.name}'s spell goes off at the end of its segment, once every other turn in it is done",
            allowed="end_turn; the spell's own turn comes when it goes off",
        )
    damage_type = checked_damage_type(tx, cmd.damage_type, custom=cmd.custom_type)
    cast = _declared(tx, c.id)
    segment = cast.completes_segment or tx.state.rules.segment
    if cmd.damage_faces is not None and cmd.damage is None:
        raise RuleError(
            "dice/unused-faces", "faces were entered but the spell rolls no damage", allowed="damage notation with its faces"
        )
    if cast.range_ft > 0 and cmd.concealment_percent >= LINE_OF_SIGHT_CONCEALMENT:
        tx.emit(
            SpellSpoiled(
                caster=c.id,
                spell=cast.spell,
                segment=segment,
                reason=f"lost sight of the target ({cmd.concealment_percent}% concealment)",
            )
        )
        end_turn(tx, c.id)
        return
    if cmd.damage is not None and not cast.targets:
        raise RuleError("spell/no-targets", f"{cast.spell} was cast at no one", allowed="no damage")
    tx.emit(SpellWentOff(caster=c.id, spell=cast.spell, targets=cast.targets, segment=segment))
    living = [t for t in cast.targets if tx.state.combatants[t].status != "dead"]
    if cmd.damage is not None and living:
        amount = max(0, tx.roll(cmd.damage, purpose=f"damage: {cast.spell}", roller=c.id, faces=cmd.damage_faces).total)
        for t in living:
            tx.emit(
                DamageTaken(target=t, amount=amount, damage_type=damage_type, rolled=amount, source=c.id, custom=cmd.custom_type)
            )
            after_damage(tx, t, amount, segment=segment, by=c.id, spell=True)
    end_turn(tx, c.id)


def _on_started(state: EncounterState, e: CastingStarted) -> EncounterState:
    cast = state.rules.creatures[e.caster].casting
    if cast is None:  # cast in a surprise segment, undeclared
        cast = Casting(spell=e.spell, kind="incantation", casting_segments=1, range_ft=e.range_ft, declared_round=state.round)
    started = msgspec.structs.replace(
        cast,
        targets=e.targets,
        start_segment=e.start_segment,
        completes_round=e.completes_round,
        completes_segment=e.completes_segment,
    )
    return spent(state, e.caster, e.uses, casting=started)


def _on_delayed(state: EncounterState, e: CastingDelayed) -> EncounterState:
    cast = state.rules.creatures[e.caster].casting
    later = msgspec.structs.replace(cast, completes_round=e.completes_round, completes_segment=e.completes_segment)
    return with_creature(state, e.caster, casting=later)


def _on_gone(state: EncounterState, e: SpellWentOff | SpellSpoiled) -> EncounterState:
    # Lost as if cast: the major action of the round is spent either way.
    return spent(state, e.caster, "major", casting=None)


def _on_forgone(state: EncounterState, e: SpellForgone) -> EncounterState:
    return spent(state, e.caster, "major", casting=None)


# -- after a change to the past ------------------------------------------------------------------

# Damage a spell that went off still owes: {"caster", "spell", "targets", "struck"}, noted
# when it goes off, struck off as each DamageTaken lands, settled when the caster's turn ends.
_SPELL = "segments_1e_spell_damage"


def _check_started(state: EncounterState, e: CastingStarted, ctx: dict[str, Any]) -> str | None:
    problem = able(state, e.caster, "cast")
    if problem:
        return problem
    c, rec, _ = record(state, e.caster)
    if e.uses != "surprise_segment" and rec.casting is not None and not rec.casting.started and rec.casting.spell != e.spell:
        return f"{c.name} declared {rec.casting.spell} now, not {e.spell}"
    refusal = casting_refusal(state, c, rec)
    return refusal.message if refusal is not None else None


def _in_casting(doing: str) -> Any:
    def check(state: EncounterState, e: Any, ctx: dict[str, Any]) -> str | None:
        c, rec, _ = record(state, e.caster)
        if rec.casting is None or rec.casting.spell != e.spell:
            return f"{c.name} had no {e.spell} in casting any more to {doing}"
        return None

    return check


def _check_spoiled(state: EncounterState, e: SpellSpoiled, ctx: dict[str, Any]) -> str | None:
    problem = _in_casting("lose")(state, e, ctx)
    if problem is None and e.reason == ABANDONED:
        ctx[GAVE_UP_SPELL] = e.caster
    return problem


def _check_delayed(state: EncounterState, e: CastingDelayed, ctx: dict[str, Any]) -> str | None:
    c, rec, _ = record(state, e.caster)
    if rec.casting is None or not rec.casting.started:
        return f"{c.name} had no spell in casting any more to put off"
    return None


def _check_went_off(state: EncounterState, e: SpellWentOff, ctx: dict[str, Any]) -> str | None:
    problem = _in_casting("go off")(state, e, ctx)
    if problem:
        return problem
    # Whoever the spell was cast at and still lives takes its damage (if it deals any): the
    # caster's turn ends right after, and that is where a target left out shows.
    living = [t for t in e.targets if t in state.combatants and state.combatants[t].status != "dead"]
    ctx[_SPELL] = {"caster": e.caster, "spell": e.spell, "targets": living, "struck": []}
    return None


def _check_damage(state: EncounterState, e: DamageTaken, ctx: dict[str, Any]) -> str | None:
    owed = ctx.get(_SPELL)
    if owed is not None and e.source == owed["caster"]:
        owed["struck"].append(e.target)
    return SHARED_CHECKS[DamageTaken](state, e, ctx)


def _check_turn_ended(state: EncounterState, e: TurnEnded, ctx: dict[str, Any]) -> str | None:
    """The turn was running; a spell that went off in it struck every target still standing."""
    problem = turn_not_running(state, e.combatant)
    if problem:
        return problem
    owed = ctx.get(_SPELL)
    if owed is None or owed["caster"] != e.combatant:
        return None
    ctx.pop(_SPELL)
    if not owed["struck"]:
        return None  # a spell without damage
    missed = [t for t in owed["targets"] if t not in owed["struck"]]
    if missed:
        return (
            f"{state.combatants[missed[0]].name} is standing now and was a target of {owed['spell']}, but took none of its damage"
        )
    return None


def _casting_line(n: Any, e: CastingStarted) -> str:
    at = f" at {names(n, e.targets)}" if e.targets else ""
    return (
        f"{n.name(e.caster)} begins casting {e.spell}{at} in segment {e.start_segment}; it goes off in segment {e.completes_segment}"
        + (f" of round {e.completes_round}" if e.completes_round != n.round else "")
    )


RULES = Rules(
    handlers={BeginCasting: _begin, ForgoSpell: _forgo, ResolveSpell: _resolve},
    appliers={
        CastingStarted: _on_started,
        CastingDelayed: _on_delayed,
        SpellWentOff: _on_gone,
        SpellSpoiled: _on_gone,
        SpellForgone: _on_forgone,
    },
    # DamageTaken and TurnEnded are checked here: a spell's damage is followed from the
    # moment it goes off to the end of its caster's turn.
    checks={
        CastingStarted: _check_started,
        CastingDelayed: _check_delayed,
        SpellWentOff: _check_went_off,
        SpellSpoiled: _check_spoiled,
        SpellForgone: _in_casting("forgo"),
        DamageTaken: _check_damage,
        TurnEnded: _check_turn_ended,
    },
    narration={
        CastingStarted: _casting_line,
        CastingDelayed: lambda n, e: f"{n.name(e.caster)}'s {e.spell} will now go off in segment {e.completes_segment}",
        SpellWentOff: lambda n, e: (
            f"{n.name(e.caster)}'s {e.spell} goes off in segment {e.segment}"
            + (f" at {names(n, e.targets)}" if e.targets else "")
        ),
        SpellSpoiled: lambda n, e: (
            f"{n.name(e.caster)}'s {e.spell} is spoiled in segment {e.segment} ({e.reason}): lost as if cast"
        ),
        SpellForgone: lambda n, e: f"{n.name(e.caster)} does not cast {e.spell}: {e.reason}",
    },
)
