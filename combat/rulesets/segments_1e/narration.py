"""One line of the narrative log per segments-1e event."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from combat.rulesets.segments_1e import events as ev

__all__ = ["NARRATION"]

_STEP = {
    "fast_actions": "fast actions",
    "multi_attacks": "multi-attack",
    "high": "HIGH",
    "low": "LOW",
    "multi_attacks_rest": "remaining multi-attacks",
    "spells": "spells",
}


def _plural(n: int, word: str) -> str:
    return f"{n} {word}{'' if n == 1 else 's'}"


def _names(n: Any, ids: tuple[str, ...] | list[str]) -> str:
    return ", ".join(n.name(i) for i in ids)


def _added(n: Any, e: ev.CreatureAdded) -> str:
    c = e.creature
    n.names[c.id] = c.name
    extra = (f", attacks as {e.attacks_as}" if e.attacks_as else "") + (f", saves as {e.saves_as} HD" if e.saves_as is not None else "")
    if c.ac is None:  # not revealed to this reader (projections/redaction.py)
        return f"{c.name} joins the {c.side} side ({'character' if c.kind == 'pc' else 'monster'})"
    return f"{c.name} joins the {c.side} side ({'character' if c.kind == 'pc' else 'monster'}, {e.hp} HP, AC {c.ac}{extra})"


def _surprise(n: Any, e: ev.SurpriseChecked) -> str:
    result = f"surprised for {_plural(e.segments, 'segment')}" if e.segments else "not surprised"
    return f"The {e.side} side rolls {e.roll} for surprise (surprised on 1-{e.surprised_on}): {result}"


def _settled(n: Any, e: ev.SurpriseSettled) -> str:
    if not e.segments:
        return "Nobody is surprised"
    who = "; ".join(f"{n.name(c)} {_plural(s, 'segment')}" for c, s in e.segments.items()) or "nobody"
    shaken = "".join(f"; {n.name(c)} shakes off {_plural(s, 'segment')} (Dexterity)" for c, s in e.cancelled.items())
    return f"Surprised: {who}{shaken} - {_plural(e.window, 'surprise segment')} to play"


def _declared(n: Any, e: ev.RoundActionDeclared) -> str:
    d = e.declared
    what = d.action.replace("_", " ")
    if d.spell:
        what += f": {d.spell} ({_plural(d.casting_segments, 'segment')})"
    elif d.routine:
        what += f" ({d.routine})"
    at = f" at {_names(n, d.targets)}" if d.targets else ""
    return f"{n.name(e.combatant)} declares {what}{at}" + (f" - {d.description}" if d.description else "")


def _groups(n: Any, e: ev.HighLowSet) -> str:
    rolls = ", ".join(f"{side} {roll}" for side, roll in e.rolls.items())
    moved = "".join(f"; {n.name(cid)} acts in {e.groups[cid].upper()}" for cid in e.moved)
    if e.tied:
        return f"Group initiative {rolls}: tied, so both act in HIGH (segment {e.high_segment}), ordered by action type{moved}"
    low = [s for s in e.rolls if s not in e.high]
    return f"Group initiative {rolls}: HIGH {', '.join(e.high)} in segment {e.high_segment}, LOW {', '.join(low)} in segment {e.low_segment}{moved}"


def _turn(n: Any, e: ev.SegmentTurnStarted) -> str:
    step = _STEP.get(e.slot.key, e.slot.key.replace("-", " segment "))
    return f"Segment {e.slot.segment} ({step}): {n.name(e.combatant)} acts"


def _routine(n: Any, e: ev.AttackRoutineBegun) -> str:
    how = {"routine": "attacks", "free": "makes a free attack on", "immediate": "makes an immediate attack on"}[e.mode]
    extra = ", charging" if e.charge else ""
    extra += f", as {e.trigger}" if e.trigger else ""
    return f"{n.name(e.attacker)} {how} {n.name(e.target)} with {e.routine} (segment {e.segment}{extra})"


def _strike(n: Any, e: ev.TableAttackRolled) -> str:
    roll = f"{e.natural}{e.modifier:+d} = {e.total}" if e.modifier else f"{e.natural}"
    head = f"  {e.strike}: {roll}" + ("" if e.target_ac is None else f" vs {e.needed} needed against AC {e.target_ac}")
    if not e.hit:
        return head + (" - natural 1, miss" if e.natural == 1 else " - miss")
    why = " (natural 20)" if e.natural == 20 and e.total < e.needed else ""
    times = f" (x{e.multiplier} of {e.damage_rolled})" if e.multiplier > 1 else ""
    return f"{head} - hit{why}, {e.damage} damage{times}"


def _moved(n: Any, e: ev.CreatureMoved) -> str:
    how = " (positioning)" if e.positioning else ""
    jostle = f", jostling {_names(n, e.jostled)}" if e.jostled else ""
    return f"{n.name(e.combatant)} moves {e.feet} ft to ({e.x}, {e.y}){how}{jostle}"


def _casting(n: Any, e: ev.CastingStarted) -> str:
    at = f" at {_names(n, e.targets)}" if e.targets else ""
    return f"{n.name(e.caster)} begins casting {e.spell}{at} in segment {e.start_segment}; it goes off in segment {e.completes_segment}" + (
        f" of round {e.completes_round}" if e.completes_round != n.round else ""
    )


NARRATION: dict[type, Callable[[Any, Any], str]] = {
    ev.CreatureAdded: _added,
    ev.BattlefieldDescribed: lambda n, e: "The battlefield: "
    + ("restricted quarters" if e.restricted else "open ground")
    + (f", {_plural(len(e.walls), 'wall square')}" if e.walls else ""),
    ev.SurpriseChecked: _surprise,
    ev.SurpriseSettled: _settled,
    ev.SegmentReached: lambda n, e: f"Segment {e.segment}",
    ev.RoundActionDeclared: _declared,
    ev.GroupD6Rolled: lambda n, e: f"The {e.side} side rolls {e.roll} for group initiative",
    ev.HighLowSet: _groups,
    ev.SegmentTurnStarted: _turn,
    ev.AttackRoutineBegun: _routine,
    ev.TableAttackRolled: _strike,
    ev.FreeAttackOpened: lambda n, e: f"{n.name(e.target)} draws a free attack from {n.name(e.attacker)} ({e.trigger})",
    ev.MajorActionTaken: lambda n, e: f"{n.name(e.combatant)}: {e.description} (segment {e.segment})",
    ev.MinorActionTaken: lambda n, e: f"{n.name(e.combatant)} (minor, {'no time' if not e.segments else _plural(e.segments, 'segment')}"
    + (f", +{e.gm_delay} by the GM" if e.gm_delay else "")
    + f"): {e.description}",
    ev.ImmediateActionTaken: lambda n, e: f"{n.name(e.combatant)} (immediate, segment {e.segment}): {e.description}",
    ev.CreatureMoved: _moved,
    ev.DelayAnnounced: lambda n, e: f"{n.name(e.combatant)} delays during {e.during.upper()}"
    + (": no action until LOW" if e.during == "high" else ": its major action is lost"),
    ev.CastingStarted: _casting,
    ev.CastingDelayed: lambda n, e: f"{n.name(e.caster)}'s {e.spell} will now go off in segment {e.completes_segment}",
    ev.SpellWentOff: lambda n, e: f"{n.name(e.caster)}'s {e.spell} goes off in segment {e.segment}"
    + (f" at {_names(n, e.targets)}" if e.targets else ""),
    ev.SpellSpoiled: lambda n, e: f"{n.name(e.caster)}'s {e.spell} is spoiled in segment {e.segment} ({e.reason}): lost as if cast",
    ev.SpellForgone: lambda n, e: f"{n.name(e.caster)} does not cast {e.spell}: {e.reason}",
    ev.SimultaneousActionKept: lambda n, e: f"{n.name(e.combatant)} falls in segment {e.slot.segment} but acts in that same segment: its blow still lands",
    ev.MoraleChecked: lambda n, e: f"{n.name(e.combatant)} morale: {e.total} (+{e.bonus}) vs {e.needed} - "
    + ("holds" if e.holds else "breaks"),
}
