"""Campaigns and their characters: the use cases (create, save, read, rest, release, and an
`add_character` by name filled in) over the campaigns' store (combat.store.party).

Reads fold a log and never write. What a fight does to a character is carried by the
carry-over follower (combat.campaigns.carry_over): `carry_over` runs it in the calling
thread (after a write of the CLI or the Python API, and before a join or a rest, which are
writes and need what the character carries now); in the service one thread runs it
(combat.app.followers) and a read waits until it has caught up (`caught_up`).
"""

from __future__ import annotations

import re
import threading
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any
from uuid import UUID

import msgspec

from combat.campaigns.records import (
    DEFAULT_CAMPAIGN,
    Campaign,
    CampaignCreated,
    CharacterJoined,
    CharacterLeft,
    CharacterSaved,
    PartyEvent,
    PartyRecord,
    Rested,
    StatusCarried,
    StoredCharacter,
    TamperedParty,
    character_id,
    fold_campaign,
    fold_character,
    link,
    same_name,
)
from combat.campaigns.rests import rest_of
from combat.characters.sheet import CharacterSheet, checked_sheet
from combat.fivee.characters import AddCharacter, character, status_of
from combat.kernel.errors import RuleError
from combat.store import SeqTaken, UnreadableRow
from combat.store.party import PartyLog

__all__ = ["Campaigns", "Roster", "Unreadable", "CAMPAIGN_NAME_LENGTH"]

CAMPAIGN_NAME_LENGTH = 120
_DEFAULT = Campaign(id=DEFAULT_CAMPAIGN, name="default")


class Unreadable(msgspec.Struct, frozen=True, kw_only=True):
    """A stored log that cannot be read: reported for itself, never for the whole roster."""

    id: UUID
    problem: str


class Roster(msgspec.Struct, frozen=True, kw_only=True):
    campaign: Campaign
    characters: list[StoredCharacter]
    unreadable: list[Unreadable] = []


