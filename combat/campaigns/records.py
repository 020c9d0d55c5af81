"""What the campaigns' store holds: a campaign's log and each character's, as records.

A campaign is one log (`CampaignCreated`); each of its characters is a log of its own:
its sheet as saved, each fight it joined and left, what each fight left it carrying
(written by the carry-over follower, combat.campaigns.carry_over) and each rest. What a
character carries now is a fold over its log (`fold_character`), as an encounter's state is
over its own. Every record carries a hash chained to the one before it in its log
(`link`), checked as the log is folded: a changed, removed or reordered record is refused
for that character alone.
"""

from __future__ import annotations

import hashlib
import uuid
from datetime import datetime
from typing import Literal
from uuid import UUID

import msgspec

from combat.characters.sheet import CharacterSheet
from combat.fivee.characters import CharacterStatus
from combat.kernel.dice import DieFace
from combat.kernel.errors import RuleError
from combat.kernel.hashing import plain

__all__ = [
    "DEFAULT_CAMPAIGN",
    "CampaignCreated",
    "CharacterSaved",
    "CharacterJoined",
    "StatusCarried",
    "CharacterLeft",
    "Rested",
    "PartyEvent",
    "PartyRecord",
    "StoredCharacter",
    "Campaign",
    "character_id",
    "same_name",
    "fold_character",
    "fold_campaign",
    "link",
    "TamperedParty",
]

_NAMESPACE = uuid.UUID("5d0c4a43-52b1-4c4e-9a52-9a4cbb6d2a10")
# The campaign every character saved before campaigns existed belongs to, and the one the
# admin's `/characters` routes and `combat characters` use unless told another.
DEFAULT_CAMPAIGN = uuid.uuid5(_NAMESPACE, "campaign:default")
_sorted = msgspec.json.Encoder(order="sorted")


class _PartyEvent(msgspec.Struct, frozen=True, kw_only=True, tag_field="type", tag=True):
    pass


class CampaignCreated(_PartyEvent, frozen=True, kw_only=True):
    name: str


class CharacterSaved(_PartyEvent, frozen=True, kw_only=True):
    """The sheet, new or replaced (a level gained, new equipment)."""

    sheet: CharacterSheet
    campaign: UUID | None = None  # None: the default campaign (every character saved before campaigns)


class CharacterJoined(_PartyEvent, frozen=True, kw_only=True):
    """Added to a fight of its campaign (carried from the encounter's SheetAttached). Until
    it leaves, what the fight does to it is carried here, and it joins no other fight."""

    encounter: UUID
    combatant: str


class StatusCarried(_PartyEvent, frozen=True, kw_only=True):
    """What the fight it is in has left it carrying, as of that fight's event `seq`."""

    encounter: UUID
    status: CharacterStatus
    seq: int = 0


class CharacterLeft(_PartyEvent, frozen=True, kw_only=True):
    """Out of the fight: it ended, the character was removed from it, or the GM released it."""

    encounter: UUID
    reason: str


class Rested(_PartyEvent, frozen=True, kw_only=True):
    kind: Literal["short", "long"]
    status: CharacterStatus  # after the rest
    hit_dice: tuple[DieFace, ...] = ()  # spent on a Short Rest, as rolled
    healed: int = 0


PartyEvent = CampaignCreated | CharacterSaved | CharacterJoined | StatusCarried | CharacterLeft | Rested


class PartyRecord(msgspec.Struct, frozen=True, kw_only=True):
    originator_id: UUID
    originator_version: int
    timestamp: datetime
    actor: str
    event: PartyEvent
    # sha256 of the previous record's hash and this record's canonical bytes (`link`); ""
    # in records written before the party's log was chained.
    hash: str = ""


def link(previous: str, record: PartyRecord) -> str:
    """The chain hash of `record` after the record whose hash is `previous` ("" for the first)."""
    body = plain(msgspec.structs.replace(record, hash=""))
    body["event"]["type"] = type(record.event).__struct_config__.tag
    return hashlib.sha256(previous.encode() + b"\n" + _sorted.encode(body)).hexdigest()


class TamperedParty(RuleError):
    def __init__(self, log_id: UUID, version: int, problem: str):
        super().__init__(
            "party/tampered",
            f"the stored log {log_id} breaks at version {version}: {problem}",
            allowed="restore the party's store from a copy whose chain verifies (combat verify --campaigns)",
        )


