"""The bodies the service reads and writes: msgspec types, so Litestar validates them and
the OpenAPI document at /schema describes them. Field names are a contract with clients."""

from __future__ import annotations

import re
from datetime import datetime
from typing import TYPE_CHECKING, Annotated, Any, Literal, Union
from uuid import UUID

import msgspec

from combat.app.command_ids import CLIENT_ID
from combat.kernel.decider import Ruleset
from combat.kernel.state import UNSHOWN, SharedState, Tie
from combat.rulesets import RULESETS
from projections.initiative import InitiativeEntry

__all__ = [
    "Role",
    "MAX_SEQ",
    "CreateEncounter",
    "EncounterOpened",
    "TokenRequest",
    "TokenIssued",
    "TokenInfo",
    "CommandRequest",
    "CommandDone",
    "StateView",
    "STATE_VIEWS",
    "state_views",
    "LogLine",
    "UndoRequest",
    "RetractRequest",
    "AmendRequest",
    "OverrideRequest",
    "ForkRequest",
    "RulesetInfo",
    "Health",
    "ErrorBody",
]

Role = Literal["gm", "player", "viewer"]
# Read as the encounter's ruleset reads it, once the encounter is known (two rulesets may
# mean different commands by one `type`: combat.app.catalog).
CommandBody = Annotated[
    dict[str, Any],
    msgspec.Meta(
        description="a command of the encounter's ruleset: its `type` and fields, as GET /rulesets/{id}/commands lists them "
        "and GET /schemas/commands/{ruleset} gives their JSON Schema",
        examples=[{"type": "end_turn", "combatant": "aria"}],
    ),
]
MAX_TOKEN_LIFE = 366 * 24 * 3600  # a year: a campaign's token can be issued again
MAX_SEQ = 2**53  # the largest integer every JSON reader keeps exact; stores take 64-bit integers
Seq = Annotated[int, msgspec.Meta(ge=1, le=MAX_SEQ, description="a position in the encounter's log, from 1")]
CommandId = Annotated[
    str,
    msgspec.Meta(
        pattern=CLIENT_ID.pattern,
        description="the client's id for this request (or send the Idempotency-Key header): "
        "a repeat returns the first outcome and appends nothing; the same id with another request "
        "is refused (422 command-id/reused)",
    ),
]
ExpectedVersion = Annotated[int, msgspec.Meta(ge=1, le=MAX_SEQ, description="refuse (409) unless the log is at this seq")]


class _Body(msgspec.Struct, kw_only=True, forbid_unknown_fields=True):
    """A request body: unknown fields are refused so a typo is not silently ignored."""


class CreateEncounter(_Body):
    ruleset: str = "srd-2024"
    name: str = "Encounter"
    settings: dict[str, Any] | None = None
    seed: int | None = None  # dice seed; random when left out


class EncounterOpened(msgspec.Struct, kw_only=True):
    id: UUID
    ruleset: str
    name: str
    version: int
    gm_token: str  # shown once: the service keeps only its hash
    gm_token_id: str  # the token's public id (to list or revoke it)


class TokenRequest(_Body):
    role: Role
    name: str = ""  # a player's name is the actor recorded for their commands
    combatants: tuple[str, ...] = ()  # a player's characters: the only ones they may command
    expires_in: Annotated[int, msgspec.Meta(ge=60, le=MAX_TOKEN_LIFE, description="seconds until the token expires")] | None = (
        None
    )


class TokenIssued(msgspec.Struct, kw_only=True):
    token: str  # shown once
    token_id: str  # public: names the token in GET /encounters/{id}/tokens and its revocation
    encounter_id: UUID
    role: Role
    name: str
    combatants: tuple[str, ...]
    expires_at: datetime | None = None


class TokenInfo(msgspec.Struct, kw_only=True):
    """An issued token as the GM sees it in the list: never its secret."""

    token_id: str
    role: Role
    name: str
    combatants: tuple[str, ...]
    issued_at: datetime
    expires_at: datetime | None = None
    revoked_at: datetime | None = None
    active: bool  # neither revoked nor expired


class CommandRequest(_Body):
    command: CommandBody
    expected_version: ExpectedVersion | None = None  # without it, the server decides again on a newer state
    command_id: CommandId | None = None


