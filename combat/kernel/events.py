"""Events: what happened at the table, in the past tense.

Each event is a frozen msgspec Struct tagged by its class name in the `type` field. Their
JSON is the public interchange format; field names here are a contract with other tools,
so a change of meaning is a new event type, never a reinterpretation of old logs.

These are the events the framework and the rulesets with hit points and conditions share; a
ruleset's own events live beside its rules (the 5e family's in combat/fivee: attacks, actions,
initiative ties, checks, the GM's edits...) and reach the public union through its `Ruleset`
(combat/app/catalog.py). A type's module is no part of its JSON: moving one changes no stored byte.
"""

from __future__ import annotations

from typing import Any, ClassVar, Literal
from uuid import UUID

import msgspec

from combat.kernel.dice import DieFace
from combat.kernel.hidden import PUBLIC, UNDECLARED, Hidden, Judge, blank
from combat.kernel.riders import Riders

__all__ = [
    "Event",
    "EVENT_TYPES",
    "AttackProfile",
    "CombatantSpec",
    "ConditionSpec",
    "RepeatedSave",
    "SHEET_FIELDS",
    "HIDDEN_CONDITION",
    "CONDITION_NUMBERS",
]


class Event(msgspec.Struct, frozen=True, kw_only=True, tag=True, tag_field="type", gc=False):
    """Base of every event; the concrete class name is its `type`.

    Events hold only data, never a reference back to anything that holds them, so they can
    form no cycle: `gc=False` keeps a long log's thousands of them out of the cyclic garbage
    collector, whose passes over a loaded log were most of a long replay's time.

    `hidden` says what a player or viewer sees of the event when a combatant it concerns is
    hidden from them (combat/kernel/hidden.py): every concrete event type declares its own.
    `moves_turn`: the event says the GM moved the turn out of order, to its `combatant`, so the
    `TurnStarted` that follows is the GM's choice (the checks of a changed past read it,
    combat/app/history.py; the 5e family's `TurnMoved` declares it)."""

    hidden: ClassVar[Hidden] = UNDECLARED
    moves_turn: ClassVar[bool] = False


# -- value objects carried inside events ---------------------------------------------------


