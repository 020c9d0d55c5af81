"""The party: player characters that outlast an encounter.

Each character is a log of its own, beside the encounters' in the same store (the SQLite
file or the PostgreSQL database), in eventsourcing's table of an application named `party`
(`party_events`): its sheet as saved, each fight it joined, what it carried out of
that fight (HP, spent slots and resource uses) and each rest. Its current status is a fold
over that log, as an encounter's state is over its own.

A character named in `add_character` is filled in from here (`Party.resolve`): its sheet and
the status it carries. What it takes away is read from the fight when it is next needed (a
rest, the next fight, a look at the party), not pushed by every command: a command's write
stays one encounter's.

Rests (SRD 5.2, Rules Glossary):
- "Long Rest ... Regain All HP. You regain all lost Hit Points and all spent Hit Point
  Dice"; spell slots and every limited-use feature come back.
- "Short Rest ... Spend Hit Point Dice. ... For each Hit Point Die you spend in this way, roll
  the die and add your Constitution modifier to it. You regain Hit Points equal to the total
  (minimum of 1 Hit Point)"; features that recover on a Short Rest come back (Action Surge),
  those that regain part of their uses regain that part (Rage, Second Wind: one), and a
  Warlock's Pact Magic slots: "You regain all expended Pact Magic spell slots when you finish
  a Short or Long Rest".
"""

from __future__ import annotations

import random
import re
import uuid
from datetime import UTC, datetime
from typing import Any, Literal
from uuid import UUID

import msgspec

from combat.characters.sheet import CharacterSheet, check_sheet, modifier
from combat.fivee.characters import AddCharacter, CharacterStatus, character, status_of
from combat.kernel import dice
from combat.kernel.dice import DieFace
from combat.kernel.errors import RuleError
from combat.store import SeqTaken
from combat.store.party import PartyLog

__all__ = [
    "Party",
    "names_a_stored_character",
    "StoredCharacter",
    "CharacterSaved",
    "CharacterJoined",
    "StatusCarried",
    "Rested",
    "REST_KINDS",
]

REST_KINDS = ("short", "long")
_NAMESPACE = uuid.UUID("5d0c4a43-52b1-4c4e-9a52-9a4cbb6d2a10")


class _PartyEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag=True):
    pass


class CharacterSaved(_PartyEvent, frozen=True, kw_only=True):
    """The sheet, new or replaced (a level gained, new equipment)."""

    sheet: CharacterSheet


class CharacterJoined(_PartyEvent, frozen=True, kw_only=True):
    """Added to an encounter: what it takes away is read from there."""

    encounter: UUID
    combatant: str


class StatusCarried(_PartyEvent, frozen=True, kw_only=True):
    """What it took away from a fight."""

    encounter: UUID
    status: CharacterStatus


class Rested(_PartyEvent, frozen=True, kw_only=True):
    kind: Literal["short", "long"]
    status: CharacterStatus  # after the rest
    hit_dice: tuple[DieFace, ...] = ()  # spent on a Short Rest, as rolled
    healed: int = 0


PartyEvent = CharacterSaved | CharacterJoined | StatusCarried | Rested


class PartyRecord(msgspec.Struct, frozen=True, kw_only=True):
    originator_id: UUID
    originator_version: int
    timestamp: datetime
    actor: str
    event: PartyEvent


class StoredCharacter(msgspec.Struct, frozen=True, kw_only=True):
    """A character as the party store holds it now."""

    name: str
    sheet: CharacterSheet
    status: CharacterStatus = CharacterStatus()
    joined: CharacterJoined | None = None  # the fight whose outcome is still to be read
    version: int = 0


def _fold(records: list[PartyRecord]) -> StoredCharacter | None:
    found: StoredCharacter | None = None
    for rec in records:
        e = rec.event
        if isinstance(e, CharacterSaved):
            found = (
                StoredCharacter(name=e.sheet.name, sheet=e.sheet)
                if found is None
                else msgspec.structs.replace(found, sheet=e.sheet)
            )
        elif found is None:
            continue
        elif isinstance(e, CharacterJoined):
            found = msgspec.structs.replace(found, joined=e)
        elif isinstance(e, StatusCarried):
            found = msgspec.structs.replace(found, status=e.status)
        elif isinstance(e, Rested):
            found = msgspec.structs.replace(found, status=e.status, joined=None)
        found = msgspec.structs.replace(found, version=rec.originator_version)
    return found


def names_a_stored_character(command: object) -> bool:
    """`add_character` naming a character of the party, to be filled in before it is decided."""
    return isinstance(command, AddCharacter) and isinstance(command.character, str)


def character_id(name: str) -> UUID:
    """One log per name, whatever its case or spacing."""
    return uuid.uuid5(_NAMESPACE, " ".join(name.split()).lower())


