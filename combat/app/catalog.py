"""Every event and command type of every ruleset, joined into the public tagged unions.

The log's decoder, the JSON Schema and the command parser read these, so a ruleset's own
event types are understood everywhere once the ruleset is registered.
"""

from __future__ import annotations

from typing import Union

import msgspec

from combat.app.reference import fields_hint
from combat.kernel.commands import COMMAND_TYPES, Command, trigger_of
from combat.kernel.errors import RuleError
from combat.kernel.events import EVENT_TYPES, Event
from combat.rulesets import RULESETS

__all__ = ["ALL_EVENT_TYPES", "ALL_COMMAND_TYPES", "AnyEvent", "AnyCommand", "decode_command"]


def _joined(shared: tuple, own: str) -> tuple:
    joined = list(shared)
    for ruleset in RULESETS.values():
        joined.extend(t for t in getattr(ruleset, own) if t not in joined)
    return tuple(joined)


ALL_EVENT_TYPES: tuple[type[Event], ...] = _joined(EVENT_TYPES, "events")
ALL_COMMAND_TYPES: tuple[type[Command], ...] = _joined(COMMAND_TYPES, "commands")
AnyEvent = Union[ALL_EVENT_TYPES]  # type: ignore[valid-type]
AnyCommand = Union[ALL_COMMAND_TYPES]  # type: ignore[valid-type]

_command_decoder = msgspec.json.Decoder(AnyCommand)


def decode_command(data: bytes | str | dict) -> Command:
    """Read one command from JSON (or an already parsed object), with a clear error."""
    try:
        if isinstance(data, dict):
            return msgspec.convert(data, AnyCommand)
        return _command_decoder.decode(data)
    except msgspec.ValidationError as exc:
        meant = _COMMAND_BY_TYPE.get(_type_tag(data))
        if meant is not None:
            # The type is known: the mistake is in its fields, so show those, not every type.
            raise RuleError("command/invalid", f"invalid {trigger_of(meant)}: {exc}", allowed=fields_hint(meant)) from None
        raise RuleError(
            "command/invalid",
            f"invalid command: {exc}",
            allowed="types: " + ", ".join(_COMMAND_BY_TYPE),
        ) from None
    except msgspec.DecodeError as exc:
        raise RuleError("command/malformed", f"command is not valid JSON: {exc}") from None


_COMMAND_BY_TYPE: dict[str, type[Command]] = {trigger_of(c): c for c in ALL_COMMAND_TYPES}


def _type_tag(data: bytes | str | dict) -> object:
    try:
        parsed = data if isinstance(data, dict) else msgspec.json.decode(data)
    except msgspec.DecodeError:
        return None
    return parsed.get("type") if isinstance(parsed, dict) else None
