"""Tamper evidence: each event's hash is chained to the one before it in its encounter.

`hash(n) = sha256(hash(n-1) + "\\n" + canonical bytes of event n)`, with `hash(0) = ""`.
The canonical bytes are the event's JSONL line without its `hash`, keys sorted, and the
fields that hold their default left out, in the event and in the structs inside it (so a
field added later with a default does not change the bytes of events written before it). Logs written before hashes existed
still load: their events carry no hash, yet the chain runs through them, so the first hashed
event vouches for everything before it. A store accepts such rows only in the logs it listed
as old when this release first opened it (combat.store.prehash); a file has no store, so
`combat verify FILE` reports them and refuses a file with none hashed (docs/trust.md).

`verify` walks a log and reports the first seq where it breaks: a seq out of order, a hash
that does not match, a hash missing after a hashed event, dice faces that do not add up to
their total or cannot land on their die, or a head that is not the one published.
See docs/trust.md for what this proves and what it does not.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import msgspec

from combat.kernel import dice
from combat.kernel.errors import RuleError
from combat.kernel.events import DiceRolled, EncounterCreated
from combat.kernel.hashing import plain
from combat.kernel.records import Recorded
from combat.store import UnreadableRow

__all__ = [
    "GENESIS",
    "canonical",
    "link",
    "seal",
    "Break",
    "Report",
    "Undecoded",
    "verify",
    "TamperedLog",
    "MissingHash",
    "NotPreHash",
    "UnreadableRow",
    "LinkCheck",
    "head_of",
    "snapshot_digest",
]

GENESIS = ""
_encoder = msgspec.json.Encoder(order="sorted")


def canonical(rec: Recorded) -> bytes:
    """The bytes a record's hash covers: its JSONL line, without `hash`, keys sorted."""
    event = rec.event
    payload = plain(event)
    line = {
        "seq": rec.seq,
        "type": type(event).__struct_config__.tag,
        "at": rec.timestamp,
        "actor": rec.actor,
        "command_id": rec.command_id,
        **payload,
    }
    return _encoder.encode(line)


def link(previous: str, rec: Recorded) -> str:
    return hashlib.sha256(previous.encode() + b"\n" + canonical(rec)).hexdigest()


def seal(previous: str, records: Iterable[Recorded]) -> list[Recorded]:
    """The records with their chained hashes, following the event whose hash is `previous`."""
    sealed = []
    for rec in records:
        previous = link(previous, rec)
        sealed.append(msgspec.structs.replace(rec, hash=previous))
    return sealed


@dataclass(frozen=True)
class Break:
    seq: int
    problem: str


@dataclass(frozen=True)
class Undecoded:
    """A record whose event type no installed ruleset reads (its plug-in not installed:
    combat.app.undecoded): its envelope, and the bytes its hash covers if none of its fields
    held a default (only its type knows which fields have one)."""

    seq: int
    type: str
    timestamp: datetime
    hash: str
    fields: bytes

    def link(self, previous: str) -> str:
        return hashlib.sha256(previous.encode() + b"\n" + self.fields).hexdigest()


@dataclass(frozen=True)
class Report:
    """What `verify` found: how many events, the head hash it computed, how many leading
    events carry no hash (written before hashes existed), and the first break if any."""

    events: int
    head: str
    unchained: int
    broken: Break | None
    # Snapshots that do not match the log (checked by Encounters.verify): a load passes them
    # over and folds the log instead, but someone wrote them.
    snapshots: tuple[Break, ...] = ()
    # Events whose type no installed ruleset reads, checked over their fields as stored
    # (`Undecoded`): their types, and the seqs whose hash those fields did not bear out
    # (fields at a default, left out of the hashed bytes, which only the ruleset knows).
    undecoded: tuple[str, ...] = ()
    unchecked: tuple[int, ...] = ()
    ruleset: str = ""  # the log's, as its first event names it

    @property
    def ok(self) -> bool:
        """Nothing broken, and nothing left unchecked for want of a ruleset."""
        return self.broken is None and not self.snapshots and not self.unchecked


