"""Reaction windows, opened: who may react when, and with what (combat/fivee/reactions.py
holds the commands that answer a window and what closing it lets through).

- A hit, before its damage: the target, with Shield ("which you take when you are hit by an
  attack roll": "+5 bonus to AC, including against the triggering attack"), Uncanny Dodge
  ("When an attacker that you can see hits you with an attack roll, you can take a Reaction
  to halve the attack's damage against you"), and its stat block's reactions to being hit
  (Parry: "adds 2 to its AC against one melee attack that would hit it").
- A spell being cast: every creature of another side with Counterspell ("which you take when
  you see a creature within 60 feet of yourself casting a spell").
- Damage taken from a creature: the damaged creature with Hellish Rebuke ("in response to
  taking damage from a creature that you can see within 60 feet of yourself").

A creature is offered a spell it has prepared (a sheet's `spells`) with a slot of its level
or higher left, or one its stat block casts: at will, per day with a use left, or through a
reaction that casts it (a Mage's Protective Magic: "casts Counterspell or Shield ... 3/Day").
Sight and distance are the GM's: a creature offered a reaction it could not take passes.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any, ClassVar, Literal

import msgspec

from combat.bestiary.model import BlockAction, StatBlock
from combat.common.effect_bonuses import effect_ac_bonus
from combat.common.events import DamageTaken
from combat.fivee.actions import require_reaction
from combat.fivee.attack_events import AttackDamageRolled, AttackMade, AttackRolled
from combat.fivee.characters import character
from combat.fivee.held_open import reaction_window_of
from combat.fivee.monster_uses import UseSpent, require_use
from combat.fivee.monsters import sheet as block_sheet
from combat.kernel.decider import Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import Hidden, Judge, blank
from combat.kernel.state import Combatant, EncounterState
from combat.spells import library

__all__ = [
    "SHIELD",
    "COUNTERSPELL",
    "HELLISH_REBUKE",
    "UNCANNY_DODGE",
    "ReactionWindowOpened",
    "reaction_spells",
    "spend_reaction_use",
    "castable",
    "hit_options",
    "hit_reactors",
    "spell_reactors",
    "damage_reactors",
    "open_hit_window",
    "open_spell_window",
    "open_damage_window",
    "can_open",
]

SHIELD, COUNTERSPELL, HELLISH_REBUKE, UNCANNY_DODGE = "Shield", "Counterspell", "Hellish Rebuke", "Uncanny Dodge"
Kind = Literal["hit", "spell", "damage"]


def _redact_opened(event: ReactionWindowOpened, judge: Judge) -> ReactionWindowOpened:
    """A hidden creature's reactions are its stat block's; what a hidden source's attack or
    spell holds back (its dice) is the GM's."""
    reactors = {cid: (() if judge.hidden(cid) else options) for cid, options in event.reactors.items()}
    shown = msgspec.structs.replace(event, reactors=reactors)
    return blank(shown, ["held"]) if event.source is not None and judge.hidden(event.source) else shown


class ReactionWindowOpened(Event, frozen=True, kw_only=True):
    """The fight waits: `reactors` may each react with one of their options or pass."""

    kind: Kind
    trigger: str
    reactors: dict[str, tuple[str, ...]]
    source: str | None = None  # the attacker, the caster, the creature that dealt the damage
    subject: str | None = None  # the creature hit or damaged
    # What waits: a hit's damage faces entered with it ("later": none, roll_damage brings
    # them), the spell's whole command; for damage, each reactor's source.
    held: dict[str, Any] | None = None
    hidden: ClassVar[Hidden] = Hidden.custom(_redact_opened, covers=("reactors", "held"))


def reaction_spells(block: StatBlock) -> dict[str, BlockAction]:
    """The spells a stat block's reactions cast ("The mage casts Counterspell or Shield in
    response to the spell's trigger"), each with the reaction that casts it."""
    found: dict[str, BlockAction] = {}
    for entry in block.reactions:
        match = re.search(r"\bcasts (.+?)(?: in response| using|[.;])", entry.text)
        if match:
            for name in re.split(r",? or |, ", match.group(1)):
                try:
                    found[library.find(name.strip()).name] = entry
                except RuleError:  # words that name no SRD spell
                    continue
    return found


