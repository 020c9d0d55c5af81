"""The battle map: 5-ft squares, center-to-center distance, melee, room to swing, moving.

- "each square will be equal to a 5-ft. by 5-ft. area"; "Distance is measured from
  center-to-center" - taken literally, as the straight line between the two centers.
- "it is possible for two or more creatures to squeeze into such an area, [but] combat
  cannot take place while in the same square": allies may end a move in each other's
  square, and a creature sharing its square cannot attack. Allies may pass through each
  other's squares, but "This does cause some jostling, so any concentration (i.e. spell
  casting) will be broken."
- "Any weapon requiring more than 4-ft. of space to use requires at least one open
  adjacent square" in restricted quarters.
- "Positioning movement of 10-ft. or less is a minor action but can only be done after a
  major action and cannot be done in melee (movement is otherwise normally a major action)."
- "4. If any individual has the multi-attack ability (and is in melee) ... 6. ... those with
  any remaining attacks due to the multi-attack ability complete their action": one not yet
  in melee takes its turn with its group, and closes in there - one move, up to its full
  movement, ending in melee with a foe - before its first routine (segments.closes_in).

Chosen: two creatures are in melee when their squares touch (diagonals too, melee.py); a creature
that moves out of a foe's melee draws a free attack from it; a surprise segment allows one
segment of movement (a tenth of the move per round).
"""

from __future__ import annotations

import math
from typing import Any

from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant, EncounterState
from combat.rulesets.segments_1e import phases as P
from combat.rulesets.segments_1e.acting import able, record
from combat.rulesets.segments_1e.commands import MoveTo
from combat.rulesets.segments_1e.concentration import interrupt
from combat.rulesets.segments_1e.events import CreatureMoved, FreeAttackOpened
from combat.rulesets.segments_1e.ledger import Ledger, Routine
from combat.rulesets.segments_1e.melee import Square, adjacent, foes_in_melee, where
from combat.rulesets.segments_1e.segments import action_of, closes_in
from combat.rulesets.segments_1e.turns import major_refusal, require_major, require_segment, require_turn, segment_spent, spent
from combat.rulesets.segments_1e.wording import names

__all__ = [
    "SQUARE_FT",
    "distance_ft",
    "adjacent",
    "foes_in_melee",
    "open_squares",
    "require_reach",
    "closing_in_problem",
    "held_by_foe",
    "RULES",
]

SQUARE_FT = 5
POSITIONING_FT = 10
ROOM_NEEDED_OVER_FT = 4


def distance_ft(a: Square, b: Square) -> float:
    return SQUARE_FT * math.hypot(a[0] - b[0], a[1] - b[1])


def _standing(state: EncounterState, ledger: Ledger) -> dict[Square, str]:
    """Squares held by living creatures (one of them, where allies squeeze together)."""
    return {
        sq: cid
        for cid, rec in ledger.creatures.items()
        if (sq := where(rec)) is not None and state.combatants[cid].status != "dead"
    }


def _sharing(state: EncounterState, ledger: Ledger, cid: str) -> list[str]:
    """Living creatures squeezed into the same square as `cid`."""
    here = where(ledger.creatures[cid])
    return [
        other
        for other, rec in ledger.creatures.items()
        if other != cid and here is not None and where(rec) == here and state.combatants[other].status != "dead"
    ]


def open_squares(state: EncounterState, around: Square) -> list[Square]:
    ledger = state.rules
    taken = set(_standing(state, ledger)) | set(ledger.walls)
    x, y = around
    return [(x + dx, y + dy) for dx in (-1, 0, 1) for dy in (-1, 0, 1) if (dx, dy) != (0, 0) and (x + dx, y + dy) not in taken]


def require_reach(state: EncounterState, attacker: str, target: str, routine: Routine) -> None:
    """Where both stand on the map: not the same square, in melee or in missile range, and
    room to swing in restricted quarters. Off the map, the GM adjudicates."""
    ledger = state.rules
    a, t = where(ledger.creatures[attacker]), where(ledger.creatures[target])
    if a is None or t is None:
        return
    squeezed = _sharing(state, ledger, attacker)
    if squeezed or a == t:
        other = state.combatants[squeezed[0] if squeezed else target].name
        raise RuleError(
            "grid/same-square",
            f"{state.combatants[attacker].name} shares a square with {other}: combat cannot take place while in the same square",
            allowed="step apart first",
        )
    name = state.combatants[target].name
    if routine.kind == "melee" and not adjacent(a, t):
        raise RuleError(
            "attack/out-of-reach",
            f"{name} is {distance_ft(a, t):.0f} ft away, not in melee",
            allowed="a target in an adjacent square, or move first",
        )
    if routine.kind == "missile" and routine.range_ft and distance_ft(a, t) > routine.range_ft:
        raise RuleError(
            "attack/out-of-range",
            f"{name} is {distance_ft(a, t):.0f} ft away; {routine.name} reaches {routine.range_ft} ft",
            allowed=f"a target within {routine.range_ft} ft",
        )
    if ledger.restricted and routine.kind == "melee" and routine.space_ft > ROOM_NEEDED_OVER_FT and not open_squares(state, a):
        raise RuleError(
            "attack/no-room",
            f"{routine.name} needs {routine.space_ft} ft of space and every square around is taken",
            allowed=f"a weapon needing {ROOM_NEEDED_OVER_FT} ft or less, or an open adjacent square",
        )


