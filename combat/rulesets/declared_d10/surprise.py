"""The start of combat: "Based on the situation, combat will begin either with a surprise
round or a normal round."

"An opposed roll is taken by one member on each side, if attackers roll higher, they gain
surprise, if they roll 5 over the other side, they gain full surprise."
- "Attacker rolls d20+lowest party members Stealth skill bonus."
- "Defender rolls d20+highest party members Perception bonus."
- "If both parties have stumbled into each other, each side rolls a d20 with no added bonuses."

Readings: only standing members count for the lowest Stealth and highest Perception; a tie
is a normal round (the attackers did not roll higher); when both sides stumbled into each
other either side can gain the upper hand, so whichever rolls higher surprises the other.
The surprise round is round 1 and otherwise runs like any round (declare, group initiative,
act); its effects end with it.
"""

from __future__ import annotations

from typing import ClassVar

from combat.kernel.commands import Command
from combat.kernel.decider import Rules, Tx
from combat.kernel.errors import RuleError
from combat.kernel.events import Event
from combat.kernel.hidden import Hidden
from combat.kernel.state import EncounterState, with_rules
from combat.rulesets.declared_d10.rounds import open_round
from combat.rulesets.declared_d10.state import RoundKind, traits_of

__all__ = ["D10RollSurprise", "D10StartNormalRound", "D10SurpriseRolled", "surprise_result", "RULES"]

FULL_SURPRISE_MARGIN = 5


class D10RollSurprise(Command, frozen=True, kw_only=True):
    attackers: str
    defenders: str
    stumbled: bool = False
    attacker_faces: tuple[int, ...] | None = None
    defender_faces: tuple[int, ...] | None = None


class D10StartNormalRound(Command, frozen=True, kw_only=True):
    """Neither side is surprised: the fight opens with a normal round."""


class D10SurpriseRolled(Event, frozen=True, kw_only=True):
    attackers: str
    defenders: str
    attacker_total: int
    defender_total: int
    stumbled: bool
    result: RoundKind
    surprising: str | None = None  # the side with the upper hand this round
    surprised: str | None = None
    hidden: ClassVar[Hidden] = Hidden.said("attacker_total", "defender_total")


def surprise_result(high: int, low: int) -> RoundKind:
    margin = high - low
    return "full surprise" if margin >= FULL_SURPRISE_MARGIN else "surprise" if margin > 0 else "normal"


def _roll_surprise(tx: Tx, cmd: D10RollSurprise) -> None:
    sides = sorted({c.side for c in tx.state.combatants.values()})
    for side in (cmd.attackers, cmd.defenders):
        if side not in sides:
            raise RuleError("surprise/unknown-side", f"no side called '{side}'", allowed=", ".join(sides))
    if cmd.attackers == cmd.defenders:
        raise RuleError("surprise/same-side", "attackers and defenders must be different sides", allowed=", ".join(sides))

    def standing(side: str) -> list:
        return [c for c in tx.state.combatants.values() if c.side == side and c.status == "active"]

    if cmd.stumbled:
        a_bonus = d_bonus = 0
    else:
        a_bonus = min((traits_of(tx.state, c.id).stealth for c in standing(cmd.attackers)), default=0)
        d_bonus = max((traits_of(tx.state, c.id).perception for c in standing(cmd.defenders)), default=0)
    a = tx.roll(f"1d20{a_bonus:+d}", purpose="surprise: lowest Stealth", roller=cmd.attackers, faces=cmd.attacker_faces)
    d = tx.roll(f"1d20{d_bonus:+d}", purpose="surprise: highest Perception", roller=cmd.defenders, faces=cmd.defender_faces)
    surprising, surprised = cmd.attackers, cmd.defenders
    if cmd.stumbled and d.total > a.total:
        surprising, surprised = cmd.defenders, cmd.attackers
    result = surprise_result(
        max(a.total, d.total) if cmd.stumbled else a.total, min(a.total, d.total) if cmd.stumbled else d.total
    )
    tx.emit(
        D10SurpriseRolled(
            attackers=cmd.attackers,
            defenders=cmd.defenders,
            attacker_total=a.total,
            defender_total=d.total,
            stumbled=cmd.stumbled,
            result=result,
            surprising=surprising if result != "normal" else None,
            surprised=surprised if result != "normal" else None,
        )
    )
    open_round(tx)


def _start_normal_round(tx: Tx, cmd: D10StartNormalRound) -> None:
    open_round(tx)


def _on_surprise(state: EncounterState, e: D10SurpriseRolled) -> EncounterState:
    return with_rules(state, round_kind=e.result, attackers=e.surprising, defenders=e.surprised)


def _line(n, e: D10SurpriseRolled) -> str:
    head = f"Surprise roll{' (both sides stumbled into each other)' if e.stumbled else ''}: "
    head += f"{n.name(e.attackers)} {e.attacker_total} vs {n.name(e.defenders)} {e.defender_total} - "
    if e.result == "normal":
        return head + "no surprise, a normal round"
    effect = "cannot act this round" if e.result == "full surprise" else "roll with Disadvantage this round"
    return head + f"{e.result}: {n.name(e.surprising)} roll with Advantage, {n.name(e.surprised)} {effect}"


RULES = Rules(
    handlers={D10RollSurprise: _roll_surprise, D10StartNormalRound: _start_normal_round},
    appliers={D10SurpriseRolled: _on_surprise},
    narration={D10SurpriseRolled: _line},
)