class Party:
    """The characters in one store. Reads fold a character's log; every change is appended to it."""

    def __init__(self, env: dict[str, str], datastore: Any = None):
        self._log: PartyLog[PartyRecord] = PartyLog(env, PartyRecord, datastore=datastore)

    def close(self) -> None:
        self._log.close()

    # -- reading -------------------------------------------------------------------------

    def _records(self, cid: UUID) -> list[PartyRecord]:
        return self._log.records(cid)

    def find(self, name: str) -> StoredCharacter | None:
        return _fold(self._records(character_id(name)))

    def get(self, name: str) -> StoredCharacter:
        found = self.find(name)
        if found is None:
            known = (
                ", ".join(c.name for c in self.all()) or "none yet: save one with `combat characters save` or POST /characters"
            )
            raise RuleError("character/unknown", f"no character '{name}' in the party", allowed=known)
        return found

    def all(self) -> list[StoredCharacter]:
        ids = self._log.originators()
        found = [_fold(self._records(cid)) for cid in ids]
        return sorted((c for c in found if c is not None), key=lambda c: c.name.lower())

    def history(self, name: str) -> list[PartyRecord]:
        self.get(name)
        return self._records(character_id(name))

    # -- writing -------------------------------------------------------------------------

    def _append(self, name: str, version: int, event: PartyEvent, actor: str) -> None:
        record = PartyRecord(
            originator_id=character_id(name),
            originator_version=version + 1,
            timestamp=datetime.now(UTC),
            actor=actor,
            event=event,
        )
        try:
            self._log.append(record)
        except SeqTaken:
            raise RuleError(
                "character/changed", f"{name} was changed by someone else at the same moment", allowed="send it again"
            ) from None

    def save(self, sheet: CharacterSheet, *, actor: str = "gm") -> StoredCharacter:
        """Store a new sheet, or replace a character's sheet (its status stays)."""
        check_sheet(sheet)
        found = self.find(sheet.name)
        self._append(sheet.name, found.version if found else 0, CharacterSaved(sheet=sheet), actor)
        return self.get(sheet.name)

    def settle(self, name: str, encounters: Any, *, actor: str = "gm") -> StoredCharacter:
        """Read what the character took away from the fight it joined last, if it has not been read yet."""
        found = self.get(name)
        joined = found.joined
        if joined is None:
            return found
        try:
            state = encounters.state(joined.encounter)
        except RuleError:
            return found
        held = character(state, joined.combatant) if joined.combatant in state.combatants else None
        if held is None or held.character is None or character_id(held.character) != character_id(name):
            return found  # the add was refused, or the combatant was removed
        status = status_of(state, joined.combatant)
        if status != found.status:
            self._append(name, found.version, StatusCarried(encounter=joined.encounter, status=status), actor)
            found = self.get(name)
        return found

    def resolve(self, command: AddCharacter, encounter_id: UUID, encounters: Any, *, actor: str = "gm") -> AddCharacter:
        """`add_character` naming a stored character: its sheet and what it carries, filled
        in; the join recorded, so the fight's outcome is read from there later."""
        if not isinstance(command.character, str):
            return command
        found = self.settle(command.character, encounters, actor=actor)
        cid = command.id or _slug(found.sheet.name)
        self._append(found.name, found.version, CharacterJoined(encounter=encounter_id, combatant=cid), actor)
        return msgspec.structs.replace(command, character=found.sheet, status=found.status, stored_as=found.name, id=cid)

    def rest(
        self, name: str, kind: str, encounters: Any, *, hit_dice: int = 0, faces: tuple[int, ...] | None = None, actor: str = "gm"
    ) -> tuple[StoredCharacter, Rested]:
        if kind not in REST_KINDS:
            raise RuleError("rest/kind", f"no '{kind}' rest", allowed="short or long")
        found = self.settle(name, encounters, actor=actor)
        sheet, s = found.sheet, found.status
        if s.dead:
            raise RuleError("rest/dead", f"{found.name} is dead", allowed="a living character")
        if kind == "long":
            if hit_dice or faces:
                raise RuleError("rest/hit-dice", "Hit Point Dice are spent on a Short Rest", allowed="hit_dice: 0 on a Long Rest")
            after = CharacterStatus()
            event = Rested(kind="long", status=after, healed=sheet.max_hp - (s.hp if s.hp is not None else sheet.max_hp))
        else:
            event = _short_rest(sheet, s, hit_dice, faces)
        self._append(found.name, found.version, event, actor)
        return self.get(name), event


def _slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:48] or "character"


def _hit_die_pool(sheet: CharacterSheet) -> list[int]:
    """The sizes of the character's Hit Point Dice ("5d6", "2d10+3d8"): one entry a die."""
    pool: list[int] = []
    for count, sides in re.findall(r"(\d*)d(\d+)", sheet.hit_dice):
        pool += [int(sides)] * int(count or 1)
    return sorted(pool, reverse=True)


def _short_rest(sheet: CharacterSheet, s: CharacterStatus, spend: int, faces: tuple[int, ...] | None) -> Rested:
    pool = _hit_die_pool(sheet)
    left = len(pool) - s.hit_dice_spent
    if spend < 0 or spend > left:
        raise RuleError("rest/hit-dice", f"{sheet.name} has {left} Hit Point Dice left, not {spend}", allowed=f"0 to {left}")
    if faces is not None and len(faces) != spend:
        raise RuleError(
            "dice/faces-count", f"{spend} Hit Point Dice need {spend} faces, not {len(faces)}", allowed=f"{spend} faces"
        )
    con = modifier(sheet.abilities.constitution)
    rolled: list[DieFace] = []
    healed = 0
    for i, sides in enumerate(pool[s.hit_dice_spent : s.hit_dice_spent + spend]):
        result = dice.roll(
            f"1d{sides}", faces=None if faces is None else (faces[i],), rng=None if faces is not None else random.Random()
        )
        rolled += result.dice
        healed += max(1, result.total + con)  # "(minimum of 1 Hit Point)"
    hp_now = s.hp if s.hp is not None else sheet.max_hp
    hp = min(sheet.max_hp, hp_now + healed)
    used = dict(s.resources_used)
    for r in sheet.resources:
        if r.name not in used:
            continue
        if r.recovers == "short":
            del used[r.name]
        elif r.short_rest_regains:
            remaining = used[r.name] - r.short_rest_regains
            if remaining > 0:
                used[r.name] = remaining
            else:
                del used[r.name]
    after = msgspec.structs.replace(
        s, hp=None if hp == sheet.max_hp else hp, hit_dice_spent=s.hit_dice_spent + spend, resources_used=used, pact_spent=0
    )
    return Rested(kind="short", status=after, hit_dice=tuple(rolled), healed=hp - hp_now)