def checked(records: list[PartyRecord], unhashed_through: int = 0) -> list[tuple[PartyRecord, str]]:
    """The records of one log, each with its chain hash, refused if their chain does not
    hold: versions 1, 2, 3..., each hash matching. A record without a hash is one written
    before the chain existed, and only the store's record says which those are: the first
    `unhashed_through` of a log that was there when this release first opened the store
    (combat.store.prehash). The chain runs through them, so the first hashed record vouches
    for them."""
    previous = ""
    hashed = False
    out = []
    for expected, rec in enumerate(records, start=1):
        if rec.originator_version != expected:
            raise TamperedParty(rec.originator_id, expected, f"found version {rec.originator_version} (a record is missing)")
        computed = link(previous, rec)
        if rec.hash:
            if rec.hash != computed:
                raise TamperedParty(rec.originator_id, expected, "its hash does not match its content and the records before it")
            hashed = True
        elif hashed or expected > unhashed_through:
            raise TamperedParty(
                rec.originator_id,
                expected,
                "it carries no hash, and the store lists it as no record written before hashes (a hash was removed)",
            )
        previous = computed
        out.append((rec, computed))
    return out


class StoredCharacter(msgspec.Struct, frozen=True, kw_only=True):
    """A character as the campaign holds it now."""

    name: str
    sheet: CharacterSheet
    campaign: UUID = DEFAULT_CAMPAIGN
    status: CharacterStatus = CharacterStatus()
    fight: UUID | None = None  # the fight it is in now (joined, not yet left)
    combatant: str | None = None  # its id in that fight
    version: int = 0
    head: str = ""  # the hash of its last record
    # A fight joined before campaigns existed, whose outcome was to be read when next
    # needed: settled once when this release first opens the store (Campaigns.settle_legacy).
    unsettled: CharacterJoined | None = None


class Campaign(msgspec.Struct, frozen=True, kw_only=True):
    id: UUID
    name: str


def _normal(name: str) -> str:
    return " ".join(name.split()).lower()


def same_name(a: str, b: str) -> bool:
    """Do two names name one character (or campaign), whatever their case or spacing?"""
    return _normal(a) == _normal(b)


def character_id(campaign: UUID, name: str) -> UUID:
    """One log per name in a campaign, whatever its case or spacing (the default campaign's
    ids are the ones characters had before campaigns, so an older store reads as it is)."""
    if campaign == DEFAULT_CAMPAIGN:
        return uuid.uuid5(_NAMESPACE, _normal(name))
    return uuid.uuid5(campaign, _normal(name))


def fold_character(records: list[PartyRecord], unhashed_through: int = 0) -> StoredCharacter | None:
    found: StoredCharacter | None = None
    for rec, head in checked(records, unhashed_through):
        e = rec.event
        if isinstance(e, CharacterSaved):
            campaign = e.campaign or DEFAULT_CAMPAIGN
            found = (
                StoredCharacter(name=e.sheet.name, sheet=e.sheet, campaign=campaign)
                if found is None
                else msgspec.structs.replace(found, sheet=e.sheet)
            )
        elif found is None:
            continue
        elif isinstance(e, CharacterJoined) and not rec.hash:
            found = msgspec.structs.replace(found, unsettled=e)
        elif isinstance(e, CharacterJoined):
            found = msgspec.structs.replace(found, fight=e.encounter, combatant=e.combatant, unsettled=None)
        elif isinstance(e, StatusCarried):
            found = msgspec.structs.replace(found, status=e.status)
        elif isinstance(e, CharacterLeft):
            found = msgspec.structs.replace(found, fight=None, combatant=None, unsettled=None)
        elif isinstance(e, Rested):
            found = msgspec.structs.replace(found, status=e.status, unsettled=None)
        found = msgspec.structs.replace(found, version=rec.originator_version, head=head)
    return found


def fold_campaign(records: list[PartyRecord]) -> Campaign | None:
    for rec, _ in checked(records):  # campaigns came with the chain: every record is hashed
        if isinstance(rec.event, CampaignCreated):
            return Campaign(id=rec.originator_id, name=rec.event.name)
    return None