class TamperedLog(RuleError):
    code_of_kind = "log/tampered"

    def __init__(self, broken: Break, where: str = "the stored log"):
        super().__init__(
            self.code_of_kind,
            f"{where} breaks at seq {broken.seq}: {broken.problem}",
            allowed="restore the log from a copy whose chain verifies (combat verify)",
        )
        self.broken = broken


class MissingHash(TamperedLog):
    """A row without a hash in a log chained before it: never served, never chained onto."""

    code_of_kind = "log/hash-missing"


def not_prehash(unhashed_through: int) -> str:
    if not unhashed_through:
        return (
            "it carries no hash, and the store does not list this encounter among the logs written "
            "before hashes existed (its hashes were removed)"
        )
    return (
        f"it carries no hash, and the store lists only seq 1-{unhashed_through} of this encounter "
        "as written before hashes existed (its hash was removed)"
    )


class NotPreHash(MissingHash):
    """A row without a hash in a log the store does not list as written before hashes
    (combat.store.prehash): every hash stripped and the log relabelled as old."""

    code_of_kind = "log/not-pre-hash"


def _dice_problem(event: DiceRolled) -> str | None:
    """Do the faces land on their dice and add up to the total the notation gives?"""
    try:
        again = dice.roll(event.notation, faces=[d.face for d in event.dice])
    except RuleError as exc:
        return f"the dice of {event.notation!r} do not fit it: {exc.message}"
    if again.dice != event.dice:
        return f"the dice listed for {event.notation!r} are not the ones it rolls (sizes or kept dice differ)"
    if again.total != event.total:
        return f"{event.notation!r} with faces {[d.face for d in event.dice]} totals {again.total}, not {event.total}"
    return None


def verify(records: Iterable[Recorded | Undecoded], *, head: str | None = None, unhashed_through: int | None = None) -> Report:
    """Walk a whole log from seq 1: the chain, the seqs and every roll's arithmetic.

    `unhashed_through`: the last seq that may lack a hash (written before hashes existed).
    A store says so per encounter (combat.store.prehash); a file has no store to ask (None),
    so its leading rows without a hash are counted (`Report.unchained`) for the caller to judge.

    An `Undecoded` record (its ruleset not installed) is linked over its fields as stored.
    Where its hash does not match them it is listed as unchecked, never as a break: the
    chain goes on from its stored hash, so every event after it is still checked."""
    previous, count, unchained, hashed = GENESIS, 0, 0, False
    undecoded: dict[str, None] = {}
    unchecked: list[int] = []
    guessed = False  # `previous` links an undecoded event without a hash: worked out, not stored
    ruleset = ""

    def report(broken: Break | None) -> Report:
        return Report(
            events=count,
            head=previous,
            unchained=unchained,
            broken=broken,
            undecoded=tuple(undecoded),
            unchecked=tuple(unchecked),
            ruleset=ruleset,
        )

    heads: dict[str, int] = {}
    for rec in records:
        expected_seq = count + 1
        if rec.seq != expected_seq:
            what = "repeats a seq" if rec.seq <= count else "skips seqs: lines are missing"
            return report(Break(expected_seq, f"found seq {rec.seq} where seq {expected_seq} belongs ({what})"))
        event = rec.event if isinstance(rec, Recorded) else None
        if count == 0:
            if not isinstance(event, EncounterCreated):
                kind = rec.type if isinstance(rec, Undecoded) else type(event).__name__
                return report(Break(1, f"the log starts with {kind}, not EncounterCreated: lines are missing"))
            ruleset = event.ruleset
        if isinstance(rec, Undecoded):
            undecoded[rec.type] = None
            computed = rec.link(previous)
            guessed = guessed or not rec.hash
        else:
            computed = link(previous, rec)
        if isinstance(event, EncounterCreated) and event.chained:
            hashed = True  # chained from its first event: a row of it without a hash was stripped
        if rec.hash:
            if rec.hash != computed:
                if not (guessed or isinstance(rec, Undecoded)):
                    return report(
                        Break(
                            rec.seq,
                            "its hash does not match its content and the events before it "
                            "(this line, or one before it, was changed, removed or moved)",
                        )
                    )
                # Its fields, or the link before it, are an undecoded event's as stored: the
                # chain goes on from its stored hash, the event listed as not checked.
                unchecked.append(rec.seq)
                computed = rec.hash
            hashed, guessed = True, False
        elif hashed:
            return report(Break(rec.seq, "it carries no hash although the log is chained (a hash was removed)"))
        elif unhashed_through is not None and rec.seq > unhashed_through:
            return report(Break(rec.seq, not_prehash(unhashed_through)))
        else:
            unchained += 1
        if isinstance(event, DiceRolled):
            problem = _dice_problem(event)
            if problem is not None:
                return report(Break(rec.seq, problem))
        previous, count = computed, count + 1
        heads[computed] = count
    if count == 0:
        return report(Break(1, "the log holds no events"))
    if head is not None and head != previous:
        at = heads.get(head)
        problem = (
            f"the published head is the hash of seq {at}: events after it were added"
            if at is not None
            else f"the log ends at seq {count} but its head is not the published one: events were cut or changed"
        )
        return report(Break(count + 1 if at is None else at + 1, problem))
    return report(None)


