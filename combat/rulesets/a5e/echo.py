"""Echo, a field bonus of the cavernous environment: "Sound travels twice as far, and any
effect which causes thunder damage does 1 extra point of damage per die rolled."

Damage the Narrator applies (a Thunderwave, a thunderous trap) in a scene whose environment
has Echo adds 1 for every die its notation rolls; the added points show in the roll's
notation (2d8 becomes 2d8+2), so the log says where they came from.
"""

from __future__ import annotations

import re

import msgspec

from combat.fivee import hitpoints as shared
from combat.kernel.commands import Damage
from combat.kernel.decider import Tx, Rules
from combat.kernel.names import normalised
from combat.kernel.state import EncounterState

__all__ = ["RULES", "echoes", "dice_rolled"]

_DICE = re.compile(r"(\d*)d(\d+|%)", re.IGNORECASE)


def echoes(state: EncounterState) -> bool:
    env = state.rules.environment
    return env is not None and any(normalised(f.name) == "echo" for f in env.bonuses)


def dice_rolled(notation: str) -> int:
    """How many dice a notation rolls: `2d6+1d4` rolls 3, `2d20kh1` rolls 2."""
    return sum(int(n or 1) for n, _ in _DICE.findall(notation))


def _damage(tx: Tx, cmd: Damage) -> None:
    if cmd.notation and not cmd.custom_type and normalised(cmd.damage_type) == "thunder" and echoes(tx.state):
        cmd = msgspec.structs.replace(cmd, notation=f"{cmd.notation}+{dice_rolled(cmd.notation)}")
    shared.RULES.handlers[Damage](tx, cmd)


RULES = Rules(
    handlers={Damage: _damage},
)
