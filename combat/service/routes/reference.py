"""The command reference of a ruleset (combat/app/reference.py): its commands, one command's
fields, who may send it, in which phases, and an example."""

from __future__ import annotations

from litestar import get
from litestar.params import FromPath

from combat.app.reference import CommandDoc, command_doc, commands_of
from combat.kernel.decider import Ruleset
from combat.kernel.errors import RuleError
from combat.rulesets import RULESETS
from combat.service.errors import ApiError
from combat.service.routes.operation import operation

__all__ = ["ROUTES"]


def _ruleset(ruleset_id: str) -> Ruleset:
    if ruleset_id not in RULESETS:
        raise ApiError(404, "ruleset/unknown", f"no ruleset '{ruleset_id}'", allowed=", ".join(RULESETS))
    return RULESETS[ruleset_id]


@operation(get, "/rulesets/{ruleset_id:str}/commands", "listCommands", (404,), tags=["service"], sync_to_thread=False)
def list_commands(ruleset_id: FromPath[str]) -> list[CommandDoc]:
    """Every command of the ruleset: its fields, who may send it, in which phases, an example."""
    return commands_of(_ruleset(ruleset_id))


@operation(get, "/rulesets/{ruleset_id:str}/commands/{name:str}", "getCommand", (404,), tags=["service"], sync_to_thread=False)
def get_command(ruleset_id: FromPath[str], name: FromPath[str]) -> CommandDoc:
    """One command of the ruleset: its fields, who may send it, in which phases, an example."""
    ruleset = _ruleset(ruleset_id)
    try:
        return command_doc(ruleset, name)
    except RuleError as exc:  # an unknown command, like an unknown path, is a 404
        raise ApiError(404, exc.code, exc.message, allowed=exc.allowed) from None


ROUTES = [list_commands, get_command]
