"""Stat blocks and table moves shared by the segments-1e scenarios, on the pure table and through `Encounters`."""

from __future__ import annotations

from typing import Any

import msgspec

from combat.app.application import Encounters
from combat.kernel.commands import BeginCombat, EndTurn
from combat.rulesets.segments_1e.commands import AddCreature, CheckSurprise, CloseDeclarations, DeclareRoundAction, RollGroupD6
from combat.rulesets.segments_1e.ledger import Creature, CreatureStats, Ledger, Routine, Strike
from tests.helpers import Table

LONGSWORD = Routine(name="Longsword", strikes=(Strike(name="longsword", damage="1d8"),), speed=5)
TWO_HANDED = Routine(name="Two-handed sword", strikes=(Strike(name="two-handed sword", damage="1d10"),), speed=10, space_ft=6)
DAGGER = Routine(name="Dagger", strikes=(Strike(name="dagger", damage="1d4"),), speed=2)
SHORTBOW = Routine(
    name="Shortbow",
    kind="missile",
    strikes=(Strike(name="arrow", damage="1d6"), Strike(name="arrow", damage="1d6")),
    range_ft=150,
)
SCIMITAR = Routine(name="Scimitar", strikes=(Strike(name="scimitar", damage="1d8"),), speed=4)
CLAW_CLAW_BITE = Routine(
    name="claw/claw/bite",
    strikes=(Strike(name="claw", damage="1d6"), Strike(name="claw", damage="1d6"), Strike(name="bite", damage="2d6")),
)


def stats(cid: str, **kw: Any) -> CreatureStats:
    fields: dict[str, Any] = {
        "id": cid,
        "name": cid.replace("-", " ").title(),
        "kind": "monster",
        "side": "orcs",
        "ac": 6,
        "hp": 8,
    }
    return msgspec.convert({**fields, **kw}, CreatureStats, from_attributes=True)


def _pc(cid: str, kw: dict[str, Any], **fields: Any) -> CreatureStats:
    """A player character of the party: `fields`, with the test's own `kw` over them."""
    return stats(cid, **{"kind": "pc", "side": "party", **fields, **kw})


def fighter(cid: str = "hugo", **kw: Any) -> CreatureStats:
    """Fighter 4 in banded mail: needs 14 against AC 3, 12 against AC 5."""
    return _pc(cid, kw, ac=4, hp=30, character_class="Fighter", level=4, routines=(LONGSWORD,))


def mage(cid: str = "mira", **kw: Any) -> CreatureStats:
    return _pc(cid, kw, ac=9, hp=12, character_class="Magic User", level=5, routines=(DAGGER,))


def orc(cid: str = "orc", **kw: Any) -> CreatureStats:
    """A 1 HD orc: needs 15 against AC 4."""
    return stats(cid, **{"hit_dice": "1", "routines": (SCIMITAR,), **kw})


def owlbear(cid: str = "owlbear", **kw: Any) -> CreatureStats:
    """5+2 HD: attacks on the 6-7+ row; two routines a round (the multi-attack ability)."""
    fields: dict[str, Any] = {
        "name": "Owlbear",
        "ac": 5,
        "hp": 40,
        "hit_dice": "5+2",
        "routines": (CLAW_CLAW_BITE,),
        "routines_per_round": 2,
    }
    return stats(cid, **{**fields, **kw})


def table(*creatures: CreatureStats, seed: int = 1, settings: dict | None = None) -> Table:
    t = Table(ruleset="segments-1e", seed=seed, settings=settings)
    for c in creatures:
        t.do(AddCreature(creature=c))
    return t


def begin(t: Table, **surprise: int) -> Table:
    """Begin combat; each side's surprise d6 as entered (default 6: not surprised)."""
    t.do(BeginCombat())
    for side in dict.fromkeys(c.side for c in t.state.combatants.values()):
        t.do(CheckSurprise(side=side, faces=(surprise.get(side, 6),)))
    return t


def declare(t: Table, **declarations: dict[str, Any]) -> Table:
    for cid, fields in declarations.items():
        t.do(DeclareRoundAction(combatant=cid, **fields))
    return t


def initiative(t: Table, **d6: int) -> Table:
    """Close the declarations and roll the group dice as entered."""
    t.do(CloseDeclarations())
    for side, face in d6.items():
        t.do(RollGroupD6(side=side, faces=(face,)))
    return t


def fight(*creatures: CreatureStats, d6: dict[str, int], declared: dict[str, dict[str, Any]] | None = None, **kw: Any) -> Table:
    """No surprise, declarations, group initiative: the first turn of round 1 is up."""
    t = begin(table(*creatures, **kw))
    return initiative(declare(t, **(declared or {})), **d6)


def done(t: Table, cid: str) -> None:
    t.do(EndTurn(combatant=cid))


def ledger(t: Table) -> Ledger:
    return t.state.rules


def rec(t: Table, cid: str) -> Creature:
    return t.state.rules.creatures[cid]


def stored_fight(encounters: Encounters, *creatures: CreatureStats, declared: dict[str, dict[str, Any]], d6: dict[str, int]):
    """No surprise (both sides roll a 6), the declarations, and the group dice as entered."""
    eid = encounters.create("segments-1e", "history", seed=5)
    for c in creatures:
        encounters.execute(eid, AddCreature(creature=c))
    encounters.execute(eid, BeginCombat())
    for side in dict.fromkeys(c.side for c in creatures):
        encounters.execute(eid, CheckSurprise(side=side, faces=(6,)))
    for cid, fields in declared.items():
        encounters.execute(eid, DeclareRoundAction(combatant=cid, **fields))
    encounters.execute(eid, CloseDeclarations())
    for side, face in d6.items():
        encounters.execute(eid, RollGroupD6(side=side, faces=(face,)))
    return eid
