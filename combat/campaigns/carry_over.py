"""Carry-over: what each fight does to a campaign's characters, carried to their logs by a
follower of the encounters' logs.

The follower (combat.store.party.follow) reads every encounter's records in the order the
store numbered them and hands them here a batch at a time; what this returns is appended to
the characters' logs in the same transaction as the position reached, so each event is
carried once, also after a crash. For each encounter of a campaign in the batch:

- a `SheetAttached` naming a stored character that is in no fight: it joins this one;
- for each character in this fight: what the fight leaves it carrying, read from the
  encounter's state after the batch (so an undo, an amended ruling or a retraction in the
  fight is carried like any other event: the state is what the log says now);
- it leaves when the fight ends, or when it is no longer in the fight as that character
  (removed, or its joining undone).

A practice fight and a what-if fork (`forked_from`) are never carried. An encounter with no
campaign that has stored characters in it was played before campaigns existed: it is the
default campaign's.
"""

from __future__ import annotations

from collections.abc import Callable
from uuid import UUID

from combat.campaigns.records import (
    DEFAULT_CAMPAIGN,
    CharacterJoined,
    CharacterLeft,
    PartyEvent,
    PartyRecord,
    StatusCarried,
    StoredCharacter,
    TamperedParty,
    character_id,
)
from combat.fivee.characters import SheetAttached, character, status_of
from combat.kernel.events import EncounterCreated
from combat.kernel.records import Recorded
from combat.kernel.state import EncounterState
from combat.store import UnreadableRow

__all__ = ["CarryOver", "carried_to"]

FOLLOWER = "carry-over"
ACTOR = "carry-over"


def carried_to(created: EncounterCreated) -> UUID | None:
    """The campaign an encounter's outcome is carried to; None for a practice fight or a fork."""
    if created.forked_from is not None or created.practice:
        return None
    return created.campaign or DEFAULT_CAMPAIGN


class CarryOver:
    """One batch of records in, the characters' records to append out."""

    def __init__(
        self,
        created: Callable[[UUID], EncounterCreated],
        state_at: Callable[[UUID, int], EncounterState],
        read: Callable[[UUID], list[PartyRecord]],
        fold: Callable[[UUID, list[PartyRecord]], StoredCharacter | None],
        roster_ids: Callable[[], list[UUID]],
        record: Callable[[UUID, int, str, PartyEvent, str], PartyRecord],
    ):
        self._created = created
        self._state_at = state_at
        self._read = read
        self._fold = fold
        self._roster_ids = roster_ids
        self._record = record
        self._campaigns: dict[UUID, UUID | None] = {}  # encounter -> the campaign it is carried to

    def _campaign_of(self, encounter_id: UUID, first: Recorded) -> UUID | None:
        if encounter_id not in self._campaigns:
            created = first.event if isinstance(first.event, EncounterCreated) else self._created(encounter_id)
            self._campaigns[encounter_id] = carried_to(created)
        return self._campaigns[encounter_id]

    def __call__(self, records: list[Recorded]) -> list[PartyRecord]:
        by_encounter: dict[UUID, list[Recorded]] = {}
        for rec in records:
            by_encounter.setdefault(rec.originator_id, []).append(rec)
        out: list[PartyRecord] = []
        logs: dict[UUID, list[PartyRecord]] = {}  # each character's log, read once a batch, with what it appends
        working: dict[UUID, StoredCharacter | None] = {}  # as those records leave them
        in_fights: dict[UUID, list[UUID]] | None = None  # fight -> character log ids, read once a batch

        def current(log_id: UUID) -> StoredCharacter | None:
            if log_id not in working:
                try:
                    logs[log_id] = self._read(log_id)
                    working[log_id] = self._fold(log_id, logs[log_id])
                except (UnreadableRow, TamperedParty):
                    working[log_id] = None  # not carried to: `combat verify --campaigns` reports it
            return working[log_id]

        def emit(found: StoredCharacter, log_id: UUID, event: PartyEvent) -> StoredCharacter:
            rec = self._record(log_id, found.version, found.head, event, ACTOR)
            out.append(rec)
            logs[log_id].append(rec)
            after = self._fold(log_id, logs[log_id])
            assert after is not None
            working[log_id] = after
            return after

        for encounter_id, recs in by_encounter.items():
            campaign = self._campaign_of(encounter_id, recs[0])
            if campaign is None:
                continue
            joining = [
                (r.event.character, r.event.combatant)
                for r in recs
                if isinstance(r.event, SheetAttached) and r.event.character is not None
            ]
            if in_fights is None:
                in_fights = {}
                for log_id in self._roster_ids():
                    found = current(log_id)
                    if found is not None and found.fight is not None:
                        in_fights.setdefault(found.fight, []).append(log_id)
            here = list(in_fights.get(encounter_id, []))
            if not joining and not here:
                continue
            state = self._state_at(encounter_id, recs[-1].seq)
            for name, combatant in joining:
                log_id = character_id(campaign, name)
                found = current(log_id)
                if found is None or found.campaign != campaign or found.fight is not None:
                    continue  # in another fight already: this one is not carried to it
                emit(found, log_id, CharacterJoined(encounter=encounter_id, combatant=combatant))
                here.append(log_id)
                in_fights.setdefault(encounter_id, []).append(log_id)
            for log_id in dict.fromkeys(here):
                found = current(log_id)
                if found is None or found.fight != encounter_id or found.combatant is None:
                    continue
                held = character(state, found.combatant) if found.combatant in state.combatants else None
                if held is None or held.character is None or character_id(campaign, held.character) != log_id:
                    emit(found, log_id, CharacterLeft(encounter=encounter_id, reason="no longer in the fight"))
                    continue
                status = status_of(state, found.combatant)
                if status != found.status:
                    found = emit(found, log_id, StatusCarried(encounter=encounter_id, status=status, seq=recs[-1].seq))
                if state.ended_reason is not None:
                    emit(found, log_id, CharacterLeft(encounter=encounter_id, reason="the fight ended"))
        return out