def spend_reaction_use(tx: Tx, c: Combatant, spell: str) -> None:
    """A spell a stat block casts only through a reaction spends a use of that reaction
    (Protective Magic, 3/Day); one it also casts at will or per day spends nothing here."""
    s = block_sheet(tx.state, c.id)
    casting = s.block.spellcasting if s is not None else None
    if s is None or (casting is not None and spell.lower() in {n.lower() for n in (*casting.at_will, *casting.per_day)}):
        return
    entry = reaction_spells(s.block).get(spell)
    if entry is None:
        return
    require_use(c, s, entry.name)
    if s.block.limited(entry.name) is not None:
        tx.emit(UseSpent(combatant=c.id, action=entry.name))


def _may_react(c: Combatant) -> bool:
    try:
        require_reaction(c)
    except RuleError:
        return False
    return c.status == "active"


def castable(state: EncounterState, c: Combatant, spell: str) -> bool:
    """Whether `c` could cast `spell` now, as far as its sheet or stat block goes: prepared
    with a slot of its level or higher left, or listed with a use left."""
    level = library.find(spell).level
    held = character(state, c.id)
    if held is not None:
        casting = held.sheet.spellcasting
        if casting is None or spell.lower() not in {s.lower() for s in casting.spells}:
            return False
        spent = list(held.slots_spent) + [0] * 9
        slots = any(have > spent[i] for i, have in enumerate(casting.slots) if i + 1 >= level)
        pact = casting.pact_slots > held.pact_spent and casting.pact_level >= level
        return slots or pact
    s = block_sheet(state, c.id)
    if s is None:
        return False
    listed = s.block.spellcasting
    if listed is not None:
        if spell.lower() in {n.lower() for n in listed.at_will}:
            return True
        per_day = {n.lower(): n for n in listed.per_day}
        if spell.lower() in per_day:
            name = per_day[spell.lower()]
            return s.used_today.get(f"spell: {name}", 0) < listed.per_day[name]
    entry = reaction_spells(s.block).get(library.find(spell).name)
    if entry is None:
        return False
    limited = s.block.limited(entry.name)
    return limited is None or limited.per_day is None or s.used_today.get(entry.name, 0) < limited.per_day


_HIT_TRIGGER = re.compile(r"hit by an? (melee |ranged )?attack roll|attack roll hits|attack that would hit it", re.I)
_AC_BONUS = re.compile(r"adds (\d+) to (?:its|their) AC", re.I)


def block_hit_reactions(state: EncounterState, c: Combatant, melee: bool) -> dict[str, int | None]:
    """A stat block's reactions to being hit, by name, each with the AC it adds against the
    attack (Parry: 2) or None when its effect is the GM's (Redirect Attack)."""
    s = block_sheet(state, c.id)
    if s is None:
        return {}
    found: dict[str, int | None] = {}
    for entry in s.block.reactions:
        trigger = _HIT_TRIGGER.search(entry.text)
        if trigger is None or entry.name == UNCANNY_DODGE:
            continue
        if "melee" in entry.text.split("Response")[0].lower() and not melee:
            continue
        limited = s.block.limited(entry.name)
        if limited is not None and limited.per_day is not None and s.used_today.get(entry.name, 0) >= limited.per_day:
            continue
        bonus = _AC_BONUS.search(entry.text)
        found[entry.name] = int(bonus.group(1)) if bonus else None
    return found


def _has_uncanny_dodge(state: EncounterState, c: Combatant) -> bool:
    held = character(state, c.id)
    if held is not None:
        named = {r.name.lower() for r in held.sheet.resources}  # a sheet written before the feature was data
        return held.sheet.features.uncanny_dodge or UNCANNY_DODGE.lower() in named
    s = block_sheet(state, c.id)
    if s is None:
        return False
    return any(e.name == UNCANNY_DODGE for e in s.block.reactions) or any(t.name == UNCANNY_DODGE for t in s.block.traits)


def hit_options(state: EncounterState, target: Combatant, melee: bool) -> tuple[str, ...]:
    """What `target` may react with once an attack hits it, before the damage."""
    if not _may_react(target):
        return ()
    options = [SHIELD] if castable(state, target, SHIELD) else []
    if _has_uncanny_dodge(state, target):
        options.append(UNCANNY_DODGE)
    options += [name for name in block_hit_reactions(state, target, melee) if name not in options]
    return tuple(options)


def hit_reactors(tx: Tx, attacker: Combatant, target: Combatant, melee: bool) -> dict[str, tuple[str, ...]]:
    if not can_open(tx) or target.id == attacker.id:
        return {}
    options = hit_options(tx.state, target, melee)
    return {target.id: options} if options else {}


