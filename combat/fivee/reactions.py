"""Reaction windows as a phase: `reaction`, between a trigger and what it leads to.

The engine opens a window (combat/fivee/reaction_windows.py says when, and who may react with
what); in it the fight waits: no attack, no turn ends, only the reactions offered (`react`,
`pass_reaction`, or the spell's own `cast_spell`), the GM's rulings and edits, and the GM's
`close_reaction_window`. It closes once every creature offered a reaction has reacted or
passed, once a reaction settles the trigger (the hit turned into a miss, the spell
countered), or when the GM closes it; then what it held goes on:

- a hit: "Shield ... +5 bonus to AC, including against the triggering attack": the hit's total
  is set against the AC it now faces, and a total below it misses (`AttackDeflected`; a
  Critical Hit "hits regardless of any modifiers or the target's AC"). Still a hit, its damage
  is rolled as the attack was sent (its damage faces, or the service's dice), or waits for
  `roll_damage` when only the to-hit faces were entered. Uncanny Dodge halves it.
- a spell: Counterspell: "The creature makes a Constitution saving throw. On a failed save, the
  spell dissipates with no effect, and the action, Bonus Action, or Reaction used to cast it is
  wasted. If that spell was cast with a spell slot, the slot isn't expended"
  (`SpellCountered`); otherwise the spell takes effect.
- damage: Hellish Rebuke at the creature that dealt it; nothing else waits.

A window is an event like any other: an undo or amendment re-checks it (the creatures it
offered a reaction to may no longer have one) and what was done in it.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

import msgspec

from combat.common.effect_bonuses import effect_ac_bonus
from combat.common.rider_reads import armor_class
from combat.fivee.action_events import ReactionTaken
from combat.fivee.actions import require_reaction
from combat.fivee.attack_commands import RollDamage
from combat.fivee.casts import CastSpell, caster_of
from combat.fivee.characters import character, with_character
from combat.fivee.damage_rolls import roll_pending_damage
from combat.fivee.group_saves import resolve_save_effect
from combat.fivee.held_open import ReactionWindow, halved_hits_of, pending_damage_of, reaction_window_of
from combat.fivee.reaction_windows import (
    COUNTERSPELL,
    UNCANNY_DODGE,
    ReactionWindowOpened,
    block_hit_reactions,
    can_open,
    castable,
    damage_reactors,
    damage_taken,
    hit_options,
    open_damage_window,
    open_spell_window,
    spell_reactors,
)
from combat.fivee.spellcasting import Begun, begin_cast, resolve_cast
from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.phases import PhaseTable, Step
from combat.kernel.state import EncounterState, holding
from combat.spells import library

__all__ = [
    "React",
    "PassReaction",
    "CloseReactionWindow",
    "ReactionPassed",
    "ReactionWindowClosed",
    "AttackDeflected",
    "HitHalved",
    "SpellCountered",
    "WINDOW",
    "with_window",
    "with_windows",
    "RULES",
]

WINDOW = "reaction"  # the phase


class React(Command, frozen=True, kw_only=True):
    """Take a reaction the open window offers: a feature (Uncanny Dodge), a stat block's
    reaction (Parry), or a spell by name (Shield, Counterspell, Hellish Rebuke: the same as
    `cast_spell` with its defaults, aimed at the window's attacker, caster or damager)."""

    combatant: str
    reaction: str  # one the window lists for this combatant (its `reactors`)
    save_faces: dict[str, tuple[int, ...]] = {}  # Counterspell's or Hellish Rebuke's save, by id (the GM's)
    damage_faces: tuple[tuple[int, ...], ...] = ()  # Hellish Rebuke's damage roll
    gm_fields: ClassVar[tuple[str, ...]] = ("save_faces",)


class PassReaction(Command, frozen=True, kw_only=True):
    """Let the window's moment go by without reacting."""

    combatant: str


class CloseReactionWindow(Command, frozen=True, kw_only=True):
    """The GM closes the window: everyone who has not reacted passes."""

    gm_only: ClassVar[bool] = True
    reason: str = ""


class ReactionPassed(Event, frozen=True, kw_only=True):
    combatant: str
    hidden: ClassVar[Hidden] = PUBLIC


class ReactionWindowClosed(Event, frozen=True, kw_only=True):
    kind: str
    reason: str
    hidden: ClassVar[Hidden] = PUBLIC


class AttackDeflected(Event, frozen=True, kw_only=True):
    """A hit turned into a miss by a reaction before its damage: its damage never comes."""

    attacker: str
    target: str
    attack: str | None
    total: int
    target_ac: int | None  # the AC it now faces
    reaction: str
    hidden: ClassVar[Hidden] = Hidden.of(target=("target_ac",), attacker=("attack",), aloud=("total",))


class HitHalved(Event, frozen=True, kw_only=True):
    """Uncanny Dodge: the pending hit's damage is halved (round down) when it is rolled."""

    attacker: str
    target: str
    hidden: ClassVar[Hidden] = PUBLIC


class SpellCountered(Event, frozen=True, kw_only=True):
    """The spell dissipates with no effect; its slot is given back."""

    caster: str
    spell: str
    by: str
    slot: int | None = None
    pact: bool = False
    hidden: ClassVar[Hidden] = Hidden.of(caster=("slot", "pact"))


# -- the window and who answers it ---------------------------------------------------------


def _window(tx: Tx) -> ReactionWindow:
    window = reaction_window_of(tx.state)
    if window is None:
        raise RuleError("reaction/no-window", "no reaction window is open", allowed="use_reaction for a reaction the GM rules on")
    return window


def _waiting(window: ReactionWindow) -> list[str]:
    return [cid for cid in window.reactors if cid not in window.answered]


def _offered(tx: Tx, window: ReactionWindow, combatant: str, reaction: str) -> str:
    """The option `reaction` names, as the window lists it for `combatant`."""
    tx.combatant(combatant)
    if combatant not in _waiting(window):
        raise RuleError(
            "reaction/not-offered",
            f"{tx.state.combatants[combatant].name} has no reaction to take now ({window.trigger})",
            allowed=", ".join(f"{cid}: {', '.join(window.reactors[cid])}" for cid in _waiting(window)) or "close_reaction_window",
        )
    for option in window.reactors[combatant]:
        if option.lower() == reaction.strip().lower():
            return option
    raise RuleError(
        "reaction/not-offered",
        f"{tx.state.combatants[combatant].name} may react to this ({window.trigger}) with {', '.join(window.reactors[combatant])}, not {reaction}",
        allowed=", ".join(window.reactors[combatant]) + ", or pass_reaction",
    )


def _react(tx: Tx, cmd: React) -> None:
    window = _window(tx)
    option = _offered(tx, window, cmd.combatant, cmd.reaction)
    if _is_spell(option):
        _cast_in_window(
            tx, CastSpell(caster=cmd.combatant, spell=option, save_faces=cmd.save_faces, damage_faces=cmd.damage_faces)
        )
        return
    c = tx.combatant(cmd.combatant)
    require_reaction(c)
    if option == UNCANNY_DODGE:
        tx.emit(ReactionTaken(combatant=c.id, description=f"{UNCANNY_DODGE}: halves the attack's damage"))
        assert window.source is not None
        tx.emit(HitHalved(attacker=window.source, target=c.id))
        _settle(tx)
        return
    bonus = block_hit_reactions(tx.state, c, bool(window.held and window.held.get("melee"))).get(option)
    tx.emit(ReactionTaken(combatant=c.id, description=option + (f": +{bonus} AC against this attack" if bonus else "")))
    _settle(tx, extra_ac=bonus or 0, by=option)


def _is_spell(option: str) -> bool:
    try:
        library.find(option)
    except RuleError:
        return False
    return True


def _pass(tx: Tx, cmd: PassReaction) -> None:
    window = _window(tx)
    c = tx.combatant(cmd.combatant)
    if c.id not in _waiting(window):
        raise RuleError(
            "reaction/not-offered",
            f"{c.name} has no reaction to pass on now",
            allowed=", ".join(_waiting(window)) or "close_reaction_window",
        )
    tx.emit(ReactionPassed(combatant=c.id))
    _settle(tx)


def _close(tx: Tx, cmd: CloseReactionWindow) -> None:
    _window(tx)
    _settle(tx, closing=cmd.reason or "closed by the GM")


# -- casting in and around a window ----------------------------------------------------------


def _cast(tx: Tx, cmd: CastSpell) -> None:
    """`cast_spell`: in a window, a reaction it offers; otherwise the spell, held in a window
    while creatures of another side could Counterspell it."""
    if reaction_window_of(tx.state) is not None:
        _cast_in_window(tx, cmd)
        return
    begun = begin_cast(tx, cmd)
    if begun is None:
        return
    reactors = spell_reactors(tx.state, cmd.caster) if can_open(tx) else {}
    if reactors:
        held = {"command": msgspec.to_builtins(cmd), "begun": msgspec.to_builtins(begun)}
        open_spell_window(tx, cmd.caster, begun.spell, reactors, held)
        return
    resolve_cast(tx, cmd, begun)


def _cast_in_window(tx: Tx, cmd: CastSpell) -> None:
    window = _window(tx)
    option = _offered(tx, window, cmd.caster, library.find(cmd.spell).name)
    spell = library.find(option)
    if not cmd.targets and spell.range != "self":
        target = window.source
        if window.kind == "damage" and window.held:
            target = window.held["sources"].get(cmd.caster, target)
        cmd = msgspec.structs.replace(cmd, targets=(target,) if target else ())
    if option == COUNTERSPELL and window.kind == "spell":
        _counter(tx, cmd, window)
        return
    begun = begin_cast(tx, cmd)
    if begun is not None:
        resolve_cast(tx, cmd, begun)
    _settle(tx, by=option)


def _counter(tx: Tx, cmd: CastSpell, window: ReactionWindow) -> None:
    """Counterspell: the caster's Constitution save against the counterspeller's spell save DC."""
    assert window.source is not None and window.held is not None
    cmd = msgspec.structs.replace(cmd, targets=(window.source,))
    begin_cast(tx, cmd, automated=True)
    c = tx.combatant(cmd.caster)
    dc = caster_of(tx.state, c).save_dc
    saves = resolve_save_effect(tx, c.id, (window.source,), "constitution", dc, faces_by_target=cmd.save_faces, what=COUNTERSPELL)
    countered = not saves[window.source].success
    if countered:
        begun = msgspec.convert(window.held["begun"], Begun)
        tx.emit(SpellCountered(caster=window.source, spell=begun.spell, by=c.id, slot=begun.slot, pact=begun.pact))
    _settle(tx, by=COUNTERSPELL, countered=countered)


# -- closing ---------------------------------------------------------------------------------


def _settle(tx: Tx, *, extra_ac: int = 0, by: str = "", countered: bool = False, closing: str | None = None) -> None:
    """After an answer: turn a hit into a miss if it no longer meets the AC, close the window
    when nobody is left to answer or nothing is left to answer, and let through what it held."""
    window = reaction_window_of(tx.state)
    if window is None:
        return
    resolved = countered
    if window.kind == "hit":
        resolved = _deflected(tx, window, extra_ac, by)
    if closing is None:
        if resolved:
            closing = "the attack missed" if window.kind == "hit" else "the spell was countered"
        elif not _waiting(reaction_window_of(tx.state) or window):
            closing = "everyone reacted or passed"
        else:
            return
    tx.emit(ReactionWindowClosed(kind=window.kind, reason=closing))
    tx.move_to("reaction_window_closed")
    if resolved:
        return
    held = window.held or {}
    if window.kind == "hit" and not held.get("later") and any(p.attacker == window.source for p in pending_damage_of(tx.state)):
        extra = held.get("extra_faces") or []
        entered = tuple(tuple(f) for f in extra) if extra and all(f is not None for f in extra) else ()
        faces = held.get("damage_faces")
        roll_pending_damage(
            tx,
            RollDamage(
                attacker=window.source or "",
                faces=tuple(faces) if faces is not None else None,
                extra_faces=entered,
                resistance_faces={k: tuple(v) for k, v in (held.get("resistance_faces") or {}).items()},
            ),
        )
    elif window.kind == "spell":
        resolve_cast(tx, msgspec.convert(held["command"], CastSpell), msgspec.convert(held["begun"], Begun))


def _deflected(tx: Tx, window: ReactionWindow, extra_ac: int, by: str) -> bool:
    """Whether the pending hit now misses: its total against the AC as the reaction left it."""
    pending = next((p for p in pending_damage_of(tx.state) if p.attacker == window.source), None)
    if pending is None or pending.critical:
        return False
    target = tx.state.combatants[pending.target]
    held = window.held or {}
    raw = held.get("ac_raw", pending.target_ac) + effect_ac_bonus(target) - held.get("ac_effects", 0) + extra_ac
    ac = armor_class(target, raw)  # Barkskin: "an Armor Class of 17 if its AC is lower than that"
    if pending.total >= ac:
        return False
    tx.emit(
        AttackDeflected(
            attacker=pending.attacker,
            target=pending.target,
            attack=pending.attack,
            total=pending.total,
            target_ac=ac,
            reaction=by,
        )
    )
    return True


# -- appliers --------------------------------------------------------------------------------


def _on_opened(state: EncounterState, e: ReactionWindowOpened) -> EncounterState:
    window = ReactionWindow(
        kind=e.kind, trigger=e.trigger, reactors=e.reactors, source=e.source, subject=e.subject, held=e.held or {}
    )
    return holding(state, reaction_window=window)


def _answered(state: EncounterState, combatant: str) -> EncounterState:
    window = reaction_window_of(state)
    if window is None or combatant not in window.reactors or combatant in window.answered:
        return state
    return holding(state, reaction_window=msgspec.structs.replace(window, answered=(*window.answered, combatant)))


def _on_passed(state: EncounterState, e: ReactionPassed) -> EncounterState:
    return _answered(state, e.combatant)


def _on_reaction_taken(state: EncounterState, e: ReactionTaken) -> EncounterState:
    return _answered(state, e.combatant)


def _on_closed(state: EncounterState, e: ReactionWindowClosed) -> EncounterState:
    return holding(state, reaction_window=None)


def _on_deflected(state: EncounterState, e: AttackDeflected) -> EncounterState:
    return holding(
        state,
        pending_damage=tuple(p for p in pending_damage_of(state) if p.attacker != e.attacker),
        halved_hits=tuple(a for a in halved_hits_of(state) if a != e.attacker),
    )


def _on_halved(state: EncounterState, e: HitHalved) -> EncounterState:
    return holding(state, halved_hits=(*halved_hits_of(state), e.attacker))


def _on_countered(state: EncounterState, e: SpellCountered) -> EncounterState:
    held = character(state, e.caster)
    if held is None or e.slot is None:
        return state
    # "the slot isn't expended": nor is it this turn's one slot (one_slot_per_turn's slot_turn)
    if e.pact:
        return with_character(state, e.caster, pact_spent=max(0, held.pact_spent - 1), slot_turn=None)
    spent = list(held.slots_spent)
    if e.slot <= len(spent) and spent[e.slot - 1] > 0:
        spent[e.slot - 1] -= 1
    return with_character(state, e.caster, slots_spent=tuple(spent), slot_turn=None)


# -- re-checks after a changed past ----------------------------------------------------------


def _check_opened(state: EncounterState, e: ReactionWindowOpened, context: dict[str, Any]) -> str | None:
    """Each creature offered a reaction must still have it, as the past now stands."""
    for cid, options in e.reactors.items():
        c = state.combatants.get(cid)
        if c is None:
            return f"{cid} is no longer in the fight to react"
        if e.kind == "hit":
            now = hit_options(state, c, bool(e.held and e.held.get("melee")))
        elif e.kind == "spell":
            now = (COUNTERSPELL,) if cid in spell_reactors(state, e.source or "") else ()
        else:
            now = (
                tuple(o for o in options if castable(state, c, o))
                if cid in damage_reactors(state, [(cid, e.source or "")])
                else ()
            )
        lost = [o for o in options if o not in now]
        if lost:
            return f"{c.name} can no longer react with {', '.join(lost)}"
    return None


def _window_open(what: str) -> Callable[[EncounterState, Any, dict[str, Any]], str | None]:
    def check(state: EncounterState, e: Any, context: dict[str, Any]) -> str | None:
        return None if reaction_window_of(state) is not None else f"{what}, but no reaction window is open"

    return check


def _check_deflected(state: EncounterState, e: AttackDeflected, context: dict[str, Any]) -> str | None:
    pending = next((p for p in pending_damage_of(state) if p.attacker == e.attacker), None)
    if pending is None:
        return "no hit of this attacker waits for its damage any more"
    if e.target_ac is not None and pending.total >= e.target_ac:
        return f"the attack's {pending.total} now meets AC {e.target_ac}"
    return None


# -- the phase table and the flow ------------------------------------------------------------


def with_window(phases: PhaseTable) -> PhaseTable:
    """`phases` with the `reaction` phase: opened from the turns, where the window's answers,
    the rulings and the GM's edits are allowed, closed back to the turns."""
    steps = []
    for step in phases.steps:
        anytime = "setup" in step.sources and "turns" in step.sources
        if step.trigger == "ruling" or anytime:
            step = Step(step.trigger, (*step.sources, WINDOW), step.dest, step.automatic)
        steps.append(step)
    steps += [
        Step("open_reaction_window", ("turns",), WINDOW, automatic=True),
        Step("react", (WINDOW,)),
        Step("pass_reaction", (WINDOW,)),
        Step("cast_spell", (WINDOW,)),
        Step("close_reaction_window", (WINDOW,)),
        Step("reaction_window_closed", (WINDOW,), "turns", automatic=True),
    ]
    return PhaseTable(phases.name, (*phases.phases, WINDOW), steps, phases.initial)


def with_windows(flow: Callable[[Tx], None]) -> Callable[[Tx], None]:
    """The ruleset's flow, then a window for the damage this command dealt to a creature that
    could answer it (Hellish Rebuke), once no other window is open."""

    def run(tx: Tx) -> None:
        flow(tx)
        if not can_open(tx):
            return
        since = max(
            (i for i, e in enumerate(tx.events) if isinstance(e, (ReactionWindowOpened, ReactionWindowClosed))), default=-1
        )
        sources = damage_reactors(tx.state, damage_taken(tx.events[since + 1 :]))
        if sources:
            open_damage_window(tx, sources)

    return run


# -- narration -------------------------------------------------------------------------------


def _narrate_opened(n: Any, e: ReactionWindowOpened) -> str:
    offered = "; ".join(f"{n.name(cid)}: {', '.join(options) or 'a reaction'}" for cid, options in e.reactors.items())
    return f"{e.trigger}: reactions? ({offered})"


def _narrate_closed(n: Any, e: ReactionWindowClosed) -> str:
    return f"reactions done: {e.reason}"


def _narrate_deflected(n: Any, e: AttackDeflected) -> str:
    ac = "" if e.target_ac is None else f" against AC {e.target_ac}"
    return f"{n.name(e.attacker)}'s hit on {n.name(e.target)} misses after {e.reaction}: {e.total}{ac}"


def _narrate_countered(n: Any, e: SpellCountered) -> str:
    return f"{n.name(e.caster)}'s {e.spell} is countered by {n.name(e.by)}" + (", its slot not expended" if e.slot else "")


RULES = Rules(
    handlers={React: _react, PassReaction: _pass, CloseReactionWindow: _close, CastSpell: _cast},
    appliers={
        ReactionWindowOpened: _on_opened,
        ReactionPassed: _on_passed,
        ReactionWindowClosed: _on_closed,
        AttackDeflected: _on_deflected,
        HitHalved: _on_halved,
        SpellCountered: _on_countered,
    },
    after={ReactionTaken: (_on_reaction_taken,)},
    checks={
        ReactionWindowOpened: _check_opened,
        ReactionPassed: _window_open("a creature passed on its reaction"),
        HitHalved: _window_open("a hit was halved"),
        SpellCountered: _window_open("a spell was countered"),
        AttackDeflected: _check_deflected,
    },
    narration={
        ReactionWindowOpened: _narrate_opened,
        ReactionPassed: lambda n, e: f"{n.name(e.combatant)} lets the moment pass",
        ReactionWindowClosed: _narrate_closed,
        AttackDeflected: _narrate_deflected,
        HitHalved: lambda n, e: f"{n.name(e.target)} halves the damage of {n.name(e.attacker)}'s hit",
        SpellCountered: _narrate_countered,
    },
)