class AttackProfile(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A named attack from a stat block: `Scimitar: +4 to hit, reach 5 ft, 1d6+2 slashing`."""

    name: str
    bonus: int
    damage: str
    damage_type: str
    kind: Literal["melee", "ranged"] = "melee"
    reach: int = 5
    normal_range: int | None = None
    long_range: int | None = None


class CombatantSpec(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A character or monster as the GM enters it at set-up."""

    id: str
    name: str
    kind: Literal["pc", "monster"]
    side: str
    max_hp: int
    ac: int
    initiative_bonus: int = 0
    speed: int = 30
    size: Literal["tiny", "small", "medium", "large", "huge", "gargantuan"] = "medium"
    hp: int | None = None
    group: str | None = None
    player: str | None = None
    con_save: int = 0
    attacks: tuple[AttackProfile, ...] = ()
    attacks_per_action: int = 1
    resistances: tuple[str, ...] = ()
    vulnerabilities: tuple[str, ...] = ()
    immunities: tuple[str, ...] = ()


class RepeatedSave(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """ "At the end of each of its turns, the target repeats the save, ending the spell on
    itself on a success" (Hold Person): the ability (in full, lower case) and the DC."""

    ability: str
    dc: int  # None as a player reads a hidden caster's (projections/redaction.py)


class ConditionSpec(msgspec.Struct, frozen=True, kw_only=True, gc=False):
    """A condition and when it ends: at the start or end of a named creature's turn, or never.

    `end` is the next end of that creature's turn (this one, during its turn); `end of next
    turn` is "until the end of its next turn": given during that creature's own turn it
    outlasts this turn and becomes `end` as the next one starts.

    Lasting effects (the 5e family, combat/common/durations.py); each is optional and, left
    out, absent from the JSON, so a condition recorded before them reads as it did:
    - `rounds`: it lasts that many rounds ("1 minute" is 10: "A round represents about 6
      seconds"), ending at the `ends` moment (the start, unless `end` is given) of `ends_on`'s
      turn in round R + `rounds`, R being the round it was applied in (round 1 before the
      fight's first round). The rules record that round as `until_round`; a command does not
      give it.
    - `concentration` (and `effect`): "until the spell ends" for a spell held by
      concentration: the id of the concentrating creature (and what it concentrates on, the
      effect it concentrates on as the condition is applied if left out). When that
      concentration ends, for whatever reason, the condition ends with it.
    - `save`: "At the end of each of its turns, the target repeats the save, ending the
      effect on itself on a success": rolled as the bearer's turn ends, with its own bonus.
    - `ac_bonus`, `roll_bonus` (and `roll_bonus_on`): what a spell's effect does while it
      lasts (combat/common/effect_bonuses.py): "+5 bonus to AC" (Shield), "adds 1d4 to the
      attack roll or save" (Bless; Bane's `-1d4`), on the rolls `roll_bonus_on` names.
    """

    name: str
    source: str | None = None
    ends: Literal["start", "end", "end of next turn"] | None = None
    ends_on: str | None = None
    # Known to the GM only (a poison the party has not noticed): players and viewers do not
    # see it on a combatant the GM has not revealed (projections/redaction.py).
    hidden: bool = False
    # The level reached, for a condition with levels (the 5e family's Exhaustion): set by the
    # rules as it is applied, never by a command. Unset, and so absent from the JSON: no levels
    # (every other condition, and Exhaustion recorded before it had levels, which had no
    # effect then and has none now, so old logs fold as they did).
    level: int | msgspec.UnsetType = msgspec.UNSET
    rounds: int | msgspec.UnsetType = msgspec.UNSET
    # Set by the rules from `rounds`: the round in which `ends_on`'s turn ends it.
    until_round: int | msgspec.UnsetType = msgspec.UNSET
    concentration: str | msgspec.UnsetType = msgspec.UNSET
    effect: str | msgspec.UnsetType = msgspec.UNSET
    save: RepeatedSave | msgspec.UnsetType = msgspec.UNSET
    ac_bonus: int | msgspec.UnsetType = msgspec.UNSET
    roll_bonus: str | msgspec.UnsetType = msgspec.UNSET
    roll_bonus_on: tuple[Literal["attack_rolls", "saving_throws", "ability_checks"], ...] | msgspec.UnsetType = msgspec.UNSET
    # What a spell's effect does while it lasts beyond AC and rolls (Mage Armor's AC, Aid's
    # Hit Points, Heroism's Temporary Hit Points...): combat/kernel/riders.py.
    riders: Riders | msgspec.UnsetType = msgspec.UNSET
    # The level of the spell it comes from, as cast (Dispel Magic's "DC 10 plus that spell's
    # level"): set by the 5e rules as a spell's casting applies it (combat/common/durations.py),
    # or by the GM applying a spell's effect by hand. Unset (conditions recorded before it, and
    # every other): Dispel Magic reads the spell's own level.
    spell_level: int | msgspec.UnsetType = msgspec.UNSET


# -- what a hidden combatant's events keep back (the `hidden` of the events below) ------------

# A combatant's sheet (CombatantSpec, and the state's Combatant) that a hidden one does not show.
SHEET_FIELDS = (
    "max_hp",
    "hp",
    "temp_hp",
    "ac",
    "attacks",
    "attacks_per_action",
    "con_save",
    "initiative_bonus",
    "resistances",
    "vulnerabilities",
    "immunities",
)
HIDDEN_CONDITION = "a hidden condition"
# What a condition does while it lasts: on a hidden creature, Shield's +5 is its AC.
CONDITION_NUMBERS = ("ac_bonus", "roll_bonus", "roll_bonus_on", "riders")


def _added(e: CombatantAdded, judge: Judge) -> CombatantAdded:
    spec = e.combatant
    if not judge.hidden(spec.id, spec.kind, spec.side):
        return e
    return msgspec.structs.replace(e, combatant=blank(spec, SHEET_FIELDS))


def _shown_spec(spec: ConditionSpec, target: str, judge: Judge) -> ConditionSpec:
    if not judge.hidden(target):
        if spec.save is not msgspec.UNSET and spec.source is not None and judge.hidden(spec.source):
            # Hold Person cast by a hidden caster: the save it repeats is its spell save DC.
            return msgspec.structs.replace(spec, save=blank(spec.save, ("dc",)))
        return spec
    if spec.hidden:  # the whole condition is the GM's: not even its name
        return ConditionSpec(name=HIDDEN_CONDITION, hidden=True)
    return msgspec.structs.replace(spec, **{f: msgspec.UNSET for f in CONDITION_NUMBERS if getattr(spec, f) is not msgspec.UNSET})


def _condition_applied(e: ConditionApplied, judge: Judge) -> ConditionApplied:
    shown = _shown_spec(e.condition, e.target, judge)
    return e if shown is e.condition else msgspec.structs.replace(e, condition=shown)


def _condition_ended(e: ConditionEnded, judge: Judge) -> ConditionEnded:
    """Judged on the state's memory of hidden conditions, not on having read the
    `ConditionApplied` before it: `/events?after=N` and a resumed stream start anywhere."""
    entry = e.entry
    if judge.hidden_condition(e.target, e.condition) or (entry is not msgspec.UNSET and entry.hidden and judge.hidden(e.target)):
        return msgspec.structs.replace(e, condition=HIDDEN_CONDITION, entry=msgspec.UNSET)  # the entry names it too
    if entry is not msgspec.UNSET:
        shown = _shown_spec(entry, e.target, judge)
        return e if shown is entry else msgspec.structs.replace(e, entry=shown)
    return e


# -- set-up and flow -----------------------------------------------------------------------


class EncounterCreated(Event, frozen=True, kw_only=True):
    ruleset: str
    name: str
    seed: int
    settings: dict[str, Any] = {}
    forked_from: str | None = None  # a what-if branch: the encounter id it was forked from
    forked_at: int | None = None  # ... and the seq of that encounter it starts from
    # The log is hash-chained from this event on (combat/app/chain.py): a row after it without
    # a hash is refused. False in logs written before hashes, which load as they did.
    chained: bool = False
    # The campaign whose characters it may add by name and whose party its outcome is
    # carried to (combat.campaigns); None: it stands alone. A practice fight of a campaign
    # adds its characters by name but carries nothing back.
    campaign: UUID | None = None
    practice: bool = False
    hidden: ClassVar[Hidden] = PUBLIC


class CombatantAdded(Event, frozen=True, kw_only=True):
    combatant: CombatantSpec
    hidden: ClassVar[Hidden] = Hidden.custom(_added)


class CombatantRemoved(Event, frozen=True, kw_only=True):
    combatant: str
    reason: str = ""
    hidden: ClassVar[Hidden] = PUBLIC


class PhaseChanged(Event, frozen=True, kw_only=True):
    previous: str
    phase: str
    hidden: ClassVar[Hidden] = PUBLIC


class SurpriseMarked(Event, frozen=True, kw_only=True):
    combatant: str
    surprised: bool
    hidden: ClassVar[Hidden] = PUBLIC


class DiceRolled(Event, frozen=True, kw_only=True):
    """Every roll: its notation, each die face, what it was for and who rolled it."""

    roller: str
    purpose: str
    notation: str
    dice: tuple[DieFace, ...]
    total: int
    source: Literal["generated", "entered"]
    hidden: ClassVar[Hidden] = Hidden.of(
        roller=("notation", "dice", "total")
    )  # its dice give its bonuses away; its total, its rolled HP


class InitiativeSet(Event, frozen=True, kw_only=True):
    """One initiative count for one combatant or for a whole group of identical creatures."""

    combatants: tuple[str, ...]
    total: int
    disadvantage: bool = False
    hidden: ClassVar[Hidden] = Hidden.said("total")


class RoundStarted(Event, frozen=True, kw_only=True):
    round: int
    hidden: ClassVar[Hidden] = PUBLIC


class RoundEnded(Event, frozen=True, kw_only=True):
    round: int
    hidden: ClassVar[Hidden] = PUBLIC


class TurnStarted(Event, frozen=True, kw_only=True):
    combatant: str
    round: int
    hidden: ClassVar[Hidden] = PUBLIC


class TurnEnded(Event, frozen=True, kw_only=True):
    combatant: str
    # previous_turn takes the turn back rather than ending it: it will come again, so what
    # ends with a creature's turn (a surprise that lasts through its first turn) does not end here.
    taken_back: bool = False
    hidden: ClassVar[Hidden] = PUBLIC


class CombatEnded(Event, frozen=True, kw_only=True):
    winner: str | None
    reason: str
    automatic: bool = False  # the rules ended it (a side was defeated), not the GM's end_combat
    hidden: ClassVar[Hidden] = PUBLIC


class RulingMade(Event, frozen=True, kw_only=True):
    """A GM's ruling in words, kept in the log for the argument afterwards."""

    text: str
    hidden: ClassVar[Hidden] = PUBLIC


# -- damage, healing, conditions, concentration, saves ---------------------------------------


class ConditionApplied(Event, frozen=True, kw_only=True):
    target: str
    condition: ConditionSpec
    custom: bool = False  # a condition the ruleset does not know: it has no mechanical effect
    hidden: ClassVar[Hidden] = Hidden.custom(_condition_applied)


class ConditionEnded(Event, frozen=True, kw_only=True):
    """`entry`: the very condition that ends, when the target may have two of one name (two
    Hold Persons, tied to two casters); left out, the first of that name ends, as it always did."""

    target: str
    condition: str
    reason: str = ""
    entry: ConditionSpec | msgspec.UnsetType = msgspec.UNSET
    hidden: ClassVar[Hidden] = Hidden.custom(_condition_ended)


# -- history: undo, amendments, overrides ---------------------------------------------------


class EventsRetracted(Event, frozen=True, kw_only=True):
    """An undo: the events at `seqs` no longer count. Retracting a retraction is a redo."""

    seqs: tuple[int, ...]
    reason: str
    hidden: ClassVar[Hidden] = PUBLIC


class RulingAmended(Event, frozen=True, kw_only=True):
    """A corrected ruling: the events at `seqs` are replaced by the events that follow this one
    in the same command, which take effect where the first of them stood."""

    seqs: tuple[int, ...]
    reason: str
    hidden: ClassVar[Hidden] = PUBLIC


class ConflictOverridden(Event, frozen=True, kw_only=True):
    """The GM lets events stand that no longer fit the rules after a change to the past."""

    seqs: tuple[int, ...]
    ruling: str
    hidden: ClassVar[Hidden] = PUBLIC


class Revealed(Event, frozen=True, kw_only=True):
    """The GM shows players and viewers the HP, AC, attacks and hidden conditions of these
    combatants, or of everyone on these sides (player characters are shown from the start)."""

    combatants: tuple[str, ...] = ()
    sides: tuple[str, ...] = ()
    hidden: ClassVar[Hidden] = PUBLIC


EVENT_TYPES: tuple[type[Event], ...] = (
    EncounterCreated,
    CombatantAdded,
    CombatantRemoved,
    PhaseChanged,
    SurpriseMarked,
    DiceRolled,
    InitiativeSet,
    RoundStarted,
    RoundEnded,
    TurnStarted,
    TurnEnded,
    CombatEnded,
    RulingMade,
    ConditionApplied,
    ConditionEnded,
    EventsRetracted,
    RulingAmended,
    ConflictOverridden,
    Revealed,
)

__all__ += [t.__name__ for t in EVENT_TYPES]
