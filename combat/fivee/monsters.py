"""Monsters by stat block: adding creatures by name or from a whole block, and the sheet that
keeps what their blocks let them spend.

`add_creature` puts one or N identical creatures in the fight from a bestiary name or a full
stat block; the whole block goes into the log (StatBlockAttached, after each CombatantAdded),
so a replay never reads the bestiary. "For a group of identical creatures, the GM makes a
single roll": N creatures share one initiative group. What the block lets them do is in
monster_actions.py and legendary.py.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any, ClassVar, Literal

import msgspec

from combat.bestiary.model import MultiattackPart, StatBlock
from combat.common.setup import validate_spec
from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import AttackProfile, CombatantAdded, CombatantSpec, Event
from combat.kernel.hidden import Hidden
from combat.kernel.state import Combatant, EncounterState, with_rules

if TYPE_CHECKING:
    from combat.fivee.state import FiveEState

__all__ = [
    "Faces",
    "MonsterSheet",
    "Monsters",
    "MonstersSlot",
    "monsters_of",
    "with_monsters",
    "sheets",
    "sheet",
    "with_sheet",
    "require_sheet",
    "profiles",
    "AddCreature",
    "StatBlockAttached",
    "RULES",
]

Faces = tuple[int, ...] | None
MAX_COUNT = 50


# -- the bookkeeping: one sheet per creature added from a stat block ----------------------


class MonsterSheet(msgspec.Struct, frozen=True, kw_only=True):
    block: StatBlock
    spent: tuple[str, ...] = ()  # recharge actions used and not yet regained
    used_today: dict[str, int] = {}  # per-day actions: uses so far
    recharge_due: tuple[str, ...] = ()  # spent recharge actions still to roll for this turn
    multiattack_left: tuple[MultiattackPart, ...] = ()  # the Multiattack under way this turn
    legendary_left: int = 0
    legendary_used: tuple[str, ...] = ()  # once-a-turn legendary actions used since its turn
    resistance_left: int = 0
    failed_save: tuple[str, int] | None = None  # (ability, DC) of a failed save it may still turn


class Monsters(msgspec.Struct, frozen=True, kw_only=True):
    """Every creature's sheet, and whose turn ended last (the moment for legendary actions)."""

    sheets: dict[str, MonsterSheet] = {}
    after_turn_of: str | None = None


# The 5e slice (combat/fivee/state.py) has a `monsters` field, unset (and so absent from its JSON
# and equal to a fresh state) until a creature joins from a stat block.
MonstersSlot = Monsters | msgspec.UnsetType


_NO_MONSTERS = Monsters()  # shared: frozen, and its empty `sheets` is only ever replaced, never filled


def monsters_of(state: EncounterState[FiveEState]) -> Monsters:
    found = state.rules.monsters
    return _NO_MONSTERS if found is msgspec.UNSET else found


def with_monsters(state: EncounterState[FiveEState], **changes: Any) -> EncounterState[FiveEState]:
    return with_rules(state, monsters=msgspec.structs.replace(monsters_of(state), **changes))


def sheets(state: EncounterState[FiveEState]) -> dict[str, MonsterSheet]:
    return monsters_of(state).sheets


def sheet(state: EncounterState[FiveEState], cid: str) -> MonsterSheet | None:
    # `monsters_of` written out: every turn's start and every attack asks, in every fold.
    found = state.rules.monsters
    return None if found is msgspec.UNSET else found.sheets.get(cid)


def with_sheet(state: EncounterState[FiveEState], cid: str, **changes: Any) -> EncounterState[FiveEState]:
    return with_monsters(state, sheets={**sheets(state), cid: msgspec.structs.replace(sheets(state)[cid], **changes)})


def require_sheet(tx: Tx, cid: str) -> tuple[Combatant, MonsterSheet]:
    c = tx.combatant(cid)
    found = sheet(tx.state, cid)
    if found is None:
        raise RuleError(
            "creature/no-stat-block", f"{c.name} was not added from a stat block", allowed="a creature added with add_creature"
        )
    return c, found


# -- commands ------------------------------------------------------------------------------


class AddCreature(Command, frozen=True, kw_only=True):
    """One or N identical creatures by bestiary name, or from a full stat block (homebrew)."""

    gm_only: ClassVar[bool] = True

    creature: str | dict[str, Any]
    side: str
    count: int = 1
    group: str | None = None
    id_prefix: str | None = None
    hp: Literal["average", "rolled"] = "average"
    faces: Faces = None  # hit dice faces when rolled, creature after creature
    lair: bool = False  # fighting in its lair: Legendary Resistance "(3/Day, or 4/Day in Lair)"


# -- events --------------------------------------------------------------------------------


class StatBlockAttached(Event, frozen=True, kw_only=True):
    """The full stat block a creature added by add_creature plays by (follows its CombatantAdded)."""

    combatant: str
    stat_block: StatBlock
    lair: bool = False
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("stat_block",))


# -- adding creatures ----------------------------------------------------------------------


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:48] or "creature"