class Campaigns:
    """Every campaign in one store, and its characters."""

    def __init__(self, env: dict[str, str], datastore: Any = None):
        self._log: PartyLog[PartyRecord] = PartyLog(env, PartyRecord, datastore=datastore)
        self._follow: Callable[[], int] | None = None  # set by Encounters (combat.app.application)
        self._behind: Callable[[], bool] = lambda: False
        self._following = threading.Lock()
        # The service's follower thread (combat.app.followers), when one runs this follower.
        self.runner: Any = None

    def close(self) -> None:
        self._log.close()

    @property
    def log(self) -> PartyLog[PartyRecord]:
        return self._log

    # -- the follower ----------------------------------------------------------------------

    def attach(self, follow: Callable[[], int], behind: Callable[[], bool]) -> None:
        self._follow, self._behind = follow, behind

    def carry_over(self) -> None:
        """Carry every fight's events written so far to their characters, one follower at a
        time in this process (another process's follower may carry some first)."""
        if self._follow is not None:
            with self._following:
                self._follow()

    def behind(self) -> bool:
        """Are there fight events stored that the follower has not carried yet?"""
        return self._behind()

    def caught_up(self, timeout: float = 5.0) -> None:
        """Before a read in a process whose follower runs on its thread: wait until it has
        carried what was stored when the read began. Elsewhere a read folds what is there
        (every write of this process carried its fight over as it was made)."""
        if self.runner is not None:
            self.runner.caught_up(timeout)

    def settle_legacy(self, encounters: Any) -> Callable[[], list[PartyRecord]]:
        """What the fights joined before campaigns existed left their characters: carried
        now, once (combat.store.party.start_following). A fight still going is joined, so
        the follower carries the rest of it."""

        def settle() -> list[PartyRecord]:
            out = []
            for log_id in self._log.originators():
                try:
                    found = self.fold(log_id)
                except (UnreadableRow, TamperedParty):
                    continue
                if found is None or found.unsettled is None:
                    continue
                joined = found.unsettled
                try:
                    state = encounters.state(joined.encounter)
                except RuleError:
                    state = None
                held = None if state is None or joined.combatant not in state.combatants else character(state, joined.combatant)
                version, head = found.version, found.head
                events: list[PartyEvent] = []
                if state is not None and held is not None and held.character is not None:
                    status = status_of(state, joined.combatant)
                    if status != found.status:
                        events.append(StatusCarried(encounter=joined.encounter, status=status, seq=state.version))
                    if state.ended_reason is None:
                        events.append(CharacterJoined(encounter=joined.encounter, combatant=joined.combatant))
                if not events or isinstance(events[-1], StatusCarried):
                    events.append(CharacterLeft(encounter=joined.encounter, reason="settled when campaigns came"))
                for event in events:
                    rec = self.record(log_id, version, head, event, "carry-over")
                    out.append(rec)
                    version, head = rec.originator_version, rec.hash
            return out

        return settle

    # -- campaigns -------------------------------------------------------------------------

    def create(self, name: str, *, actor: str = "gm") -> Campaign:
        name = " ".join(name.split())
        if not name or len(name) > CAMPAIGN_NAME_LENGTH:
            raise RuleError("campaign/bad-name", "a campaign needs a name", allowed=f"1 to {CAMPAIGN_NAME_LENGTH} characters")
        cid = uuid.uuid4()
        self._append(cid, 0, "", CampaignCreated(name=name), actor)
        return Campaign(id=cid, name=name)

    def campaign(self, campaign_id: UUID) -> Campaign:
        if campaign_id == DEFAULT_CAMPAIGN:
            return _DEFAULT
        found = fold_campaign(self._log.records(campaign_id))
        if found is None:
            raise RuleError("campaign/unknown", f"no campaign {campaign_id}", allowed="an id from POST /campaigns")
        return found

    def all_campaigns(self) -> list[Campaign]:
        found = [_DEFAULT]
        for log_id in self._log.originators():
            try:
                campaign = fold_campaign(self._log.records(log_id))
            except (UnreadableRow, TamperedParty):
                continue
            if campaign is not None:
                found.append(campaign)
        return found

    def named(self, text: str) -> Campaign:
        """A campaign by its id, or by its name when only one has it."""
        try:
            return self.campaign(UUID(text))
        except ValueError:
            pass
        matches = [c for c in self.all_campaigns() if same_name(c.name, text)]
        if len(matches) == 1:
            return matches[0]
        names = ", ".join(c.name for c in self.all_campaigns())
        if not matches:
            raise RuleError("campaign/unknown", f"no campaign named {text!r}", allowed=names)
        raise RuleError("campaign/ambiguous", f"{len(matches)} campaigns are named {text!r}", allowed="the campaign's id")

    # -- reading (never writes) ------------------------------------------------------------

    def fold(self, log_id: UUID) -> StoredCharacter | None:
        """A character's log as stored, folded, its chain checked."""
        return self.fold_records(log_id, self._log.records(log_id))

    def fold_records(self, log_id: UUID, records: list[PartyRecord]) -> StoredCharacter | None:
        """`records` of one character's log folded, its chain checked against the store's
        record of the logs written before hashes."""
        return fold_character(records, self._log.unhashed_through(log_id))

    def find(self, campaign: UUID, name: str) -> StoredCharacter | None:
        found = self.fold(character_id(campaign, name))
        return found if found is not None and found.campaign == campaign else None

    def get(self, campaign: UUID, name: str) -> StoredCharacter:
        found = self.find(campaign, name)
        if found is None:
            known = ", ".join(c.name for c in self.roster(campaign).characters)
            raise RuleError(
                "character/unknown",
                f"no character '{name[:80]}' in this campaign",
                allowed=known or "none yet: save one with `combat characters save` or POST /campaigns/{id}/characters",
            )
        return found

    def roster(self, campaign: UUID) -> Roster:
        """The campaign's characters by name; a log that cannot be read is listed apart."""
        characters: list[StoredCharacter] = []
        unreadable: list[Unreadable] = []
        for log_id in self._log.originators():
            try:
                found = self.fold(log_id)
            except (UnreadableRow, TamperedParty) as exc:
                unreadable.append(Unreadable(id=log_id, problem=str(exc)))
                continue
            if found is not None and found.campaign == campaign:
                characters.append(found)
        characters.sort(key=lambda c: c.name.lower())
        return Roster(campaign=self.campaign(campaign), characters=characters, unreadable=unreadable)

    def history(self, campaign: UUID, name: str) -> list[PartyRecord]:
        self.get(campaign, name)
        return self._log.records(character_id(campaign, name))

    def verify(self) -> list[Unreadable]:
        """Every stored log whose chain or rows do not hold."""
        broken = []
        for log_id in self._log.originators():
            try:
                self.fold(log_id)
            except (UnreadableRow, TamperedParty) as exc:
                broken.append(Unreadable(id=log_id, problem=str(exc)))
        return broken

    # -- writing ---------------------------------------------------------------------------

    def record(self, log_id: UUID, version: int, head: str, event: PartyEvent, actor: str) -> PartyRecord:
        """The next record of a log, chained to its head."""
        rec = PartyRecord(
            originator_id=log_id, originator_version=version + 1, timestamp=datetime.now(UTC), actor=actor, event=event
        )
        return msgspec.structs.replace(rec, hash=link(head, rec))

    def _append(self, log_id: UUID, version: int, head: str, event: PartyEvent, actor: str) -> None:
        try:
            self._log.append([self.record(log_id, version, head, event, actor)])
        except SeqTaken:
            raise RuleError(
                "character/changed", "it was changed by someone else at the same moment", allowed="send it again"
            ) from None

    def save(self, campaign: UUID, sheet: CharacterSheet, *, actor: str = "gm") -> StoredCharacter:
        """Store a new sheet, or replace a character's sheet (what it carries stays)."""
        self.campaign(campaign)
        sheet = checked_sheet(sheet)
        found = self.find(campaign, sheet.name)
        event = CharacterSaved(sheet=sheet, campaign=None if campaign == DEFAULT_CAMPAIGN else campaign)
        self._append(character_id(campaign, sheet.name), found.version if found else 0, found.head if found else "", event, actor)
        return self.get(campaign, sheet.name)

    def rest(
        self,
        campaign: UUID,
        name: str,
        kind: str,
        *,
        hit_dice: int = 0,
        faces: tuple[int, ...] | None = None,
        actor: str = "gm",
    ) -> tuple[StoredCharacter, Rested]:
        """A Short or Long Rest (combat.campaigns.rests); refused while the character is in a fight."""
        self.carry_over()
        found = self.get(campaign, name)
        if found.fight is not None:
            raise RuleError(
                "rest/in-fight",
                f"{found.name} is in the fight {found.fight}, and a rest is taken out of combat",
                allowed="rest after that fight ends, or once the GM releases the character from it (combat characters release, POST .../release)",
            )
        event = rest_of(found.sheet, found.status, kind, hit_dice, faces)
        self._append(character_id(campaign, name), found.version, found.head, event, actor)
        return self.get(campaign, name), event

    def release(self, campaign: UUID, name: str, *, actor: str = "gm") -> StoredCharacter:
        """Take a character out of the fight it is in, keeping what that fight left it with:
        the fight's later events are no longer carried to it."""
        self.carry_over()
        found = self.get(campaign, name)
        if found.fight is None:
            raise RuleError("character/not-in-fight", f"{found.name} is in no fight", allowed="a character in a fight")
        self._append(
            character_id(campaign, name),
            found.version,
            found.head,
            CharacterLeft(encounter=found.fight, reason="released by the GM"),
            actor,
        )
        return self.get(campaign, name)

    def resolve(self, command: AddCharacter, encounter_id: UUID, campaign: UUID, *, practice: bool) -> AddCharacter:
        """`add_character` naming a character of the encounter's campaign: its sheet and what it
        carries, filled in. Nothing is written: the join is carried from the encounter's own
        event once it is appended (combat.campaigns.carry_over)."""
        assert isinstance(command.character, str)
        self.carry_over()
        found = self.get(campaign, command.character)
        if not practice and found.fight is not None and found.fight != encounter_id:
            raise RuleError(
                "character/in-another-fight",
                f"{found.name} is in the fight {found.fight}",
                allowed="after that fight ends, once the GM releases the character from it, or in a practice fight",
            )
        cid = command.id or slug(found.sheet.name)
        return msgspec.structs.replace(command, character=found.sheet, status=found.status, stored_as=found.name, id=cid)


def slug(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", name.lower()).strip("-")[:48] or "character"
