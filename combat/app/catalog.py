"""Every event and command type of every ruleset, joined into the public tagged unions.

The log's decoder, the JSON Schema and the command parser read these, so a ruleset's own
event types are understood everywhere once the ruleset is registered. The log's decoders
know the rulesets loaded so far (a ruleset loads when first needed: combat.rulesets); what
lists every type (`event_types`, `all_command_types`, `any_event`: the schemas, the docs)
loads every ruleset first.

Commands are read per ruleset: a command's `type` tag names one command within a ruleset
(the kernel's shared commands and the ruleset's own), and two rulesets may each have their
own command under the same tag (`add_creature` takes a bestiary name in the 5e rulesets and
a first-edition stat block in segments-1e). Event types, stored in the log, are one union.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Union

import msgspec

from combat.app.reference import fields_hint
from combat.kernel.commands import COMMAND_TYPES, Command, trigger_of
from combat.kernel.errors import RuleError
from combat.kernel.events import EVENT_TYPES, Event
from combat.kernel.records import Recorded
from combat.rulesets import RULESETS

__all__ = [
    "ALL_EVENT_TYPES",
    "ALL_COMMAND_TYPES",
    "AnyEvent",
    "event_types",
    "all_command_types",
    "any_event",
    "event_decoder",
    "record_decoder",
    "load_more",
    "command_types_of",
    "command_schema",
    "command_type_of",
    "decode_command",
]


def _joined(shared: tuple, own: str) -> tuple:
    joined = list(shared)
    for ruleset in RULESETS.loaded():
        joined.extend(t for t in getattr(ruleset, own) if t not in joined)
    return tuple(joined)


class _Catalog:
    """Everything built from the rulesets loaded when the registry stood at `version`: a
    ruleset registered or loaded later moves the version on, and the next reader builds a new catalog that knows it
    (before, the union and the log's decoder were built once at import, so a plug-in
    registered after that stored events its own log could not read back)."""

    def __init__(self, version: int):
        self.version = version
        self.event_types: tuple[type[Event], ...] = _joined(EVENT_TYPES, "events")
        # Every command type of every ruleset (two of them may share a tag: see command_types_of).
        self.command_types: tuple[type[Command], ...] = _joined(COMMAND_TYPES, "commands")
        self.any_event: Any = Union[self.event_types]  # noqa: UP007  (a union of a tuple made at run time)
        self.events: msgspec.json.Decoder[Event] = msgspec.json.Decoder(self.any_event)
        self.records: msgspec.json.Decoder[Recorded] = msgspec.json.Decoder(Recorded[self.any_event])  # type: ignore[name-defined]
        self.by_tag: dict[str, dict[str, type[Command]]] = {}
        self.decoders: dict[str, msgspec.json.Decoder[Any]] = {}
        self.holders: dict[str, Any] = {}


_current: _Catalog | None = None


def _catalog() -> _Catalog:
    # The store reads each row of a log through here: the plain attribute, not the property
    # (a catalog exists only once the installed plug-ins have loaded, so it is the same).
    current = _current
    if current is not None and current.version == RULESETS._version:
        return current
    return _built()


def _built() -> _Catalog:
    global _current
    current = _current = _Catalog(RULESETS.version)
    return current


def _everything() -> _Catalog:
    RULESETS.load_all()
    return _catalog()


def event_types() -> tuple[type[Event], ...]:
    """Every event type of every ruleset registered now (each loaded): the kernel's first."""
    return _everything().event_types


def all_command_types() -> tuple[type[Command], ...]:
    """Every command type of every ruleset registered now (two may share a tag)."""
    return _everything().command_types


def any_event() -> Any:
    """The tagged union of every event type (`event_types`)."""
    return _everything().any_event


def event_decoder() -> msgspec.json.Decoder[Event]:
    """Reads one event of any ruleset loaded now from JSON (`load_more` loads the others)."""
    return _catalog().events


def record_decoder() -> msgspec.json.Decoder[Recorded]:
    """Reads one stored record (combat.kernel.records) holding an event of any ruleset
    loaded now: the store reads its rows with it (and loads the encounter's ruleset, then
    the others, when a row does not decode: combat.store.log)."""
    return _catalog().records


def load_more() -> bool:
    """Load every ruleset not loaded yet, for a reader whose event did not decode with the
    rulesets loaded so far; False if there was none left to load."""
    before = RULESETS.version
    RULESETS.load_all()
    return RULESETS.version != before


if TYPE_CHECKING:
    # To a type checker the joined union is its base class: the members are only known
    # once every ruleset is registered, at run time.
    AnyEvent = Event
    ALL_EVENT_TYPES: tuple[type[Event], ...]
    ALL_COMMAND_TYPES: tuple[type[Command], ...]
else:

    def __getattr__(name: str) -> Any:
        """The names this module had as constants, read from the registry as it is now.
        A module that keeps one from its import keeps the registry as it was then: call
        `event_types`, `all_command_types` or `any_event` instead."""
        if name == "ALL_EVENT_TYPES":
            return event_types()
        if name == "ALL_COMMAND_TYPES":
            return all_command_types()
        if name == "AnyEvent":
            return any_event()
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")


def _by_tag(ruleset_id: str) -> dict[str, type[Command]]:
    """What an encounter of the ruleset reads: the commands it has rules for, and those every
    ruleset answers in any phase (reveal)."""
    built = _catalog().by_tag
    table = built.get(ruleset_id)
    if table is not None:
        return table
    ruleset = RULESETS[ruleset_id]
    table = {trigger_of(c): c for c in COMMAND_TYPES if c.any_phase}
    for command_type in ruleset.handlers:
        tag = trigger_of(command_type)
        if tag in table and table[tag] is not command_type:
            raise TypeError(
                f"{ruleset_id} has two commands tagged {tag}: {table[tag].__qualname__} and {command_type.__qualname__}"
            )
        table[tag] = command_type
    built[ruleset_id] = table
    return table


