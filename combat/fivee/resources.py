"""Limited-use features from a character's sheet: Rage, Action Surge, Second Wind, Channel
Divinity... A use is spent with `use_resource`; none left, or a feature the sheet does not
have, is refused. The features whose effect the rules know do it as well:

- Rage (SRD 5.2 Barbarian): "You can imbue yourself with a primal power called Rage ... as a
  Bonus Action": while it lasts, "You have Resistance to Bludgeoning, Piercing, and Slashing
  damage" and "When you make an attack using Strength ... you gain a bonus to the damage"
  (the sheet's `rage_damage`, added by combat/fivee/sheet_claims.py). It lasts until
  `end_rage`: "Your Rage lasts until the end of your next turn, and it ends early if you
  don't wear Heavy armor or have the Incapacitated condition"; it is extended by attacking
  or forcing a save, which the engine does not judge, so the GM or the player ends it.
- Action Surge (Fighter): "On your turn, you can take one additional action".
- Second Wind (Fighter): "As a Bonus Action, you can use it to regain Hit Points equal to
  1d10 plus your Fighter level."

Any other feature's use is recorded and the GM applies its effect.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar

from combat.characters.sheet import Resource
from combat.common.events import Healed
from combat.common.turns import require_turn
from combat.fivee.action_commands import BonusAction
from combat.fivee.actions import bonus_action
from combat.fivee.characters import CharacterState, character, with_character
from combat.fivee.gm_edit_commands import GrantAction
from combat.fivee.gm_edits import grant_action
from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import Hidden
from combat.kernel.state import Combatant, EncounterState, with_combatant

__all__ = ["UseResource", "EndRage", "ResourceUsed", "RageStarted", "RageEnded", "uses_left", "RULES"]

Faces = tuple[int, ...] | None


class UseResource(Command, frozen=True, kw_only=True):
    """Spend one use of a limited-use feature on the character's sheet (Rage, Action Surge,
    Second Wind, Channel Divinity...)."""

    combatant: str
    resource: str
    faces: Faces = None  # the feature's own roll, when it has one (Second Wind's 1d10)


class EndRage(Command, frozen=True, kw_only=True):
    """The Rage ends (its player lets it go, or it was not extended)."""

    combatant: str
    reason: str = "ended"


class ResourceUsed(Event, frozen=True, kw_only=True):
    combatant: str
    resource: str
    uses_left: int
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("uses_left",))


class RageStarted(Event, frozen=True, kw_only=True):
    combatant: str
    resistances: tuple[str, ...]  # those the Rage adds (the sheet may have some already)
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("resistances",))


class RageEnded(Event, frozen=True, kw_only=True):
    combatant: str
    resistances: tuple[str, ...]  # those the Rage had added, now gone
    reason: str = ""
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("resistances",))


def uses_left(held: CharacterState, resource: Resource) -> int:
    return resource.uses - held.resources_used.get(resource.name, 0)


def _resource(c: Combatant, held: CharacterState, name: str) -> Resource:
    for r in held.sheet.resources:
        if r.name.lower() == name.strip().lower():
            return r
    raise RuleError(
        "resource/unknown",
        f"{c.name}'s sheet has no feature called '{name}'",
        allowed=", ".join(r.name for r in held.sheet.resources) or "none: the sheet lists no limited-use features",
    )


def _use_resource(tx: Tx, cmd: UseResource) -> None:
    c = tx.combatant(cmd.combatant)
    held = character(tx.state, c.id)
    if held is None:
        raise RuleError(
            "resource/no-sheet",
            f"{c.name} did not join by a character sheet, so has no features to count",
            allowed="a character added with add_character",
        )
    resource = _resource(c, held, cmd.resource)
    left = uses_left(held, resource)
    if left <= 0:
        rest = "a Short or Long Rest" if resource.recovers == "short" or resource.short_rest_regains else "a Long Rest"
        raise RuleError("resource/spent", f"{c.name} has no use of {resource.name} left", allowed=f"{rest} restores it")
    effect = _EFFECTS.get(resource.name.lower())
    if effect is None and cmd.faces is not None:
        raise RuleError("dice/unused-faces", f"{resource.name} rolls no dice here", allowed="no faces")
    if effect is not None:
        effect(tx, c, held, cmd)
    tx.emit(ResourceUsed(combatant=c.id, resource=resource.name, uses_left=left - 1))


def _rage(tx: Tx, c: Combatant, held: CharacterState, cmd: UseResource) -> None:
    if held.raging:
        raise RuleError("rage/already", f"{c.name} is already raging", allowed="end_rage first")
    _bonus_action(tx, c, "Rage")
    added = tuple(
        t for t in held.sheet.features.rage_resistances or ("bludgeoning", "piercing", "slashing") if t not in c.resistances
    )
    tx.emit(RageStarted(combatant=c.id, resistances=added))


def _action_surge(tx: Tx, c: Combatant, held: CharacterState, cmd: UseResource) -> None:
    require_turn(tx, c.id)
    grant_action(tx, GrantAction(combatant=c.id, kind="action", reason="Action Surge"))


def _second_wind(tx: Tx, c: Combatant, held: CharacterState, cmd: UseResource) -> None:
    _bonus_action(tx, c, "Second Wind")
    level = held.sheet.classes.get("Fighter", held.sheet.level)
    roll = tx.roll(f"1d10+{level}", purpose="Second Wind", roller=c.id, faces=cmd.faces)
    tx.emit(Healed(target=c.id, amount=min(roll.total, c.max_hp - c.hp), source="Second Wind"))


def _bonus_action(tx: Tx, c: Combatant, what: str) -> None:
    bonus_action(tx, BonusAction(combatant=c.id, description=what))


_EFFECTS: dict[str, Callable[[Tx, Combatant, CharacterState, UseResource], None]] = {
    "rage": _rage,
    "action surge": _action_surge,
    "second wind": _second_wind,
}


def _end_rage(tx: Tx, cmd: EndRage) -> None:
    c = tx.combatant(cmd.combatant)
    held = character(tx.state, c.id)
    if held is None or not held.raging:
        raise RuleError("rage/not-raging", f"{c.name} is not raging", allowed="a raging barbarian")
    tx.emit(RageEnded(combatant=c.id, resistances=_added_by_rage(tx.state, c.id), reason=cmd.reason))


def _added_by_rage(state: EncounterState, cid: str) -> tuple[str, ...]:
    held = character(state, cid)
    sheet_own = set(held.sheet.resistances) if held is not None else set()
    rage = held.sheet.features.rage_resistances if held is not None else ()
    return tuple(t for t in rage or ("bludgeoning", "piercing", "slashing") if t not in sheet_own)


def _on_used(state: EncounterState, e: ResourceUsed) -> EncounterState:
    held = character(state, e.combatant)
    assert held is not None
    used = {**held.resources_used, e.resource: held.resources_used.get(e.resource, 0) + 1}
    return with_character(state, e.combatant, resources_used=used)


def _on_rage(state: EncounterState, e: RageStarted) -> EncounterState:
    c = state.combatants[e.combatant]
    state = with_combatant(state, c.id, resistances=c.resistances + e.resistances)
    return with_character(state, c.id, raging=True)


def _on_rage_ended(state: EncounterState, e: RageEnded) -> EncounterState:
    c = state.combatants[e.combatant]
    state = with_combatant(state, c.id, resistances=tuple(r for r in c.resistances if r not in e.resistances))
    return with_character(state, c.id, raging=False)


def _narrate_used(n: Any, e: ResourceUsed) -> str:
    left = "" if e.uses_left is None else f" ({e.uses_left} left)"  # None: not revealed to this reader
    return f"{n.name(e.combatant)} uses {e.resource}{left}"


RULES = Rules(
    handlers={UseResource: _use_resource, EndRage: _end_rage},
    appliers={ResourceUsed: _on_used, RageStarted: _on_rage, RageEnded: _on_rage_ended},
    narration={
        ResourceUsed: _narrate_used,
        RageStarted: lambda n, e: f"{n.name(e.combatant)} rages",
        RageEnded: lambda n, e: f"{n.name(e.combatant)}'s Rage ends" + (f" ({e.reason})" if e.reason else ""),
    },
)
