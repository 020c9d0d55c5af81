"""Initiative: an ability check, usually Dexterity; a surprise-step check is reused; ties rolled off.

"Each participant makes an ability check to determine their place in the initiative count ...
This ability check is typically Dexterity. The Narrator might determine that one or more
participants should instead roll a different ability check, potentially utilizing a relevant
skill or tool (see Table: Types of Initiative). In the event of a tie, the tied participants
each roll a d20 to determine the order amongst themselves (the highest roll goes first.)"

"If any creatures have already made an ability check during the surprise step, they use that
existing score for initiative."
"""

from __future__ import annotations

from typing import ClassVar

import msgspec

from combat.fivee.initiative import RollInitiative, TieOrdered, units, unresolved_ties
from combat.kernel.commands import Command, Faces
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event, InitiativeSet
from combat.kernel.hidden import Hidden
from combat.kernel.state import Combatant, EncounterState, Tie, with_rules
from combat.rulesets.a5e.table import CalledCheck

__all__ = [
    "RULES",
    "ABILITIES",
    "TYPES_OF_INITIATIVE",
    "normalize_check",
    "has_initiative",
    "CallInitiativeCheck",
    "RollOff",
    "InitiativeCheckCalled",
    "SurpriseCheckReused",
    "RollOffNeeded",
    "TieRolledOff",
    "RollOffTiedAgain",
    "roll_initiative",
    "set_initiative",
]

ABILITIES = ("strength", "dexterity", "constitution", "intelligence", "wisdom", "charisma")

# Table: Types of Initiative (ability (skill or tool) -> the situation that calls for it).
TYPES_OF_INITIATIVE = {
    "dexterity": "the usual initiative check",
    "wisdom (perception)": "spotting a hidden threat",
    "strength (athletics)": "climbing a cliff during a landslide",
    "charisma (deception)": "being unassuming before suddenly taking action",
    "wisdom (insight)": "noticing when an unassuming participant is about to take action",
    "dexterity (land vehicles)": "participating in a wagon race",
}


def normalize_check(check: str) -> str:
    """`Wisdom (Perception)` -> `wisdom (perception)`; the ability must be one of the six."""
    text = " ".join(check.lower().split())
    if text.split("(")[0].strip() not in ABILITIES:
        raise RuleError(
            "check/ability",
            f"'{check}' is not an ability check",
            allowed="an ability, optionally with a skill or tool: " + ", ".join(TYPES_OF_INITIATIVE),
        )
    return text


class CallInitiativeCheck(Command, frozen=True, kw_only=True):
    """The Narrator calls for a different initiative check for one participant, e.g.
    Wisdom (Perception) +5 for the scout spotting a hidden threat."""

    gm_only: ClassVar[bool] = True  # the Narrator decides which check

    combatant: str
    check: str
    bonus: int


class RollOff(Command, frozen=True, kw_only=True):
    """Each participant (or group) of a tie rolls a d20; `faces` in the tie's listed order."""

    total: int | None = None
    faces: Faces = None


class InitiativeCheckCalled(Event, frozen=True, kw_only=True):
    combatant: str
    check: str
    bonus: int
    situation: str = ""
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("bonus",))


class SurpriseCheckReused(Event, frozen=True, kw_only=True):
    combatants: tuple[str, ...]
    check: str
    total: int
    hidden: ClassVar[Hidden] = Hidden.said("total")


class RollOffNeeded(Event, frozen=True, kw_only=True):
    total: int
    units: tuple[tuple[str, ...], ...]
    hidden: ClassVar[Hidden] = Hidden.said("total")


class RollOffTiedAgain(Event, frozen=True, kw_only=True):
    """A roll-off that left some units tied: `ranks` lists every unit from the highest d20,
    those still tied sharing a tuple. Only they roll again; the others keep their places."""

    total: int
    rolls: tuple[tuple[str, int], ...]
    ranks: tuple[tuple[str, ...], ...]
    hidden: ClassVar[Hidden] = Hidden.said("total")


class TieRolledOff(Event, frozen=True, kw_only=True):
    """The d20 each tied unit rolled; `order` is empty when the roll-off tied again."""

    total: int
    rolls: tuple[tuple[str, int], ...]
    order: tuple[str, ...] = ()
    hidden: ClassVar[Hidden] = Hidden.said("total")


def has_initiative(c: Combatant) -> str | None:
    return f"{c.name} already has initiative {c.initiative}" if c.initiative is not None else None


