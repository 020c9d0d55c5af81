"""Echo, a field bonus of the cavernous environment: "Sound travels twice as far, and any
effect which causes thunder damage does 1 extra point of damage per die rolled."

Thunder damage rolled in a scene whose environment has Echo adds 1 for every die its notation
rolls, wherever it comes from: damage the Narrator applies (a Thunderwave, a thunderous trap:
`damage` with dice notation), an attack whose damage type is thunder, and an attack's thunder
`extra_damage` (a stat block's "plus 2d8 Thunder damage" too). The added points show in the
roll's notation (2d8 becomes 2d8+2; a Critical Hit's 4d8 becomes 4d8+4), so the log says
where they came from. An attack rolled in two steps carries them in the dice it waits for, and
`roll_damage` rolls those as they are: the point per die is added once.
"""

from __future__ import annotations

import re

import msgspec

from combat.common import hitpoints as shared
from combat.common.commands import Damage
from combat.kernel.decider import Rules, Tx
from combat.kernel.names import normalised
from combat.kernel.state import EncounterState
from combat.rulesets.a5e.environments import Environment

__all__ = ["RULES", "echoes", "dice_rolled", "echoed"]

_DICE = re.compile(r"(\d*)d(\d+|%)", re.IGNORECASE)


def echoes(state: EncounterState) -> bool:
    return _has_echo(state.rules.environment)


def _has_echo(env: Environment | None) -> bool:
    return env is not None and any(normalised(f.name) == "echo" for f in env.bonuses)


def dice_rolled(notation: str) -> int:
    """How many dice a notation rolls: `2d6+1d4` rolls 3, `2d20kh1` rolls 2."""
    return sum(int(n or 1) for n, _ in _DICE.findall(notation))


def echoed(env: Environment | None, notation: str, damage_type: str) -> str:
    """Thunder damage dice as rolled where `env` may echo: a point more per die."""
    if not _has_echo(env) or normalised(damage_type) != "thunder" or not dice_rolled(notation):
        return notation
    return f"{notation}+{dice_rolled(notation)}"


def _damage(tx: Tx, cmd: Damage) -> None:
    if cmd.notation and not cmd.custom_type:
        cmd = msgspec.structs.replace(cmd, notation=echoed(tx.state.rules.environment, cmd.notation, cmd.damage_type))
    shared.RULES.handlers[Damage](tx, cmd)


RULES = Rules(
    handlers={Damage: _damage},
)
