"""Ability checks the GM calls for outside any action, and contests between two combatants.

"An ability check is named for the ability modifier it uses: a Strength check, an
Intelligence check, and so on" and "if a rule refers to a Strength (Acrobatics or
Athletics) check, you can add your Proficiency Bonus" (SRD 5.2, Ability Checks): the check
is d20 + the bonus: the creature's own (combat/fivee/bonuses.py: its stat block's skill or
ability modifier), or the `bonus` the GM gives. With a DC it succeeds on meeting or beating
it; without one the total is recorded for the GM. The ability may be named in any usual
spelling (`dex`, `DEX`, `Dexterity`); the check records its full name.

Conditions: Poisoned, "You have Disadvantage on attack rolls and ability checks"; Frightened,
"You have Disadvantage on ability checks and attack rolls while the source of fear is within
line of sight" (the engine has no line of sight: a Frightened creature is taken to see its
source, and the GM says otherwise with `roll_mode`, which then stands as given).

A contest: "Both participants in a contest make ability checks appropriate to their efforts
... The participant with the higher check total wins the contest ... If the contest results
in a tie, the situation remains the same as it was before the contest" (SRD 5.1, Contests;
a5e's "a Dexterity check opposed by a spellcasting ability check" reads the same way).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, ClassVar, Literal

from combat.common.abilities import ABILITIES, ability_name
from combat.common.attacks import d20_notation, roll_mode
from combat.common.condition_effects import d20_penalty
from combat.common.effect_bonuses import effect_roll_dice
from combat.common.rider_reads import check_reasons
from combat.fivee.bonuses import check_bonus
from combat.fivee.check_events import CheckMade
from combat.kernel.commands import Command, Faces
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import Hidden
from combat.kernel.state import Combatant

__all__ = [
    "ABILITIES",
    "SRD_SKILLS",
    "A5E_SKILLS",
    "check_disadvantage",
    "rolled_check",
    "rules",
    "AbilityCheck",
    "Contest",
    "ContestDecided",
]


# -- the commands and events of checks ---------------------------------------------------------


RollMode = Literal["normal", "advantage", "disadvantage"]


class AbilityCheck(Command, frozen=True, kw_only=True):
    """An ability check outside any action (Perception, Athletics...); with a DC it succeeds or fails."""

    gm_fields: ClassVar[tuple[str, ...]] = ("bonus", "dc", "roll_mode")

    combatant: str
    ability: str  # strength... or dex, DEX, Dexterity
    skill: str | None = None
    bonus: int | None = None  # None: from the stat block (combat/fivee/bonuses.py); a number overrides it
    dc: int | None = None
    roll_mode: RollMode | None = None  # None: from the conditions (Poisoned, Frightened); given, it stands
    faces: Faces = None


class Contest(Command, frozen=True, kw_only=True):
    """Two combatants' opposed checks (the hag's Athletics against Mozzie's Acrobatics)."""

    actor_fields: ClassVar[tuple[str, ...]] = ("combatant", "opponent")
    gm_fields: ClassVar[tuple[str, ...]] = ("bonus", "roll_mode", "opponent_bonus", "opponent_roll_mode", "opponent_faces")

    combatant: str
    ability: str
    skill: str | None = None
    bonus: int | None = None  # None: from the stat block; a number overrides it
    roll_mode: RollMode | None = None  # None: from the conditions; given, it stands
    faces: Faces = None
    opponent: str
    opponent_ability: str
    opponent_skill: str | None = None
    opponent_bonus: int | None = None
    opponent_roll_mode: RollMode | None = None
    opponent_faces: Faces = None


class ContestDecided(Event, frozen=True, kw_only=True):
    """Two opposed checks (their `CheckMade` events come just before): the higher total
    wins; on a tie nobody does and things stay as they were."""

    combatant: str
    opponent: str
    total: int
    opponent_total: int
    winner: str | None
    hidden: ClassVar[Hidden] = Hidden.said("total", "opponent_total")


# SRD 5.2, Table: Skills.
SRD_SKILLS = (
    "acrobatics", "animal handling", "arcana", "athletics", "deception", "history", "insight", "intimidation",
    "investigation", "medicine", "nature", "perception", "performance", "persuasion", "religion",
    "sleight of hand", "stealth", "survival",
)  # fmt: skip
A5E_SKILLS = tuple(sorted(SRD_SKILLS + ("culture", "engineering")))


def _ability(name: str) -> str:
    found = ability_name(name)
    if found is None:
        raise RuleError("check/ability", f"'{name}' is not an ability", allowed=", ".join(ABILITIES))
    return found