def _decoder(ruleset_id: str) -> msgspec.json.Decoder[Any]:
    built = _catalog().decoders
    decoder = built.get(ruleset_id)
    if decoder is None:
        decoder = built[ruleset_id] = msgspec.json.Decoder(Union[tuple(command_types_of(ruleset_id).values())])  # noqa: UP007  (made at run time)
    return decoder


def _holder(ruleset_id: str) -> Any:
    """A struct of one field, the ruleset's command. msgspec keeps what it works out about a
    Struct type between calls, not about a bare union: converting a dict to the union itself
    worked the union out again on every command, a tenth of the rules' time."""
    built = _catalog().holders
    holder = built.get(ruleset_id)
    if holder is None:
        holder = built[ruleset_id] = msgspec.defstruct(
            f"OneCommand_{ruleset_id.replace('-', '_')}", [("command", _decoder(ruleset_id).type)]
        )
    return holder


def command_types_of(ruleset_id: str) -> dict[str, type[Command]]:
    """The commands an encounter of this ruleset reads, by their `type` tag."""
    if ruleset_id not in RULESETS:
        raise RuleError("ruleset/unknown", f"no ruleset {ruleset_id!r}", allowed=", ".join(RULESETS))
    return _by_tag(ruleset_id)


def decode_command(data: bytes | str | dict, ruleset: str) -> Command:
    """Read one command of an encounter of `ruleset` from JSON (or an already parsed
    object), with a clear error naming what was wrong and what that ruleset takes."""
    table = command_types_of(ruleset)  # an unknown ruleset is refused first
    if not isinstance(data, dict):
        # Read by the one type its tag names: the union of all of them is worked out only for
        # the error's words, which keeps a one-command `combat do` from paying for every type.
        one = table.get(_tag_of(data) or "")
        if one is not None:
            try:
                return _one(one).decode(data)
            except (msgspec.ValidationError, msgspec.DecodeError):
                pass
    try:
        if isinstance(data, dict):
            try:
                return msgspec.convert({"command": data}, _holder(ruleset)).command
            except msgspec.ValidationError:
                pass  # read again as the union itself, for the error's words and path
            return msgspec.convert(data, _decoder(ruleset).type)
        return _decoder(ruleset).decode(data)
    except msgspec.ValidationError as exc:
        meant = command_type_of(data, ruleset)
        elsewhere = _other_rulesets_reading(data, ruleset)
        if elsewhere:
            # Readable, by another ruleset: the encounter's ruleset is what refuses it.
            raise RuleError(
                "command/other-ruleset",
                f"{_tag_of(data)} as sent is a command of {', '.join(elsewhere)}, not of {ruleset}",
                allowed=fields_hint(meant) if meant is not None else f"{ruleset} command types: " + ", ".join(table),
            ) from None
        if meant is not None:
            # The type is known: the mistake is in its fields, so show those, not every type.
            raise RuleError("command/invalid", f"invalid {trigger_of(meant)}: {exc}", allowed=fields_hint(meant)) from None
        raise RuleError(
            "command/invalid",
            f"invalid command for {ruleset}: {exc}",
            allowed=f"{ruleset} command types: " + ", ".join(table),
        ) from None
    except msgspec.DecodeError as exc:
        raise RuleError("command/malformed", f"command is not valid JSON: {exc}") from None


_single: dict[type, msgspec.json.Decoder[Any]] = {}


def _one(command_type: type[Command]) -> msgspec.json.Decoder[Any]:
    decoder = _single.get(command_type)
    if decoder is None:
        decoder = _single[command_type] = msgspec.json.Decoder(command_type)
    return decoder


def command_type_of(data: object, ruleset: str) -> type[Command] | None:
    """The command type a JSON command (text or parsed) names in `ruleset`, if it names one."""
    tag = _tag_of(data)
    return command_types_of(ruleset).get(tag) if tag is not None else None


def _tag_of(data: object) -> str | None:
    try:
        parsed = msgspec.json.decode(data) if isinstance(data, (bytes, str)) else data
    except msgspec.DecodeError:
        return None
    tag = parsed.get("type") if isinstance(parsed, dict) else None
    return tag if isinstance(tag, str) else None


def command_schema(ruleset_id: str) -> dict[str, Any]:
    """JSON Schema of one command an encounter of this ruleset reads."""
    types = tuple(command_types_of(ruleset_id).values())
    refs, components = msgspec.json.schema_components(types, ref_template="#/$defs/{name}")
    return {
        "$schema": "https://json-schema.org/draft/2020-12/schema",
        "title": f"A command of an encounter of {ruleset_id}",
        "description": "`type` names the command; the other fields are its own (GET /rulesets/{id}/commands explains each).",
        "oneOf": list(refs),
        "$defs": components,
    }


def _other_rulesets_reading(data: bytes | str | dict, ruleset: str) -> list[str]:
    """The other rulesets that would read this command as it was sent."""
    readers = []
    for other in RULESETS:
        if other == ruleset:
            continue
        try:
            if isinstance(data, dict):
                msgspec.convert(data, _decoder(other).type)
            else:
                _decoder(other).decode(data)
        except (msgspec.ValidationError, msgspec.DecodeError):
            continue
        readers.append(other)
    return readers