def _call(tx: Tx, cmd: CallInitiativeCheck) -> None:
    c = tx.combatant(cmd.combatant)
    problem = has_initiative(c)
    if problem:
        raise RuleError("initiative/already-rolled", problem, allowed="participants who have not rolled yet")
    check = normalize_check(cmd.check)
    tx.emit(InitiativeCheckCalled(combatant=c.id, check=check, bonus=cmd.bonus, situation=TYPES_OF_INITIATIVE.get(check, "")))


def roll_initiative(tx: Tx, cmd: RollInitiative) -> None:
    """Roll for the named participant's unit, or for every unit that has not rolled yet."""
    all_units = units(tx.state)
    if cmd.combatant is not None:
        lead = tx.combatant(cmd.combatant)
        if lead.initiative is not None:
            raise RuleError(
                "initiative/already-rolled",
                f"{lead.name} already has initiative {lead.initiative}",
                allowed=", ".join(u for u, m in all_units.items() if m[0].initiative is None) or "nobody left to roll",
            )
        chosen = [lead.unit]
    else:
        chosen = [u for u, m in all_units.items() if m[0].initiative is None]
        if not chosen:
            raise RuleError("initiative/all-rolled", "everyone has rolled initiative already")
        if cmd.faces is not None and len(chosen) > 1:
            raise RuleError(
                "dice/whose-faces",
                f"faces were entered but {len(chosen)} participants or groups still roll",
                allowed="name the participant whose dice were entered",
            )
    for unit in chosen:
        ids = tuple(m.id for m in all_units[unit])
        notes = tx.state.rules
        made = next((notes.surprise_checks[i] for i in ids if i in notes.surprise_checks), None)
        if made is not None:
            if cmd.faces is not None:
                raise RuleError(
                    "initiative/check-made",
                    f"{unit} already made {made.check} ({made.total}) in the surprise step; that score is its initiative",
                    allowed="no faces",
                )
            tx.emit(SurpriseCheckReused(combatants=ids, check=made.check, total=made.total))
            total = made.total
        else:
            called = notes.called_checks.get(ids[0]) or CalledCheck(
                check="dexterity", bonus=tx.state.combatants[ids[0]].initiative_bonus
            )
            # A sudden action: "the Narrator may allow the instigating creature or party to roll
            # initiative with advantage".
            die = "2d20kh1" if any(i in notes.sudden for i in ids) else "1d20"
            roll = tx.roll(f"{die}{called.bonus:+d}", purpose=f"initiative ({called.check})", roller=unit, faces=cmd.faces)
            total = roll.total
        set_initiative(tx, ids, total)


def set_initiative(tx: Tx, ids: tuple[str, ...], total: int) -> None:
    """Record a count; a tie before the rounds begin is rolled off, a late arrival acts after
    those already at its count (they may have acted this round already)."""
    tx.emit(InitiativeSet(combatants=ids, total=total))
    state = tx.state
    tied = [members for members in units(state).values() if members[0].initiative == total]
    if len(tied) < 2:
        return
    if state.round == 0:
        tx.emit(RollOffNeeded(total=total, units=tuple(tuple(m.id for m in members) for members in tied)))
        return
    settled = next((t for t in state.ties if t.total == total and t.order), None)
    if settled is not None:
        tx.emit(TieOrdered(total=total, order=settled.order + (state.combatants[ids[0]].unit,)))


def no_tie_waiting(state: EncounterState, total: int | None = None) -> str | None:
    """The problem when no tie (at `total`, when given) waits for a roll-off, else None:
    roll_off refuses with it, the re-check of a roll-off after a changed past reports it."""
    if any(total in (None, t.total) for t in unresolved_ties(state)):
        return None
    return "no tie is waiting for a roll-off" if total is None else f"no tie at {total} is waiting for a roll-off"