def profiles(block: StatBlock) -> tuple[AttackProfile, ...]:
    """The block's attacks as the shared attack rules read them; a 'Melee or Ranged' attack
    is both: `Javelin` in melee and `Javelin (ranged)` thrown."""
    made: list[AttackProfile] = []
    for a in block.attacks:
        common: dict[str, Any] = {"bonus": a.bonus, "damage": a.damage, "damage_type": a.damage_type}
        if a.kind in ("melee", "melee or ranged"):
            made.append(AttackProfile(name=a.name, kind="melee", reach=a.reach, **common))
        if a.kind in ("ranged", "melee or ranged"):
            name = a.name if a.kind == "ranged" else f"{a.name} (ranged)"
            made.append(AttackProfile(name=name, kind="ranged", normal_range=a.range, long_range=a.long_range, **common))
    return tuple(made)


def _block_of(creature: str | dict[str, Any]) -> StatBlock:
    from combat.bestiary import library, validate  # the bestiary's data and checks: loaded when a creature is added

    return library.find(creature) if isinstance(creature, str) else validate.read_block(creature)


def _hit_dice_count(notation: str) -> int:
    return sum(int(n or 1) for n, _ in re.findall(r"(\d*)d(\d+)", notation))


def _add_creature(tx: Tx, cmd: AddCreature) -> None:
    block = _block_of(cmd.creature)
    if not 1 <= cmd.count <= MAX_COUNT:
        raise RuleError("creature/count", f"count {cmd.count}", allowed=f"1 to {MAX_COUNT} creatures")
    prefix = cmd.id_prefix or _slug(block.name)
    taken = set(tx.state.combatants) | {c.group for c in tx.state.combatants.values() if c.group}
    if cmd.count == 1 and prefix not in taken:
        ids = [prefix]  # one dragon is `adult-red-dragon`; goblins are numbered
    else:
        numbers = (n for n in range(1, 10_000) if f"{prefix}-{n}" not in taken)
        ids = [f"{prefix}-{next(numbers)}" for _ in range(cmd.count)]
    group = cmd.group or (prefix if cmd.count > 1 else None)
    hp = _hit_points(tx, block, cmd, ids)
    con = block.saves.get("constitution", (block.abilities.get("constitution", 10) - 10) // 2)
    for cid, max_hp in zip(ids, hp):
        spec = CombatantSpec(
            id=cid,
            name=block.name if cmd.count == 1 else f"{block.name} {cid.rsplit('-', 1)[-1]}",
            kind="monster",
            side=cmd.side,
            max_hp=max_hp,
            ac=block.ac,
            initiative_bonus=block.initiative_bonus,
            speed=block.speed.get("walk", 0),
            size=block.size,
            group=group,
            con_save=con,
            attacks=profiles(block),
            resistances=block.resistances,
            vulnerabilities=block.vulnerabilities,
            immunities=block.immunities,
        )
        validate_spec(tx.state, spec)
        tx.emit(CombatantAdded(combatant=spec))
        tx.emit(StatBlockAttached(combatant=cid, stat_block=block, lair=cmd.lair))


def _hit_points(tx: Tx, block: StatBlock, cmd: AddCreature, ids: list[str]) -> list[int]:
    if cmd.hp == "average":
        if cmd.faces is not None:
            raise RuleError("creature/faces", "faces are for rolled hit points", allowed='hp: "rolled" with faces, or no faces')
        return [block.hp] * len(ids)
    if not block.hit_dice:
        raise RuleError("creature/no-hit-dice", f"{block.name}'s stat block gives no hit dice to roll", allowed='hp: "average"')
    per = _hit_dice_count(block.hit_dice)
    if cmd.faces is not None and len(cmd.faces) != per * len(ids):
        raise RuleError(
            "dice/faces-count",
            f"{len(ids)} x {block.hit_dice} needs {per * len(ids)} faces, not {len(cmd.faces)}",
            allowed=f"{per} faces per creature, creature after creature",
        )
    rolled = []
    for i, cid in enumerate(ids):
        faces = None if cmd.faces is None else cmd.faces[i * per : (i + 1) * per]
        rolled.append(max(1, tx.roll(block.hit_dice, purpose="hit points", roller=cid, faces=faces).total))
    return rolled


# -- appliers ------------------------------------------------------------------------------


def _on_attached(state: EncounterState, e: StatBlockAttached) -> EncounterState:
    b = e.stat_block
    resistance = (
        b.legendary_resistance_in_lair if e.lair and b.legendary_resistance_in_lair is not None else b.legendary_resistance
    )
    new = MonsterSheet(block=b, legendary_left=b.legendary_action_uses, resistance_left=resistance)
    return with_monsters(state, sheets={**sheets(state), e.combatant: new})


RULES = Rules(
    handlers={AddCreature: _add_creature},
    appliers={StatBlockAttached: _on_attached},
    narration={
        StatBlockAttached: lambda n, e: (
            f"{n.name(e.combatant)} plays by the {e.stat_block.name} stat block (AC {e.stat_block.ac}, CR {e.stat_block.cr or '-'})"
            if e.stat_block is not None
            else f"{n.name(e.combatant)} plays by its stat block"
        ),  # None: not revealed to this reader
    },
)