def spell_reactors(state: EncounterState, caster: str) -> dict[str, tuple[str, ...]]:
    """Every creature of another side that could Counterspell the spell `caster` casts."""
    side = state.combatants[caster].side
    return {
        c.id: (COUNTERSPELL,)
        for c in state.combatants.values()
        if c.id != caster and c.side != side and _may_react(c) and castable(state, c, COUNTERSPELL)
    }


def damage_taken(events: Iterable[Event]) -> list[tuple[str, str]]:
    """(damaged, by whom) for each blow of a creature in `events` that dealt damage."""
    dealt = []
    for e in events:
        if isinstance(e, (AttackMade, AttackDamageRolled)) and e.damage > 0:
            dealt.append((e.target, e.attacker))
        elif isinstance(e, DamageTaken) and e.amount > 0 and e.source is not None:
            dealt.append((e.target, e.source))
    return dealt


def damage_reactors(state: EncounterState, dealt: Iterable[tuple[str, str]]) -> dict[str, str]:
    """Each creature that could answer damage from a creature with Hellish Rebuke, and that
    creature (the first to damage it in the command)."""
    sources: dict[str, str] = {}
    for target, source in dealt:
        c, by = state.combatants.get(target), state.combatants.get(source)
        if c is None or by is None or source == target or by.status == "dead" or target in sources:
            continue
        if _may_react(c) and castable(state, c, HELLISH_REBUKE):
            sources[target] = source
    return sources


def can_open(tx: Tx) -> bool:
    """Windows open in a ruleset whose phase table has them, from its turns, one at a time."""
    return reaction_window_of(tx.state) is None and tx.ruleset.phases.allows(tx.state.phase, "open_reaction_window")


def _name(state: EncounterState, cid: str) -> str:
    return state.combatants[cid].name if cid in state.combatants else cid


def _open(tx: Tx, event: ReactionWindowOpened) -> None:
    tx.move_to("open_reaction_window")
    tx.emit(event)


def open_hit_window(
    tx: Tx,
    pending: AttackRolled,
    reactors: dict[str, tuple[str, ...]],
    *,
    later: bool,
    damage_faces: tuple[int, ...] | None,
    extra_faces: list[tuple[int, ...] | None],
    melee: bool,
    raw_ac: int | None = None,
    resistance_faces: dict[str, tuple[int, ...]] | None = None,
) -> None:
    """The hit's damage waits (the 5e state's `pending_damage`) while its target may react. `raw_ac`: its AC
    before a floor raised it (Barkskin's 17), kept so a reaction's bonus adds to that."""
    target = tx.state.combatants[pending.target]
    held: dict[str, Any] = {
        "later": later,
        "damage_faces": damage_faces,
        "extra_faces": extra_faces,
        "melee": melee,
        "ac_effects": effect_ac_bonus(target),
    }
    if raw_ac is not None and raw_ac != pending.target_ac:
        held["ac_raw"] = raw_ac
    if resistance_faces:
        held["resistance_faces"] = resistance_faces  # a Resistance spell's d4, rolled as the damage lands
    trigger = f"{_name(tx.state, pending.attacker)} hits {target.name}"
    _open(
        tx,
        ReactionWindowOpened(
            kind="hit", trigger=trigger, reactors=reactors, source=pending.attacker, subject=target.id, held=held
        ),
    )


def open_spell_window(tx: Tx, caster: str, spell: str, reactors: dict[str, tuple[str, ...]], held: dict[str, Any]) -> None:
    """The spell's effect waits while creatures who could interrupt it decide."""
    trigger = f"{_name(tx.state, caster)} is casting {spell}"
    _open(tx, ReactionWindowOpened(kind="spell", trigger=trigger, reactors=reactors, source=caster, held=held))


def open_damage_window(tx: Tx, sources: dict[str, str]) -> None:
    first = next(iter(sources))
    trigger = f"{_name(tx.state, sources[first])} damaged " + ", ".join(_name(tx.state, t) for t in sources)
    _open(
        tx,
        ReactionWindowOpened(
            kind="damage",
            trigger=trigger,
            reactors=dict.fromkeys(sources, (HELLISH_REBUKE,)),
            source=sources[first],
            subject=first,
            held={"sources": sources},
        ),
    )
