"""Helpers of the a5e scenarios: fights with initiative in the order given, and the attack an event list holds."""

from __future__ import annotations

from combat.fivee.attack_events import AttackMade
from combat.fivee.initiative import RollInitiative
from combat.kernel.commands import BeginCombat
from combat.kernel.events import DiceRolled
from combat.rulesets.a5e.movement import SetSpeeds
from combat.rulesets.a5e.scene import SetScene
from tests.fivee.helpers import fight as fivee_fight
from tests.helpers import Table, of_type


def fight(*specs, speeds: dict | None = None, **scene) -> Table:
    """Participants roll initiative in the order given (20, 19, 18...); no environment."""
    t = Table(ruleset="a5e").add(*specs)
    for cid, s in (speeds or {}).items():
        t.do(SetSpeeds(combatant=cid, speeds=s))
    if scene:
        t.do(SetScene(**scene))
    t.do(BeginCombat())
    for i, spec in enumerate(specs):
        t.do(RollInitiative(combatant=spec.id, faces=(20 - i,)))
    return t


def fight_with_settings(*specs, **settings) -> Table:
    """Participants roll initiative in the order given (20, 19, 18...); no environment."""
    return fivee_fight("a5e", *specs, settings=settings)


def attacked(events) -> tuple[AttackMade, DiceRolled]:
    roll = next(d for d in of_type(events, DiceRolled) if d.purpose == "attack")
    return of_type(events, AttackMade)[0], roll
