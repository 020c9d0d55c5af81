"""Traits the core stat block lacks but the variant's rules read.

The Unarmed Strike, grapple and shove DCs use the Strength modifier and Proficiency Bonus;
jumps use the Strength modifier; special speeds (fly, climb, swim, burrow) change what a
move costs; grapples need a free hand; only a mount trained to accept a rider can be
controlled. The GM notes them once per combatant; noting again replaces them.
"""

from __future__ import annotations

from typing import ClassVar

from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import Hidden
from combat.kernel.state import EncounterState, with_rules
from combat.rulesets.srd2024_variant.state import VariantTraits

__all__ = ["RULES", "NoteTraits", "TraitsNoted", "SPECIAL_SPEEDS"]

SPECIAL_SPEEDS = ("fly", "climb", "swim", "burrow")


class NoteTraits(Command, frozen=True, kw_only=True):
    gm_only: ClassVar[bool] = True  # part of the stat block

    combatant: str
    strength: int | None = None  # Strength modifier, e.g. 3 for Strength 16
    proficiency: int | None = None  # Proficiency Bonus
    speeds: dict[str, int] = {}  # e.g. {"fly": 60, "climb": 30}
    hands: int = 2  # free hands or equivalent parts to grapple with
    trained_mount: bool = False


class TraitsNoted(Event, frozen=True, kw_only=True):
    combatant: str
    strength: int | None = None
    proficiency: int | None = None
    speeds: dict[str, int] = {}
    hands: int = 2
    trained_mount: bool = False
    hidden: ClassVar[Hidden] = Hidden.of(combatant=("strength", "proficiency"))


def _note(tx: Tx, cmd: NoteTraits) -> None:
    c = tx.combatant(cmd.combatant)
    unknown = sorted(set(cmd.speeds) - set(SPECIAL_SPEEDS))
    if unknown:
        raise RuleError("traits/speed", f"'{unknown[0]}' is not a special speed", allowed=", ".join(SPECIAL_SPEEDS))
    if any(v < 0 for v in cmd.speeds.values()) or cmd.hands < 0:
        raise RuleError("traits/negative", "speeds and hands cannot be negative", allowed="0 or more")
    if cmd.proficiency is not None and not 2 <= cmd.proficiency <= 9:
        raise RuleError("traits/proficiency", f"a Proficiency Bonus of {cmd.proficiency}", allowed="+2 to +9")
    if cmd.strength is not None and not -5 <= cmd.strength <= 10:
        raise RuleError("traits/strength", f"a Strength modifier of {cmd.strength}", allowed="-5 to +10")
    tx.emit(
        TraitsNoted(
            combatant=c.id,
            strength=cmd.strength,
            proficiency=cmd.proficiency,
            speeds=dict(sorted(cmd.speeds.items())),
            hands=cmd.hands,
            trained_mount=cmd.trained_mount,
        )
    )


def _on_noted(state: EncounterState, e: TraitsNoted) -> EncounterState:
    noted = VariantTraits(
        strength=e.strength, proficiency=e.proficiency, speeds=e.speeds, hands=e.hands, trained_mount=e.trained_mount
    )
    return with_rules(state, traits={**state.rules.traits, e.combatant: noted})


def _narrate(n, e: TraitsNoted) -> str:
    parts = []
    if e.strength is not None:
        parts.append(f"Strength {e.strength:+d}")
    if e.proficiency is not None:
        parts.append(f"Proficiency {e.proficiency:+d}")
    parts += [f"{mode} {feet} ft" for mode, feet in e.speeds.items()]
    if e.hands != 2:
        parts.append(f"{e.hands} free hands")
    if e.trained_mount:
        parts.append("trained to carry a rider")
    return f"{n.name(e.combatant)}'s traits: {', '.join(parts) or 'none'}"


RULES = Rules(
    handlers={NoteTraits: _note},
    appliers={TraitsNoted: _on_noted},
    narration={TraitsNoted: _narrate},
)
