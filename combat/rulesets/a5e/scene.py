"""Set the scene: "where everyone is located, the appropriate amount of time for each round, and
any important condition of the engagement" - the environment with its world actions.

Without a `set_scene` the fight has 6-second rounds and no environment.
"""

from __future__ import annotations

from typing import ClassVar, Literal

from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import PUBLIC, Hidden
from combat.kernel.state import EncounterState, with_rules
from combat.rulesets.a5e.environments import ENVIRONMENTS, Environment

__all__ = ["RULES", "ROUND_LENGTHS", "SetScene", "SceneSet"]

# "For combat, one round is usually 6 seconds. In other cases a round might take 10 seconds,
# 1 minute, or 10 minutes as deemed appropriate by the Narrator."
ROUND_LENGTHS = {6: "6 seconds", 10: "10 seconds", 60: "1 minute", 600: "10 minutes"}


class SetScene(Command, frozen=True, kw_only=True):
    """The Narrator sets the scene: round length in seconds, an example environment by id or
    a whole environment of their own, and where everyone is."""

    round_seconds: Literal[6, 10, 60, 600] = 6
    environment: str | None = None
    custom_environment: Environment | None = None
    description: str = ""
    positions: dict[str, str] = {}


class SceneSet(Event, frozen=True, kw_only=True):
    """The scene as set; the environment is recorded whole, so the log does not depend on
    the data this version of the engine ships."""

    round_seconds: int
    environment: Environment | None = None
    description: str = ""
    positions: dict[str, str] = {}
    hidden: ClassVar[Hidden] = PUBLIC


def _set_scene(tx: Tx, cmd: SetScene) -> None:
    if cmd.environment is not None and cmd.custom_environment is not None:
        raise RuleError(
            "scene/two-environments",
            "name an example environment or send your own, not both",
            allowed="environment or custom_environment",
        )
    environment = cmd.custom_environment
    if cmd.environment is not None:
        environment = ENVIRONMENTS.get(cmd.environment.lower())
        if environment is None:
            raise RuleError(
                "scene/unknown-environment",
                f"no example environment '{cmd.environment}'",
                allowed=", ".join(ENVIRONMENTS) + ", or a custom_environment",
            )
    for cid in cmd.positions:
        tx.combatant(cid)
    tx.emit(
        SceneSet(round_seconds=cmd.round_seconds, environment=environment, description=cmd.description, positions=cmd.positions)
    )


def _on_scene(state: EncounterState, e: SceneSet) -> EncounterState:
    return with_rules(state, round_seconds=e.round_seconds, environment=e.environment, scene=e.description, positions=e.positions)


def _narrate(n, e: SceneSet) -> str:
    where = f" in a {e.environment.name.lower()} environment" if e.environment else ""
    actions = ", ".join(a.name for a in e.environment.world_actions) if e.environment else ""
    text = f"The Narrator sets the scene{where}: rounds of {ROUND_LENGTHS.get(e.round_seconds, f'{e.round_seconds} s')}"
    if actions:
        text += f"; world actions: {actions}"
    return text + (f". {e.description}" if e.description else "")


RULES = Rules(
    handlers={SetScene: _set_scene},
    appliers={SceneSet: _on_scene},
    narration={SceneSet: _narrate},
)