class LinkCheck:
    """The cheap check on load: each record follows the chain hash of the one before it.
    Call it on each record in seq order; it raises TamperedLog at the first that does not.
    `previous` is the chain hash before the first record: GENESIS before seq 1, None when
    unknown (reading from the middle of a log).

    Once a record carries a hash the log is chained: every later record must carry one
    (MissingHash otherwise). A record without one before that was written before hashes
    existed: the chain runs through it, so the first hashed record after it vouches for it,
    and a row whose hash was stripped and whose content was then changed breaks the check at
    the next hashed row. Only the rows the store lists as written before hashes
    (`unhashed_through`, combat.store.prehash) may lack one: any other row without a hash is
    refused (NotPreHash), whatever the log's first event says."""

    def __init__(self, previous: str | None, *, unhashed_through: int):
        self.previous = previous
        self.chained = bool(previous)
        self.unhashed_through = unhashed_through  # the store's word: seq 1 to this predate hashes

    def __call__(self, rec: Recorded) -> Recorded:
        computed = link(self.previous, rec) if self.previous is not None else None
        if isinstance(rec.event, EncounterCreated) and rec.event.chained:
            self.chained = True  # its first event says the log is chained: every row carries a hash
        if rec.hash:
            if computed is not None and computed != rec.hash:
                raise TamperedLog(
                    Break(
                        rec.seq,
                        "its hash does not match its content and the events before it "
                        "(this row, or one before it, was changed, or its hash removed)",
                    )
                )
            self.chained = True
            self.previous = rec.hash
        elif self.chained:
            raise MissingHash(Break(rec.seq, "it carries no hash although the log is chained before it (a hash was removed)"))
        elif rec.seq > self.unhashed_through:
            raise NotPreHash(Break(rec.seq, not_prehash(self.unhashed_through)))
        else:
            self.previous = computed
        return rec


_state_encoder = msgspec.json.Encoder(order="deterministic")


def snapshot_digest(encounter_id: object, seq: int, head: str, state: Any) -> str:
    """What a snapshot's `digest` holds: its state bound to the chain hash of the event it
    was taken after. A load uses the snapshot only if this and the log both agree with it;
    someone who edits the state and works the digest out again still does not match the log
    when `combat verify` folds it (see docs/trust.md)."""
    return hashlib.sha256(f"{encounter_id}\n{seq}\n{head}\n".encode() + _state_encoder.encode(state)).hexdigest()


def head_of(records: Iterable[Recorded], previous: str = GENESIS) -> str:
    """The chain hash after `records` (stored hashes are not trusted here, only recomputed)."""
    for rec in records:
        previous = link(previous, rec)
    return previous
