"""Every event and command type of every ruleset, joined into the public tagged unions.

The log's decoder, the JSON Schema and the command parser read these, so a ruleset's own
event types are understood everywhere once the ruleset is registered.

Commands are read per ruleset: a command's `type` tag names one command within a ruleset
(the kernel's shared commands and the ruleset's own), and two rulesets may each have their
own command under the same tag (`add_creature` takes a bestiary name in the 5e rulesets and
a first-edition stat block in segments-1e). Event types, stored in the log, are one union.
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING, Any, Union

import msgspec

from combat.app.reference import fields_hint
from combat.kernel.commands import COMMAND_TYPES, Command, trigger_of
from combat.kernel.errors import RuleError
from combat.kernel.events import EVENT_TYPES, Event
from combat.rulesets import RULESETS

__all__ = ["ALL_EVENT_TYPES", "ALL_COMMAND_TYPES", "AnyEvent", "command_types_of", "command_schema", "command_type_of", "decode_command"]


def _joined(shared: tuple, own: str) -> tuple:
    joined = list(shared)
    for ruleset in RULESETS.values():
        joined.extend(t for t in getattr(ruleset, own) if t not in joined)
    return tuple(joined)


ALL_EVENT_TYPES: tuple[type[Event], ...] = _joined(EVENT_TYPES, "events")
# Every command type of every ruleset (two of them may share a tag: see command_types_of).
ALL_COMMAND_TYPES: tuple[type[Command], ...] = _joined(COMMAND_TYPES, "commands")
if TYPE_CHECKING:
    # To a type checker the joined union is its base class: the members are only known
    # once every ruleset is registered, at run time.
    AnyEvent = Event
else:
    AnyEvent = Union[ALL_EVENT_TYPES]


@cache
def _by_tag(ruleset_id: str) -> dict[str, type[Command]]:
    """What an encounter of the ruleset reads: the commands it has rules for, and those every
    ruleset answers in any phase (reveal)."""
    ruleset = RULESETS[ruleset_id]
    table: dict[str, type[Command]] = {trigger_of(c): c for c in COMMAND_TYPES if c.any_phase}
    for command_type in ruleset.handlers:
        tag = trigger_of(command_type)
        if tag in table and table[tag] is not command_type:
            raise TypeError(f"{ruleset_id} has two commands tagged {tag}: {table[tag].__qualname__} and {command_type.__qualname__}")
        table[tag] = command_type
    return table


@cache
def _decoder(ruleset_id: str) -> msgspec.json.Decoder[Any]:
    return msgspec.json.Decoder(Union[tuple(command_types_of(ruleset_id).values())])


@cache
def _holder(ruleset_id: str) -> Any:
    """A struct of one field, the ruleset's command. msgspec keeps what it works out about a
    Struct type between calls, not about a bare union: converting a dict to the union itself
    worked the union out again on every command, a tenth of the rules' time."""
    return msgspec.defstruct(f"OneCommand_{ruleset_id.replace('-', '_')}", [("command", _decoder(ruleset_id).type)])


def command_types_of(ruleset_id: str) -> dict[str, type[Command]]:
    """The commands an encounter of this ruleset reads, by their `type` tag."""
    if ruleset_id not in RULESETS:
        raise RuleError("ruleset/unknown", f"no ruleset {ruleset_id!r}", allowed=", ".join(RULESETS))
    return _by_tag(ruleset_id)


def decode_command(data: bytes | str | dict, ruleset: str) -> Command:
    """Read one command of an encounter of `ruleset` from JSON (or an already parsed
    object), with a clear error naming what was wrong and what that ruleset takes."""
    table = command_types_of(ruleset)  # an unknown ruleset is refused first
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
