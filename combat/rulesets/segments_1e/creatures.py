"""Set-up: first-edition stat blocks on the battle map, and the map's walls and quarters."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from combat.kernel import dice
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.state import Combatant, EncounterState, with_rules
from combat.rulesets.segments_1e.attack_tables import attack_row
from combat.rulesets.segments_1e.commands import AddCreature, DescribeBattlefield
from combat.rulesets.segments_1e.events import BattlefieldDescribed, CreatureAdded
from combat.rulesets.segments_1e.hit_dice import hit_point_dice, parse_hit_dice, save_hit_dice
from combat.rulesets.segments_1e.ledger import Creature, CreatureStats, sheet_of
from combat.rulesets.segments_1e.wording import plural

__all__ = ["RULES", "BEST_AC", "WORST_AC"]

_ID = re.compile(r"^[a-z0-9][a-z0-9_-]{0,63}$")
# "The scale for armor class is -10 to 0 to 10 with 10 being the worst value possible."
BEST_AC, WORST_AC = -10, 10


def _validate(state: EncounterState, s: CreatureStats) -> None:
    def bad(what: str, allowed: str) -> RuleError:
        return RuleError("creature/invalid", f"{s.id or s.name}: {what}", allowed=allowed)

    if not _ID.match(s.id):
        raise bad(f"id {s.id!r} is not usable", "lower-case letters, digits, - and _, e.g. orc-1")
    if s.id in state.combatants:
        raise RuleError("creature/duplicate", f"'{s.id}' is already in the fight", allowed="a new id")
    if not BEST_AC <= s.ac <= WORST_AC:
        raise bad(f"AC {s.ac} is off the scale", f"{BEST_AC} (best) to {WORST_AC} (worst)")
    if s.hp is not None and s.hp < 1:
        raise bad(f"hp {s.hp}", "at least 1, or leave it out to roll the hit dice")
    if s.hp is None and s.hit_dice is None:
        raise bad("no hit points and no hit dice to roll them", "hp, or hit_dice such as 4+4")
    if s.hit_dice is not None:
        parse_hit_dice(s.hit_dice)
    if s.routines_per_round < 1:
        raise bad("routines_per_round below 1", "1, or more for the multi-attack ability")
    if s.surprises_on is not None and not 1 <= s.surprises_on <= 6:
        raise bad(f"surprises on 1-{s.surprises_on}", "a d6 face from 1 to 6")
    if s.dex_surprise < 0:
        raise bad("a Dexterity surprise bonus below 0", "0 or more: it cancels surprise, never creates it")
    for routine in s.routines:
        if not routine.strikes:
            raise bad(f"routine {routine.name!r} has no strikes", "at least one strike")
        for strike in routine.strikes:
            dice.check_notation(strike.damage)
    if s.routines:
        attack_row(s, s.name)
    if (s.x is None) != (s.y is None):
        raise bad("only one coordinate", "both x and y, or neither")
    if s.x is not None:
        ledger = state.rules
        if (s.x, s.y) in ledger.walls:
            raise RuleError("grid/wall", f"({s.x}, {s.y}) is a wall", allowed="an open square")
        taken = [state.combatants[cid].name for cid, r in ledger.creatures.items() if (r.x, r.y) == (s.x, s.y)]
        if taken:
            raise RuleError("grid/occupied", f"{taken[0]} already stands on ({s.x}, {s.y})", allowed="an empty square")


def _add(tx: Tx, cmd: AddCreature) -> None:
    stats = cmd.creature
    _validate(tx.state, stats)
    if stats.hp is not None:
        if cmd.hp_faces is not None:
            raise RuleError("dice/unused-faces", "hit points were given, so no dice are rolled", allowed="no hp_faces")
        hp = stats.hp
    else:
        # "a (typical) creature with 4+4 HD will have 4d8+16 hit points"
        notation = hit_point_dice(parse_hit_dice(stats.hit_dice))  # type: ignore[arg-type]
        hp = max(1, tx.roll(notation, purpose="hit points", roller=stats.id, faces=cmd.hp_faces).total)
    saves_as = save_hit_dice(parse_hit_dice(stats.hit_dice)) if stats.hit_dice else None
    attacks_as = attack_row(stats, stats.name).label if stats.routines else None
    tx.emit(CreatureAdded(creature=stats, hp=hp, attacks_as=attacks_as, saves_as=saves_as))


def _describe(tx: Tx, cmd: DescribeBattlefield) -> None:
    standing = {(r.x, r.y): tx.state.combatants[cid].name for cid, r in tx.state.rules.creatures.items()}
    blocked = [standing[w] for w in cmd.walls if w in standing]
    if blocked:
        raise RuleError("grid/occupied", f"{blocked[0]} stands where a wall was put", allowed="walls on empty squares")
    tx.emit(BattlefieldDescribed(restricted=cmd.restricted, walls=cmd.walls))


def _on_added(state: EncounterState, e: CreatureAdded) -> EncounterState:
    s = e.creature
    combatant = Combatant(
        id=s.id, name=s.name, kind=s.kind, side=s.side, max_hp=e.hp, hp=e.hp, ac=s.ac, speed=s.move_ft, player=s.player
    )
    state = msgspec.structs.replace(state, combatants={**state.combatants, s.id: combatant})
    ledger = state.rules
    creatures = {
        **ledger.creatures,
        s.id: Creature(stats=sheet_of(s), attacks_as=e.attacks_as, saves_as=e.saves_as, x=s.x, y=s.y),
    }
    return with_rules(state, msgspec.structs.replace(ledger, creatures=creatures))


def _on_described(state: EncounterState, e: BattlefieldDescribed) -> EncounterState:
    return with_rules(state, restricted=e.restricted, walls=e.walls)


def _added_line(n: Any, e: CreatureAdded) -> str:
    c = e.creature
    n.names[c.id] = c.name
    extra = (f", attacks as {e.attacks_as}" if e.attacks_as else "") + (
        f", saves as {e.saves_as} HD" if e.saves_as is not None else ""
    )
    if c.ac is None:  # not revealed to this reader (projections/redaction.py)
        return f"{c.name} joins the {c.side} side ({'character' if c.kind == 'pc' else 'monster'})"
    return f"{c.name} joins the {c.side} side ({'character' if c.kind == 'pc' else 'monster'}, {e.hp} HP, AC {c.ac}{extra})"


RULES = Rules(
    handlers={AddCreature: _add, DescribeBattlefield: _describe},
    appliers={CreatureAdded: _on_added, BattlefieldDescribed: _on_described},
    narration={
        CreatureAdded: _added_line,
        BattlefieldDescribed: lambda n, e: (
            "The battlefield: "
            + ("restricted quarters" if e.restricted else "open ground")
            + (f", {plural(len(e.walls), 'wall square')}" if e.walls else "")
        ),
    },
)