def closing_in_problem(state: EncounterState, cid: str, dest: Square) -> str | None:
    """Why a multi-attacker could not close in to `dest` now, or None if it could. (The move
    guard and the re-check after a change to the past ask this.)"""
    rec = state.rules.creatures[cid]
    name = state.combatants[cid].name
    if rec.charged:
        return f"{name} has already closed in this round"
    if rec.major_used or rec.routines_used:
        return f"{name} closes in before its first routine, not after"
    if foes_in_melee(state, cid):
        return f"{name} is in melee already: it has nothing to close in to"
    if not foes_in_melee(state, cid, at=dest):
        return f"({dest[0]}, {dest[1]}) is in melee with no foe: closing in ends beside one"
    return None


def held_by_foe(state: EncounterState, c: Combatant, dest: Square) -> str | None:
    """A living foe holds `dest`: allies may squeeze together, foes may not."""
    for cid, rec in state.rules.creatures.items():
        foe = state.combatants[cid]
        if where(rec) == dest and foe.side != c.side and foe.status != "dead":
            return f"{foe.name} stands on ({dest[0]}, {dest[1]})"
    return None


def _move(tx: Tx, cmd: MoveTo) -> None:
    c, rec = require_turn(tx, cmd.combatant)
    state = tx.state
    ledger = state.rules
    here = where(rec)
    if here is None:
        raise RuleError("grid/no-position", f"{c.name} is not on the map", allowed="give x and y when adding it")
    dest = (cmd.x, cmd.y)
    if dest == here:
        raise RuleError("move/nowhere", f"{c.name} is already on ({cmd.x}, {cmd.y})", allowed="another square")
    if dest in ledger.walls:
        raise RuleError("grid/wall", f"({cmd.x}, {cmd.y}) is a wall", allowed="an open square")
    problem = held_by_foe(state, c, dest)
    if problem:
        raise RuleError("grid/occupied", problem, allowed="an empty square, or an ally's")
    holder = _standing(state, ledger).get(dest)
    feet = round(distance_ft(here, dest))
    in_melee_with = foes_in_melee(state, c.id)
    if cmd.positioning:
        uses = "none"
        if not rec.major_used:
            raise RuleError(
                "move/positioning-before-major",
                "positioning can only be done after a major action",
                allowed="take the major action first",
            )
        if in_melee_with:
            raise RuleError(
                "move/positioning-in-melee",
                f"{c.name} is in melee with {state.combatants[in_melee_with[0]].name}; positioning cannot be done in melee",
                allowed="a full move as the major action",
            )
        limit = POSITIONING_FT
    elif state.phase == P.SURPRISE_SEGMENTS:
        uses = "surprise_segment"
        require_segment(c, rec, ledger.segment)
        limit = c.speed // 10
    elif action_of(rec) == "charge" and not rec.charged:
        uses, limit = "charge", c.speed
    elif closes_in(state, c.id) and state.phase in (P.HIGH, P.LOW):
        problem = closing_in_problem(state, c.id, dest)
        if problem:
            raise RuleError("move/close-in", problem, allowed="one move that ends beside a foe, before the first routine")
        uses, limit = "close_in", c.speed
    else:
        uses, limit = "major", c.speed
        require_major(c, rec, "move_to")
    if feet > limit:
        raise RuleError("move/too-far", f"{feet} ft is more than {c.name} can move now ({limit} ft)", allowed=f"up to {limit} ft")
    for ally in cmd.through:
        other = tx.combatant(ally)
        if other.side != c.side or other.id == c.id:
            raise RuleError("move/through-foe", f"{c.name} cannot pass through {other.name}'s square", allowed="allies only")
    jostled = tuple(dict.fromkeys(cmd.through + ((holder,) if holder is not None else ())))
    tx.emit(CreatureMoved(combatant=c.id, x=cmd.x, y=cmd.y, feet=feet, uses=uses, positioning=cmd.positioning, jostled=jostled))  # type: ignore[arg-type]
    for ally in jostled:
        interrupt(tx, ally, f"jostled by {c.name}")
    if c.concentration is not None and feet > c.speed // 2:
        # "can move around slowly ... walking up to half their movement rate per round"
        interrupt(tx, c.id, "moved more than half its movement")
    for foe in in_melee_with:
        if foe not in foes_in_melee(tx.state, c.id):
            tx.emit(FreeAttackOpened(attacker=foe, target=c.id, trigger="left melee"))


def _on_moved(state: EncounterState, e: CreatureMoved) -> EncounterState:
    return spent(state, e.combatant, e.uses, x=e.x, y=e.y)


def _check_moved(state: EncounterState, e: CreatureMoved, ctx: dict[str, Any]) -> str | None:
    """The move could still be made by the move's own guards (what it spent, closing in, a
    square no foe holds); how far it went is not re-judged."""
    problem = able(state, e.combatant, "move")
    if problem:
        return problem
    c, rec, ledger = record(state, e.combatant)
    if e.uses == "major":
        refusal = major_refusal(c, rec, "move_to")
        if refusal is not None:
            return refusal.message
    if e.uses == "surprise_segment":
        problem = segment_spent(c, rec, ledger.segment)
        if problem:
            return problem
    if e.uses == "charge" and rec.charged:
        return f"{c.name} had already made the move of its charge"
    if e.uses == "close_in":
        if not closes_in(state, e.combatant):
            return f"{c.name} has no turn with its group to close in now"
        problem = closing_in_problem(state, e.combatant, (e.x, e.y))
        if problem:
            return problem
    return held_by_foe(state, c, (e.x, e.y))


def _moved_line(n: Any, e: CreatureMoved) -> str:
    how = " (positioning)" if e.positioning else ""
    jostle = f", jostling {names(n, e.jostled)}" if e.jostled else ""
    return f"{n.name(e.combatant)} moves {e.feet} ft to ({e.x}, {e.y}){how}{jostle}"


RULES = Rules(
    handlers={MoveTo: _move},
    appliers={CreatureMoved: _on_moved},
    checks={CreatureMoved: _check_moved},
    narration={CreatureMoved: _moved_line},
)