def _skill(name: str | None, skills: tuple[str, ...]) -> str | None:
    if name is None:
        return None
    key = " ".join(name.strip().lower().replace("_", " ").split())
    if key not in skills:
        raise RuleError("check/skill", f"'{name}' is not a skill", allowed=", ".join(skills))
    return key


# "Disadvantage on attack rolls and ability checks" (Poisoned); "Disadvantage on ability checks
# and attack rolls while the source of fear is within line of sight" (Frightened).
_CHECK_DISADVANTAGE = ("poisoned", "frightened")


def check_disadvantage(c: Combatant) -> list[str]:
    """The conditions that give `c` Disadvantage on its ability checks."""
    return [f"{name} (Disadvantage on ability checks)" for name in _CHECK_DISADVANTAGE if c.has(name)]


def _check(
    tx: Tx,
    cid: str,
    ability: str,
    skill: str | None,
    bonus: int | None,
    mode: str | None,
    faces,
    dc: int | None,
    skills: tuple[str, ...],
) -> CheckMade:
    c = tx.combatant(cid)
    if c.status == "dead":
        raise RuleError("target/dead", f"{c.name} is dead and makes no checks", allowed="a living combatant")
    named = _ability(ability)
    chosen = _skill(skill, skills)
    if bonus is None:
        bonus = check_bonus(tx.state, c.id, named, chosen)
    if mode is None:  # the conditions decide; a mode the GM gives stands as given
        advantage, disadvantage = check_reasons(c, named)  # Enlarge/Reduce: Strength checks
        mode = roll_mode(advantage, check_disadvantage(c) + disadvantage)
    bonus -= d20_penalty(c)  # Exhaustion: "the roll is reduced by 2 times your Exhaustion level"
    # "a Strength (Athletics) check"
    label = f"{named} ({chosen})" if chosen else named
    roll = tx.roll(
        d20_notation(mode, bonus) + effect_roll_dice(c, "ability_checks"), purpose=f"{label} check", roller=c.id, faces=faces
    )
    event = CheckMade(combatant=c.id, skill=label, total=roll.total, dc=dc, success=None if dc is None else roll.total >= dc)
    tx.emit(event)
    return event


def rolled_check(tx: Tx, cid: str, ability: str, faces, dc: int) -> CheckMade:
    """An ability check a rule calls for (Dispel Magic's "ability check using your spellcasting
    ability"): the creature's own bonus, its conditions' Advantage and Disadvantage."""
    return _check(tx, cid, ability, None, None, None, faces, dc, ())


def _ability_check(skills: tuple[str, ...]) -> Callable[[Tx, AbilityCheck], None]:
    def ability_check(tx: Tx, cmd: AbilityCheck) -> None:
        _check(tx, cmd.combatant, cmd.ability, cmd.skill, cmd.bonus, cmd.roll_mode, cmd.faces, cmd.dc, skills)

    return ability_check


def _contest(skills: tuple[str, ...]) -> Callable[[Tx, Contest], None]:
    def contest(tx: Tx, cmd: Contest) -> None:
        if cmd.combatant == cmd.opponent:
            raise RuleError("contest/self", "a contest is between two combatants", allowed="an opponent other than the combatant")
        tx.combatant(cmd.opponent)  # an unknown opponent is refused before any die is rolled
        mine = _check(tx, cmd.combatant, cmd.ability, cmd.skill, cmd.bonus, cmd.roll_mode, cmd.faces, None, skills)
        theirs = _check(
            tx,
            cmd.opponent,
            cmd.opponent_ability,
            cmd.opponent_skill,
            cmd.opponent_bonus,
            cmd.opponent_roll_mode,
            cmd.opponent_faces,
            None,
            skills,
        )
        winner = None if mine.total == theirs.total else (cmd.combatant if mine.total > theirs.total else cmd.opponent)
        tx.emit(
            ContestDecided(
                combatant=cmd.combatant, opponent=cmd.opponent, total=mine.total, opponent_total=theirs.total, winner=winner
            )
        )

    return contest


def rules(skills: tuple[str, ...] = SRD_SKILLS) -> Rules:
    """The two commands, checking skill names against the ruleset's list."""
    return Rules(
        handlers={AbilityCheck: _ability_check(skills), Contest: _contest(skills)},
        appliers={ContestDecided: lambda state, e: state},
        narration={ContestDecided: _narrate_contest},
    )


def _narrate_contest(n: Any, e: ContestDecided) -> str:
    if e.winner is None:
        return f"{n.name(e.combatant)} and {n.name(e.opponent)} tie their contest at {e.total}: nothing changes"
    won, lost = (e.total, e.opponent_total) if e.winner == e.combatant else (e.opponent_total, e.total)
    loser = e.opponent if e.winner == e.combatant else e.combatant
    return f"{n.name(e.winner)} wins the contest against {n.name(loser)} ({won} against {lost})"