def _state_view(ruleset: Ruleset) -> type[msgspec.Struct]:
    """One ruleset's state projection: `ruleset` names it, then the shared fields, its own
    state under its `state_key` (present once it holds something), and what a table shows
    beside. No other field: another ruleset's block is not one of its fields."""
    shared: list[tuple[str, Any, Any]] = [
        (
            f.name,
            f.type,
            f.default if f.default_factory is msgspec.NODEFAULT else msgspec.field(default_factory=f.default_factory),
        )
        for f in msgspec.structs.fields(SharedState)
        if f.name != "ruleset" and f.name not in UNSHOWN
    ]
    own: list[tuple[str, Any, Any]] = (
        [(ruleset.state_key, ruleset.state_type | msgspec.UnsetType, msgspec.UNSET)] if ruleset.state_key else []
    )
    shown: list[tuple[str, Any, Any]] = [
        ("initiative_order", tuple[InitiativeEntry, ...], ()),
        ("unresolved_ties", tuple[Tie, ...], ()),
        ("commands", tuple[str, ...], ()),  # what may be sent in the current phase
    ]
    name = "".join(part.capitalize() for part in re.split(r"[-_]", ruleset.id)) + "StateView"
    view = msgspec.defstruct(
        name,
        shared + own + shown,
        module=__name__,
        frozen=True,
        kw_only=True,
        forbid_unknown_fields=True,
        tag_field="ruleset",
        tag=ruleset.id,
    )
    view.__doc__ = f"The state of an encounter played by {ruleset.id} ({ruleset.title})."
    return view


# One alternative per ruleset, told apart by `ruleset`. The service's OpenAPI document reads
# these as they are when it is built; `state_views` reads the registry as it is now.
STATE_VIEWS: tuple[type[msgspec.Struct], ...] = tuple(_state_view(r) for r in RULESETS.values())
if TYPE_CHECKING:
    StateView = SharedState
else:
    StateView = Union[STATE_VIEWS]  # noqa: UP007  (a union of types only known at run time)

_views: tuple[int, Any] = (RULESETS.version, StateView)


def state_views() -> Any:
    """The union of every registered ruleset's state view, with those registered since import."""
    global _views
    version = RULESETS.version
    if _views[0] != version:
        _views = (version, Union[tuple(_state_view(r) for r in RULESETS.values())])  # noqa: UP007  (as above)
    return _views[1]


class CommandDone(msgspec.Struct, kw_only=True):
    version: int
    events: list[dict[str, Any]]  # the appended events, as lines of the JSONL log
    state: StateView | msgspec.UnsetType = msgspec.UNSET  # only with ?state=full


class UndoRequest(_Body):
    reason: str  # stays in the log
    expected_version: ExpectedVersion | None = None
    command_id: CommandId | None = None


class RetractRequest(_Body):
    seqs: tuple[Seq, ...]  # retracting a retraction brings its events back
    reason: str
    expected_version: ExpectedVersion | None = None
    command_id: CommandId | None = None
    whole: bool = False  # take every event of each command named (else part of a command is refused)


class AmendRequest(_Body):
    seqs: tuple[Seq, ...]  # the ruling to replace (every event of its command goes)
    command: CommandBody  # decided where the original stood
    reason: str
    expected_version: ExpectedVersion | None = None
    command_id: CommandId | None = None


class OverrideRequest(_Body):
    seqs: tuple[Seq, ...]  # conflicting events that stand by the GM's ruling
    ruling: str
    expected_version: ExpectedVersion | None = None
    command_id: CommandId | None = None


class ForkRequest(_Body):
    at: Seq  # branch from the state at this seq
    name: str | None = None
    expected_version: ExpectedVersion | None = None
    command_id: CommandId | None = None  # a repeat returns the same branch (with a new GM token)


class LogLine(msgspec.Struct, kw_only=True):
    seq: int
    text: str


class RulesetInfo(msgspec.Struct, kw_only=True):
    id: str
    title: str
    summary: str
    settings: dict[str, Any]  # the defaults; POST /encounters may override them
    phases: tuple[str, ...]
    initial: str
    commands: dict[str, list[str]]  # phase -> commands allowed in it


class Health(msgspec.Struct, kw_only=True):
    status: Literal["ok"]
    store: str


class ErrorBody(msgspec.Struct, kw_only=True):
    error: str  # a stable code, `area/what`
    detail: str  # what was wrong
    allowed: str | None = None  # what would have been accepted