def _roll_off(tx: Tx, cmd: RollOff) -> None:
    open_ties = unresolved_ties(tx.state)
    tie = next((t for t in open_ties if cmd.total in (None, t.total)), None)
    problem = no_tie_waiting(tx.state, cmd.total)
    if tie is None or problem or (cmd.total is None and len(open_ties) > 1):
        raise RuleError(
            "initiative/no-tie",
            problem or "more than one tie is open",
            allowed=", ".join(f"total {t.total}" for t in open_ties) or "no open ties",
        )
    # "the tied participants each roll a d20": after a roll-off that tied again, only those still tied.
    ranks = _partial(tx.state).get(str(tie.total)) or (tuple(tx.state.combatants[u[0]].unit for u in tie.units),)
    unit_ids = [u for group in ranks if len(group) > 1 for u in group]
    if cmd.faces is not None and len(cmd.faces) != len(unit_ids):
        raise RuleError(
            "dice/whose-faces",
            f"the tie at {tie.total} needs one d20 face per participant still tied",
            allowed=f"{len(unit_ids)} faces, in this order: {', '.join(unit_ids)}",
        )
    rolled: dict[str, int] = {}
    for i, unit in enumerate(unit_ids):
        faces = None if cmd.faces is None else (cmd.faces[i],)
        rolled[unit] = tx.roll("1d20", purpose="initiative tie", roller=unit, faces=faces).total
    new_ranks: list[tuple[str, ...]] = []
    for group in ranks:
        if len(group) == 1:
            new_ranks.append(group)
            continue
        for d in sorted({rolled[u] for u in group}, reverse=True):
            new_ranks.append(tuple(u for u in group if rolled[u] == d))
    rolls = tuple((u, rolled[u]) for u in unit_ids)
    if all(len(g) == 1 for g in new_ranks):
        tx.emit(TieRolledOff(total=tie.total, rolls=rolls, order=tuple(g[0] for g in new_ranks)))
    else:
        tx.emit(RollOffTiedAgain(total=tie.total, rolls=rolls, ranks=tuple(new_ranks)))


def _on_called(state: EncounterState, e: InitiativeCheckCalled) -> EncounterState:
    called = {**state.rules.called_checks, e.combatant: CalledCheck(check=e.check, bonus=e.bonus)}
    return with_rules(state, called_checks=called)


def _on_needed(state: EncounterState, e: RollOffNeeded) -> EncounterState:
    ties = tuple(t for t in state.ties if t.total != e.total)
    return msgspec.structs.replace(state, ties=ties + (Tie(total=e.total, units=e.units, decided_by="roll-off"),))


def _on_rolled_off(state: EncounterState, e: TieRolledOff) -> EncounterState:
    ties = tuple(msgspec.structs.replace(t, order=e.order) if t.total == e.total else t for t in state.ties)
    state = msgspec.structs.replace(state, ties=ties)
    partial = _partial(state)
    if str(e.total) in partial:
        left = {k: v for k, v in partial.items() if k != str(e.total)}
        state = with_rules(state, roll_offs=left or msgspec.UNSET)
    return state


def _partial(state: EncounterState) -> dict[str, tuple[tuple[str, ...], ...]]:
    held = state.rules.roll_offs
    return {} if held is msgspec.UNSET else held


def _on_tied_again(state: EncounterState, e: RollOffTiedAgain) -> EncounterState:
    return with_rules(state, roll_offs={**_partial(state), str(e.total): e.ranks})


def _rolls(n, e: TieRolledOff) -> str:
    rolled = ", ".join(f"{n.name(u)} {d}" for u, d in e.rolls)
    if not e.order:
        return f"Roll-off at {e.total}: {rolled} - tied again, roll again"
    return f"Roll-off at {e.total}: {rolled} - {', '.join(n.name(u) for u in e.order)}"


RULES = Rules(
    handlers={RollInitiative: roll_initiative, CallInitiativeCheck: _call, RollOff: _roll_off},
    appliers={
        InitiativeCheckCalled: _on_called,
        SurpriseCheckReused: lambda state, e: state,
        RollOffNeeded: _on_needed,
        TieRolledOff: _on_rolled_off,
        RollOffTiedAgain: _on_tied_again,
    },
    narration={
        InitiativeCheckCalled: lambda n, e: (
            f"The Narrator calls for {e.check}" + ("" if e.bonus is None else f" {e.bonus:+d}") + f" as {n.name(e.combatant)}'s "
            "initiative" + (f" ({e.situation})" if e.situation else "")
        ),
        SurpriseCheckReused: lambda n, e: (
            f"{', '.join(n.name(c) for c in e.combatants)} "
            f"{'keep' if len(e.combatants) > 1 else 'keeps'} the surprise-step {e.check} check of {e.total} as initiative"
        ),
        RollOffNeeded: lambda n, e: (
            f"Tie at {e.total}: "
            + " / ".join(", ".join(n.name(c) for c in u) for u in e.units)
            + " - each rolls a d20, highest first"
        ),
        TieRolledOff: _rolls,
        RollOffTiedAgain: lambda n, e: (
            f"Roll-off at {e.total}: "
            + ", ".join(f"{n.name(u)} {d}" for u, d in e.rolls)
            + " - still tied: "
            + " / ".join(", ".join(n.name(u) for u in g) for g in e.ranks if len(g) > 1)
            + ", who roll again"
        ),
    },
)
